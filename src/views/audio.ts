/** Audio Connector: the stop notice and what the Stop button carries (the card is src/kinds/audio.ts). */
import { z } from 'zod';
import { code, userMention } from '../slack/mrkdwn';
import { type SlackMessage, context, section, stripMrkdwn } from './blocks';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema } from './values';

/** What the Stop button carries: the session, the connector's connection and its id. */
export const AudioTargetSchema = SessionTargetSchema.extend({ c: z.string().min(1), i: z.string().min(1) });
export type AudioTarget = z.output<typeof AudioTargetSchema>;

export function audioStoppedNotice(actor: string, s: SessionRef, connectionId: string): SlackMessage {
  const sentence = `${userMention(actor)} stopped sending the audio of ${sessionText(s)} (connection ${code(connectionId)}).`;
  return { text: stripMrkdwn(sentence), blocks: [section(`:headphones: ${sentence}`), context(footer(s))] };
}

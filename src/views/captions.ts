/** Live captions: the stop notice and what the Stop button carries (the card is src/kinds/captions.ts). */
import { z } from 'zod';
import { code, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, context, section, stripMrkdwn } from './blocks';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema } from './values';

/** What the Stop button of a captions card carries. */
export const CaptionsTargetSchema = SessionTargetSchema.extend({ i: z.string().min(1) });
export type CaptionsTarget = z.output<typeof CaptionsTargetSchema>;

/** Posted in the channel when captions were stopped from Slack. */
export function captionsStoppedNotice(actor: string, captionsId: string, s: SessionRef | undefined): SlackMessage {
  const where = s ? ` in ${sessionText(s)}` : '';
  const sentence = `${userMention(actor)} stopped live captions${where} (${code(captionsId)}).`;
  const blocks: KnownBlock[] = [section(`:closed_caption: ${sentence}`)];
  if (s) blocks.push(context(footer(s)));
  return { text: stripMrkdwn(sentence), blocks };
}

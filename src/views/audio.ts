/**
 * Audio Connector: the card of a session's audio sent to a WebSocket (with its Stop button) and
 * the stop notice. Header values may carry credentials for the receiving end, so only their
 * names are shown.
 */
import { z } from 'zod';
import { code, userMention } from '../slack/mrkdwn';
import { type Button, type SlackMessage, actions, button, context, fields, section, stripMrkdwn } from './blocks';
import { ACTION } from './ids';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema, encodeValue, sessionTarget } from './values';

/** What the Stop button carries: the session, the connector's connection and its id. */
export const AudioTargetSchema = SessionTargetSchema.extend({ c: z.string().min(1), i: z.string().min(1) });
export type AudioTarget = z.output<typeof AudioTargetSchema>;

export interface AudioFacts {
  id: string;
  connectionId: string;
  uri: string;
  /** Undefined: every stream of the session. */
  streams?: readonly string[];
  audioRate: 8000 | 16000;
  headerNames: readonly string[];
}



function streamsText(streams: readonly string[] | undefined): string {
  if (!streams || streams.length === 0) return 'all streams';
  const shown = streams.slice(0, 10).map(code).join(', ');
  return streams.length > 10 ? `${shown} and ${streams.length - 10} more` : shown;
}

/** "Stop" for a connector: disconnects its connection (Slack's confirm dialog first). */
export function audioStopButton(s: SessionRef, facts: Pick<AudioFacts, 'id' | 'connectionId'> & { uri?: string }): Button {
  return button({
    actionId: ACTION.stopAudio,
    text: 'Stop',
    style: 'danger',
    value: encodeValue({ ...sessionTarget(s), c: facts.connectionId, i: facts.id }),
    confirm: {
      title: 'Stop sending audio?',
      text: `The connection sending the audio of ${sessionText(s)}${facts.uri ? ` to ${code(facts.uri)}` : ''} is disconnected.`,
      confirm: 'Stop',
      danger: true,
    },
  });
}

/** Posted in the channel when the connector starts; the watch replies in its thread. */
export function audioCard(actor: string, s: SessionRef, facts: AudioFacts): SlackMessage {
  const sentence = `${userMention(actor)} is sending the audio of ${sessionText(s)} to ${code(facts.uri)}.`;
  const items = [
    `*Streams*\n${streamsText(facts.streams)}`,
    `*Sample rate*\n${facts.audioRate / 1000} kHz`,
    `*Connection*\n${code(facts.connectionId)}`,
    `*Connector ID*\n${code(facts.id)}`,
  ];
  if (facts.headerNames.length > 0) items.push(`*Headers*\n${facts.headerNames.slice(0, 10).map(code).join(', ')}`);
  return {
    text: stripMrkdwn(sentence),
    blocks: [
      section(`:headphones: ${sentence}`),
      fields(items),
      actions([audioStopButton(s, facts)]),
      context(footer(s)),
    ],
  };
}

export function audioStoppedNotice(actor: string, s: SessionRef, connectionId: string): SlackMessage {
  const sentence = `${userMention(actor)} stopped sending the audio of ${sessionText(s)} (connection ${code(connectionId)}).`;
  return { text: stripMrkdwn(sentence), blocks: [section(`:headphones: ${sentence}`), context(footer(s))] };
}

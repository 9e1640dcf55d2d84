/**
 * The audio-connection kind (Audio Connector): its card model (the WebSocket address, the streams
 * it forwards, the sample rate, header names, its connection, who started it), the one renderer
 * of its card, and Stop while it runs. Header values may carry credentials for the receiving
 * end: only their names are kept.
 */
import { z } from 'zod';
import type { AudioSnapshot } from '../poller/snapshot';
import { code, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { type SessionRef, footer, sessionText } from '../views/notices';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

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
    ...dialogFor('audio-stop', 'clicked', {
      title: 'Stop sending audio?',
      text: `The connection sending the audio of ${sessionText(s)}${facts.uri ? ` to ${code(facts.uri)}` : ''} is disconnected.`,
      confirm: 'Stop',
      danger: true,
    }),
  });
}

export const AudioContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  uri: z.string().optional(),
  streams: z.array(z.string()).optional(),
  audioRate: z.number().optional(),
  headerNames: z.array(z.string()).optional(),
  connectionId: z.string().optional(),
});
export type AudioContext = z.output<typeof AudioContextSchema>;

export function audioContext(facts: Omit<AudioFacts, 'id'>, who: { startedBy?: string; alias?: string }): AudioContext {
  return AudioContextSchema.parse({ ...who, ...facts, streams: facts.streams ? [...facts.streams] : undefined, headerNames: [...facts.headerNames] });
}

const STATUS: Readonly<Record<AudioSnapshot['status'], string>> = {
  waiting: ':hourglass_flowing_sand: waiting for a stream',
  active: ':large_green_circle: sending',
  ended: ':black_circle: ended',
};

export const audioKind: ResourceKind<AudioSnapshot, AudioContext> = {
  kind: 'audio',
  nouns: { one: 'Audio connection', many: 'Audio connections' },
  context: AudioContextSchema,
  render: ({ resourceId, sessionId, projectName, state, context: c, actions: done }) => {
    const s: SessionRef = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const known = state && state.status !== 'gone' ? (state as AudioSnapshot) : undefined;
    const status = state?.status === 'waiting' || state?.status === 'active' || state?.status === 'ended' ? state.status : 'ended';
    const connectionId = c.connectionId ?? known?.connectionId;
    const to = c.uri ? ` to ${code(c.uri)}` : '';
    const sentence = c.startedBy
      ? `${userMention(c.startedBy)} is sending the audio of ${sessionText(s)}${to}.`
      : `The audio of ${sessionText(s)} is sent${to}.`;
    const stopped = [...done].reverse().find((a) => a.action === 'stop');
    const items = [
      `*Status*\n${STATUS[status]}${status === 'ended' && stopped ? ` — stopped by ${userMention(stopped.by)}` : ''}`,
      `*Streams*\n${streamsText(c.streams ?? known?.streamIds)}`,
      ...(c.audioRate !== undefined ? [`*Sample rate*\n${c.audioRate / 1000} kHz`] : []),
      ...(connectionId ? [`*Connection*\n${code(connectionId)}`] : []),
      `*Connector ID*\n${code(resourceId)}`,
      ...(c.headerNames && c.headerNames.length > 0 ? [`*Headers*\n${c.headerNames.slice(0, 10).map(code).join(', ')}`] : []),
    ];
    const blocks: KnownBlock[] = [section(`:headphones: ${sentence}`), fields(items)];
    const line = actionsContext(audioKind, done);
    if (line) blocks.push(context(line));
    if (status !== 'ended' && connectionId) blocks.push(actions([audioStopButton(s, { id: resourceId, connectionId, ...(c.uri ? { uri: c.uri } : {}) })]));
    blocks.push(context(footer(s)));
    return { text: fallbackText(`${sentence.replace(/\.$/, '')}: ${STATUS[status].replace(/^:[a-z_]+: /, '')}`), blocks };
  },
  actionWords: (record) => (record.action === 'stop' ? 'Stopped' : escapeMrkdwn(record.action)),
};

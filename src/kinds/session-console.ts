/**
 * The session console (`/streams [session]`, watch kind `session-console` once posted with
 * `--post` or its "Post in channel" button): one row per participant as people see them (the
 * stream's name, else "unnamed" and a short ID), its video type and what vidops knows of its
 * mute — who muted it, when and through what, never "muted" as a fact: stream info has no mute
 * field and participants can unmute themselves. Each row has Mute and Kick; the session has
 * Mute everyone and Edit layout classes. Posted, the poller keeps it current until the session
 * is empty or the watch reaches its age (an hour), then it says so and drops its buttons.
 */
import { z } from 'zod';
import { type ConsoleSnapshot, type ConsoleStream, GONE, type MuteState, type StreamMute } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type KnownBlock, LIMITS, type SlackMessage, actions, button, context, fallbackText, header, section } from '../views/blocks';
import { dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

export interface ConsoleSession {
  projectName: string;
  sessionId: string;
  alias?: string;
}

/** Participants shown as rows with their buttons (2 blocks each; a message holds 50 blocks). */
export const MAX_CONSOLE_ROWS = 20;

const VIDEO_TYPES: Readonly<Record<string, string>> = {
  camera: ':movie_camera: camera',
  screen: ':desktop_computer: screen',
  custom: ':frame_with_picture: custom video',
};

/** How people are named everywhere: the stream's name, else "unnamed" and the first 8 characters of its ID. */
export function participantLabel(stream: Pick<ConsoleStream, 'id' | 'name'>): string {
  return stream.name ? stream.name : `unnamed ${stream.id.slice(0, 8)}`;
}

/** The label as mrkdwn: escaped and cut, so a long or hostile name cannot break the card. */
export function participantText(stream: Pick<ConsoleStream, 'id' | 'name'>, max = 80): string {
  return stream.name ? escapeAndTruncate(stream.name, max) : `_unnamed_ ${code(stream.id.slice(0, 8))}`;
}

/** The label in bold when it is a name (an unnamed stream's words stay as they are). */
function strongName(stream: Pick<ConsoleStream, 'id' | 'name'>): string {
  return stream.name ? `*${participantText(stream)}*` : participantText(stream);
}

export function videoTypeText(videoType: string | undefined): string {
  return videoType ? (VIDEO_TYPES[videoType] ?? escapeAndTruncate(videoType, 30)) : 'unknown type';
}

/** The session as cards name it: its alias, else its ID. */
export function consoleTitle(s: ConsoleSession): string {
  return s.alias ?? s.sessionId;
}

/** How sentences name the session: its alias, else "this session" (the ID is in the context line). */
function sessionWords(s: ConsoleSession): string {
  return s.alias ? code(s.alias) : 'this session';
}

/** 12:43, in each reader's time zone. */
function at(ms: number): string {
  return `<!date^${Math.floor(ms / 1000)}^{time}|${new Date(ms).toISOString().slice(11, 16)} UTC>`;
}

const muteWords = (m: { by: string; at: number; via: string }): string => `muted by ${userMention(m.by)} at ${at(m.at)} via ${escapeMrkdwn(m.via)}`;

/**
 * What vidops did last to this stream's audio: its own mute, or the session's mute-everyone when
 * that came later and did not spare it. Undefined when vidops never muted it.
 */
export function lastMuteOf(streamId: string, mutes: MuteState): { by: string; at: number; via: string } | undefined {
  const own: StreamMute | undefined = mutes.streams.find((m) => m.streamId === streamId);
  const all = mutes.session?.active && !mutes.session.excluded.includes(streamId) ? mutes.session : undefined;
  if (own && (!all || own.at >= all.at)) return own;
  return all;
}

function rowText(stream: ConsoleStream, mutes: MuteState): string {
  const mute = lastMuteOf(stream.id, mutes);
  const spared = mutes.session?.active && mutes.session.excluded.includes(stream.id) && !mute;
  const state = mute ? `:mute: ${muteWords(mute)}` : spared ? ':speaker: spared when everyone was muted' : ':speaker: no mute from vidops';
  return `${strongName(stream)} · ${videoTypeText(stream.videoType)}\n${state}`;
}

function sessionMuteLine(s: ConsoleSession, streams: readonly ConsoleStream[], mutes: MuteState): string | undefined {
  const m = mutes.session;
  if (!m) return undefined;
  if (!m.active) return `:speaker: Mute everyone turned off by ${userMention(m.by)} at ${at(m.at)} via ${escapeMrkdwn(m.via)}.`;
  const spared = m.excluded.map((id) => {
    const stream = streams.find((x) => x.id === id);
    return stream ? participantText(stream, 40) : code(id.slice(0, 8));
  });
  const except = spared.length > 0 ? ` (except ${spared.slice(0, 10).join(', ')}${spared.length > 10 ? ` and ${spared.length - 10} more` : ''})` : '';
  return `:mute: Everyone in ${sessionWords(s)} ${muteWords(m)}${except}; the service mutes who joins later too, until Undo on its notice or \`/unmute-all\` lifts it.`;
}

function rowButtons(s: ConsoleSession, stream: ConsoleStream): KnownBlock {
  const target = { ...sessionTarget(s), t: stream.id, ...(stream.name ? { n: stream.name.slice(0, 200) } : {}) };
  const who = participantLabel(stream);
  const plainWho = who.length > 60 ? `${who.slice(0, 59)}…` : who;
  return actions([
    button({ actionId: ACTION.muteStream, text: 'Mute', value: encodeValue(target), accessibilityLabel: `Mute ${plainWho}` }),
    button({
      actionId: ACTION.consoleKick,
      text: 'Kick',
      value: encodeValue(target),
      accessibilityLabel: `Disconnect ${plainWho}`,
      ...dialogFor('kick', 'clicked', {
        title: `Disconnect ${plainWho}?`,
        text: `${strongName(stream)} (${videoTypeText(stream.videoType)}) will be dropped from ${sessionWords(s)}. They can rejoin if their app reconnects.`,
        confirm: 'Disconnect',
        danger: true,
      }),
    }),
  ]);
}

export interface ConsoleInput {
  session: ConsoleSession;
  streams: readonly ConsoleStream[];
  mutes: MuteState;
  now: number;
  /** Set when the console is a card in a channel; absent for the private answer. */
  posted?: {
    by?: string;
    /** Why it stopped updating, when it did. */
    ended?: 'empty' | 'expired';
    /** The card's record of later actions (mutes, kicks), as one context line. */
    actionsLine?: string;
  };
}

/** The console, private or posted: pure. */
export function renderConsole(input: ConsoleInput): SlackMessage {
  const { session: s, streams, mutes, posted } = input;
  const live = !posted?.ended;
  const count = streams.length === 1 ? '1 participant' : `${streams.length} participants`;
  const blocks: KnownBlock[] = [header(s.alias ? `${s.alias}` : 'Session console')];
  blocks.push(context(`${live ? count : 'Stopped updating'} · Project *${escapeAndTruncate(s.projectName, 100)}* · session ID ${code(s.sessionId)}`));
  if (posted?.ended === 'empty') {
    blocks.push(section(`:black_circle: Nobody publishes in ${sessionWords(s)} any more; this console stopped updating at ${at(input.now)}.`));
  } else if (posted?.ended === 'expired') {
    blocks.push(
      section(
        `:black_circle: This console stopped updating at ${at(input.now)}: a posted console is kept current for an hour. \`/streams --post\` posts a fresh one.`,
      ),
    );
  }
  const muteLine = live ? sessionMuteLine(s, streams, mutes) : undefined;
  if (muteLine) blocks.push(section(muteLine));
  if (live && streams.length === 0) blocks.push(section(`Nobody is publishing in ${sessionWords(s)} right now.`));
  if (live) {
    for (const stream of streams.slice(0, MAX_CONSOLE_ROWS)) {
      blocks.push(section(rowText(stream, mutes)));
      blocks.push(rowButtons(s, stream));
    }
    const rest = streams.slice(MAX_CONSOLE_ROWS);
    if (rest.length > 0) {
      const names = rest.map((stream) => `${participantText(stream, 40)} (${stream.videoType ?? 'stream'})`).join(', ');
      blocks.push(section(`*${rest.length} more:* ${names}`));
      blocks.push(context('Mute or disconnect them by name: `/mute <name>`, `/kick <name>`.'));
    }
    const buttons = [
      button({ actionId: ACTION.consoleMuteAll, text: 'Mute everyone', value: encodeValue({ ...sessionTarget(s), x: [] }) }),
      ...(posted ? [] : [button({ actionId: ACTION.consolePost, text: 'Post in channel', value: encodeValue(sessionTarget(s)) })]),
      ...(streams[0]
        ? [button({ actionId: ACTION.editLayoutClasses, text: 'Edit layout classes', value: encodeValue({ ...sessionTarget(s), t: streams[0].id }) })]
        : []),
    ];
    if (streams.length > 0) blocks.push(actions(buttons));
  }
  if (posted?.actionsLine) blocks.push(context(posted.actionsLine));
  const honesty = 'Muted means vidops muted them then: participants can unmute themselves.';
  blocks.push(
    context(
      posted
        ? `${posted.by ? `Posted by ${userMention(posted.by)} · ` : ''}${live ? 'kept current for an hour · ' : ''}${honesty}`
        : `Only you can see this · \`/streams --post\` shows it to the channel · ${honesty}`,
    ),
  );
  const where = s.alias ? escapeMrkdwn(s.alias) : 'the session';
  const sentence = live ? `${count} in ${where}` : `Console of ${where} stopped updating`;
  return { text: fallbackText(sentence), blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

export const SessionConsoleContextSchema = z.object({
  postedBy: z.string().optional(),
  channelId: z.string().optional(),
  /** The alias the session was named by (also when it came from the channel's default). */
  alias: z.string().optional(),
});
export type SessionConsoleContext = z.output<typeof SessionConsoleContextSchema>;

/** The thread reply when a posted console reaches its age. */
export const CONSOLE_EXPIRED_REPLY = 'This console stopped updating: a posted console is kept current for an hour. `/streams --post` posts a fresh one';

const ACTION_WORDS: Readonly<Record<string, string>> = {
  mute: 'Muted',
  'mute-all': 'Muted everyone',
  'unmute-all': 'Turned off mute everyone',
  kick: 'Disconnected',
};

export const sessionConsoleKind: ResourceKind<ConsoleSnapshot, SessionConsoleContext> = {
  kind: 'session-console',
  nouns: { one: 'Session console', many: 'Session consoles' },
  context: SessionConsoleContextSchema,
  render: ({ sessionId, projectName, state, context: c, actions: done, latest = [], now }) => {
    const session = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const gone = state !== undefined && (state.status === GONE || state.status === 'ended');
    const expired = latest.some((change) => change.type === 'watch-expired');
    const live = state && state.status !== GONE ? (state as ConsoleSnapshot) : undefined;
    const actionsLine = actionsContext(sessionConsoleKind, done.slice(-5));
    return renderConsole({
      session,
      streams: live?.streams ?? [],
      mutes: live?.mutes ?? { streams: [] },
      now,
      posted: {
        ...(c.postedBy !== undefined && { by: c.postedBy }),
        ...(gone ? { ended: 'empty' as const } : expired ? { ended: 'expired' as const } : {}),
        ...(actionsLine !== undefined && { actionsLine }),
      },
    });
  },
  actionWords: (record) => {
    const words = ACTION_WORDS[record.action] ?? escapeMrkdwn(record.action);
    return record.detail ? `${words} ${escapeAndTruncate(record.detail, 80)}` : words;
  },
};

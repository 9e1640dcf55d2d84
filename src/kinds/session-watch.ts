/**
 * The session watch (`/video watch [session|all] [kinds]`, watch kind `session-discovery`): its
 * words (what it watches for, why it stopped), its card model (who set it up, where, the alias or
 * "all", the kinds it announces, since when), the one renderer of its card and Stop watching
 * while it runs. What it finds is announced in the card's thread and followed there by watches
 * of their own (src/poller).
 */
import { z } from 'zod';
import { ALL_SESSIONS, DISCOVERABLE_KINDS, type DiscoverableKind, type DiscoverySnapshot, GONE, discoveryKinds } from '../poller/snapshot';
import { type Watch } from '../poller/watch';
import { channelMention, code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { formatDuration, slackTime } from '../views/format';
import { dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { footer } from '../views/notices';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

const DISCOVERY_NOUNS: Readonly<Record<DiscoverableKind, string>> = { archive: 'recordings', broadcast: 'broadcasts', render: 'composers' };

/** "recordings, broadcasts and composers". */
export function discoveryNouns(kinds: readonly DiscoverableKind[]): string {
  const nouns = kinds.map((k) => DISCOVERY_NOUNS[k]);
  return nouns.length <= 1 ? (nouns[0] ?? '') : `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}`;
}

/** Where a watch looks: "session `standup`" (its alias when it has one), or "every session of *prod*". */
export function watchScope(watch: Pick<Watch, 'sessionId' | 'projectName'> & { alias?: string }): string {
  if (watch.sessionId === ALL_SESSIONS) return `every session of *${escapeAndTruncate(watch.projectName, 60)}*`;
  return `session ${code(watch.alias ?? watch.sessionId)}`;
}

/** The thread reply when the watch reaches its maximum age (whatever its scope and kinds). */
export const EXPIRED_REPLY = 'Stopped watching: this watch reached its maximum age. `/video watch` starts it again';

/** Transitions the card tells about besides the thread: what was found, and the end by age. */
const FOUND = new Set(['discovered-archive', 'discovered-broadcast', 'discovered-render']);
/** Findings listed on the card; the thread has them all. */
const FOUND_SHOWN = 3;

/** "Stop watching" on a running watch's card: acts at once (reversible: `/video watch` starts it again). */
export function stopWatchingButton(s: { projectName: string; sessionId: string; alias?: string }): Button {
  return button({
    actionId: ACTION.stopWatching,
    text: 'Stop watching',
    style: 'danger',
    value: encodeValue(sessionTarget(s)),
    ...dialogFor('unwatch', 'clicked', {
      title: 'Stop watching?',
      text: `This channel stops hearing of what starts in ${watchScope(s)}, and of what it announced so far.`,
      confirm: 'Stop watching',
      danger: true,
    }),
  });
}

export const SessionWatchContextSchema = z.object({
  startedBy: z.string().optional(),
  channelId: z.string().optional(),
  /** The alias the session was named by; unset for a raw ID or for `all` (sessionId ALL_SESSIONS). */
  alias: z.string().optional(),
  kinds: z.array(z.enum(DISCOVERABLE_KINDS)).optional(),
  since: z.number().optional(),
});
export type SessionWatchContext = z.output<typeof SessionWatchContextSchema>;

export const sessionWatchKind: ResourceKind<DiscoverySnapshot, SessionWatchContext> = {
  kind: 'session-discovery',
  nouns: { one: 'Watched session', many: 'Watched sessions' },
  context: SessionWatchContextSchema,
  render: ({ sessionId, projectName, state, context: c, actions: done, latest = [], now }) => {
    const s = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const kinds = c.kinds ?? discoveryKinds(state && state.status !== GONE ? state : undefined);
    const unwatch = [...done].reverse().find((a) => a.action === 'unwatch');
    const expired = latest.some((change) => change.type === 'watch-expired');
    const active = !unwatch && !expired && state?.status !== GONE;
    const who = c.startedBy ? `${userMention(c.startedBy)} is watching` : 'Watching';
    const head = active ? `${who} ${watchScope(s)}` : `Stopped watching ${watchScope(s)}`;
    const sentence = `${head} for new ${discoveryNouns(kinds)} started outside this channel.`;
    const why = unwatch
      ? `unwatched by ${userMention(unwatch.by)} ${slackTime(unwatch.at)}`
      : expired
        ? `expired after ${c.since !== undefined ? formatDuration((now - c.since) / 1000) : 'its maximum age'}, ${slackTime(now)}`
        : state?.status === GONE
          ? 'the session no longer exists'
          : undefined;
    const found = latest.filter((change) => FOUND.has(change.type)).slice(-FOUND_SHOWN);
    const items = [
      `*Status*\n${why ? `:black_circle: stopped — ${why}` : ':eyes: watching'}`,
      `*Watching for*\n${discoveryNouns(kinds)}`,
      ...(c.startedBy !== undefined
        ? [`*Set up by*\n${userMention(c.startedBy)}${c.channelId !== undefined ? ` in ${channelMention(c.channelId)}` : ''}`]
        : []),
      ...(c.since !== undefined ? [`*Since*\n${slackTime(c.since)}`] : []),
    ];
    const blocks: KnownBlock[] = [section(`${active ? ':eyes:' : ':no_bell:'} ${sentence}`), fields(items)];
    if (found.length > 0) blocks.push(section(`*Found lately*\n${found.map((change) => change.text).join('\n')}`));
    const line = actionsContext(sessionWatchKind, done);
    if (line) blocks.push(context(line));
    if (active) blocks.push(actions([stopWatchingButton(s)]));
    blocks.push(context(`${footer(s)} · news in this thread${active ? ' · `/video unwatch` stops it too' : ''}`));
    return { text: fallbackText(sentence), blocks };
  },
  actionWords: (record) => (record.action === 'unwatch' ? 'Stopped watching' : escapeMrkdwn(record.action)),
};

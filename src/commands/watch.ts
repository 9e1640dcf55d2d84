/**
 * `/video watch|unwatch|watches` — subscriptions to what starts outside this channel. A watch
 * is a session-discovery watch (see src/poller): each poll lists the session's (or, for `all`,
 * the project's) archives, started broadcasts and active composers, announces the new ones in
 * the thread of the watch's card, and follows each of them there until it ends.
 */
import { z } from 'zod';
import { ALL_SESSIONS, type DiscoverableKind, discoverySnapshot } from '../poller/snapshot';
import { type Watch, createWatch, watchIdFor } from '../poller/watch';
import { escapeMrkdwn } from '../slack/mrkdwn';
import { announce, replyEphemeral, slackErrorCode } from '../slack/respond';
import { warning } from '../views/blocks';
import { type WatchScope, alreadyWatchingMessage, notWatchingMessage, unwatchNotice, watchesMessage } from '../views/dashboard-watch';
import { renderCard, startModel } from '../kinds';
import type { SessionWatchContext } from '../kinds/session-watch';
import { recordAudit } from '../interaction/audit';
import { applyToCards } from '../interaction/cards';
import type { Interaction } from '../interaction/interaction';
import { type CommandInvocation, defineSubcommand } from './command';
import { echo, projectFlag, projectName } from './grammar';
import { resolveProject, resolveSession } from '../interaction/session-ref';

const KIND_WORDS: Record<string, DiscoverableKind> = {
  archive: 'archive',
  archives: 'archive',
  recording: 'archive',
  recordings: 'archive',
  broadcast: 'broadcast',
  broadcasts: 'broadcast',
  render: 'render',
  renders: 'render',
  composer: 'render',
  composers: 'render',
};

export const DEFAULT_WATCH_KINDS: readonly DiscoverableKind[] = ['archive', 'broadcast', 'render'];

/** `archives,renders` → the kinds in canonical order; undefined when a word is not a kind. */
export function parseKinds(text: string): DiscoverableKind[] | undefined {
  const words = text
    .toLowerCase()
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0 || words.some((w) => !(w in KIND_WORDS))) return undefined;
  const kinds = new Set(words.map((w) => KIND_WORDS[w]!));
  return DEFAULT_WATCH_KINDS.filter((k) => kinds.has(k));
}

const scopeArg = z.string().max(256).optional();

/** The scope and kinds as typed: `watch archives` names kinds, not a session called "archives". */
function readArgs(args: { scope?: string; kinds?: string }): { scope?: string; kinds: DiscoverableKind[] } | { problem: string } {
  let { scope, kinds: kindsText } = args;
  if (kindsText === undefined && scope !== undefined && parseKinds(scope)) [scope, kindsText] = [undefined, scope];
  if (kindsText === undefined) return { ...(scope !== undefined && { scope }), kinds: [...DEFAULT_WATCH_KINDS] };
  const kinds = parseKinds(kindsText);
  if (!kinds) return { problem: `“${echo(kindsText)}” is not a list of archives, broadcasts, renders (comma-separated)` };
  return { ...(scope !== undefined && { scope }), kinds };
}

/** The project and session (or ALL_SESSIONS) the words name; the channel's default session when none. */
async function resolveScope(
  ix: CommandInvocation,
  scope: string | undefined,
  project: string | undefined,
): Promise<{ ok: true; projectName: string; sessionId: string; alias?: string } | { ok: false; message: string }> {
  const where = { teamId: ix.teamId, channelId: ix.channelId, userId: ix.userId, gate: ix.gate };
  if (scope?.toLowerCase() === 'all') {
    const resolved = await resolveProject(ix.services, where, project);
    return resolved.ok ? { ok: true, projectName: resolved.value.projectName, sessionId: ALL_SESSIONS } : resolved;
  }
  const resolved = await resolveSession(ix.services, where, scope, project);
  if (!resolved.ok) return { ok: false, message: `${resolved.message} Or say \`all\` to watch every session of the project.` };
  const { projectName, sessionId, alias } = resolved.value;
  return { ok: true, projectName, sessionId, ...(alias !== undefined && { alias }) };
}

async function channelWatches(ix: Interaction): Promise<Watch[]> {
  return ix.services.store.listWatches({ teamId: ix.teamId, channelId: ix.channelId });
}

const scopeTarget = (args: { scope?: string }) => (args.scope?.toLowerCase() === 'all' ? 'all sessions' : (args.scope ?? 'channel default session'));

export const watchSub = defineSubcommand({
  name: 'watch',
  summary: 'Report new recordings, broadcasts and composers started elsewhere in a session (or all)',
  role: 'moderator',
  args: {
    positionals: [
      {
        name: 'scope',
        label: 'session|all',
        optional: true,
        description: 'a session ID or alias, or `all` for every session of the project (default: the channel’s session)',
      },
      { name: 'kinds', label: 'archives,broadcasts,renders', optional: true, description: 'what to report (default: all three)' },
    ],
    flags: [projectFlag],
    schema: z.object({ scope: scopeArg, kinds: z.string().max(100).optional(), project: projectName.optional() }),
    examples: ['standup', 'all archives,broadcasts --project prod', 'renders'],
  },
  target: scopeTarget,
  async run(ix, rawArgs) {
    if (!ix.channelId) return replyEphemeral(ix, warning('Run this in the channel that should get the news.'));
    const args = readArgs(rawArgs);
    if ('problem' in args) return replyEphemeral(ix, warning(`${escapeMrkdwn(args.problem)}.`));
    const resolved = await resolveScope(ix, args.scope, rawArgs.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const scope: WatchScope = {
      projectName: resolved.projectName,
      sessionId: resolved.sessionId,
      kinds: args.kinds,
      ...(resolved.alias !== undefined && { alias: resolved.alias }),
    };
    const existing = (await channelWatches(ix)).find(
      (w) => w.kind === 'session-discovery' && w.sessionId === scope.sessionId && w.projectName === scope.projectName,
    );
    if (existing) return replyEphemeral(ix, alreadyWatchingMessage(scope));

    // The card first: the watch reports in its thread, so without a card there is nothing to watch for.
    const now = ix.services.clock();
    const model = startModel<SessionWatchContext>({
      startedBy: ix.userId,
      channelId: ix.channelId,
      ...(scope.alias !== undefined && { alias: scope.alias }),
      kinds: [...scope.kinds],
      since: now,
    });
    const initialState = discoverySnapshot(undefined, { kinds: scope.kinds, allSessions: scope.sessionId === ALL_SESSIONS });
    const subject = {
      kind: 'session-discovery' as const,
      resourceId: scope.sessionId,
      sessionId: scope.sessionId,
      projectName: scope.projectName,
      card: model,
    };
    const card = renderCard(subject, initialState, now);
    let ts: string | undefined;
    try {
      ts = (await ix.client.chat.postMessage({ channel: ix.channelId, text: card.text, blocks: card.blocks, unfurl_links: false, unfurl_media: false })).ts;
    } catch (error) {
      const code = slackErrorCode(error);
      if (code === 'not_in_channel' || code === 'channel_not_found' || code === 'is_archived') {
        return replyEphemeral(
          ix,
          warning('I cannot post in this channel, so I cannot report there. Invite me with `/invite @vidops`, then run `/video watch` again.'),
        );
      }
      throw error;
    }
    if (!ts) throw new Error('chat.postMessage answered without a ts');
    const target = { teamId: ix.teamId, channelId: ix.channelId, messageTs: ts, projectName: scope.projectName };
    const watch = createWatch({
      target,
      kind: 'session-discovery',
      resourceId: scope.sessionId,
      sessionId: scope.sessionId,
      initialState,
      card: model,
      now,
      maxAgeMs: ix.services.watchMaxAgeMs['session-discovery'],
    });
    // Each watch gets an id of its own, so the channel can watch the same session again after an unwatch.
    await ix.services.store.addWatch({ ...watch, id: `${watchIdFor(target, 'session-discovery', scope.sessionId)}@${ts}` });
    await recordAudit(ix, {
      command: '/video watch',
      target: `${scopeTarget(args)} (${scope.kinds.join(',')})`,
      projectName: scope.projectName,
      outcome: 'ok',
    });
  },
});

export const unwatchSub = defineSubcommand({
  name: 'unwatch',
  summary: 'Stop reporting what starts elsewhere in a session (or all)',
  role: 'moderator',
  args: {
    positionals: [{ name: 'scope', label: 'session|all', optional: true, description: 'the session ID or alias, or `all` (default: the channel’s session)' }],
    flags: [projectFlag],
    schema: z.object({ scope: scopeArg, project: projectName.optional() }),
    examples: ['standup', 'all --project prod'],
  },
  target: scopeTarget,
  async run(ix, args) {
    if (!ix.channelId) return replyEphemeral(ix, warning('Run this in the channel that gets the news.'));
    const resolved = await resolveScope(ix, args.scope, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    await stopWatching(ix, resolved, scopeTarget(args));
  },
});

/**
 * Ends the channel's watches of the scope and what they announced, redraws their cards at once
 * ("Stopped watching by @ana", no Stop) and tells the channel. Shared by `/video unwatch` and the
 * card's Stop watching button.
 */
export async function stopWatching(ix: Interaction, scope: Pick<WatchScope, 'projectName' | 'sessionId' | 'alias'>, target: string): Promise<void> {
  const watches = await channelWatches(ix);
  const discoveries = watches.filter((w) => w.kind === 'session-discovery' && w.sessionId === scope.sessionId && w.projectName === scope.projectName);
  if (discoveries.length === 0) return replyEphemeral(ix, notWatchingMessage(scope));
  const now = ix.services.clock();
  const threads = new Set(discoveries.map((w) => w.messageTs).filter((ts): ts is string => ts !== undefined));
  // What the watch announced lives in its thread: those stop too, the rest of the channel's watches do not.
  const spawned = watches.filter((w) => w.kind !== 'session-discovery' && w.messageTs === undefined && w.threadTs !== undefined && threads.has(w.threadTs));
  for (const watch of discoveries) await ix.services.store.endWatch(watch.id, now);
  let following = 0;
  for (const watch of spawned) if (await ix.services.store.endWatch(watch.id, now)) following += 1;
  await recordAudit(ix, { command: '/video unwatch', target, projectName: scope.projectName, outcome: 'ok' });
  await applyToCards(ix, { kind: 'session-discovery', resourceId: scope.sessionId, action: 'unwatch', watchIds: discoveries.map((w) => w.id) });
  await announce(ix, unwatchNotice(ix.userId, scope, following));
}

export const watchesSub = defineSubcommand({
  name: 'watches',
  summary: 'List what this channel is watching',
  role: 'viewer',
  args: { positionals: [], flags: [], schema: z.object({}), examples: [''] },
  async run(ix) {
    if (!ix.channelId) return replyEphemeral(ix, warning('Run this in a channel to see what it watches.'));
    await replyEphemeral(ix, watchesMessage(await channelWatches(ix), ix.services.clock()));
  },
});

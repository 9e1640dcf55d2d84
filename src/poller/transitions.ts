/**
 * Pure lifecycle rules: from what a watch last saw and what the service shows now, the next
 * snapshot and the transitions worth telling a channel about, each with a stable key.
 */
import {
  GONE,
  type ArchiveSnapshot,
  type BroadcastSnapshot,
  type CaptionsSnapshot,
  type ConsoleSnapshot,
  type ConsoleStream,
  type DiscoverySnapshot,
  type GoneSnapshot,
  type ObservedOf,
  type RenderSnapshot,
  type SipSnapshot,
  type Snapshot,
  type SnapshotOf,
  type WatchKind,
  archiveSnapshot,
  broadcastSnapshot,
  consoleSnapshot,
  discoveryKinds,
  keepOutputsWhenStopped,
  renderSnapshot,
  sameArchiveAsReceived,
  sameBroadcastAsReceived,
  sameBroadcastBesidesObservedAt,
  sameRenderAsReceived,
} from './snapshot';

export type Severity = 'info' | 'warning' | 'error';

export type TransitionEvent =
  | { type: 'archive-started' }
  | { type: 'archive-paused' }
  | { type: 'archive-resumed' }
  | { type: 'archive-stopped'; reason?: string }
  | { type: 'archive-available'; durationS: number; sizeBytes: number }
  | { type: 'archive-uploaded'; durationS: number; sizeBytes: number }
  | { type: 'archive-expired' }
  | { type: 'archive-failed' }
  | { type: 'archive-deleted' }
  | { type: 'broadcast-live'; hls?: string; rtmpLive: number; rtmpTotal: number }
  | { type: 'broadcast-hls'; status: string }
  | { type: 'broadcast-rtmp'; outputId: string; status: string }
  | { type: 'broadcast-stopped'; maxDurationS?: number }
  | { type: 'render-started' }
  | { type: 'render-stopped'; reason?: string }
  | { type: 'render-failed'; reason?: string }
  | { type: 'captions-ended'; maxDurationS: number }
  | { type: 'sip-connected' }
  | { type: 'sip-ended'; neverConnected: boolean }
  | { type: 'audio-ended' }
  /** Participants' streams that appeared in or left a posted session console. */
  | { type: 'console-changed'; joined: ConsoleStream[]; left: ConsoleStream[] }
  | { type: 'console-ended'; left: ConsoleStream[] }
  /** `sessionId` is set when the watch covers every session of the project. */
  | { type: 'discovered-archive'; id: string; state: ArchiveSnapshot; sessionId?: string }
  | { type: 'discovered-broadcast'; id: string; state: BroadcastSnapshot; sessionId?: string }
  | { type: 'discovered-render'; id: string; state: RenderSnapshot; sessionId?: string }
  | { type: 'status-changed'; kind: WatchKind; status: string }
  | { type: 'gone'; kind: WatchKind }
  | { type: 'watch-expired'; kind: WatchKind; lastStatus?: string };

export interface Transition {
  /** Stable name of the change, e.g. `archive:available` or `broadcast:rtmp:yt:offline`. */
  key: string;
  severity: Severity;
  event: TransitionEvent;
}

export interface DiffContext {
  /** When the observation was made. */
  now: number;
}

/** Default broadcast `maxDuration` when none was set (seconds). */
export const BROADCAST_DEFAULT_MAX_DURATION_S = 14_400;
/** A dialled call whose stream has not appeared by then is taken as not answered. */
export const SIP_ANSWER_WINDOW_MS = 120_000;
/** Leeway between the service's clock and ours when deciding a stop came from `maxDuration`. */
const CLOCK_LEEWAY_MS = 5_000;

export interface Observation<K extends WatchKind> {
  state: SnapshotOf<K>;
  transitions: Transition[];
}

interface Lifecycle<K extends WatchKind> {
  observe(previous: SnapshotOf<K> | undefined, current: ObservedOf<K> | typeof GONE, context: DiffContext): Observation<K>;
  isTerminal(snapshot: SnapshotOf<K>): boolean;
  /**
   * What `observe` would answer when the read shows nothing new (no transition, the same
   * status), found without building what a change needs: the snapshot to keep (the previous
   * one, or one that differs only in when it was read). Undefined whenever in doubt: the read
   * then takes `observe`.
   */
  quiet?(previous: SnapshotOf<K>, current: ObservedOf<K>, now: number): SnapshotOf<K> | undefined;
}

/** A lifecycle whose transitions follow from comparing two snapshots. */
function bySnapshots<K extends WatchKind>(
  next: (previous: SnapshotOf<K> | undefined, current: ObservedOf<K> | typeof GONE, context: DiffContext) => SnapshotOf<K>,
  transitions: (previous: SnapshotOf<K> | undefined, next: SnapshotOf<K>, context: DiffContext) => Transition[],
  isTerminal: (snapshot: SnapshotOf<K>) => boolean,
  quiet?: Lifecycle<K>['quiet'],
): Lifecycle<K> {
  return {
    observe(previous, current, context) {
      const state = next(previous, current, context);
      return { state, transitions: transitions(previous, state, context) };
    },
    isTerminal,
    ...(quiet && { quiet }),
  };
}

const t = (key: string, severity: Severity, event: TransitionEvent): Transition => ({ key, severity, event });

const goneSnapshot: GoneSnapshot = { status: GONE };

function goneOr(previous: { status: string } | undefined, next: { status: string }, rest: () => Transition[], kind: WatchKind): Transition[] {
  if (next.status !== GONE) return rest();
  return previous?.status === GONE ? [] : [t(`${kind}:gone`, 'warning', { type: 'gone', kind })];
}

const ARCHIVE_FINAL = new Set(['available', 'uploaded', 'expired', 'failed', 'deleted', GONE]);

/** The very snapshot when a listed archive or composer reads as it was (what `quiet` answers for both). */
const keptArchive = (previous: ArchiveSnapshot | GoneSnapshot, current: ObservedOf<'archive'>) =>
  previous.status !== GONE && sameArchiveAsReceived(current, previous as ArchiveSnapshot) ? previous : undefined;
const keptRender = (previous: RenderSnapshot | GoneSnapshot, current: ObservedOf<'render'>) =>
  previous.status !== GONE && sameRenderAsReceived(current, previous as RenderSnapshot) ? previous : undefined;

const archive = bySnapshots<'archive'>(
  (previous, current) => (current === GONE ? goneSnapshot : ((previous && keptArchive(previous, current)) ?? archiveSnapshot(current))),
  (previous, next) => goneOr(previous, next, () => archiveTransitions(previous, next as ArchiveSnapshot), 'archive'),
  (snapshot) => ARCHIVE_FINAL.has(snapshot.status),
  keptArchive,
);

function archiveTransitions(previous: ArchiveSnapshot | GoneSnapshot | undefined, next: ArchiveSnapshot): Transition[] {
  const from = previous?.status;
  const to = next.status;
  if (from === to) return [];
  const wasRecording = from === 'started' || from === 'paused';
  // `failure` is the reason of a failed archive, not of a stop.
  const stopReason = next.reason && next.reason !== 'failure' ? next.reason : undefined;
  const stopped = (): Transition =>
    t('archive:stopped', stopReason === undefined || stopReason === 'user initiated' ? 'info' : 'warning', {
      type: 'archive-stopped',
      ...(stopReason && { reason: stopReason }),
    });
  const file = { durationS: next.durationS, sizeBytes: next.sizeBytes };
  switch (to) {
    case 'started':
      return [from === 'paused' ? t('archive:resumed', 'info', { type: 'archive-resumed' }) : t('archive:started', 'info', { type: 'archive-started' })];
    case 'paused':
      return [t('archive:paused', 'warning', { type: 'archive-paused' })];
    case 'stopped':
      return [stopped()];
    case 'available':
      return [...(wasRecording ? [stopped()] : []), t('archive:available', 'info', { type: 'archive-available', ...file })];
    case 'uploaded':
      return [...(wasRecording ? [stopped()] : []), t('archive:uploaded', 'info', { type: 'archive-uploaded', ...file })];
    case 'expired':
      return [t('archive:expired', 'info', { type: 'archive-expired' })];
    case 'failed':
      return [t('archive:failed', 'error', { type: 'archive-failed' })];
    case 'deleted':
      return [t('archive:deleted', 'info', { type: 'archive-deleted' })];
    default:
      return [t(`archive:${to}`, 'info', { type: 'status-changed', kind: 'archive', status: to })];
  }
}

const broadcast = bySnapshots<'broadcast'>(
  (previous, current, { now }) => (current === GONE ? goneSnapshot : keepOutputsWhenStopped(broadcastSnapshot(current, now), asBroadcast(previous))),
  (previous, next, context) => goneOr(previous, next, () => broadcastTransitions(asBroadcast(previous), next as BroadcastSnapshot, context), 'broadcast'),
  (snapshot) => snapshot.status === 'stopped' || snapshot.status === GONE,
  // Unchanged but for `observedAt`: kept without a transition, with the time of this read.
  (previous, current, now) => {
    const prior = asBroadcast(previous);
    if (prior === undefined) return undefined;
    if (sameBroadcastAsReceived(current, prior)) return { ...prior, observedAt: now };
    const next = keepOutputsWhenStopped(broadcastSnapshot(current, now), prior);
    return sameBroadcastBesidesObservedAt(next, prior) ? next : undefined;
  },
);

function asBroadcast(snapshot: BroadcastSnapshot | GoneSnapshot | undefined): BroadcastSnapshot | undefined {
  return snapshot && snapshot.status !== GONE ? (snapshot as BroadcastSnapshot) : undefined;
}

function broadcastTransitions(prior: BroadcastSnapshot | undefined, next: BroadcastSnapshot, { now }: DiffContext): Transition[] {
  if (next.status === 'stopped') {
    if (prior?.status === 'stopped') return [];
    const maxDurationS = prior?.maxDurationS ?? next.maxDurationS ?? BROADCAST_DEFAULT_MAX_DURATION_S;
    const deadline = next.createdAt + maxDurationS * 1000;
    // Only a stop first seen in the poll window that holds the deadline is blamed on maxDuration.
    const byMaxDuration = prior !== undefined && deadline > prior.observedAt - CLOCK_LEEWAY_MS && deadline <= now + CLOCK_LEEWAY_MS;
    return [t('broadcast:stopped', byMaxDuration ? 'warning' : 'info', { type: 'broadcast-stopped', ...(byMaxDuration && { maxDurationS }) })];
  }
  if (next.status !== 'started') {
    return prior?.status === next.status ? [] : [t(`broadcast:${next.status}`, 'info', { type: 'status-changed', kind: 'broadcast', status: next.status })];
  }
  const out: Transition[] = [];
  if (liveOutputs(next) > liveOutputs(prior)) {
    const rtmp = Object.values(next.rtmp);
    out.push(
      t('broadcast:live', 'info', {
        type: 'broadcast-live',
        ...(next.hls !== undefined && { hls: next.hls }),
        rtmpLive: rtmp.filter((s) => s === 'live').length,
        rtmpTotal: rtmp.length,
      }),
    );
  }
  const isNewlyAnnounced = (before: string | undefined, after: string): boolean =>
    after !== before && after !== 'live' && !(before === undefined && after === 'connecting');
  // The live line already says how HLS stands ("; HLS ready"); only a failure gets a reply of its own too.
  const toldByLive = out.length > 0 && next.hls !== 'error' && next.hls !== 'ended';
  if (next.hls !== undefined && isNewlyAnnounced(prior?.hls, next.hls) && !toldByLive) {
    out.push(
      t(`broadcast:hls:${next.hls}`, next.hls === 'error' ? 'error' : next.hls === 'ended' ? 'warning' : 'info', { type: 'broadcast-hls', status: next.hls }),
    );
  }
  for (const [outputId, status] of Object.entries(next.rtmp)) {
    if (!isNewlyAnnounced(prior?.rtmp[outputId], status)) continue;
    const severity: Severity = status === 'error' ? 'error' : status === 'offline' ? 'warning' : 'info';
    out.push(t(`broadcast:rtmp:${outputId}:${status}`, severity, { type: 'broadcast-rtmp', outputId, status }));
  }
  return out;
}

function liveOutputs(snapshot: BroadcastSnapshot | undefined): number {
  if (!snapshot) return 0;
  return (snapshot.hls === 'live' ? 1 : 0) + Object.values(snapshot.rtmp).filter((s) => s === 'live').length;
}

const RENDER_FINAL = new Set(['stopped', 'failed', GONE]);

const render = bySnapshots<'render'>(
  (previous, current) => (current === GONE ? goneSnapshot : ((previous && keptRender(previous, current)) ?? renderSnapshot(current))),
  (previous, next) => goneOr(previous, next, () => renderTransitions(previous, next as RenderSnapshot), 'render'),
  (snapshot) => RENDER_FINAL.has(snapshot.status),
  keptRender,
);

function renderTransitions(previous: RenderSnapshot | GoneSnapshot | undefined, next: RenderSnapshot): Transition[] {
  const from = previous?.status;
  if (from === next.status) return [];
  const reason = next.reason ? { reason: next.reason } : {};
  switch (next.status) {
    case 'starting':
      return from === undefined ? [] : [t('render:starting', 'info', { type: 'status-changed', kind: 'render', status: 'starting' })];
    case 'started':
      return [t('render:started', 'info', { type: 'render-started' })];
    case 'stopped':
      return [t('render:stopped', next.reason === 'Max Duration Exceeded' ? 'warning' : 'info', { type: 'render-stopped', ...reason })];
    case 'failed':
      return [t('render:failed', 'error', { type: 'render-failed', ...reason })];
    default:
      return [t(`render:${next.status}`, 'info', { type: 'status-changed', kind: 'render', status: next.status })];
  }
}

const captions = bySnapshots<'captions'>(
  (previous, _current, { now }) => {
    const state = required(previous, 'captions');
    return state.status === 'active' && now >= captionsEndAt(state) ? { ...state, status: 'ended' } : state;
  },
  (previous, next) =>
    previous?.status === 'active' && next.status === 'ended' ? [t('captions:ended', 'info', { type: 'captions-ended', maxDurationS: next.maxDurationS })] : [],
  (snapshot) => snapshot.status === 'ended',
);

const captionsEndAt = (state: CaptionsSnapshot): number => state.startedAt + state.maxDurationS * 1000;

const sip = bySnapshots<'sip'>(
  (previous, current, { now }) => {
    const state = required(previous, 'sip');
    if (state.status === 'ended') return state;
    const present = current !== GONE && current.streamIds.includes(state.streamId);
    if (present) return { ...state, status: 'connected' };
    if (state.status === 'connected') return { ...state, status: 'ended' };
    return now - state.dialedAt >= SIP_ANSWER_WINDOW_MS ? { ...state, status: 'ended', neverConnected: true } : state;
  },
  (previous, next) => {
    if (previous?.status === next.status) return [];
    if (next.status === 'connected') return [t('sip:connected', 'info', { type: 'sip-connected' })];
    if (next.status !== 'ended') return [];
    const neverConnected = next.neverConnected === true;
    return [t('sip:ended', neverConnected ? 'warning' : 'info', { type: 'sip-ended', neverConnected })];
  },
  (snapshot) => snapshot.status === 'ended',
);

const audio = bySnapshots<'audio'>(
  (previous, current) => {
    const state = required(previous, 'audio');
    if (state.status === 'ended') return state;
    const streams = current === GONE ? [] : current.streamIds;
    const forwarding = state.streamIds ? state.streamIds.some((id) => streams.includes(id)) : streams.length > 0;
    if (forwarding) return { ...state, status: 'active' };
    return state.status === 'active' ? { ...state, status: 'ended' } : state;
  },
  (previous, next) => (previous?.status === 'active' && next.status === 'ended' ? [t('audio:ended', 'info', { type: 'audio-ended' })] : []),
  (snapshot) => snapshot.status === 'ended',
);

/** A posted console is read again at least this often, whatever the poll schedule (it shows who is here now). */
export const CONSOLE_REFRESH_MS = 15_000;

/**
 * The session console: who joined and left since the last read, and the end once nobody
 * publishes. What vidops muted (`mutes`) is carried forward: the service cannot tell it.
 */
const sessionConsole: Lifecycle<'session-console'> = {
  observe(previous, current, { now }) {
    const streams = current === GONE ? [] : [...current.streams];
    const state: ConsoleSnapshot = consoleSnapshot(streams, now, previous?.mutes);
    if (previous?.status === 'ended') return { state: previous, transitions: [] };
    const before = previous?.streams ?? [];
    const left = before.filter((s) => !streams.some((n) => n.id === s.id));
    if (state.status === 'ended') return { state, transitions: [t('console:ended', 'info', { type: 'console-ended', left })] };
    const joined = streams.filter((s) => !before.some((b) => b.id === s.id));
    if (joined.length === 0 && left.length === 0) return { state, transitions: [] };
    return { state, transitions: [t('console:changed', 'info', { type: 'console-changed', joined, left })] };
  },
  isTerminal: (snapshot) => snapshot.status === 'ended',
};

/** Composer statuses worth announcing: one first seen already stopped is old news. */
const ACTIVE_RENDER = new Set(['starting', 'started']);

/**
 * Announces archives, broadcasts and composers (those of its kinds) that appear in the session
 * or, for a watch of every session, in the project; the first poll only learns what exists.
 */
const discovery: Lifecycle<'session-discovery'> = {
  observe(previous, current, { now }) {
    const kinds = discoveryKinds(previous);
    const wants = (kind: 'archive' | 'broadcast' | 'render'): boolean => current !== GONE && kinds.includes(kind);
    const archives = wants('archive') && current !== GONE ? current.archives : [];
    const broadcasts = wants('broadcast') && current !== GONE ? current.broadcasts.filter((b) => b.status === 'started') : [];
    const renders = wants('render') && current !== GONE ? (current.renders ?? []).filter((r) => ACTIVE_RENDER.has(r.status)) : [];
    const known: NonNullable<DiscoverySnapshot['known']> = { archives: archives.map((a) => a.id), broadcasts: broadcasts.map((b) => b.id) };
    if (kinds.includes('render')) known.renders = renders.map((r) => r.id);
    const state: DiscoverySnapshot = { ...previous, status: 'watching', known };
    const before = previous?.known;
    if (!before) return { state, transitions: [] };
    const where = (sessionId: string) => (previous?.allSessions ? { sessionId } : {});
    const transitions = [
      ...archives
        .filter((a) => !before.archives.includes(a.id))
        .map((a) => t(`discovered:archive:${a.id}`, 'info', { type: 'discovered-archive', id: a.id, state: archiveSnapshot(a), ...where(a.sessionId) })),
      ...broadcasts
        .filter((b) => !before.broadcasts.includes(b.id))
        .map((b) =>
          t(`discovered:broadcast:${b.id}`, 'info', { type: 'discovered-broadcast', id: b.id, state: broadcastSnapshot(b, now), ...where(b.sessionId) }),
        ),
      // A watch that did not announce composers before learns them first, like a first poll.
      ...(before.renders === undefined
        ? []
        : renders
            .filter((r) => !before.renders!.includes(r.id))
            .map((r) => t(`discovered:render:${r.id}`, 'info', { type: 'discovered-render', id: r.id, state: renderSnapshot(r), ...where(r.sessionId) }))),
    ];
    return { state, transitions };
  },
  isTerminal: () => false,
};

function required<S>(snapshot: S | undefined, kind: WatchKind): S {
  if (snapshot === undefined) throw new Error(`a ${kind} watch needs the initial state it was created with`);
  return snapshot;
}

const lifecycles: { [K in WatchKind]: Lifecycle<K> } = {
  archive,
  broadcast,
  render,
  captions,
  sip,
  audio,
  'session-discovery': discovery,
  'session-console': sessionConsole,
};

/** The next snapshot and what changed, given the last snapshot and what was read now. */
export function observe<K extends WatchKind>(
  kind: K,
  previous: SnapshotOf<K> | undefined,
  current: ObservedOf<K> | typeof GONE,
  context: DiffContext,
): Observation<K> {
  const lifecycle: Lifecycle<K> = lifecycles[kind];
  return lifecycle.observe(previous, current, context);
}

/**
 * The snapshot a watch keeps when what was read shows nothing new (no transition, the same
 * status): its own, or one that differs only in when it was read. Undefined for any other read.
 */
export function quietSnapshot(
  watch: { kind: WatchKind; lastState: Snapshot | undefined },
  current: ObservedOf<WatchKind> | typeof GONE,
  now: number,
): Snapshot | undefined {
  const previous = watch.lastState;
  if (previous === undefined || current === GONE) return undefined;
  const lifecycle = lifecycles[watch.kind] as Lifecycle<WatchKind>;
  if (lifecycle.quiet) return lifecycle.quiet(previous as never, current as never, now);
  const { state, transitions } = lifecycle.observe(previous as never, current as never, { now });
  return transitions.length === 0 && state === previous ? state : undefined;
}

/** `observe` for a watch read back from the store, whose snapshot belongs to its kind by construction. */
export function observeWatch(
  watch: { kind: WatchKind; lastState: Snapshot | undefined },
  current: ObservedOf<WatchKind> | typeof GONE,
  context: DiffContext,
): Observation<WatchKind> {
  return observe(watch.kind, watch.lastState as never, current as never, context);
}

/** The transitions between the last snapshot and what was read now. */
export function diff<K extends WatchKind>(
  kind: K,
  previous: SnapshotOf<K> | undefined,
  current: ObservedOf<K> | typeof GONE,
  context: DiffContext,
): Transition[] {
  return observe(kind, previous, current, context).transitions;
}

/**
 * Final states: archive available/uploaded/expired/failed/deleted, broadcast stopped, composer
 * stopped/failed, captions/SIP/audio ended, and anything the service no longer knows.
 */
export function isTerminal<K extends WatchKind>(kind: K, snapshot: SnapshotOf<K> | undefined): boolean {
  return snapshot !== undefined && lifecycles[kind].isTerminal(snapshot);
}

/** The time a clock-driven watch must be looked at, whatever its polling interval. */
export function deadlineOf<K extends WatchKind>(kind: K, snapshot: SnapshotOf<K> | undefined): number | undefined {
  if (snapshot === undefined) return undefined;
  if (kind === 'captions') {
    const state = snapshot as CaptionsSnapshot;
    return state.status === 'active' ? captionsEndAt(state) : undefined;
  }
  if (kind === 'session-console') {
    const console = snapshot as ConsoleSnapshot;
    return console.status === 'live' ? console.observedAt + CONSOLE_REFRESH_MS : undefined;
  }
  if (kind === 'sip') {
    const call = snapshot as SipSnapshot;
    return call.status === 'dialing' ? call.dialedAt + SIP_ANSWER_WINDOW_MS : undefined;
  }
  return undefined;
}

/** Whether polling this kind reads the service at all (captions only watch the clock). */
export function readsService(kind: WatchKind): boolean {
  return kind !== 'captions';
}

export function expiryTransition(kind: WatchKind, snapshot: { status: string } | undefined): Transition {
  return t('watch:expired', 'info', { type: 'watch-expired', kind, ...(snapshot && { lastStatus: snapshot.status }) });
}

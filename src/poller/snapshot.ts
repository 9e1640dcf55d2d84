/**
 * What a watch remembers between polls: a small JSON snapshot per kind, reduced from what the
 * service returned. Only what a later diff or message needs is kept; stream keys, server URLs
 * and download URLs never enter a snapshot, so they never reach the store.
 */
import { asReceived } from '../api/lists';
import type { ArchiveResource, BroadcastResource, RenderResource } from './resources';

export const WATCH_KINDS = ['archive', 'broadcast', 'render', 'captions', 'sip', 'audio', 'session-discovery', 'session-console'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** Status every kind takes when the service says the resource no longer exists. */
export const GONE = 'gone';

export interface ArchiveSnapshot {
  status: string;
  createdAt: number;
  durationS: number;
  sizeBytes: number;
  name?: string;
  reason?: string;
}

export interface BroadcastSnapshot {
  status: string;
  createdAt: number;
  maxDurationS?: number;
  /** HLS status, present only when the broadcast has an HLS output. */
  hls?: string;
  /** RTMP output id → status. */
  rtmp: Record<string, string>;
  /** When this snapshot was read; bounds when a later stop happened. */
  observedAt: number;
}

export interface RenderSnapshot {
  status: string;
  createdAt: number;
  name?: string;
  reason?: string;
}

/** Captions expose no status: the watch knows when they started and how long they may run. */
export interface CaptionsSnapshot {
  status: 'active' | 'ended';
  startedAt: number;
  maxDurationS: number;
}

/** A SIP call shows up as its audio stream in the session; it has ended once that is gone. */
export interface SipSnapshot {
  status: 'dialing' | 'connected' | 'ended';
  streamId: string;
  dialedAt: number;
  /** The call's connection: what Hang up disconnects when the card is redrawn. */
  connectionId?: string;
  /** Set when it ended without its stream ever being seen. */
  neverConnected?: boolean;
}

/**
 * An Audio Connector connection publishes nothing the service lets us read back; it forwards
 * the session's streams (all of them, or `streamIds`), so it is `active` while one of those is
 * in the session and `ended` once they are all gone.
 */
export interface AudioSnapshot {
  status: 'waiting' | 'active' | 'ended';
  streamIds?: string[];
  /** The connector's connection: what Stop disconnects when the card is redrawn. */
  connectionId?: string;
}

/** What a discovery watch can announce. */
export const DISCOVERABLE_KINDS = ['archive', 'broadcast', 'render'] as const;
export type DiscoverableKind = (typeof DISCOVERABLE_KINDS)[number];
/** What a discovery watch announces when its snapshot names no kinds. */
export const DEFAULT_DISCOVERY_KINDS: readonly DiscoverableKind[] = ['archive', 'broadcast'];

/**
 * The `sessionId` of a discovery watch that covers every session of its project: its lists are
 * read without a session filter. No session ID looks like this.
 */
export const ALL_SESSIONS = '*';

/** The session's archives, started broadcasts and active composers known so far; new ones are announced. */
export interface DiscoverySnapshot {
  status: 'watching';
  /** What to announce; archives and broadcasts when unset. */
  kinds?: DiscoverableKind[];
  /** Set on a watch of every session (ALL_SESSIONS): announcements then name the session. */
  allSessions?: boolean;
  /** Undefined until the first poll, which learns what exists without announcing it. */
  known?: { archives: string[]; broadcasts: string[]; renders?: string[] };
}

/** A participant's stream as the session console shows it. */
export interface ConsoleStream {
  id: string;
  name?: string;
  videoType?: string;
}

/** One stream vidops force-muted: who, when and through what (`/mute`, the Mute button…). */
export interface StreamMute {
  streamId: string;
  by: string;
  at: number;
  via: string;
}

/** The session's mute-everyone state as vidops last set it (on with its exclusions, or lifted). */
export interface SessionMute {
  active: boolean;
  /** Streams spared when it was turned on. */
  excluded: string[];
  by: string;
  at: number;
  via: string;
}

/** What vidops knows of a session's mutes: what it did, not whether anyone unmuted since. */
export interface MuteState {
  /** Oldest first; one per stream (its latest mute). */
  streams: StreamMute[];
  session?: SessionMute;
}

/**
 * A posted session console: the session's streams as last read, and what vidops muted in it —
 * which the service cannot tell (stream info has no mute field), so the actions that mute
 * write it here (src/interaction/mute-state.ts) and polls carry it forward.
 */
export interface ConsoleSnapshot {
  /** `ended` once nobody publishes any more. */
  status: 'live' | 'ended';
  streams: ConsoleStream[];
  mutes?: MuteState;
  /** When the streams were read: the console is read again soon after, whatever else changed. */
  observedAt: number;
}

export interface GoneSnapshot {
  status: typeof GONE;
}

/** What a poll reads for each kind, besides the clock. */
export interface SessionStreams {
  streamIds: readonly string[];
}

/** The session's streams with what people see of them (the session console). */
export interface SessionStreamDetails {
  streams: readonly ConsoleStream[];
}

export interface SessionActivity {
  archives: readonly ArchiveResource[];
  broadcasts: readonly BroadcastResource[];
  /** The session's composers, when the watch announces them. */
  renders?: readonly RenderResource[];
}

export interface KindShapes {
  archive: { observed: ArchiveResource; snapshot: ArchiveSnapshot | GoneSnapshot };
  broadcast: { observed: BroadcastResource; snapshot: BroadcastSnapshot | GoneSnapshot };
  render: { observed: RenderResource; snapshot: RenderSnapshot | GoneSnapshot };
  /** Nothing to read: captions end by the clock. */
  captions: { observed: null; snapshot: CaptionsSnapshot };
  sip: { observed: SessionStreams; snapshot: SipSnapshot };
  audio: { observed: SessionStreams; snapshot: AudioSnapshot };
  'session-discovery': { observed: SessionActivity; snapshot: DiscoverySnapshot };
  'session-console': { observed: SessionStreamDetails; snapshot: ConsoleSnapshot };
}

export type SnapshotOf<K extends WatchKind> = KindShapes[K]['snapshot'];
export type ObservedOf<K extends WatchKind> = KindShapes[K]['observed'];
export type Snapshot = SnapshotOf<WatchKind>;

const text = (value: string | null | undefined): string | undefined => (value ? value : undefined);

export function archiveSnapshot(archive: ArchiveResource): ArchiveSnapshot {
  return dropUndefined({
    status: archive.status,
    createdAt: archive.createdAt,
    durationS: archive.duration,
    sizeBytes: archive.size,
    name: text(archive.name),
    reason: text(archive.reason),
  });
}

/** `text` for a field as received: undefined for null, '' or absent; `false` for anything not a string (so it never matches). */
const receivedText = (value: unknown): string | undefined | false =>
  value === null || value === undefined || value === '' ? undefined : typeof value === 'string' ? value : false;

/**
 * Whether a listed archive, as the service sent it, is the one `previous` was made from: the
 * fields the snapshot keeps, each equal and of the type the schema accepts. Most polls find
 * nothing new; this answers without checking the item against its schema or building a
 * snapshot. Anything else (another type, a timestamp in seconds) says "not the same" and takes
 * the full way, so a malformed item is still caught when it matters.
 */
export function sameArchiveAsReceived(archive: ArchiveResource, previous: ArchiveSnapshot): boolean {
  const received = asReceived(archive);
  if (received === undefined || !sameRecordAsReceived(received, previous)) return false;
  const { duration, size } = received;
  return (duration === undefined ? 0 : duration) === previous.durationS && (size === undefined ? 0 : size) === previous.sizeBytes;
}

/** `sameArchiveAsReceived` for a listed composer: the fields its snapshot keeps, as the service sent them. */
export function sameRenderAsReceived(render: RenderResource, previous: RenderSnapshot): boolean {
  const received = asReceived(render);
  return received !== undefined && sameRecordAsReceived(received, previous);
}

/** The fields archive and composer snapshots both keep: status, createdAt, name and reason. */
function sameRecordAsReceived(received: Readonly<Record<string, unknown>>, previous: RenderSnapshot): boolean {
  const { status, createdAt } = received;
  return (
    typeof status === 'string' &&
    status === previous.status &&
    typeof createdAt === 'number' &&
    createdAt === previous.createdAt &&
    receivedText(received.name) === previous.name &&
    receivedText(received.reason) === previous.reason
  );
}

/**
 * `sameArchiveAsReceived` for a listed broadcast with outputs (a stopped one, whose outputs the
 * snapshot keeps from before, takes the full way): status, createdAt, maxDuration and each
 * output's status as `broadcastSnapshot` would read them, in either form the service sends
 * outputs (an array, or an object keyed by output id).
 */
export function sameBroadcastAsReceived(broadcast: BroadcastResource, previous: BroadcastSnapshot): boolean {
  const received = asReceived(broadcast);
  if (received === undefined) return false;
  const { status, createdAt, maxDuration, broadcastUrls: urls } = received;
  if (typeof status !== 'string' || status !== previous.status || typeof createdAt !== 'number' || createdAt !== previous.createdAt) return false;
  if (maxDuration === undefined ? previous.maxDurationS !== undefined : typeof maxDuration !== 'number' || maxDuration !== previous.maxDurationS) return false;
  if (typeof urls !== 'object' || urls === null || Array.isArray(urls)) return false;
  const { hls, hlsStatus, rtmp } = urls as Record<string, unknown>;
  if (!optionalText(hls) || !optionalText(hlsStatus)) return false;
  if ((hls || hlsStatus ? (hlsStatus ?? 'connecting') : undefined) !== previous.hls) return false;
  if (rtmp === undefined || rtmp === null) return Object.keys(previous.rtmp).length === 0;
  if (typeof rtmp !== 'object') return false;
  const keyed = !Array.isArray(rtmp);
  const entries = Object.entries(rtmp as object);
  if (entries.length !== Object.keys(previous.rtmp).length) return false;
  for (let i = 0; i < entries.length; i++) {
    const [key, output] = entries[i]!;
    if (typeof output !== 'object' || output === null) return false;
    const { id, status: outputStatus } = output as Record<string, unknown>;
    if (!optionalText(id) || !optionalText(outputStatus)) return false;
    const outputId = (keyed ? (id ?? key) : id) || `#${i + 1}`;
    if (!Object.hasOwn(previous.rtmp, outputId) || previous.rtmp[outputId] !== (outputStatus || 'connecting')) return false;
  }
  return true;
}

const optionalText = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

/** Whether two broadcast snapshots say the same but for when they were read. */
export function sameBroadcastBesidesObservedAt(a: BroadcastSnapshot, b: BroadcastSnapshot): boolean {
  if (a.status !== b.status || a.createdAt !== b.createdAt || a.maxDurationS !== b.maxDurationS || a.hls !== b.hls) return false;
  const outputs = Object.keys(a.rtmp);
  if (outputs.length !== Object.keys(b.rtmp).length) return false;
  for (const id of outputs) if (a.rtmp[id] !== b.rtmp[id]) return false;
  return true;
}

export function broadcastSnapshot(broadcast: BroadcastResource, observedAt: number): BroadcastSnapshot {
  const urls = broadcast.broadcastUrls ?? undefined;
  const rtmp: Record<string, string> = {};
  (urls?.rtmp ?? []).forEach((output, index) => {
    rtmp[output.id || `#${index + 1}`] = output.status || 'connecting';
  });
  const hasHls = Boolean(urls?.hls || urls?.hlsStatus);
  return dropUndefined({
    status: broadcast.status,
    createdAt: broadcast.createdAt,
    maxDurationS: broadcast.maxDuration ?? undefined,
    hls: hasHls ? (urls?.hlsStatus ?? 'connecting') : undefined,
    rtmp,
    observedAt,
  });
}

/**
 * A stopped broadcast comes back without `broadcastUrls`; its outputs are then kept as last
 * seen so that the stop is reported once, not as every output vanishing.
 */
export function keepOutputsWhenStopped(next: BroadcastSnapshot, previous: BroadcastSnapshot | undefined): BroadcastSnapshot {
  if (!previous || next.hls !== undefined || Object.keys(next.rtmp).length > 0) return next;
  return dropUndefined({ ...next, hls: previous.hls, rtmp: previous.rtmp, maxDurationS: next.maxDurationS ?? previous.maxDurationS });
}

export function renderSnapshot(render: RenderResource): RenderSnapshot {
  return dropUndefined({ status: render.status, createdAt: render.createdAt, name: text(render.name), reason: text(render.reason) });
}

export function captionsSnapshot(startedAt: number, maxDurationS: number): CaptionsSnapshot {
  return { status: 'active', startedAt, maxDurationS };
}

export function sipSnapshot(streamId: string, dialedAt: number, connectionId?: string): SipSnapshot {
  return connectionId ? { status: 'dialing', streamId, dialedAt, connectionId } : { status: 'dialing', streamId, dialedAt };
}

/** `streamIds` as given when the connector started; omitted means every stream. */
export function audioSnapshot(streamIds?: readonly string[], connectionId?: string): AudioSnapshot {
  return dropUndefined({ status: 'waiting' as const, streamIds: streamIds && streamIds.length > 0 ? [...streamIds] : undefined, connectionId });
}

export function discoverySnapshot(
  known?: DiscoverySnapshot['known'],
  scope: { kinds?: readonly DiscoverableKind[]; allSessions?: boolean } = {},
): DiscoverySnapshot {
  return dropUndefined({
    status: 'watching' as const,
    kinds: scope.kinds && [...scope.kinds],
    allSessions: scope.allSessions || undefined,
    known,
  });
}

/** The console's view of a stream list: only what it shows (no layout classes). */
export function consoleStreams(streams: readonly { id: string; name?: string | null; videoType?: string }[]): ConsoleStream[] {
  return streams.map((s) => dropUndefined({ id: s.id, name: text(s.name), videoType: s.videoType || undefined }));
}

export function consoleSnapshot(streams: readonly ConsoleStream[], observedAt: number, mutes?: MuteState): ConsoleSnapshot {
  return dropUndefined({ status: streams.length > 0 ? ('live' as const) : ('ended' as const), streams: [...streams], mutes, observedAt });
}

/** The kinds a discovery snapshot announces. */
export function discoveryKinds(snapshot: DiscoverySnapshot | undefined): readonly DiscoverableKind[] {
  return snapshot?.kinds ?? DEFAULT_DISCOVERY_KINDS;
}

/** JSON drops undefined fields anyway; dropping them here makes snapshots compare equal after a round trip. */
function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Whether two snapshots hold the same JSON (keys in any order; a key set to undefined is the
 * key absent, as in the stored JSON). A poll that leaves the snapshot as it was need not be written.
 */
export function sameSnapshot(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameSnapshot(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = (value: Record<string, unknown>) => Object.keys(value).filter((key) => value[key] !== undefined);
  const leftKeys = keys(left);
  return leftKeys.length === keys(right).length && leftKeys.every((key) => sameSnapshot(left[key], right[key]));
}

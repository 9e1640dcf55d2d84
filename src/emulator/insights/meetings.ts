import type { RecordedConnection, RecordedSession, RecordedStream } from '../state/model';
import { stableUuid } from './random';
import { MINUTE_MS } from './time';

/** "A session unused for 10 minutes starts a new meeting." */
export const MEETING_GAP_MS = 10 * MINUTE_MS;

/** A lifetime cut at the view's `asOf`: `to` = end, or `asOf` while still `open`. */
export interface Span {
  from: number;
  to: number;
  open: boolean;
}

export interface ConnectionView extends Span {
  record: RecordedConnection;
}

export interface StreamView extends Span {
  record: RecordedStream;
  connection: ConnectionView;
}

/**
 * A connection receiving a stream. The emulator has no real subscriptions: every connection is
 * taken to subscribe to every stream of the others for as long as both exist.
 */
export interface SubscriberView extends Span {
  stream: StreamView;
  connection: ConnectionView;
  /** Seeds the subscriber's statistics. */
  key: string;
}

export interface MeetingView {
  meetingId: string;
  createdAt: number;
  /** null while someone is still connected. */
  destroyedAt: number | null;
  connections: ConnectionView[];
  publishers: StreamView[];
  subscribers: SubscriberView[];
}

export interface SessionView {
  sessionId: string;
  meetings: MeetingView[];
}

/** A piece of time with a constant number of active spans. */
export interface Segment {
  from: number;
  to: number;
  count: number;
}

function cut<T extends { createdAt: number; destroyedAt?: number }>(record: T, asOf: number): Span | undefined {
  if (record.createdAt > asOf) return undefined;
  const end = record.destroyedAt;
  const open = end === undefined || end > asOf;
  return { from: record.createdAt, to: open ? asOf : end, open };
}

/**
 * The session as Insights knows it at `asOf`: what started later is unknown, what is still
 * running ends at `asOf`. Connections are grouped into meetings by the 10-minute rule; each
 * stream belongs to the meeting of its connection.
 */
export function viewSession(session: RecordedSession, asOf: number): SessionView {
  const connections = session.connections
    .map((record) => {
      const span = cut(record, asOf);
      return span ? { ...span, record } : undefined;
    })
    .filter((c): c is ConnectionView => c !== undefined)
    .sort((a, b) => a.from - b.from || a.record.connectionId.localeCompare(b.record.connectionId));

  const groups: ConnectionView[][] = [];
  let current: ConnectionView[] | undefined;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const c of connections) {
    if (!current || c.from - lastEnd >= MEETING_GAP_MS) {
      current = [];
      groups.push(current);
      lastEnd = c.to;
    }
    current.push(c);
    lastEnd = Math.max(lastEnd, c.to);
  }

  const byConnection = new Map(connections.map((c) => [c.record.connectionId, c]));
  const streams: StreamView[] = [];
  for (const record of session.streams) {
    const connection = byConnection.get(record.connectionId);
    const span = cut(record, asOf);
    if (connection && span) streams.push({ ...span, record, connection });
  }
  streams.sort((a, b) => a.from - b.from || a.record.streamId.localeCompare(b.record.streamId));

  const meetings = groups.map((members) => meeting(session.sessionId, members, streams));
  return { sessionId: session.sessionId, meetings };
}

function meeting(sessionId: string, connections: ConnectionView[], allStreams: StreamView[]): MeetingView {
  const ids = new Set(connections.map((c) => c.record.connectionId));
  const publishers = allStreams.filter((s) => ids.has(s.record.connectionId));
  const subscribers: SubscriberView[] = [];
  for (const stream of publishers) {
    for (const connection of connections) {
      if (connection.record.connectionId === stream.record.connectionId) continue;
      const from = Math.max(stream.from, connection.from);
      const to = Math.min(stream.to, connection.to);
      if (to <= from) continue;
      subscribers.push({
        from,
        to,
        open: stream.open && connection.open,
        stream,
        connection,
        key: `${stream.record.streamId}|${connection.record.connectionId}`,
      });
    }
  }
  subscribers.sort((a, b) => a.from - b.from || a.key.localeCompare(b.key));
  const createdAt = Math.min(...connections.map((c) => c.from));
  const open = connections.some((c) => c.open);
  return {
    meetingId: stableUuid(`${sessionId}|meeting|${createdAt}`),
    createdAt,
    destroyedAt: open ? null : Math.max(...connections.map((c) => c.to)),
    connections,
    publishers,
    subscribers,
  };
}

/**
 * Cuts the time from the first start to the last end into segments with a constant number of
 * active spans (0 in gaps between them).
 */
export function timeline(spans: readonly Span[]): Segment[] {
  const edges: Array<[number, number]> = [];
  for (const s of spans) {
    if (s.to <= s.from) continue;
    edges.push([s.from, 1], [s.to, -1]);
  }
  // Ends before starts at the same instant: touching spans do not overlap.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const segments: Segment[] = [];
  let count = 0;
  for (let i = 0; i < edges.length; i += 1) {
    const [at, delta] = edges[i] as [number, number];
    count += delta;
    const next = edges[i + 1];
    if (next && next[0] > at) segments.push({ from: at, to: next[0], count });
  }
  return segments;
}

export function maxConcurrent(spans: readonly Span[]): number {
  return timeline(spans).reduce((max, s) => Math.max(max, s.count), 0);
}

/**
 * Calls `add(count, from, to)` for each piece of `span` with the number of spans of `segments`
 * active over it (0 where none is).
 */
export function overlapByCount(span: Span, segments: readonly Segment[], add: (count: number, from: number, to: number) => void): void {
  let cursor = span.from;
  for (const seg of segments) {
    if (seg.to <= cursor) continue;
    if (seg.from >= span.to) break;
    if (seg.from > cursor) add(0, cursor, seg.from);
    const from = Math.max(cursor, seg.from);
    const to = Math.min(span.to, seg.to);
    if (to > from) add(seg.count, from, to);
    cursor = to;
  }
  if (cursor < span.to) add(0, cursor, span.to);
}

export const duration = (s: Span): number => s.to - s.from;

/** Totals of one meeting (or, summed, of a session). */
export interface MeetingTotals {
  publisherMs: number;
  subscriberMs: number;
  participantMs: number;
  /** Connected time by the number of streams published at the same time in the meeting. */
  participantMsByPublishers: Map<number, number>;
}

export function meetingTotals(m: MeetingView): MeetingTotals {
  const byPublishers = new Map<number, number>();
  const publisherTimeline = timeline(m.publishers);
  for (const c of m.connections) {
    overlapByCount(c, publisherTimeline, (count, from, to) => byPublishers.set(count, (byPublishers.get(count) ?? 0) + to - from));
  }
  return {
    publisherMs: sum(m.publishers.map(duration)),
    subscriberMs: sum(m.subscribers.map(duration)),
    participantMs: sum(m.connections.map(duration)),
    participantMsByPublishers: byPublishers,
  };
}

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

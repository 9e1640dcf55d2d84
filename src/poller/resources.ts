/**
 * What the poller reads from the Video Session Service, and the read-only source it reads it
 * through. These are the minimal shapes the poller needs; the adapter's normalised types carry
 * more fields and satisfy them structurally. Statuses are plain strings so that a value a newer
 * service introduces is still diffed and reported rather than rejected.
 */
import type { PageItems } from '../api/lists';

export type { PageItems };

export interface ArchiveResource {
  id: string;
  status: string;
  sessionId: string;
  /** Start of recording, ms since epoch; archive lists are ordered by it, newest first. */
  createdAt: number;
  /** Seconds; 0 while recording. */
  duration: number;
  /** Bytes; 0 until a file exists. */
  size: number;
  name?: string | null;
  /** Why it stopped or failed (`maximum duration exceeded`, `session ended`, …). */
  reason?: string | null;
}

/**
 * One RTMP output. Its `serverUrl` and `streamName` are deliberately absent: the stream name is
 * a stream key and the URL may carry credentials, so the poller never reads either.
 */
export interface RtmpOutputResource {
  id?: string | null;
  status?: string | null;
}

export interface BroadcastResource {
  id: string;
  status: string;
  sessionId: string;
  createdAt: number;
  /** Seconds, when one was set at start (the service's default is 14,400). */
  maxDuration?: number | null;
  broadcastUrls?: {
    hls?: string | null;
    hlsStatus?: string | null;
    rtmp?: readonly RtmpOutputResource[] | null;
  } | null;
}

/** A composed web-page stream (Experience Composer). */
export interface RenderResource {
  id: string;
  status: string;
  sessionId: string;
  createdAt: number;
  name?: string | null;
  reason?: string | null;
  streamId?: string | null;
}

/** A stream as the service lists it; name and video type are what people see of it. */
export interface StreamRef {
  id: string;
  /** Empty or missing when the publisher set none. */
  name?: string | null;
  videoType?: string;
}

export interface Page<T> {
  /** Total number of items the listing holds, not the number on this page. */
  count: number;
  items: readonly T[];
}

export interface ListQuery {
  offset: number;
  /** 1–1000. */
  count: number;
  sessionId?: string;
}

/** A page whose items were handed over as it was read: its total, how many items it held, its last. */
export interface VisitedPage<T> {
  count: number;
  length: number;
  last: T | undefined;
}

export interface ListAndGet<T, Q> {
  list(projectName: string, query: Q): Promise<Page<T>>;
  /**
   * As `list`, the items handed to `visit` as the page is parsed (a piece at a time, or compared
   * with the last answer: `PageItems`), and not kept (a source without it is read with `list`).
   */
  listEach?(projectName: string, query: Q, visit: (items: PageItems<T>) => void): Promise<VisitedPage<T>>;
  /** Resolves `undefined` when the service says the resource does not exist. */
  get(projectName: string, id: string): Promise<T | undefined>;
}

/**
 * The reads the poller makes, per project. Implementations resolve `undefined` (get) or an
 * empty list (streams) when the service answers that the thing does not exist, and reject only
 * for failures worth retrying later (server errors, timeouts, authentication problems): a
 * rejection backs off the whole project (after one more try at once of a read that failed in
 * passing, `isPassing`).
 */
export interface PollSource {
  /** Newest first; filterable by session. */
  archives: ListAndGet<ArchiveResource, ListQuery>;
  /** Newest first; lists only broadcasts in progress (status `started`). */
  broadcasts: ListAndGet<BroadcastResource, ListQuery>;
  /** No session filter and no documented order. */
  renders: ListAndGet<RenderResource, Omit<ListQuery, 'sessionId'>>;
  streams: {
    /** The session's streams; empty when it has none (the service answers 404 then). */
    list(projectName: string, sessionId: string): Promise<readonly StreamRef[]>;
  };
  /**
   * Whether a rejection is a failure in passing that a second try at once may well not meet (a
   * server error, a dropped connection): the read is then made again in the same cycle instead
   * of backing off the project. Absent: no read is tried twice.
   */
  isPassing?(error: unknown): boolean;
  /**
   * A poll cycle is over: nothing it was handed (items, pages) is read any more. A source that
   * reuses memory from read to read (video-source.ts) may write over what those reads held.
   */
  cycleEnded?(): void;
}

/** Kinds of resource that have their own list and get endpoints. */
export type ListedKind = 'archive' | 'broadcast' | 'render';

export interface ListedResources {
  archive: ArchiveResource;
  broadcast: BroadcastResource;
  render: RenderResource;
}

export type ListedResource = ListedResources[ListedKind];

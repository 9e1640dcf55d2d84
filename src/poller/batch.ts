/**
 * Batching: which requests read the state of one project's due watches, with as few calls as
 * the service's list endpoints allow, and how the answers map back onto the watches.
 *
 * - Archives and broadcasts are read through their lists: one list per session when few
 *   sessions hold watches, else unfiltered pages of up to 1000 that stop once past the oldest
 *   watched item (lists are newest first). Broadcast lists hold only started broadcasts, so a
 *   watched broadcast missing from its list is read by GET — as is anything a list should have
 *   held but did not (deleted archives leave the listings).
 * - Composers are listed without a session filter or a documented order: pages are read only
 *   while that stays cheaper than a GET per watch.
 * - SIP calls and Audio Connector connections share one stream list per session.
 * - Captions need no request: they end by the clock.
 */
import type { ListedKind, ListedResource, ListedResources, Page } from './resources';
import { GONE, type ObservedOf, type WatchKind } from './snapshot';
import type { Watch } from './watch';

export interface BatchConfig {
  /** Items per list page (the service allows up to 1000). */
  pageSize: number;
  /** An unfiltered scan never reads deeper than this; anything further is read by GET. */
  maxScanPages: number;
}

export const DEFAULT_BATCH: BatchConfig = { pageSize: 1000, maxScanPages: 10 };

/** Pages through one list until the wanted items are found or no further page can hold them. */
export interface ListScan {
  type: 'scan';
  kind: ListedKind;
  sessionId?: string;
  wanted: string[];
  pageSize: number;
  maxPages: number;
  /** The list is newest first: once a page ends before this `createdAt`, later pages hold nothing wanted. */
  stopBefore?: number;
  /** Keep every item the scan sees (session discovery), not only the wanted ones. */
  collect: boolean;
}

export interface GetRequest {
  type: 'get';
  kind: ListedKind;
  id: string;
}

export interface StreamsRequest {
  type: 'streams';
  sessionId: string;
}

export type PollRequest = ListScan | GetRequest | StreamsRequest;

export interface RequestPlan {
  requests: PollRequest[];
  /** Expected number of calls (pages of each scan included, later GET fallbacks not). */
  estimatedRequests: number;
}

/** What earlier cycles of this project taught the planner. */
export interface PlanHints {
  /** Pages the last unfiltered scan of a kind needed (1 when unknown). */
  scanPages?: ReadonlyMap<ListedKind, number>;
  /**
   * `${kind}:${id}` of items a scan missed last time without the budget left to GET them: they
   * are read by GET straight away, so a scan that keeps falling short cannot starve them.
   */
  readByGet?: ReadonlySet<string>;
}

/** What a plan's execution read for one project. */
export interface Fetched {
  /** `${kind}:${id}` → the resource. */
  resources: Map<string, ListedResource>;
  /** `${kind}:${id}` of resources the service says do not exist. */
  absent: Set<string>;
  /** `${kind}:${sessionId}` → every item a collecting scan saw. */
  sessionItems: Map<string, ListedResource[]>;
  /** Session id → the ids of its streams. */
  streams: Map<string, string[]>;
}

export const emptyFetched = (): Fetched => ({ resources: new Map(), absent: new Set(), sessionItems: new Map(), streams: new Map() });

export const resourceKey = (kind: ListedKind, id: string): string => `${kind}:${id}`;

const LISTED_KINDS: readonly ListedKind[] = ['archive', 'broadcast', 'render'];
export const isListed = (kind: WatchKind): kind is ListedKind => (LISTED_KINDS as readonly string[]).includes(kind);

function knownCreatedAt(watch: Watch): number | undefined {
  const state = watch.lastState as { createdAt?: unknown } | undefined;
  return typeof state?.createdAt === 'number' ? state.createdAt : undefined;
}

/** The oldest `createdAt` among the watches, or undefined if any is unknown (no early stop then). */
function oldestCreatedAt(watches: readonly Watch[]): number | undefined {
  if (watches.length === 0) return undefined;
  let oldest = Infinity;
  for (const watch of watches) {
    const createdAt = knownCreatedAt(watch);
    if (createdAt === undefined) return undefined;
    oldest = Math.min(oldest, createdAt);
  }
  return oldest;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const uniqueIds = (watches: readonly Watch[]): string[] => [...new Set(watches.map((w) => w.resourceId))];

/** The requests that read every due watch of one project. */
export function planRequests(watches: readonly Watch[], config: BatchConfig = DEFAULT_BATCH, hints: PlanHints = {}): RequestPlan {
  const scanPages = (kind: ListedKind): number => hints.scanPages?.get(kind) ?? 1;
  const readByGet = (watch: Watch): boolean => isListed(watch.kind) && (hints.readByGet?.has(resourceKey(watch.kind, watch.resourceId)) ?? false);
  const requests: PollRequest[] = [];
  let estimatedRequests = 0;
  const add = (request: PollRequest, cost = 1): void => {
    requests.push(request);
    estimatedRequests += cost;
  };
  const scan = (kind: ListedKind, wanted: readonly Watch[], extra: Partial<ListScan>): ListScan => {
    const stopBefore = kind === 'render' ? undefined : oldestCreatedAt(wanted);
    return {
      type: 'scan',
      kind,
      wanted: uniqueIds(wanted),
      pageSize: config.pageSize,
      maxPages: config.maxScanPages,
      collect: false,
      ...(stopBefore !== undefined && { stopBefore }),
      ...extra,
    };
  };
  const directGets = new Map<string, GetRequest>();
  for (const watch of watches.filter(readByGet)) {
    const kind = watch.kind as ListedKind;
    directGets.set(resourceKey(kind, watch.resourceId), { type: 'get', kind, id: watch.resourceId });
  }
  directGets.forEach((request) => add(request));
  const byKind = groupBy(
    watches.filter((w) => !readByGet(w)),
    (w) => w.kind,
  );
  const discoveryScans = new Map<string, ListScan>();
  for (const sessionId of new Set((byKind.get('session-discovery') ?? []).map((w) => w.sessionId))) {
    for (const kind of ['archive', 'broadcast'] as const) {
      const request = scan(kind, [], { sessionId, maxPages: 1, collect: true });
      discoveryScans.set(resourceKey(kind, sessionId), request);
      add(request);
    }
  }

  for (const kind of ['archive', 'broadcast'] as const) {
    const pending: Watch[] = [];
    for (const watch of byKind.get(kind) ?? []) {
      const shared = discoveryScans.get(resourceKey(kind, watch.sessionId));
      if (shared && !shared.wanted.includes(watch.resourceId)) shared.wanted.push(watch.resourceId);
      else if (!shared) pending.push(watch);
    }
    const ids = uniqueIds(pending);
    if (ids.length === 0) continue;
    const bySession = groupBy(pending, (w) => w.sessionId);
    const unfilteredPages = ids.length >= 2 ? scanPages(kind) : Infinity;
    if (unfilteredPages < bySession.size) {
      add(scan(kind, pending, {}), unfilteredPages);
      continue;
    }
    for (const [sessionId, sessionWatches] of bySession) {
      const sessionIds = uniqueIds(sessionWatches);
      if (sessionIds.length === 1) add({ type: 'get', kind, id: sessionIds[0]! });
      else add(scan(kind, sessionWatches, { sessionId }));
    }
  }

  const renderIds = uniqueIds(byKind.get('render') ?? []);
  const renderPages = scanPages('render');
  if (renderIds.length >= 2 && renderPages < renderIds.length) {
    add(scan('render', byKind.get('render') ?? [], { maxPages: Math.min(config.maxScanPages, renderIds.length - 1) }), renderPages);
  } else {
    for (const id of renderIds) add({ type: 'get', kind: 'render', id });
  }

  const streamSessions = new Set([...(byKind.get('sip') ?? []), ...(byKind.get('audio') ?? [])].map((w) => w.sessionId));
  for (const sessionId of streamSessions) add({ type: 'streams', sessionId });

  return { requests, estimatedRequests };
}

/** Requests that reading the watches one GET (or one stream list) at a time would take. */
export function naiveRequestCount(watches: readonly Watch[]): number {
  return watches.reduce((sum, w) => sum + (w.kind === 'captions' ? 0 : w.kind === 'session-discovery' ? 2 : 1), 0);
}

/** After one page of a scan: whether another page can still hold something the scan needs. */
export function wantsNextPage(scan: ListScan, pagesRead: number, page: Page<{ createdAt: number }>, offsetAfter: number, missing: number): boolean {
  if (missing === 0 && !scan.collect) return false;
  if (pagesRead >= scan.maxPages) return false;
  if (page.items.length < scan.pageSize || offsetAfter >= page.count) return false;
  const last = page.items[page.items.length - 1];
  return !(scan.stopBefore !== undefined && last !== undefined && last.createdAt < scan.stopBefore);
}

/** GETs for the wanted items the scans did not find. */
export function planFallbacks(requests: readonly PollRequest[], fetched: Fetched): GetRequest[] {
  const gets: GetRequest[] = [];
  const planned = new Set<string>();
  for (const request of requests) {
    if (request.type !== 'scan') continue;
    for (const id of request.wanted) {
      const key = resourceKey(request.kind, id);
      if (fetched.resources.has(key) || fetched.absent.has(key) || planned.has(key)) continue;
      planned.add(key);
      gets.push({ type: 'get', kind: request.kind, id });
    }
  }
  return gets;
}

/** What each watch observed; watches whose reads did not happen (budget, failure) are left out. */
export function applyResults(watches: readonly Watch[], fetched: Fetched): Map<string, ObservedOf<WatchKind> | typeof GONE> {
  const observed = new Map<string, ObservedOf<WatchKind> | typeof GONE>();
  for (const watch of watches) {
    const value = observationFor(watch, fetched);
    if (value !== undefined) observed.set(watch.id, value);
  }
  return observed;
}

function observationFor(watch: Watch, fetched: Fetched): ObservedOf<WatchKind> | typeof GONE | undefined {
  const kind = watch.kind;
  if (isListed(kind)) {
    const key = resourceKey(kind, watch.resourceId);
    return fetched.resources.get(key) ?? (fetched.absent.has(key) ? GONE : undefined);
  }
  switch (kind) {
    case 'captions':
      return null;
    case 'sip':
    case 'audio': {
      const streamIds = fetched.streams.get(watch.sessionId);
      return streamIds && { streamIds };
    }
    case 'session-discovery': {
      const archives = fetched.sessionItems.get(resourceKey('archive', watch.sessionId)) as ListedResources['archive'][] | undefined;
      const broadcasts = fetched.sessionItems.get(resourceKey('broadcast', watch.sessionId)) as ListedResources['broadcast'][] | undefined;
      return archives && broadcasts && { archives, broadcasts };
    }
  }
}

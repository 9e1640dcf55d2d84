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
 * - SIP calls, Audio Connector connections and session consoles share one stream list per session.
 * - Captions need no request: they end by the clock.
 */
import type { ListedKind, ListedResource, ListedResources, VisitedPage } from './resources';
import type { ConsoleStream } from './snapshot';
import { ALL_SESSIONS, type DiscoverySnapshot, GONE, type ObservedOf, type WatchKind, discoveryKinds } from './snapshot';
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
  /**
   * The ids of the resources the due watches follow, each with whether a page of the scan held it
   * yet (false when planned; `executePlan` marks each as its page arrives). One table for both: a
   * second one of the ids found was ~0.4 MB a cycle at scale, garbage that outlived the cycle's
   * scavenges and made the old generation's collections more frequent.
   */
  wanted: Map<string, boolean>;
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
  /** Per kind, id → the resource. */
  resources: Record<ListedKind, Map<string, ListedResource>>;
  /** Per kind, the ids of resources the service says do not exist. */
  absent: Record<ListedKind, Set<string>>;
  /** `${kind}:${sessionId}` → every item a collecting scan saw. */
  sessionItems: Map<string, ListedResource[]>;
  /** Session id → its streams. */
  streams: Map<string, ConsoleStream[]>;
}

export const emptyFetched = (): Fetched => ({
  resources: { archive: new Map(), broadcast: new Map(), render: new Map() },
  absent: { archive: new Set(), broadcast: new Set(), render: new Set() },
  sessionItems: new Map(),
  streams: new Map(),
});

export const resourceKey = (kind: ListedKind, id: string): string => `${kind}:${id}`;

export const isListed = (kind: WatchKind): kind is ListedKind => kind === 'archive' || kind === 'broadcast' || kind === 'render';

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

/** The resources the watches follow, none found yet. */
function wantedBy(watches: readonly Watch[]): Map<string, boolean> {
  const ids = new Map<string, boolean>();
  for (const watch of watches) ids.set(watch.resourceId, false);
  return ids;
}

/** Whether the watches follow at least two resources (without collecting them all). */
const coverSeveral = (watches: readonly Watch[]): boolean => watches.some((w) => w.resourceId !== watches[0]!.resourceId);

/** Collects requests and their expected cost. */
class PlanBuilder {
  readonly requests: PollRequest[] = [];
  estimatedRequests = 0;

  constructor(
    readonly config: BatchConfig,
    readonly hints: PlanHints,
  ) {}

  add(request: PollRequest, cost = 1): void {
    this.requests.push(request);
    this.estimatedRequests += cost;
  }

  scanPages(kind: ListedKind): number {
    return this.hints.scanPages?.get(kind) ?? 1;
  }

  readByGet(watch: Watch): boolean {
    // Usually empty: then no key is built for each of thousands of watches.
    if (!this.hints.readByGet?.size) return false;
    return isListed(watch.kind) && this.hints.readByGet.has(resourceKey(watch.kind, watch.resourceId));
  }

  scan(kind: ListedKind, wanted: readonly Watch[], extra: Partial<ListScan>): ListScan {
    const stopBefore = kind === 'render' ? undefined : oldestCreatedAt(wanted);
    return {
      type: 'scan',
      kind,
      wanted: wantedBy(wanted),
      pageSize: this.config.pageSize,
      maxPages: this.config.maxScanPages,
      collect: false,
      ...(stopBefore !== undefined && { stopBefore }),
      ...extra,
    };
  }
}

/** The requests that read every due watch of one project. */
export function planRequests(watches: readonly Watch[], config: BatchConfig = DEFAULT_BATCH, hints: PlanHints = {}): RequestPlan {
  const plan = new PlanBuilder(config, hints);
  const directGets = new Map<string, GetRequest>();
  for (const watch of watches) {
    if (!plan.readByGet(watch)) continue;
    const kind = watch.kind as ListedKind;
    directGets.set(resourceKey(kind, watch.resourceId), { type: 'get', kind, id: watch.resourceId });
  }
  directGets.forEach((request) => plan.add(request));
  const byKind = groupBy(
    watches.filter((w) => !plan.readByGet(w)),
    (w) => w.kind,
  );
  const sessionScans = planDiscovery(plan, byKind.get('session-discovery') ?? []);
  for (const kind of ['archive', 'broadcast'] as const) planSessionFiltered(plan, kind, byKind.get(kind) ?? [], sessionScans);
  planRenders(plan, byKind.get('render') ?? [], sessionScans.get(resourceKey('render', ALL_SESSIONS)));
  const streamSessions = new Set(
    [...(byKind.get('sip') ?? []), ...(byKind.get('audio') ?? []), ...(byKind.get('session-console') ?? [])].map((w) => w.sessionId),
  );
  for (const sessionId of streamSessions) plan.add({ type: 'streams', sessionId });
  return { requests: plan.requests, estimatedRequests: plan.estimatedRequests };
}

const kindsOf = (watch: Watch) => discoveryKinds(watch.lastState as DiscoverySnapshot | undefined);

/**
 * One page of each watched session's archives and started broadcasts (only the kinds its
 * watches announce), returned by `${kind}:${sessionId}`; the sessions of a watch on every
 * session (ALL_SESSIONS) are read unfiltered. Composer lists take no session filter, so one
 * page of them serves every discovery watch of the project, returned by `render:*`.
 */
function planDiscovery(plan: PlanBuilder, discoveries: readonly Watch[]): Map<string, ListScan> {
  const scans = new Map<string, ListScan>();
  const add = (kind: ListedKind, sessionId: string): void => {
    const key = resourceKey(kind, sessionId);
    if (scans.has(key)) return;
    const request = plan.scan(kind, [], { sessionId, maxPages: 1, collect: true });
    scans.set(key, request);
    plan.add(request);
  };
  for (const watch of discoveries) {
    for (const kind of kindsOf(watch)) add(kind, kind === 'render' ? ALL_SESSIONS : watch.sessionId);
  }
  return scans;
}

/**
 * Archives or broadcasts: those in a session already listed for discovery ride along; the
 * rest are read by unfiltered pages when that takes fewer calls than one list per session
 * (a session with a single watch is read by GET instead of a list).
 */
function planSessionFiltered(plan: PlanBuilder, kind: 'archive' | 'broadcast', watches: readonly Watch[], sessionScans: Map<string, ListScan>): void {
  // Usually no session is read for discovery: then no key is built for each of thousands of watches.
  const pending = sessionScans.size === 0 ? watches : rideAlong(kind, watches, sessionScans);
  if (pending.length === 0) return;
  const unfilteredPages = coverSeveral(pending) ? plan.scanPages(kind) : Infinity;
  if (unfilteredPages < countSessions(pending, unfilteredPages + 1)) {
    plan.add(plan.scan(kind, pending, {}), unfilteredPages);
    return;
  }
  for (const [sessionId, sessionWatches] of groupBy(pending, (w) => w.sessionId)) {
    if (!coverSeveral(sessionWatches)) plan.add({ type: 'get', kind, id: sessionWatches[0]!.resourceId });
    else plan.add(plan.scan(kind, sessionWatches, { sessionId }));
  }
}

/** The watches whose session's list is not read for discovery; the others are wanted there. */
function rideAlong(kind: ListedKind, watches: readonly Watch[], sessionScans: Map<string, ListScan>): Watch[] {
  const pending: Watch[] = [];
  for (const watch of watches) {
    const shared = sessionScans.get(resourceKey(kind, watch.sessionId));
    if (!shared) pending.push(watch);
    else shared.wanted.set(watch.resourceId, false);
  }
  return pending;
}

/** How many sessions the watches are in, counted up to `enough`. */
function countSessions(watches: readonly Watch[], enough: number): number {
  const sessions = new Set<string>();
  for (const watch of watches) {
    sessions.add(watch.sessionId);
    if (sessions.size >= enough) break;
  }
  return sessions.size;
}

/**
 * Composers: ride along the discovery page when there is one (what it misses is read by GET),
 * else pages only while fewer than one GET per watch, since nothing says where they sit.
 */
function planRenders(plan: PlanBuilder, watches: readonly Watch[], shared: ListScan | undefined): void {
  const ids = wantedBy(watches);
  if (shared) {
    for (const id of ids.keys()) shared.wanted.set(id, false);
    return;
  }
  const pages = plan.scanPages('render');
  if (ids.size >= 2 && pages < ids.size) {
    plan.add(plan.scan('render', watches, { maxPages: Math.min(plan.config.maxScanPages, ids.size - 1) }), pages);
  } else {
    for (const id of ids.keys()) plan.add({ type: 'get', kind: 'render', id });
  }
}

/** Requests that reading the watches one GET (or one stream list) at a time would take. */
export function naiveRequestCount(watches: readonly Watch[]): number {
  return watches.reduce((sum, w) => sum + (w.kind === 'captions' ? 0 : w.kind === 'session-discovery' ? kindsOf(w).length : 1), 0);
}

/** After one page of a scan: whether another page can still hold something the scan needs. */
export function wantsNextPage(scan: ListScan, pagesRead: number, page: VisitedPage<{ createdAt: number }>, offsetAfter: number, missing: number): boolean {
  if (missing === 0 && !scan.collect) return false;
  if (pagesRead >= scan.maxPages) return false;
  if (page.length < scan.pageSize || offsetAfter >= page.count) return false;
  return !(scan.stopBefore !== undefined && page.last !== undefined && page.last.createdAt < scan.stopBefore);
}

/** GETs for the wanted items the scans did not find. */
export function planFallbacks(requests: readonly PollRequest[], fetched: Fetched): GetRequest[] {
  const gets: GetRequest[] = [];
  const planned = new Set<string>();
  for (const request of requests) {
    if (request.type !== 'scan') continue;
    const [read, absent] = [fetched.resources[request.kind], fetched.absent[request.kind]];
    for (const [id, found] of request.wanted) {
      if (found || read.has(id) || absent.has(id)) continue;
      const key = resourceKey(request.kind, id);
      if (planned.has(key)) continue;
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
    const id = watch.resourceId;
    return fetched.resources[kind].get(id) ?? (fetched.absent[kind].has(id) ? GONE : undefined);
  }
  switch (kind) {
    case 'captions':
      return null;
    case 'sip':
    case 'audio': {
      const streams = fetched.streams.get(watch.sessionId);
      return streams && { streamIds: streams.map((s) => s.id) };
    }
    case 'session-console': {
      const streams = fetched.streams.get(watch.sessionId);
      return streams && { streams };
    }
    case 'session-discovery': {
      // Kinds the watch does not announce were not read: they count as empty.
      const kinds = kindsOf(watch);
      const read = <K extends ListedKind>(kind: K, sessionId: string): ListedResources[K][] | undefined =>
        kinds.includes(kind) ? (fetched.sessionItems.get(resourceKey(kind, sessionId)) as ListedResources[K][] | undefined) : [];
      const archives = read('archive', watch.sessionId);
      const broadcasts = read('broadcast', watch.sessionId);
      const renders = read('render', ALL_SESSIONS);
      if (!archives || !broadcasts || !renders) return undefined;
      const inSession = watch.sessionId === ALL_SESSIONS ? renders : renders.filter((r) => r.sessionId === watch.sessionId);
      return kinds.includes('render') ? { archives, broadcasts, renders: inSession } : { archives, broadcasts };
    }
  }
}

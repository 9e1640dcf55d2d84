/**
 * Runs one project's request plan against a PollSource: every call first takes a token from
 * the project's budget, pages are read only while a scan still needs them, and GETs follow for
 * what the lists did not hold. A read that fails in passing (`PollSource.isPassing`) before any
 * of its items was handed over is made once more at once, for another token. The first failure
 * beyond that or an empty budget ends the run; what was read until then is kept.
 */
import {
  type Fetched,
  type GetRequest,
  type ListScan,
  type PollRequest,
  type RequestPlan,
  emptyFetched,
  planFallbacks,
  resourceKey,
  wantsNextPage,
} from './batch';
import { ArrayItems } from '../api/lists';
import type { ListAndGet, ListedKind, ListedResource, PageItems, PollSource, VisitedPage } from './resources';
import { ALL_SESSIONS, consoleStreams } from './snapshot';

export interface Execution {
  fetched: Fetched;
  requestsMade: number;
  /** Pages read by each unfiltered scan, by kind; how deep the wanted items sit. */
  scanPages: Map<ListedKind, number>;
  /** `${kind}:${id}` of items a scan that ran did not hold, left unread when the budget ran out. */
  unread: string[];
  budgetExhausted: boolean;
  /** Reads made again after failing in passing (counted in `requestsMade` too). */
  retried: number;
  /** Set when a call failed; the calls after it were not made. */
  failure?: unknown;
}

class BudgetExhausted extends Error {}

/**
 * Called with each item a list page holds (item `index` of `items`), as the page arrives; true
 * when the caller has dealt with it (a wanted item is then not kept in `fetched`, only marked
 * found in its scan's `wanted`). A caller that settles an item by its id and version alone never builds it.
 */
export type SettleRead = (kind: ListedKind, items: PageItems<ListedResource>, index: number) => boolean;

export async function executePlan(
  projectName: string,
  plan: RequestPlan,
  source: PollSource,
  takeToken: () => boolean,
  settle: SettleRead = () => false,
): Promise<Execution> {
  const fetched = emptyFetched();
  const scanPages = new Map<ListedKind, number>();
  let requestsMade = 0;
  let retried = 0;

  /** A read for a token; once more, for another, when it failed in passing and `untouched` (nothing of it handed over). */
  const call = async <T>(read: () => Promise<T>, untouched: () => boolean = () => true): Promise<T> => {
    if (!takeToken()) throw new BudgetExhausted();
    requestsMade += 1;
    try {
      return await read();
    } catch (error) {
      if (!source.isPassing?.(error) || !untouched() || !takeToken()) throw error;
      requestsMade += 1;
      retried += 1;
      return read();
    }
  };

  /** One page, its items handed to `visit` as they are parsed (`listEach`) or once it has arrived. */
  const readPage = (
    kind: ListedKind,
    offset: number,
    count: number,
    sessionId: string | undefined,
    visit: (items: PageItems<ListedResource>) => void,
  ): Promise<VisitedPage<ListedResource>> => {
    // A watch on every session reads the unfiltered list.
    const query = { offset, count, ...(sessionId !== undefined && sessionId !== ALL_SESSIONS && { sessionId }) };
    if (kind === 'archive') return pageOf(source.archives, projectName, query, visit);
    if (kind === 'broadcast') return pageOf(source.broadcasts, projectName, query, visit);
    return pageOf(source.renders, projectName, { offset, count }, visit);
  };

  const get = (kind: ListedKind, id: string): Promise<ListedResource | undefined> =>
    kind === 'archive'
      ? source.archives.get(projectName, id)
      : kind === 'broadcast'
        ? source.broadcasts.get(projectName, id)
        : source.renders.get(projectName, id);

  const startedScans: ListScan[] = [];
  const runScan = async (scan: ListScan): Promise<void> => {
    const wanted = scan.wanted;
    // Wanted items found so far: each is read (kept in `read`) or settled at once, and marked in `wanted`.
    let found = 0;
    const read = fetched.resources[scan.kind];
    const collected: ListedResource[] = [];
    let offset = 0;
    let pages = 0;
    let finished = false;
    try {
      let handedOver = 0;
      // Each piece of a page as it is parsed: a page's items do not all live at once.
      const take = (items: PageItems<ListedResource>): void => {
        handedOver += items.length;
        for (let i = 0; i < items.length; i++) {
          const id = items.id(i);
          const seen = wanted.get(id);
          if (!settle(scan.kind, items, i) && seen !== undefined) read.set(id, items.item(i));
          // An item seen twice (a page shifted under the scan) is found once.
          if (seen === false) {
            wanted.set(id, true);
            found += 1;
          }
          if (scan.collect) collected.push(items.item(i));
        }
      };
      for (;;) {
        handedOver = 0;
        const page = await call(
          () => readPage(scan.kind, offset, scan.pageSize, scan.sessionId, take),
          () => handedOver === 0,
        );
        if (pages === 0) startedScans.push(scan);
        pages += 1;
        offset += page.length;
        if (!wantsNextPage(scan, pages, page, offset, wanted.size - found)) break;
      }
      finished = true;
    } finally {
      // A scan cut short needed at least one page more than it read.
      if (scan.sessionId === undefined && pages > 0) scanPages.set(scan.kind, finished ? pages : pages + 1);
    }
    if (scan.collect && scan.sessionId !== undefined) fetched.sessionItems.set(resourceKey(scan.kind, scan.sessionId), collected);
  };

  const runGet = async (request: GetRequest): Promise<void> => {
    const resource = await call(() => get(request.kind, request.id));
    if (resource) fetched.resources[request.kind].set(request.id, resource);
    else fetched.absent[request.kind].add(request.id);
  };

  const run = async (request: PollRequest): Promise<void> => {
    if (request.type === 'scan') return runScan(request);
    if (request.type === 'get') return runGet(request);
    const streams = await call(() => source.streams.list(projectName, request.sessionId));
    fetched.streams.set(request.sessionId, consoleStreams(streams));
  };

  let budgetExhausted = false;
  let failure: unknown;
  try {
    for (const request of plan.requests) await run(request);
    for (const request of planFallbacks(plan.requests, fetched)) await run(request);
  } catch (error) {
    if (error instanceof BudgetExhausted) budgetExhausted = true;
    else failure = error;
  }
  const unread = budgetExhausted ? planFallbacks(startedScans, fetched).map((g) => resourceKey(g.kind, g.id)) : [];
  return { fetched, requestsMade, retried, scanPages, unread, budgetExhausted, ...(failure !== undefined && { failure }) };
}

/** A page of `source`, read with `listEach` where the source has it. */
async function pageOf<T extends object, Q>(
  source: ListAndGet<T, Q>,
  projectName: string,
  query: Q,
  visit: (items: PageItems<T>) => void,
): Promise<VisitedPage<T>> {
  if (source.listEach) return source.listEach(projectName, query, visit);
  const page = await source.list(projectName, query);
  visit(new ArrayItems(page.items));
  return { count: page.count, length: page.items.length, last: page.items[page.items.length - 1] };
}

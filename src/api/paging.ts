import type { Page } from './schemas';
import { optionalIntInRange } from './validate';

export const MAX_PAGE_SIZE = 1000;

export interface ListAllOptions {
  /** Items per request, 1–1000 (default 1000). */
  pageSize?: number;
}

/**
 * Walks an offset/count listing to its end. Listings are newest first, so an item created while
 * paging shifts older ones to the next page; ids already yielded are skipped.
 */
export async function* paginate<T extends { id?: unknown }>(
  fetchPage: (offset: number, count: number) => Promise<Page<T>>,
  pageSize: number | undefined,
): AsyncGenerator<T, void, undefined> {
  const count = optionalIntInRange('pageSize', pageSize, 1, MAX_PAGE_SIZE, 500) ?? MAX_PAGE_SIZE;
  const seen = new Set<unknown>();
  for (let offset = 0; ;) {
    const page = await fetchPage(offset, count);
    for (const item of page.items) {
      if (item.id !== undefined && seen.has(item.id)) continue;
      if (item.id !== undefined) seen.add(item.id);
      yield item;
    }
    offset += page.items.length;
    if (page.items.length < count || offset >= page.count) return;
  }
}

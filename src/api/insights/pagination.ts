import { InsightsError } from './errors';

export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** Items one by one across pages; `pages()` gives whole pages. */
export interface PageIterator<T> extends AsyncIterable<T> {
  pages(): AsyncIterable<Page<T>>;
}

export function paginate<T>(fetchPage: (endCursor: string | undefined) => Promise<Page<T>>, startCursor?: string): PageIterator<T> {
  async function* pages(): AsyncGenerator<Page<T>> {
    let cursor = startCursor;
    const seen = new Set<string>();
    for (;;) {
      const page = await fetchPage(cursor);
      yield page;
      if (!page.hasNextPage) return;
      // A next page without a new cursor would loop forever on the same page.
      if (page.endCursor === null || seen.has(page.endCursor)) {
        throw new InsightsError('Insights said more results exist but gave no new cursor to fetch them.', {
          code: 'MALFORMED_RESPONSE',
        });
      }
      seen.add(page.endCursor);
      cursor = page.endCursor;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

/** Every item of an async iterable, in order. */
export async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

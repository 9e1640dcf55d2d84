import { CODES, InsightsError } from './codes';

/** Page sizes when `first` is absent, and the largest `first` accepted. */
export const DEFAULT_PAGE_SIZE = 100;
/** Stream statistics come every 30 s: the default covers a publisher of about 8 hours. */
export const DEFAULT_STATS_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;

export interface PageArgs {
  first?: number | null;
  endCursor?: string | null;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PREFIX = 'cursor:';

/** Opaque to clients: base64url of the position of the last item of a page. */
export const cursorAt = (index: number): string => Buffer.from(`${PREFIX}${index}`, 'utf8').toString('base64url');

function positionOf(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const n = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new InsightsError(CODES.invalidParameter, `Invalid endCursor '${cursor}'`);
  return n;
}

export interface PageWindow {
  offset: number;
  size: number;
  totalCount: number;
  pageInfo: Page<never>['pageInfo'];
}

/**
 * Which of `total` items a page holds: those after `endCursor` (an empty cursor, as the
 * dashboard sends on its first call, means the start), at most `first` of them.
 */
export function pageWindow(total: number, args: PageArgs, defaultSize = DEFAULT_PAGE_SIZE): PageWindow {
  const first = args.first ?? defaultSize;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new InsightsError(CODES.invalidParameter, `'first' must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  const offset = Math.min(total, args.endCursor ? positionOf(args.endCursor) + 1 : 0);
  const size = Math.min(first, total - offset);
  return {
    offset,
    size,
    totalCount: total,
    pageInfo: {
      hasNextPage: offset + size < total,
      endCursor: size > 0 ? cursorAt(offset + size - 1) : args.endCursor || null,
    },
  };
}

export function paginate<T>(all: readonly T[], args: PageArgs, defaultSize = DEFAULT_PAGE_SIZE): Page<T> {
  const w = pageWindow(all.length, args, defaultSize);
  return { items: all.slice(w.offset, w.offset + w.size), totalCount: w.totalCount, pageInfo: w.pageInfo };
}

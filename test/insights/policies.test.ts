import { z } from 'zod';
import { collectAll, INSIGHTS_RETRY, isRetryable, paginate, retryDelayMs, sharedLimiter, shouldRetry, SlidingWindowLimiter } from '../../src/api/insights';
import { describeInsightsCode, redact } from '../../src/api/insights/errors';
import { parseRetryAfter } from '../../src/api/insights/retry';
import { timestamp } from '../../src/api/insights/schemas';
import { FakeClock, flush } from './fakeClock';

describe('SlidingWindowLimiter', () => {
  it('grants `limit` at once, then one more each time the oldest leaves the window', async () => {
    const clock = new FakeClock(0);
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1_000, clock });
    const granted: number[] = [];
    const all = [0, 1, 2, 3, 4].map((i) => limiter.acquire().then(() => granted.push(i)));
    await flush();
    expect(granted).toEqual([0, 1, 2]);
    await clock.advance(999);
    expect(granted).toEqual([0, 1, 2]);
    await clock.advance(1);
    await flush();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(all);
    expect(limiter.inWindow()).toBe(2);
  });

  it('spreads grants so that no 30 s window ever holds 100', async () => {
    const clock = new FakeClock(0);
    const limiter = new SlidingWindowLimiter({ clock });
    const times: number[] = [];
    const all = Array.from({ length: 250 }, () => limiter.acquire().then(() => times.push(clock.now())));
    while (times.length < 250) {
      await flush();
      await clock.advance(500);
    }
    await Promise.all(all);
    for (let i = 0; i + 99 < times.length; i++) expect(times[i + 99]! - times[i]!).toBeGreaterThanOrEqual(30_000);
  });

  it('lets a waiting caller give up with its signal without blocking the queue', async () => {
    const clock = new FakeClock(0);
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 1_000, clock });
    await limiter.acquire();
    const controller = new AbortController();
    const abandoned = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error('stop'));
    await expect(abandoned).rejects.toThrow('stop');
    await clock.advance(1_000);
    await expect(next).resolves.toBeUndefined();
  });

  it('is shared by every client of one key', () => {
    expect(sharedLimiter('key-a')).toBe(sharedLimiter('key-a'));
    expect(sharedLimiter('key-a')).not.toBe(sharedLimiter('key-b'));
  });
});

describe('retry policy', () => {
  it.each([
    [{ kind: 'network' } as const, true],
    [{ kind: 'timeout' } as const, true],
    [{ kind: 'status', status: 500 } as const, true],
    [{ kind: 'status', status: 503 } as const, true],
    [{ kind: 'status', status: 429 } as const, true],
    [{ kind: 'status', status: 400 } as const, false],
    [{ kind: 'status', status: 403 } as const, false],
    [{ kind: 'graphql', errorCode: 1012 } as const, true],
    [{ kind: 'graphql', errorCode: 1002 } as const, false],
    [{ kind: 'graphql' } as const, false],
  ])('%j retryable: %s', (failure, expected) => {
    expect(isRetryable(failure)).toBe(expected);
  });

  it('stops after maxRetries and on a Retry-After too long to wait', () => {
    expect(shouldRetry({ kind: 'network' }, 1, INSIGHTS_RETRY)).toBe(true);
    expect(shouldRetry({ kind: 'network' }, 2, INSIGHTS_RETRY)).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 429, retryAfterMs: 120_000 }, 0, INSIGHTS_RETRY)).toBe(false);
  });

  it('backs off exponentially with full jitter, capped, and honours Retry-After', () => {
    const policy = { maxRetries: 5, baseDelayMs: 300, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3].map((n) => retryDelayMs({ kind: 'network' }, n, policy, () => 1))).toEqual([300, 600, 1_000, 1_000]);
    expect(retryDelayMs({ kind: 'network' }, 3, policy, () => 0)).toBe(0);
    expect(retryDelayMs({ kind: 'status', status: 429, retryAfterMs: 7_000 }, 0, policy, () => 1)).toBe(7_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 4, 18);
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(new Date(now + 5_000).toUTCString(), now)).toBe(5_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('error text', () => {
  it('adds the server detail only where it helps', () => {
    expect(describeInsightsCode(1014, 'project sessionData: This query requires the Advanced Insights add-on')).toBe(
      'Per-session data needs the Advanced Insights add-on on this project.',
    );
    expect(describeInsightsCode(1002, 'end is before start.')).toBe('The date range is invalid: end is before start.');
    expect(describeInsightsCode(1002)).toBe('The date range is invalid: the start must come before the end, and daily data goes back 90 days only.');
    expect(describeInsightsCode(9999, 'something odd')).toBe('Insights returned an error: something odd.');
  });

  it('redacts secrets and token-shaped strings, and shortens long text', () => {
    expect(redact('key s3cr3t and eyJhbGciOi.eyJpc3Mi.sig-_x', ['s3cr3t'])).toBe('key [secret] and [token]');
    expect(redact('x'.repeat(1_000), [])).toHaveLength(300);
  });
});

describe('timestamps', () => {
  it.each([
    ['2026-10-26T07:00:00.000Z', Date.UTC(2026, 9, 26, 7)],
    [Date.UTC(2026, 9, 26, 7), Date.UTC(2026, 9, 26, 7)],
    [Date.UTC(2026, 9, 26, 7) / 1000, Date.UTC(2026, 9, 26, 7)],
    ['1793084400', 1793084400_000],
    [null, null],
  ])('%j → %j', (input, expected) => {
    expect(timestamp.parse(input)).toBe(expected);
  });

  it('rejects what is not a time', () => {
    expect(z.object({ t: timestamp }).safeParse({ t: 'yesterday' }).success).toBe(false);
  });
});

describe('paginate', () => {
  it('yields items in order and stops on the last page', async () => {
    const cursors: (string | undefined)[] = [];
    const pages = [
      { items: [1, 2], hasNextPage: true, endCursor: 'a' },
      { items: [3], hasNextPage: true, endCursor: 'b' },
      { items: [], hasNextPage: false, endCursor: null },
    ];
    const items = await collectAll(
      paginate(async (cursor) => {
        cursors.push(cursor);
        return pages[cursors.length - 1]!;
      }),
    );
    expect(items).toEqual([1, 2, 3]);
    expect(cursors).toEqual([undefined, 'a', 'b']);
  });

  it('refuses a next page without a cursor', async () => {
    await expect(collectAll(paginate(async () => ({ items: [1], hasNextPage: true, endCursor: null })))).rejects.toThrow('no new cursor');
  });
});

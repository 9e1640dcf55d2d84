/** The limits Vonage support documents for Insights: fewer than 100 requests per 30 s per API key, at most 500,000 nodes per query. */
export const RATE_LIMIT_REQUESTS = 100;
export const RATE_LIMIT_WINDOW_MS = 30_000;
export const MAX_NODES = 500_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** A sliding 30-second window per API key on the emulator clock (tests move it with advanceTime). */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  hit(key: string, now: number): RateDecision {
    const recent = (this.hits.get(key) ?? []).filter((at) => at > now - RATE_LIMIT_WINDOW_MS);
    if (recent.length >= RATE_LIMIT_REQUESTS) {
      this.hits.set(key, recent);
      return { allowed: false, retryAfterMs: (recent[0] ?? now) + RATE_LIMIT_WINDOW_MS - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true };
  }

  reset(): void {
    this.hits.clear();
  }
}

/** Nodes of an answer: every value below `data` (objects, list items, scalars) counts one. */
export function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + 1 + countNodes(item), 0);
  if (value !== null && typeof value === 'object') {
    return Object.values(value).reduce((n: number, child) => n + 1 + countNodes(child), 0);
  }
  return 0;
}

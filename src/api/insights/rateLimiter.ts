import { systemClock, type Clock } from './clock';

export interface RateLimiter {
  /** Resolves when one more request may be sent; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
}

export interface SlidingWindowOptions {
  limit?: number;
  windowMs?: number;
  clock?: Clock;
}

/** Insights accepts fewer than 100 requests per 30 s per API key. */
export const INSIGHTS_RATE_LIMIT = { limit: 99, windowMs: 30_000 } as const;

/**
 * At most `limit` grants in any `windowMs`. Callers are served first come, first served: each
 * waits behind the previous one, so a burst drains in order instead of racing on every wake-up.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly grants: number[] = [];
  private tail: Promise<void> = Promise.resolve();

  constructor(options: SlidingWindowOptions = {}) {
    this.limit = options.limit ?? INSIGHTS_RATE_LIMIT.limit;
    this.windowMs = options.windowMs ?? INSIGHTS_RATE_LIMIT.windowMs;
    this.clock = options.clock ?? systemClock;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.tail.then(() => this.waitForSlot(signal));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /** Grants still counting against the window (for tests and metrics). */
  inWindow(): number {
    this.prune(this.clock.now());
    return this.grants.length;
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.clock.now();
      this.prune(now);
      if (this.grants.length < this.limit) {
        this.grants.push(now);
        return;
      }
      await this.clock.sleep(this.grants[0]! + this.windowMs - now, signal);
    }
  }

  private prune(now: number): void {
    while (this.grants.length > 0 && this.grants[0]! + this.windowMs <= now) this.grants.shift();
  }
}

const sharedByKey = new Map<string, SlidingWindowLimiter>();

/** The one limiter of this process for an API key, shared by every client using that key. */
export function sharedLimiter(projectId: string): RateLimiter {
  let limiter = sharedByKey.get(projectId);
  if (!limiter) {
    limiter = new SlidingWindowLimiter();
    sharedByKey.set(projectId, limiter);
  }
  return limiter;
}

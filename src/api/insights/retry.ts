/** When an Insights request is tried again. Every Insights request is a read, so any transient
 * failure may be retried, including after the request was sent. */

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const INSIGHTS_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 2, baseDelayMs: 300, maxDelayMs: 5_000 });
/** For tests: retries at once. */
export const INSIGHTS_RETRY_FAST: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 2, baseDelayMs: 0, maxDelayMs: 0 });
export const INSIGHTS_RETRY_NONE: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 });

/** Longest server hint we wait for before giving up the retry and reporting the failure. */
export const MAX_RETRY_AFTER_MS = 30_000;

export type AttemptFailure =
  { kind: 'network' } | { kind: 'timeout' } | { kind: 'status'; status: number; retryAfterMs?: number } | { kind: 'graphql'; errorCode?: number };

/** 1012 is the service's "internal server error" reported inside a GraphQL answer. */
const RETRYABLE_ERROR_CODES: ReadonlySet<number> = new Set([1012]);

export function isRetryable(failure: AttemptFailure): boolean {
  switch (failure.kind) {
    case 'network':
    case 'timeout':
      return true;
    case 'status':
      return failure.status === 429 || failure.status >= 500;
    case 'graphql':
      return failure.errorCode !== undefined && RETRYABLE_ERROR_CODES.has(failure.errorCode);
  }
}

export function shouldRetry(failure: AttemptFailure, retriesDone: number, policy: RetryPolicy): boolean {
  if (retriesDone >= policy.maxRetries || !isRetryable(failure)) return false;
  return !(failure.kind === 'status' && (failure.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS);
}

/** Exponential back-off with full jitter, capped; a server Retry-After wins. */
export function retryDelayMs(failure: AttemptFailure, retriesDone: number, policy: RetryPolicy, random: () => number = Math.random): number {
  if (failure.kind === 'status' && failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesDone);
  return Math.round(ceiling * random());
}

/** Retry-After as seconds or an HTTP date → ms from `nowMs`. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

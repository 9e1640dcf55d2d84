/**
 * Pure retry decisions: which failed attempts may be repeated, and how long to wait.
 * No I/O here, so every rule is covered by table tests.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries: number;
  /** Backoff ceiling before jitter for attempt n is min(maxDelayMs, baseDelayMs * 2^n). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After hint longer than this is not waited for: the error goes to the caller instead. */
  maxRetryAfterMs: number;
}

export const RETRY_DEFAULT: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
});

/** Tiny delays for tests. */
export const RETRY_FAST: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 1,
  maxDelayMs: 5,
  maxRetryAfterMs: 20_000,
});

export const RETRY_NONE: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 0,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxRetryAfterMs: 0,
});

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What happened to one attempt, in the terms the retry rules need. */
export type AttemptFailure =
  | { kind: 'status'; status: number }
  /** `requestSent` false only when the connection failed before any byte of the request left. */
  | { kind: 'network'; requestSent: boolean }
  | { kind: 'timeout'; phase: 'connect' | 'headers' | 'body' | 'deadline' }
  /** Aborted by the caller, invalid 2xx body, and anything else retrying cannot fix. */
  | { kind: 'final' };

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

export function isIdempotent(method: HttpMethod): boolean {
  return IDEMPOTENT.has(method);
}

/**
 * Whether the failure is safe and useful to retry, ignoring how many retries are left.
 * A POST/PATCH that reached the server may have taken effect (an archive started), so it is
 * repeated only when it provably did not: the connection never opened, or the server said 429.
 */
export function isRetryable(method: HttpMethod, failure: AttemptFailure): boolean {
  switch (failure.kind) {
    case 'status':
      if (failure.status === 429) return true;
      return failure.status >= 500 && isIdempotent(method);
    case 'network':
      return !failure.requestSent || isIdempotent(method);
    case 'timeout':
      if (failure.phase === 'deadline') return false;
      return failure.phase === 'connect' || isIdempotent(method);
    case 'final':
      return false;
  }
}

export function shouldRetry(method: HttpMethod, failure: AttemptFailure, retriesDone: number, policy: RetryPolicy): boolean {
  return retriesDone < policy.maxRetries && isRetryable(method, failure);
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^retriesDone)). */
export function backoffDelayMs(retriesDone: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesDone);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt: the server's Retry-After first, else backoff.
 * Returns undefined when the hint exceeds the policy's patience.
 */
export function retryDelayMs(
  retriesDone: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxRetryAfterMs ? retryAfterMs : undefined;
  return backoffDelayMs(retriesDone, policy, random);
}

/** Parses Retry-After (delta seconds or HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

import {
  type AttemptFailure,
  type HttpMethod,
  RETRY_DEFAULT,
  RETRY_FAST,
  backoffDelayMs,
  isRetryable,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
} from '../../src/api/retry';

const status = (code: number): AttemptFailure => ({ kind: 'status', status: code });
const refused: AttemptFailure = { kind: 'network', requestSent: false };
const reset: AttemptFailure = { kind: 'network', requestSent: true };
const timeout = (phase: 'connect' | 'headers' | 'body' | 'deadline'): AttemptFailure => ({ kind: 'timeout', phase });

describe('isRetryable', () => {
  const table: Array<[HttpMethod, AttemptFailure, boolean, string]> = [
    ['GET', status(500), true, 'idempotent 500'],
    ['PUT', status(503), true, 'idempotent 503'],
    ['DELETE', status(502), true, 'idempotent 502'],
    ['GET', status(429), true, 'rate limited GET'],
    ['POST', status(429), true, 'rate limited POST: the server did not process it'],
    ['PATCH', status(429), true, 'rate limited PATCH'],
    ['POST', status(500), false, 'POST 500 may have taken effect'],
    ['PATCH', status(503), false, 'PATCH 503 may have taken effect'],
    ['GET', status(400), false, 'client error'],
    ['GET', status(403), false, 'auth error'],
    ['GET', status(404), false, 'not found'],
    ['GET', status(408), false, '408 here means an invalid stream ID'],
    ['GET', status(409), false, 'conflict'],
    ['POST', refused, true, 'POST never sent (ECONNREFUSED)'],
    ['PATCH', refused, true, 'PATCH never sent'],
    ['GET', refused, true, 'GET never sent'],
    ['GET', reset, true, 'GET reset after sending'],
    ['DELETE', reset, true, 'DELETE reset after sending'],
    ['POST', reset, false, 'POST reset after sending'],
    ['PATCH', reset, false, 'PATCH reset after sending'],
    ['POST', timeout('connect'), true, 'POST connect timeout: not sent'],
    ['POST', timeout('headers'), false, 'POST headers timeout: sent'],
    ['POST', timeout('body'), false, 'POST body timeout: sent'],
    ['GET', timeout('headers'), true, 'GET headers timeout'],
    ['PUT', timeout('body'), true, 'PUT body timeout'],
    ['GET', timeout('deadline'), false, 'call budget used up'],
    ['GET', { kind: 'final' }, false, 'malformed body / aborted'],
  ];
  test.each(table)('%s %j → %s (%s)', (method, failure, expected) => {
    expect(isRetryable(method, failure)).toBe(expected);
  });
});

describe('shouldRetry', () => {
  test('stops when retries are used up', () => {
    const policy = { ...RETRY_FAST, maxRetries: 2 };
    expect(shouldRetry('GET', status(500), 0, policy)).toBe(true);
    expect(shouldRetry('GET', status(500), 1, policy)).toBe(true);
    expect(shouldRetry('GET', status(500), 2, policy)).toBe(false);
  });
  test('maxRetries 0 never retries', () => {
    expect(shouldRetry('GET', status(503), 0, { ...RETRY_DEFAULT, maxRetries: 0 })).toBe(false);
  });
});

describe('backoffDelayMs (full jitter, capped)', () => {
  const policy = { maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
  test.each([
    [0, 1, 99],
    [1, 1, 199],
    [2, 1, 399],
    [3, 1, 799],
    [4, 1, 999],
    [9, 1, 999],
    [3, 0, 0],
    [3, 0.5, 400],
  ])('retry %i with random %f → %i ms', (retriesDone, random, expected) => {
    expect(backoffDelayMs(retriesDone, policy, () => (random === 1 ? 0.9999999 : random))).toBe(expected);
  });
  test('always within [0, ceiling)', () => {
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelayMs(i % 8, policy);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(Math.min(1000, 100 * 2 ** (i % 8)));
    }
  });
});

describe('retryDelayMs', () => {
  const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
  test('Retry-After wins over backoff', () => {
    expect(retryDelayMs(0, policy, 3000, () => 0.5)).toBe(3000);
  });
  test('Retry-After of 0 retries at once', () => {
    expect(retryDelayMs(2, policy, 0, () => 0.5)).toBe(0);
  });
  test('a hint beyond the policy is not waited for', () => {
    expect(retryDelayMs(0, policy, 5001)).toBeUndefined();
  });
  test('without a hint: backoff', () => {
    expect(retryDelayMs(1, policy, undefined, () => 0.5)).toBe(100);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  test.each<[string | undefined | null, number | undefined]>([
    ['0', 0],
    ['1', 1000],
    ['120', 120_000],
    [' 7 ', 7000],
    ['Wed, 01 May 2024 12:00:30 GMT', 30_000],
    ['Wed, 01 May 2024 11:59:00 GMT', 0],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
    [null, undefined],
  ])('%j → %j', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

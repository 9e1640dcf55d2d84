import { setTimeout as delay } from 'node:timers/promises';

/** Time source for token claims, rate limiting and retry back-off; tests pass a fake one. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => (ms <= 0 ? Promise.resolve() : delay(ms, undefined, { signal })),
};

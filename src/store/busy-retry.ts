/**
 * The app's own SQLite connection never waits for a lock on the event loop. With a second
 * connection writing to the same file (the poller's thread, another replica, the secrets CLI),
 * SQLite's busy handler would sleep in C — 1, 2, 5, 10… ms — and every Slack request behind it
 * would wait too. Instead the connection fails at once (busy_timeout 0) and the store call is
 * tried again on a later turn of the event loop, for up to `deadlineMs`.
 *
 * Safe because every store method is one write unit (one statement or one transaction): SQLite
 * reports SQLITE_BUSY before that unit changed anything, and a failed transaction is rolled back.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

export const BUSY_DEADLINE_MS = 5_000;

const isBusy = (error: unknown): boolean =>
  typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

/** Runs `call` until it does not fail with SQLITE_BUSY: on the next turns first, then after 1, 2, 4… ms (at most 10). */
export async function whenNotBusy<T>(call: () => Promise<T>, deadlineMs = BUSY_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      if (attempt < 3) await nextTurn();
      else await sleep(Math.min(10, 2 ** (attempt - 3)));
    }
  }
}

/** `store` with every method that returns a promise tried again while SQLite is busy. */
export function retryingWhenBusy<T extends object>(store: T, deadlineMs = BUSY_DEADLINE_MS): T {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const first = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(first instanceof Promise)) return first;
        return first.catch((error: unknown) => {
          if (!isBusy(error)) throw error;
          return whenNotBusy(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args), deadlineMs);
        });
      };
    },
  });
}

import type { Clock } from '../../src/api/insights';

interface Sleeper {
  until: number;
  resolve: () => void;
}

/** A clock that only moves when a test says so. Sleeps resolve when `advance` passes their end. */
export class FakeClock implements Clock {
  private sleepers: Sleeper[] = [];
  private sleepWaiters: ((ms: number) => void)[] = [];
  readonly sleeps: number[] = [];

  constructor(private current = Date.UTC(2026, 10, 4, 18)) {}

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    for (const w of this.sleepWaiters.splice(0)) w(ms);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const sleeper = { until: this.current + ms, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal.reason);
      });
    });
  }

  /** Resolves with the duration of the next sleep someone starts (or one already pending). */
  nextSleep(): Promise<number> {
    const pending = this.sleepers[0];
    if (pending) return Promise.resolve(pending.until - this.current);
    return new Promise((resolve) => this.sleepWaiters.push(resolve));
  }

  pendingSleeps(): number {
    return this.sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    this.current += ms;
    const due = this.sleepers.filter((s) => s.until <= this.current);
    this.sleepers = this.sleepers.filter((s) => s.until > this.current);
    for (const s of due) s.resolve();
    await flush();
  }
}

/** Lets pending promise callbacks run (no wall-clock wait). */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

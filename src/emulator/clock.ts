export type ClockMode = 'manual' | 'real';

/**
 * Emulator time. `manual`: starts at `startTime` and moves only when advanced.
 * `real`: wall clock plus whatever was advanced. While a scheduled task runs, time is pinned
 * to the task's due time so every timestamp it writes is exact.
 */
export class Clock {
  private offset = 0;
  private pinned: number | undefined;

  constructor(
    readonly mode: ClockMode,
    private readonly startTime: number,
  ) {}

  now(): number {
    if (this.pinned !== undefined) return this.pinned;
    return (this.mode === 'manual' ? this.startTime : Date.now()) + this.offset;
  }

  shift(ms: number): void {
    this.offset += ms;
  }

  pin(at: number | undefined): void {
    this.pinned = at;
  }

  reset(): void {
    this.offset = 0;
    this.pinned = undefined;
  }
}

interface Task {
  key: string;
  dueAt: number;
  seq: number;
  run: () => void;
}

/** Keyed one-shot timers on the emulator clock. Scheduling a key again replaces the earlier task. */
export class Scheduler {
  private readonly tasks = new Map<string, Task>();
  private seq = 0;

  constructor(private readonly clock: Clock) {}

  after(key: string, delayMs: number, run: () => void): void {
    this.at(key, this.clock.now() + delayMs, run);
  }

  at(key: string, dueAt: number, run: () => void): void {
    this.tasks.set(key, { key, dueAt, seq: ++this.seq, run });
  }

  has(key: string): boolean {
    return this.tasks.has(key);
  }

  dueAt(key: string): number | undefined {
    return this.tasks.get(key)?.dueAt;
  }

  cancel(key: string): void {
    this.tasks.delete(key);
  }

  cancelPrefix(prefix: string): void {
    for (const key of [...this.tasks.keys()]) if (key.startsWith(prefix)) this.tasks.delete(key);
  }

  /** Runs, in time order, every task due at or before `until` (default: now). */
  runDue(until: number = this.clock.now()): void {
    let floor = Number.NEGATIVE_INFINITY;
    for (let task = this.nextDue(until); task; task = this.nextDue(until)) {
      this.tasks.delete(task.key);
      floor = Math.max(task.dueAt, floor);
      this.clock.pin(floor);
      try {
        task.run();
      } finally {
        this.clock.pin(undefined);
      }
    }
  }

  /** Moves the clock forward by `ms`, running each transition that falls due on the way. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('advanceTime needs a non-negative number of milliseconds');
    this.runDue(this.clock.now() + ms);
    this.clock.shift(ms);
  }

  reset(): void {
    this.tasks.clear();
  }

  private nextDue(until: number): Task | undefined {
    let best: Task | undefined;
    for (const task of this.tasks.values()) {
      if (task.dueAt > until) continue;
      if (!best || task.dueAt < best.dueAt || (task.dueAt === best.dueAt && task.seq < best.seq)) best = task;
    }
    return best;
  }
}

/**
 * The clock, timers and logger the background jobs run on — injected, so tests drive them with
 * jest's fake timers — and the loop that runs a job periodically without overlapping runs.
 */
import type { Logger } from '../log';

export type Clock = () => number;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers, looked up at call time so that jest's fake timers apply. */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const systemClock: Clock = () => Date.now();

export type JobLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * Runs `job` every `intervalMs` after the previous run finished (runs never overlap), or at
 * once when triggered. A failing run is logged and the loop goes on: it never leaves an
 * unhandled rejection behind.
 */
export class Ticker {
  #timer: unknown;
  #running: Promise<void> | undefined;
  #stopped = true;
  #runAgain = false;
  /** Asked for during the run in progress (`runAgainWithin`): the next run's delay, if sooner than the interval. */
  #nextWithin: number | undefined;
  /** True from the job's start: `#running` is assigned only once the job's first await returns. */
  #inRun = false;

  constructor(
    private readonly name: string,
    private readonly job: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly timers: Timers,
    private readonly logger: JobLogger,
  ) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops scheduling and waits for a run in progress to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clear();
    await this.#running;
  }

  /** Runs as soon as possible: now if idle, right after the current run otherwise. */
  trigger(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#runAgain = true;
      return;
    }
    this.#clear();
    this.#schedule(0);
  }

  /**
   * Asked during a run: the next run comes at most `ms` after this one ends, instead of the
   * interval (a job that knows when its next piece of work becomes possible). Outside a run (the
   * job called by hand) it does nothing.
   */
  runAgainWithin(ms: number): void {
    if (!this.#inRun) return;
    this.#nextWithin = Math.min(this.#nextWithin ?? Infinity, Math.max(0, ms));
  }

  #schedule(ms: number): void {
    this.#timer = this.timers.setTimeout(() => this.#run(), ms);
  }

  #clear(): void {
    if (this.#timer !== undefined) this.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #run(): void {
    this.#timer = undefined;
    this.#inRun = true;
    const run = (async () => {
      try {
        await this.job();
      } catch (error) {
        this.logger.error(`${this.name} run failed`, { error });
      }
    })();
    this.#running = run;
    void run.then(() => {
      this.#running = undefined;
      this.#inRun = false;
      if (this.#stopped) return;
      const again = this.#runAgain;
      const within = this.#nextWithin;
      this.#runAgain = false;
      this.#nextWithin = undefined;
      this.#schedule(again ? 0 : Math.min(this.intervalMs, within ?? Infinity));
    });
  }
}

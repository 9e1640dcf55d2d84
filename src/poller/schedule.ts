/**
 * When to look again. A watch is polled fast right after it started or changed and backs off
 * while nothing happens; a project whose reads fail backs off on its own, leaving the other
 * projects alone; and every watch has a maximum age.
 */
import type { WatchKind } from './snapshot';

export interface ScheduleConfig {
  /** Interval right after a start, stop or change. */
  fastMs: number;
  /** Interval once nothing has changed for a while. */
  slowMs: number;
  /**
   * Intervals are spread by jitterRatio of themselves: a poll interval shortened by up to that
   * much (never lengthened, so a watch is polled at most `slowMs` apart and a change is seen
   * within the interval), a failure back-off by ± that much (0 turns jitter off).
   */
  jitterRatio: number;
  /**
   * First retry delay after a project's reads fail; doubles per consecutive failure. Short: one
   * failed read (a 500, a reset, a 429 with Retry-After 1) should not hold every watch of the
   * project back for longer than the fast interval; a service that keeps failing is soon left
   * alone for minutes.
   */
  failureBaseMs: number;
  failureMaxMs: number;
}

export const DEFAULT_SCHEDULE: ScheduleConfig = {
  fastMs: 3_000,
  slowMs: 60_000,
  jitterRatio: 0.1,
  failureBaseMs: 1_000,
  failureMaxMs: 5 * 60_000,
};

const HOUR = 3_600_000;

/**
 * How long a watch may live, per kind: the longest the resource can run (4 h archive files
 * plus up to an hour paused and then processing; broadcasts and composers up to 10 h; SIP calls
 * closed after 6 h), with room to see the final state.
 */
export const MAX_WATCH_AGE_MS: Record<WatchKind, number> = {
  archive: 24 * HOUR,
  broadcast: 12 * HOUR,
  render: 12 * HOUR,
  captions: 5 * HOUR,
  sip: 7 * HOUR,
  audio: 24 * HOUR,
  'session-discovery': 24 * HOUR,
  // A posted console is kept current for an hour; `/streams --post` posts a fresh one.
  'session-console': HOUR,
};

export type Random = () => number;

function jittered(delayMs: number, config: { jitterRatio: number }, random: Random): number {
  if (config.jitterRatio <= 0) return delayMs;
  return Math.round(delayMs * (1 + config.jitterRatio * (2 * random() - 1)));
}

function shortenedByJitter(delayMs: number, config: { jitterRatio: number }, random: Random): number {
  if (config.jitterRatio <= 0) return delayMs;
  return Math.round(delayMs * (1 - config.jitterRatio * random()));
}

/**
 * The interval after an unchanged poll is the time since the last change, between fast and
 * slow: polls at +3 s, +6 s, +12 s, +24 s… after a change, i.e. the interval doubles each
 * unchanged poll, derived from `lastChangeAt` alone so that no counter needs storing.
 */
export function pollInterval(now: number, lastChangeAt: number, config: ScheduleConfig): number {
  return Math.min(config.slowMs, Math.max(config.fastMs, now - lastChangeAt));
}

export interface NextPollInput {
  now: number;
  lastChangeAt: number;
  /** A time the watch must be looked at (captions end, a call's answer window). */
  deadline?: number;
  expiresAt: number;
  /** Whether polling reads the service; if not, only the deadline and the expiry matter. */
  readsService: boolean;
}

/** The soonest of the expiry, the deadline (never in the past) and, for a watch that reads the service, the next interval. */
export function nextPollAt(input: NextPollInput, config: ScheduleConfig, random: Random): number {
  let next = input.expiresAt;
  if (input.deadline !== undefined) next = Math.min(next, Math.max(input.deadline, input.now));
  if (input.readsService || input.deadline === undefined) {
    next = Math.min(next, input.now + shortenedByJitter(pollInterval(input.now, input.lastChangeAt, config), config, random));
  }
  return next;
}

export interface BackoffConfig {
  baseMs: number;
  maxMs: number;
  jitterRatio: number;
}

/** `baseMs` doubled per attempt after the first, capped at `maxMs`, then jittered. */
export function exponentialBackoff(attempt: number, config: BackoffConfig, random: Random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return jittered(Math.min(config.maxMs, config.baseMs * 2 ** exponent), config, random);
}

/** Delay before retrying after `failures` consecutive failures (1 = the first). */
export function failureDelay(failures: number, config: ScheduleConfig, random: Random): number {
  return exponentialBackoff(failures, { baseMs: config.failureBaseMs, maxMs: config.failureMaxMs, jitterRatio: config.jitterRatio }, random);
}

export const isExpired = (watch: { expiresAt: number }, now: number): boolean => now >= watch.expiresAt;

/** Consecutive read failures per project, and until when each failing project rests. */
export class ProjectBackoff {
  readonly #state = new Map<string, { failures: number; retryAt: number }>();

  constructor(
    private readonly config: ScheduleConfig,
    private readonly random: Random,
  ) {}

  /** Records a failed cycle and returns when the project may be read again. */
  failed(projectName: string, now: number): number {
    const failures = (this.#state.get(projectName)?.failures ?? 0) + 1;
    const retryAt = now + failureDelay(failures, this.config, this.random);
    this.#state.set(projectName, { failures, retryAt });
    return retryAt;
  }

  succeeded(projectName: string): void {
    this.#state.delete(projectName);
  }

  failures(projectName: string): number {
    return this.#state.get(projectName)?.failures ?? 0;
  }

  /** Projects still resting at `now`. */
  resting(now: number): string[] {
    return [...this.#state].filter(([, s]) => s.retryAt > now).map(([name]) => name);
  }
}

/**
 * Delivers the weekly usage reports: every tick it leases the schedules that are due, posts each
 * report and records the period delivered.
 *
 * Exactly once per period, across replicas. The period is the reported week (its Monday,
 * Pacific), the same for every schedule at a given time. A claim leases due schedules to this
 * replica with that period on the lease (`claimDueSchedules`); no other replica gets them while
 * the lease holds. A report is posted only while the lease has `postMarginMs` left, longer than
 * a post can take, so a replica whose lease ran out cannot still be posting when another one
 * takes over. The completion records the period with a compare-and-set (still the lease owner,
 * period not delivered yet), so a period is recorded once even if two runs raced. A schedule
 * whose last period is the current one is not posted again: it only moves on.
 *
 * Once after downtime. The next due time is always the first occurrence after the run, not
 * after the missed one: a replica back after three missed Mondays posts one report (the last
 * full week) and then waits for next Monday.
 *
 * Failures. Errors that retrying cannot fix (`PermanentDeliveryError`: the bot is not in the
 * channel, the project or Insights is not configured, Insights refuses the credentials) skip
 * the period and are kept on the schedule for `/usage schedule list`. Others (Insights or Slack
 * unavailable) are retried with exponential back-off, up to `maxAttempts`, then skipped. The one
 * step that could repeat a post is a crash between Slack accepting it and the completion (a few
 * milliseconds): the schedule is then retried after its lease and may post that week twice.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { type Clock, type JobLogger, Ticker, type Timers, globalTimers, systemClock } from '../poller/runtime';
import { type ParsedRange, parseRange } from '../usage';
import { nextOccurrence } from './recurrence';
import type { ScheduleStore, UsageSchedule } from './types';

/** A failure that retrying will not fix: the period is skipped. */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}

export interface DeliveryRun {
  /** When the run started. */
  now: number;
  /** What is delivered: last week at `now`, and its period key. */
  week: ParsedRange;
  period: string;
  /** True while the lease leaves time to post; check right before posting. */
  stillLeased(): boolean;
}

/** Posts one schedule's report; resolves the message ts when Slack gives one. */
export type ScheduledDelivery = (schedule: UsageSchedule, run: DeliveryRun) => Promise<{ messageTs?: string }>;

export interface SchedulerOptions {
  store: ScheduleStore;
  deliver: ScheduledDelivery;
  logger: JobLogger;
  clock?: Clock;
  timers?: Timers;
  /** Who holds the leases; unique per process by default. */
  owner?: string;
  tickMs?: number;
  leaseMs?: number;
  /** Time a post needs after the lease check. */
  postMarginMs?: number;
  /** Schedules claimed per tick. */
  batch?: number;
  /** Attempts of one period before it is skipped. */
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export interface RunSummary {
  claimed: number;
  delivered: number;
  skipped: number;
  retried: number;
}

export const SCHEDULER_DEFAULTS = {
  tickMs: 60_000,
  leaseMs: 10 * 60_000,
  postMarginMs: 2 * 60_000,
  batch: 10,
  maxAttempts: 8,
  retryBaseMs: 5 * 60_000,
  retryMaxMs: 60 * 60_000,
} as const;

/** Last week (Monday to Sunday, Pacific) at `now`: what a weekly report shows, and its key. */
export function reportedWeek(now: number): { week: ParsedRange; period: string } {
  const parsed = parseRange('last week', { now });
  if (!parsed.ok) throw new Error(`last week cannot be read at ${new Date(now).toISOString()}: ${parsed.error}`);
  return { week: parsed.value, period: parsed.value.range.firstDay };
}

export class UsageScheduler {
  readonly owner: string;
  private readonly store: ScheduleStore;
  private readonly deliver: ScheduledDelivery;
  private readonly logger: JobLogger;
  private readonly clock: Clock;
  private readonly ticker: Ticker;
  private readonly settings: Required<Omit<SchedulerOptions, 'store' | 'deliver' | 'logger' | 'clock' | 'timers' | 'owner'>>;

  constructor(options: SchedulerOptions) {
    this.store = options.store;
    this.deliver = options.deliver;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.settings = {
      tickMs: options.tickMs ?? SCHEDULER_DEFAULTS.tickMs,
      leaseMs: options.leaseMs ?? SCHEDULER_DEFAULTS.leaseMs,
      postMarginMs: options.postMarginMs ?? SCHEDULER_DEFAULTS.postMarginMs,
      batch: options.batch ?? SCHEDULER_DEFAULTS.batch,
      maxAttempts: options.maxAttempts ?? SCHEDULER_DEFAULTS.maxAttempts,
      retryBaseMs: options.retryBaseMs ?? SCHEDULER_DEFAULTS.retryBaseMs,
      retryMaxMs: options.retryMaxMs ?? SCHEDULER_DEFAULTS.retryMaxMs,
    };
    this.ticker = new Ticker('usage scheduler', () => this.runOnce(), this.settings.tickMs, options.timers ?? globalTimers, this.logger);
  }

  start(): void {
    this.ticker.start();
  }

  /** Stops ticking and waits for a run in progress. */
  stop(): Promise<void> {
    return this.ticker.stop();
  }

  /** One round: claim what is due now and deliver it. */
  async runOnce(): Promise<RunSummary> {
    const now = this.clock();
    const { week, period } = reportedWeek(now);
    const claimed = await this.store.claimDueSchedules(this.owner, now, period, this.settings.batch, this.settings.leaseMs);
    const summary: RunSummary = { claimed: claimed.length, delivered: 0, skipped: 0, retried: 0 };
    for (const schedule of claimed) summary[await this.runSchedule(schedule, { now, week, period })]++;
    return summary;
  }

  private async runSchedule(schedule: UsageSchedule, run: Omit<DeliveryRun, 'stillLeased'>): Promise<'delivered' | 'skipped' | 'retried'> {
    const log = { schedule: schedule.id, team: schedule.teamId, channel: schedule.channelId, period: run.period };
    const moveOn = (error?: string) =>
      this.complete(schedule, { period: null, at: this.clock(), nextDueAt: nextOccurrence(schedule, this.clock()), failures: 0, error });

    if (schedule.lastPeriod === run.period) {
      await moveOn();
      return 'skipped';
    }
    const leaseUntil = schedule.leaseUntil ?? run.now + this.settings.leaseMs;
    const stillLeased = () => this.clock() + this.settings.postMarginMs <= leaseUntil;
    try {
      const { messageTs } = await this.deliver(schedule, { ...run, stillLeased });
      const at = this.clock();
      const recorded = await this.complete(schedule, {
        period: run.period,
        at,
        nextDueAt: nextOccurrence(schedule, at),
        failures: 0,
        ...(messageTs ? { messageTs } : {}),
      });
      if (!recorded) this.logger.warn('a weekly report was posted but its schedule changed meanwhile (cancelled or taken over)', log);
      else this.logger.info('weekly usage report delivered', log);
      return 'delivered';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failures = schedule.failures + 1;
      if (error instanceof PermanentDeliveryError || failures >= this.settings.maxAttempts) {
        this.logger.warn('weekly usage report skipped', { ...log, error: message, attempts: failures });
        await moveOn(error instanceof PermanentDeliveryError ? message : `gave up after ${failures} attempts: ${message}`);
        return 'skipped';
      }
      const at = this.clock();
      const delay = Math.min(this.settings.retryMaxMs, this.settings.retryBaseMs * 2 ** (failures - 1));
      this.logger.warn('weekly usage report failed; retrying', { ...log, error: message, attempts: failures, retryInMs: delay });
      await this.complete(schedule, { period: null, at, nextDueAt: at + delay, failures, error: message });
      return 'retried';
    }
  }

  private async complete(schedule: UsageSchedule, run: Parameters<ScheduleStore['completeScheduleRun']>[2]): Promise<boolean> {
    try {
      return await this.store.completeScheduleRun(schedule.id, this.owner, run);
    } catch (error) {
      // The lease runs out and another round (here or elsewhere) picks the schedule up again.
      this.logger.error('could not record a weekly report run', { schedule: schedule.id, error });
      return false;
    }
  }
}

/**
 * Weekly usage reports posted by themselves: what a schedule is, and the store contract both
 * backends (SQLite, PostgreSQL) implement. All times are epoch milliseconds.
 *
 * Delivery, exactly once per period across replicas:
 * - A schedule is *claimable* at `now` when it is not cancelled, `nextDueAt <= now`, and it has
 *   no lease or `leaseUntil <= now`.
 * - `claimDueSchedules(owner, now, period, limit, leaseMs)` leases up to `limit` claimable
 *   schedules, oldest `nextDueAt` first (ties by id): `leaseOwner = owner`,
 *   `leaseUntil = now + leaseMs`, `leasePeriod = period` (the period being delivered, e.g. the
 *   Monday of the reported week). Concurrent claims never return the same schedule.
 * - `completeScheduleRun(id, owner, run)` applies only while `leaseOwner === owner` and the
 *   schedule is not cancelled, and — when `run.period` is set (something was delivered) — only if
 *   `leasePeriod === run.period` and `lastPeriod !== run.period`. In one atomic step it sets
 *   `nextDueAt`, `failures`, `lastError`, and for a delivery `lastPeriod`, `lastDeliveredAt` and
 *   `lastMessageTs`; it clears the lease. Otherwise it changes nothing and resolves false.
 * - `cancelSchedule` marks an active schedule cancelled (a delivery in flight then cannot
 *   complete); it resolves false when there was no such active schedule.
 */
import type { BreakdownBy } from '../usage';

export interface UsageSchedule {
  /** Small, never reused: what people type in `/usage schedule cancel <id>`. */
  id: number;
  teamId: string;
  /** Where the report is posted. */
  channelId: string;
  projectName: string;
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes after local midnight in `timeZone` (0–1439). */
  minuteOfDay: number;
  /** IANA time zone of `weekday` and `minuteOfDay`. */
  timeZone: string;
  /** Adds a breakdown to the report. */
  breakdown?: BreakdownBy;
  createdBy: string;
  createdAt: number;
  /** When the next delivery is due (a retry time after a failure). */
  nextDueAt: number;
  /** Key of the last period delivered (the Monday of the reported week, `YYYY-MM-DD`). */
  lastPeriod?: string;
  lastDeliveredAt?: number;
  lastMessageTs?: string;
  /** Why the last attempt failed, cleared by the next delivery. */
  lastError?: string;
  /** Consecutive failed attempts of the current period. */
  failures: number;
  leaseOwner?: string;
  leaseUntil?: number;
  leasePeriod?: string;
  cancelledAt?: number;
  cancelledBy?: string;
}

export type NewUsageSchedule = Pick<
  UsageSchedule,
  'teamId' | 'channelId' | 'projectName' | 'weekday' | 'minuteOfDay' | 'timeZone' | 'breakdown' | 'createdBy' | 'createdAt' | 'nextDueAt'
>;

/** The end of one claimed run. */
export interface ScheduleRun {
  /** The period delivered, or null when nothing was (skipped, failed, given back). */
  period: string | null;
  /** When the run ended. */
  at: number;
  nextDueAt: number;
  failures: number;
  error?: string;
  messageTs?: string;
}

export interface ScheduleFilter {
  channelId?: string;
  includeCancelled?: boolean;
}

export interface ScheduleStore {
  addSchedule(schedule: NewUsageSchedule): Promise<UsageSchedule>;
  /** Cancelled ones included. */
  getSchedule(teamId: string, id: number): Promise<UsageSchedule | undefined>;
  /** By id. */
  listSchedules(teamId: string, filter?: ScheduleFilter): Promise<UsageSchedule[]>;
  cancelSchedule(teamId: string, id: number, by: string, at: number): Promise<boolean>;
  claimDueSchedules(owner: string, now: number, period: string, limit: number, leaseMs: number): Promise<UsageSchedule[]>;
  completeScheduleRun(id: number, owner: string, run: ScheduleRun): Promise<boolean>;
}

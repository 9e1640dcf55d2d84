/**
 * The `usage_schedules` table as both backends read and write it. PostgreSQL returns BIGINT
 * columns as strings; SQLite returns integers as numbers.
 */
import type { NewUsageSchedule, ScheduleRun, UsageSchedule } from '../schedules/types';
import type { BreakdownBy } from '../usage';

type DbInteger = number | string;

export interface ScheduleRecord {
  id: DbInteger;
  team_id: string;
  channel_id: string;
  project_name: string;
  weekday: DbInteger;
  minute_of_day: DbInteger;
  time_zone: string;
  breakdown: BreakdownBy | null;
  created_by: string;
  created_at: DbInteger;
  next_due_at: DbInteger;
  last_period: string | null;
  last_delivered_at: DbInteger | null;
  last_message_ts: string | null;
  last_error: string | null;
  failures: DbInteger;
  lease_owner: string | null;
  lease_until: DbInteger | null;
  lease_period: string | null;
  cancelled_at: DbInteger | null;
  cancelled_by: string | null;
}

const optional = <K extends string, V>(key: K, value: V | null): { [P in K]?: V } => (value === null ? {} : { [key]: value }) as { [P in K]?: V };

const optionalNumber = <K extends string>(key: K, value: DbInteger | null): { [P in K]?: number } => optional(key, value === null ? null : Number(value));

export function toSchedule(row: ScheduleRecord): UsageSchedule {
  return {
    id: Number(row.id),
    teamId: row.team_id,
    channelId: row.channel_id,
    projectName: row.project_name,
    weekday: Number(row.weekday),
    minuteOfDay: Number(row.minute_of_day),
    timeZone: row.time_zone,
    ...optional('breakdown', row.breakdown),
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    nextDueAt: Number(row.next_due_at),
    ...optional('lastPeriod', row.last_period),
    ...optionalNumber('lastDeliveredAt', row.last_delivered_at),
    ...optional('lastMessageTs', row.last_message_ts),
    ...optional('lastError', row.last_error),
    failures: Number(row.failures),
    ...optional('leaseOwner', row.lease_owner),
    ...optionalNumber('leaseUntil', row.lease_until),
    ...optional('leasePeriod', row.lease_period),
    ...optionalNumber('cancelledAt', row.cancelled_at),
    ...optional('cancelledBy', row.cancelled_by),
  };
}

/** Named parameters of an insert. */
export function toNewScheduleRecord(s: NewUsageSchedule) {
  return {
    team_id: s.teamId,
    channel_id: s.channelId,
    project_name: s.projectName,
    weekday: s.weekday,
    minute_of_day: s.minuteOfDay,
    time_zone: s.timeZone,
    breakdown: s.breakdown ?? null,
    created_by: s.createdBy,
    created_at: s.createdAt,
    next_due_at: s.nextDueAt,
  };
}

/** Longest error text kept on a schedule. */
export const MAX_SCHEDULE_ERROR = 500;

/** Named parameters of a completion. */
export function toRunRecord(id: number, owner: string, run: ScheduleRun) {
  return {
    id,
    owner,
    period: run.period,
    at: run.at,
    next_due_at: run.nextDueAt,
    failures: run.failures,
    error: run.error === undefined ? null : run.error.slice(0, MAX_SCHEDULE_ERROR),
    message_ts: run.messageTs ?? null,
  };
}

export const byDueThenId = (a: UsageSchedule, b: UsageSchedule): number => a.nextDueAt - b.nextDueAt || a.id - b.id;

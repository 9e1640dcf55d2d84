/**
 * ScheduleStore on SQLite. Claims run in a `BEGIN IMMEDIATE` transaction: the write lock is
 * taken before reading, so a claim sees every lease committed before it, also one taken by
 * another connection (another replica) on the same file.
 */
import type Database from 'better-sqlite3';
import type { NewUsageSchedule, ScheduleFilter, ScheduleRun, ScheduleStore, UsageSchedule } from '../schedules/types';
import { byDueThenId, toNewScheduleRecord, toRunRecord, toSchedule, type ScheduleRecord } from './schedule-rows';

type PrepareStatement = (sql: string) => Database.Statement;

const INSERT = `
  INSERT INTO usage_schedules (team_id, channel_id, project_name, weekday, minute_of_day, time_zone, breakdown,
                               created_by, created_at, next_due_at)
  VALUES (@team_id, @channel_id, @project_name, @weekday, @minute_of_day, @time_zone, @breakdown,
          @created_by, @created_at, @next_due_at)
  RETURNING *`;

const CLAIM = `
  UPDATE usage_schedules SET lease_owner = @owner, lease_until = @lease_until, lease_period = @period
  WHERE id IN (
    SELECT id FROM usage_schedules
    WHERE cancelled_at IS NULL AND next_due_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
    ORDER BY next_due_at, id
    LIMIT @limit)
  RETURNING *`;

const COMPLETE = `
  UPDATE usage_schedules SET
    next_due_at       = @next_due_at,
    failures          = @failures,
    last_error        = @error,
    last_period       = COALESCE(@period, last_period),
    last_delivered_at = CASE WHEN @period IS NULL THEN last_delivered_at ELSE @at END,
    last_message_ts   = CASE WHEN @period IS NULL THEN last_message_ts ELSE @message_ts END,
    lease_owner       = NULL,
    lease_until       = NULL,
    lease_period      = NULL
  WHERE id = @id AND lease_owner = @owner AND cancelled_at IS NULL
    AND (@period IS NULL OR (lease_period = @period AND (last_period IS NULL OR last_period <> @period)))`;

const CANCEL = `
  UPDATE usage_schedules SET cancelled_at = ?, cancelled_by = ?, lease_owner = NULL, lease_until = NULL, lease_period = NULL
  WHERE team_id = ? AND id = ? AND cancelled_at IS NULL`;

export class SqliteScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: Database.Database,
    private readonly statement: PrepareStatement,
  ) {}

  async addSchedule(schedule: NewUsageSchedule): Promise<UsageSchedule> {
    return toSchedule(this.statement(INSERT).get(toNewScheduleRecord(schedule)) as ScheduleRecord);
  }

  async getSchedule(teamId: string, id: number): Promise<UsageSchedule | undefined> {
    const row = this.statement('SELECT * FROM usage_schedules WHERE team_id = ? AND id = ?').get(teamId, id) as ScheduleRecord | undefined;
    return row && toSchedule(row);
  }

  async listSchedules(teamId: string, filter: ScheduleFilter = {}): Promise<UsageSchedule[]> {
    const rows = this.statement(
      `SELECT * FROM usage_schedules
       WHERE team_id = @team_id AND (@channel_id IS NULL OR channel_id = @channel_id)
         AND (@include_cancelled OR cancelled_at IS NULL)
       ORDER BY id`,
    ).all({ team_id: teamId, channel_id: filter.channelId ?? null, include_cancelled: filter.includeCancelled ? 1 : 0 }) as ScheduleRecord[];
    return rows.map(toSchedule);
  }

  async cancelSchedule(teamId: string, id: number, by: string, at: number): Promise<boolean> {
    return this.statement(CANCEL).run(at, by, teamId, id).changes > 0;
  }

  async claimDueSchedules(owner: string, now: number, period: string, limit: number, leaseMs: number): Promise<UsageSchedule[]> {
    const claim = this.db.transaction(() => this.statement(CLAIM).all({ owner, now, period, limit, lease_until: now + leaseMs }) as ScheduleRecord[]);
    return claim.immediate().map(toSchedule).sort(byDueThenId);
  }

  async completeScheduleRun(id: number, owner: string, run: ScheduleRun): Promise<boolean> {
    return this.statement(COMPLETE).run(toRunRecord(id, owner, run)).changes > 0;
  }
}

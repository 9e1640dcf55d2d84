/**
 * ScheduleStore on PostgreSQL, shared by several replicas. A claim is one statement locking its
 * rows with `FOR UPDATE SKIP LOCKED`: replicas claiming at once neither wait for each other nor
 * get the same schedule, and a row leased by a replica that committed first is re-read under
 * the lock and dropped by the claim conditions.
 */
import type { Pool } from 'pg';
import type { NewUsageSchedule, ScheduleFilter, ScheduleRun, ScheduleStore, UsageSchedule } from '../schedules/types';
import { byDueThenId, toNewScheduleRecord, toRunRecord, toSchedule, type ScheduleRecord } from './schedule-rows';

const INSERT = `
  INSERT INTO usage_schedules (team_id, channel_id, project_name, weekday, minute_of_day, time_zone, breakdown,
                               created_by, created_at, next_due_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  RETURNING *`;

const CLAIM = `
  WITH picked AS (
    SELECT id FROM usage_schedules
    WHERE cancelled_at IS NULL AND next_due_at <= $2::bigint AND (lease_until IS NULL OR lease_until <= $2::bigint)
    ORDER BY next_due_at, id
    LIMIT $3
    FOR UPDATE SKIP LOCKED
  )
  UPDATE usage_schedules s SET lease_owner = $1, lease_until = $2::bigint + $4::bigint, lease_period = $5
  FROM picked
  WHERE s.id = picked.id AND s.cancelled_at IS NULL AND (s.lease_until IS NULL OR s.lease_until <= $2::bigint)
  RETURNING s.*`;

const COMPLETE = `
  UPDATE usage_schedules SET
    next_due_at       = $4,
    failures          = $5,
    last_error        = $6,
    last_period       = COALESCE($3::text, last_period),
    last_delivered_at = CASE WHEN $3::text IS NULL THEN last_delivered_at ELSE $7::bigint END,
    last_message_ts   = CASE WHEN $3::text IS NULL THEN last_message_ts ELSE $8::text END,
    lease_owner       = NULL,
    lease_until       = NULL,
    lease_period      = NULL
  WHERE id = $1 AND lease_owner = $2 AND cancelled_at IS NULL
    AND ($3::text IS NULL OR (lease_period = $3::text AND (last_period IS NULL OR last_period <> $3::text)))`;

export class PostgresScheduleStore implements ScheduleStore {
  constructor(private readonly pool: Pool) {}

  async addSchedule(schedule: NewUsageSchedule): Promise<UsageSchedule> {
    const r = toNewScheduleRecord(schedule);
    const { rows } = await this.pool.query<ScheduleRecord>(INSERT, [
      r.team_id,
      r.channel_id,
      r.project_name,
      r.weekday,
      r.minute_of_day,
      r.time_zone,
      r.breakdown,
      r.created_by,
      r.created_at,
      r.next_due_at,
    ]);
    return toSchedule(rows[0] as ScheduleRecord);
  }

  async getSchedule(teamId: string, id: number): Promise<UsageSchedule | undefined> {
    const { rows } = await this.pool.query<ScheduleRecord>('SELECT * FROM usage_schedules WHERE team_id = $1 AND id = $2', [teamId, id]);
    return rows[0] && toSchedule(rows[0]);
  }

  async listSchedules(teamId: string, filter: ScheduleFilter = {}): Promise<UsageSchedule[]> {
    const { rows } = await this.pool.query<ScheduleRecord>(
      `SELECT * FROM usage_schedules
       WHERE team_id = $1 AND ($2::text IS NULL OR channel_id = $2) AND ($3::boolean OR cancelled_at IS NULL)
       ORDER BY id`,
      [teamId, filter.channelId ?? null, filter.includeCancelled ?? false],
    );
    return rows.map(toSchedule);
  }

  async cancelSchedule(teamId: string, id: number, by: string, at: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE usage_schedules SET cancelled_at = $1, cancelled_by = $2, lease_owner = NULL, lease_until = NULL, lease_period = NULL
       WHERE team_id = $3 AND id = $4 AND cancelled_at IS NULL`,
      [at, by, teamId, id],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async claimDueSchedules(owner: string, now: number, period: string, limit: number, leaseMs: number): Promise<UsageSchedule[]> {
    const { rows } = await this.pool.query<ScheduleRecord>(CLAIM, [owner, now, limit, leaseMs, period]);
    return rows.map(toSchedule).sort(byDueThenId);
  }

  async completeScheduleRun(id: number, owner: string, run: ScheduleRun): Promise<boolean> {
    const r = toRunRecord(id, owner, run);
    const result = await this.pool.query(COMPLETE, [r.id, r.owner, r.period, r.next_due_at, r.failures, r.error, r.at, r.message_ts]);
    return (result.rowCount ?? 0) > 0;
  }
}

/** The store for several replicas: PostgreSQL through a `pg` pool. */
import { Pool, type PoolConfig } from 'pg';
import type {
  CardChange,
  ClaimOptions,
  CompletedPoll,
  LeaseChangeCursor,
  LeaseChanges,
  LeaseCheck,
  NewWatch,
  OutboxClaimOptions,
  HistoryRetention,
  OutboxRow,
  PrunedHistory,
  PollOutcome,
  Watch,
  WatchFilter,
  WatchLease,
} from '../poller/watch';
import type { NewUsageSchedule, ScheduleFilter, ScheduleRun, UsageSchedule } from '../schedules/types';
import { postgresMigrations } from './migrations/postgres';
import type { Migration } from './migrations/migration';
import { inTransaction } from './pg-transaction';
import { PostgresScheduleStore } from './postgres-schedules';
import { PostgresWatchStore } from './postgres-watches';
import {
  LIST_LIMITS,
  RECENT_SESSIONS_KEPT,
  clampLimit,
  normalizeAlias,
  prefixPattern,
  toAuditEntry,
  toChannelBinding,
  toRecentSession,
  toSessionAlias,
  toStoredSecret,
  type AuditRow,
  type ChannelBindingRow,
  type RecentSessionRow,
  type SecretRow,
  type SessionAliasRow,
} from './rows';
import type {
  AuditEntry,
  ChannelBinding,
  ChannelBindingChange,
  MuteKey,
  MuteState,
  NewAuditEntry,
  SessionMute,
  StreamMute,
  RecentSession,
  SessionAlias,
  PollerBacklog,
  StoredSecret,
  VidopsStore,
} from './types';
import { backlogSql, toBacklog } from './backlog';
import { type SessionMuteRow, type StreamMuteRow, toMuteState } from './mute-rows';

export interface PostgresStoreOptions {
  connectionString: string;
  /**
   * Keep every table in this schema (created by `migrate()`), e.g. one per test run.
   * Lower-case letters, digits and `_` only. Default: the server's search_path.
   */
  schema?: string;
  /** Pool size per replica. */
  maxConnections?: number;
  /** An idle pooled connection broke (server restart, network); the pool replaces it. */
  onIdleClientError?: (error: Error) => void;
  migrations?: readonly Migration[];
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresStore implements VidopsStore {
  private readonly pool: Pool;
  private readonly watches: PostgresWatchStore;
  private readonly schedules: PostgresScheduleStore;
  private readonly schema: string | undefined;
  private readonly migrations: readonly Migration[];
  private closed = false;

  constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
      throw new Error('PostgreSQL schema name must be lower-case letters, digits and _');
    }
    this.schema = options.schema;
    this.migrations = options.migrations ?? postgresMigrations;
    const config: PoolConfig = {
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      application_name: 'vidops',
      ...(options.schema !== undefined && { options: `-c search_path=${options.schema}` }),
    };
    this.pool = new Pool(config);
    // Without a listener, an idle client's error would crash the process.
    this.pool.on('error', (error) => options.onIdleClientError?.(error));
    this.watches = new PostgresWatchStore(this.pool);
    this.schedules = new PostgresScheduleStore(this.pool);
  }

  async migrate(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // Replicas starting together queue here; the first applies the steps, the rest see them.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`vidops:migrate:${this.schema ?? ''}`]);
      if (this.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL,
        applied_at BIGINT  NOT NULL
      )`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      for (const migration of this.migrations) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async backlog(now: number): Promise<PollerBacklog> {
    const { rows } = await this.pool.query<Record<string, unknown>>(backlogSql('$1::bigint'), [now]);
    return toBacklog(now, rows[0] ?? {});
  }

  async getChannelBinding(teamId: string, channelId: string): Promise<ChannelBinding | undefined> {
    const { rows } = await this.pool.query<ChannelBindingRow>('SELECT * FROM channel_bindings WHERE team_id = $1 AND channel_id = $2', [teamId, channelId]);
    return rows[0] && toChannelBinding(rows[0]);
  }

  async channelsDefaultingTo(teamId: string, projectName: string, sessionId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ channel_id: string }>(
      'SELECT channel_id FROM channel_bindings WHERE team_id = $1 AND project_name = $2 AND session_id = $3 ORDER BY updated_at DESC, channel_id LIMIT 20',
      [teamId, projectName, sessionId],
    );
    return rows.map((row) => row.channel_id);
  }

  async setChannelBinding(change: ChannelBindingChange): Promise<void> {
    await this.pool.query(
      `INSERT INTO channel_bindings AS b (team_id, channel_id, project_name, session_id, updated_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (team_id, channel_id) DO UPDATE SET
         project_name = CASE WHEN $7::boolean THEN b.project_name ELSE excluded.project_name END,
         session_id   = CASE WHEN $8::boolean THEN b.session_id ELSE excluded.session_id END,
         updated_by   = excluded.updated_by,
         updated_at   = excluded.updated_at`,
      [
        change.teamId,
        change.channelId,
        change.projectName ?? null,
        change.sessionId ?? null,
        change.updatedBy,
        change.updatedAt,
        change.projectName === undefined,
        change.sessionId === undefined,
      ],
    );
  }

  async putAlias(alias: SessionAlias): Promise<void> {
    await this.pool.query(
      `INSERT INTO session_aliases (team_id, alias, project_name, session_id, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (team_id, alias) DO UPDATE SET
         project_name = excluded.project_name,
         session_id   = excluded.session_id,
         created_by   = excluded.created_by,
         created_at   = excluded.created_at`,
      [alias.teamId, normalizeAlias(alias.alias), alias.projectName, alias.sessionId, alias.createdBy, alias.createdAt],
    );
  }

  async getAlias(teamId: string, alias: string): Promise<SessionAlias | undefined> {
    const { rows } = await this.pool.query<SessionAliasRow>('SELECT * FROM session_aliases WHERE team_id = $1 AND alias = $2', [teamId, normalizeAlias(alias)]);
    return rows[0] && toSessionAlias(rows[0]);
  }

  async listAliases(teamId: string, prefix = '', limit?: number): Promise<SessionAlias[]> {
    // COLLATE "C": byte order, the same alphabetical order SQLite gives.
    const { rows } = await this.pool.query<SessionAliasRow>(
      `SELECT * FROM session_aliases
       WHERE team_id = $1 AND alias LIKE $2 ESCAPE '\\'
       ORDER BY alias COLLATE "C" LIMIT $3`,
      [teamId, prefixPattern(prefix), clampLimit(limit, LIST_LIMITS.aliases)],
    );
    return rows.map(toSessionAlias);
  }

  async aliasOfSession(teamId: string, projectName: string, sessionId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ alias: string }>(
      'SELECT alias FROM session_aliases WHERE team_id = $1 AND project_name = $2 AND session_id = $3 ORDER BY alias LIMIT 1',
      [teamId, projectName, sessionId],
    );
    return rows[0]?.alias;
  }

  async deleteAlias(teamId: string, alias: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM session_aliases WHERE team_id = $1 AND alias = $2', [teamId, normalizeAlias(alias)]);
    return (result.rowCount ?? 0) > 0;
  }

  async touchRecentSession(entry: RecentSession): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO recent_sessions (team_id, project_name, session_id, used_by, used_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (team_id, project_name, session_id) DO UPDATE SET
           used_by = excluded.used_by,
           used_at = excluded.used_at,
           seq     = nextval('recent_sessions_seq')`,
        [entry.teamId, entry.projectName, entry.sessionId, entry.usedBy, entry.usedAt],
      );
      await client.query(
        `DELETE FROM recent_sessions
         WHERE team_id = $1 AND (project_name, session_id) NOT IN (
           SELECT project_name, session_id FROM recent_sessions
           WHERE team_id = $1
           ORDER BY used_at DESC, seq DESC
           LIMIT $2)`,
        [entry.teamId, RECENT_SESSIONS_KEPT],
      );
    });
  }

  async listRecentSessions(teamId: string, limit?: number): Promise<RecentSession[]> {
    const { rows } = await this.pool.query<RecentSessionRow>(
      `SELECT * FROM recent_sessions WHERE team_id = $1
       ORDER BY used_at DESC, seq DESC LIMIT $2`,
      [teamId, clampLimit(limit, LIST_LIMITS.recentSessions)],
    );
    return rows.map(toRecentSession);
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const { rows } = await this.pool.query<AuditRow>(
      `INSERT INTO audit_log (at, team_id, user_id, channel_id, project_name, command, target, outcome, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING *`,
      [entry.at, entry.teamId, entry.userId, entry.channelId, entry.projectName, entry.command, entry.target, entry.outcome, entry.error ?? null],
    );
    return toAuditEntry(rows[0] as AuditRow);
  }

  async listAudit(teamId: string, limit?: number): Promise<AuditEntry[]> {
    const { rows } = await this.pool.query<AuditRow>('SELECT * FROM audit_log WHERE team_id = $1 ORDER BY at DESC, id DESC LIMIT $2', [
      teamId,
      clampLimit(limit, LIST_LIMITS.audit),
    ]);
    return rows.map(toAuditEntry);
  }

  async putSecret(secret: StoredSecret): Promise<void> {
    await this.pool.query(
      `INSERT INTO secrets (name, ciphertext, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
      [secret.name, secret.ciphertext, secret.updatedAt],
    );
  }

  async getSecret(name: string): Promise<StoredSecret | undefined> {
    const { rows } = await this.pool.query<SecretRow>('SELECT * FROM secrets WHERE name = $1', [name]);
    return rows[0] && toStoredSecret(rows[0]);
  }

  async putStreamMute(key: MuteKey, mute: StreamMute): Promise<void> {
    await this.pool.query(
      `INSERT INTO stream_mutes (team_id, project_name, session_id, stream_id, muted_by, muted_at, via)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (team_id, project_name, session_id, stream_id) DO UPDATE SET
         muted_by = excluded.muted_by, muted_at = excluded.muted_at, via = excluded.via`,
      [key.teamId, key.projectName, key.sessionId, mute.streamId, mute.by, mute.at, mute.via],
    );
  }

  async putSessionMute(key: MuteKey, state: SessionMute): Promise<void> {
    await this.pool.query(
      `INSERT INTO session_mutes (team_id, project_name, session_id, active, excluded, changed_by, changed_at, via)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
       ON CONFLICT (team_id, project_name, session_id) DO UPDATE SET
         active = excluded.active, excluded = excluded.excluded, changed_by = excluded.changed_by,
         changed_at = excluded.changed_at, via = excluded.via`,
      [key.teamId, key.projectName, key.sessionId, state.active, JSON.stringify(state.excluded), state.by, state.at, state.via],
    );
  }

  async getMuteState(key: MuteKey): Promise<MuteState> {
    const where = 'team_id = $1 AND project_name = $2 AND session_id = $3';
    const args = [key.teamId, key.projectName, key.sessionId];
    const [streams, session] = await Promise.all([
      this.pool.query<StreamMuteRow>(`SELECT * FROM stream_mutes WHERE ${where} ORDER BY muted_at, stream_id`, args),
      this.pool.query<SessionMuteRow>(`SELECT * FROM session_mutes WHERE ${where}`, args),
    ]);
    return toMuteState(streams.rows, session.rows[0]);
  }

  async claimDelivery(key: string, now: number, ttlMs: number): Promise<boolean> {
    // One statement: two replicas claiming the same key at once get one true between them.
    const result = await this.pool.query(
      `INSERT INTO slack_deliveries AS d (delivery_key, received_at, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (delivery_key) DO UPDATE SET received_at = excluded.received_at, expires_at = excluded.expires_at
       WHERE d.expires_at <= excluded.received_at`,
      [key, now, now + ttlMs],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async purgeDeliveries(now: number): Promise<number> {
    const result = await this.pool.query('DELETE FROM slack_deliveries WHERE expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }

  addWatch(watch: NewWatch): Promise<boolean> {
    return this.watches.addWatch(watch);
  }

  getWatch(id: string): Promise<Watch | undefined> {
    return this.watches.getWatch(id);
  }

  listWatches(filter: WatchFilter, options?: { includeEnded?: boolean }): Promise<Watch[]> {
    return this.watches.listWatches(filter, options);
  }

  claimDue(owner: string, now: number, limit: number, leaseMs: number, options?: ClaimOptions): Promise<Watch[]> {
    return this.watches.claimDue(owner, now, limit, leaseMs, options);
  }

  checkLeases(leases: readonly WatchLease[]): Promise<LeaseCheck[]> {
    return this.watches.checkLeases(leases);
  }

  renewLeases(leases: readonly WatchLease[], until: number): Promise<boolean[]> {
    return this.watches.renewLeases(leases, until);
  }

  leaseChanges(after?: LeaseChangeCursor): Promise<LeaseChanges> {
    return this.watches.leaseChanges(after);
  }

  completePoll(watchId: string, owner: string, outcome: PollOutcome): Promise<boolean> {
    return this.watches.completePoll(watchId, owner, outcome);
  }

  completePolls(owner: string, polls: readonly CompletedPoll[]): Promise<boolean[]> {
    return this.watches.completePolls(owner, polls);
  }

  releaseWatch(watchId: string, owner: string): Promise<boolean> {
    return this.watches.releaseWatch(watchId, owner);
  }

  expedite(filter: WatchFilter, now: number): Promise<number> {
    return this.watches.expedite(filter, now);
  }

  updateCard(watchId: string, change: CardChange): Promise<boolean> {
    return this.watches.updateCard(watchId, change);
  }

  endWatch(watchId: string, at: number): Promise<boolean> {
    return this.watches.endWatch(watchId, at);
  }

  claimOutbox(owner: string, now: number, limit: number, leaseMs: number, options?: OutboxClaimOptions): Promise<OutboxRow[]> {
    return this.watches.claimOutbox(owner, now, limit, leaseMs, options);
  }

  markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean> {
    return this.watches.markDelivered(id, owner, result);
  }

  deferOutbox(id: number, owner: string, retryAt: number, error: string): Promise<boolean> {
    return this.watches.deferOutbox(id, owner, retryAt, error);
  }

  discardOutbox(id: number, owner: string, at: number, error: string): Promise<boolean> {
    return this.watches.discardOutbox(id, owner, at, error);
  }

  listOutbox(watchId: string): Promise<OutboxRow[]> {
    return this.watches.listOutbox(watchId);
  }

  pruneHistory(now: number, retention: HistoryRetention, limit: number): Promise<PrunedHistory> {
    return this.watches.pruneHistory(now, retention, limit);
  }

  announcePoller(instance: string, now: number, withinMs: number): Promise<number> {
    return this.watches.announcePoller(instance, now, withinMs);
  }

  retirePoller(instance: string): Promise<void> {
    return this.watches.retirePoller(instance);
  }

  addSchedule(schedule: NewUsageSchedule): Promise<UsageSchedule> {
    return this.schedules.addSchedule(schedule);
  }

  getSchedule(teamId: string, id: number): Promise<UsageSchedule | undefined> {
    return this.schedules.getSchedule(teamId, id);
  }

  listSchedules(teamId: string, filter?: ScheduleFilter): Promise<UsageSchedule[]> {
    return this.schedules.listSchedules(teamId, filter);
  }

  cancelSchedule(teamId: string, id: number, by: string, at: number): Promise<boolean> {
    return this.schedules.cancelSchedule(teamId, id, by, at);
  }

  claimDueSchedules(owner: string, now: number, period: string, limit: number, leaseMs: number): Promise<UsageSchedule[]> {
    return this.schedules.claimDueSchedules(owner, now, period, limit, leaseMs);
  }

  completeScheduleRun(id: number, owner: string, run: ScheduleRun): Promise<boolean> {
    return this.schedules.completeScheduleRun(id, owner, run);
  }
}

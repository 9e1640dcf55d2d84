/** The embedded default store: one SQLite file (WAL mode), zero set-up. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
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
import { sqliteMigrations } from './migrations/sqlite';
import type { Migration } from './migrations/migration';
import { type Checkpointer, checkpointOnConnection, startCheckpointer } from './sqlite-checkpointer';
import { SqliteScheduleStore } from './sqlite-schedules';
import { SqliteWatchStore } from './sqlite-watches';
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

export const MEMORY = ':memory:';

/** How often the WAL is checkpointed (see sqlite-checkpointer.ts). */
const CHECKPOINT_INTERVAL_MS = 500;

/** Who copies the WAL into the database file: see `SqliteStore`'s constructor and `handOverCheckpoints`. */
export type CheckpointDuty = 'worker' | 'connection' | 'handed-over' | 'commits';

/**
 * Each connection's page cache: SQLite's own default, 2,000 KiB (`cache_size` in KiB when negative).
 * better-sqlite3 builds SQLite with 16 MB, and the app's and the poller thread's connections each
 * filled theirs with the watches' pages: a 10-minute soak peaked at 225 MB of RSS with it and 206
 * MB with this, the ack, loop delay and CPU figures unchanged (bench/README.md). A page missed
 * is read from the operating system's cache.
 */
export const PAGE_CACHE_SIZE = -2_000;

export class SqliteStore implements VidopsStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly watches: SqliteWatchStore;
  private readonly schedules: SqliteScheduleStore;
  private checkpointer: Checkpointer | undefined;
  #checkpoints: CheckpointDuty;

  /**
   * Opens (creating it and its directory when needed) the database file, or `:memory:`.
   * `checkpoints` says who copies a file's WAL into it: a worker of its own (`worker`, the
   * default: the app's connection), this connection on a timer in its own thread (`connection`:
   * the poller thread's), or SQLite's commits as by default (`commits`).
   * `busyTimeoutMs` (default 5 s) is how long a statement waits, blocking, for another
   * connection's lock; the app's own connection sets 0 and retries off the loop (busy-retry.ts).
   */
  constructor(
    readonly path: string,
    private readonly migrations: readonly Migration[] = sqliteMigrations,
    options: { checkpoints?: 'worker' | 'connection' | 'commits'; busyTimeoutMs?: number } = {},
  ) {
    if (path !== MEMORY) mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== MEMORY) this.db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit no longer waits for
    // the disk on the event loop (the poller commits dozens of times a second). A crash of the
    // process loses nothing; a power cut may roll back the last commits, each whole (a watch's
    // state with its outbox rows), so their changes are found again by the next poll.
    this.db.pragma('synchronous = NORMAL');
    // Another connection holding the write lock (the poller's thread, a second replica, a CLI) makes us wait, not fail.
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
    this.db.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
    this.#checkpoints = path === MEMORY ? 'commits' : (options.checkpoints ?? 'worker');
    if (this.#checkpoints === 'worker') this.#startWorker();
    if (this.#checkpoints === 'connection') {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = checkpointOnConnection(this.db, CHECKPOINT_INTERVAL_MS, () => this.#checkpointOnCommits());
    }
    this.watches = new SqliteWatchStore(this.db, (sql) => this.statement(sql));
    this.schedules = new SqliteScheduleStore(this.db, (sql) => this.statement(sql));
  }

  async migrate(): Promise<void> {
    // IMMEDIATE takes the write lock before reading the applied versions, so two processes
    // migrating the same file apply each step once.
    this.db
      .transaction(() => {
        this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version    INTEGER PRIMARY KEY,
          name       TEXT    NOT NULL,
          applied_at INTEGER NOT NULL
        )`);
        const applied = new Set(this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
        for (const migration of this.migrations) {
          if (applied.has(migration.version)) continue;
          this.db.exec(migration.sql);
          this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, Date.now());
        }
      })
      .immediate();
  }

  /** Who copies the WAL into the database file now (see the constructor). */
  get checkpoints(): CheckpointDuty {
    return this.#checkpoints;
  }

  /**
   * Another connection of this process checkpoints from now on (the poller's thread, with
   * `checkpoints: 'connection'`): the worker stops and its V8 heap is given back. Only a store
   * that checkpoints with a worker hands over.
   */
  handOverCheckpoints(): void {
    if (this.#checkpoints !== 'worker') return;
    this.#checkpoints = 'handed-over';
    const worker = this.checkpointer;
    this.checkpointer = undefined;
    void worker?.stop();
  }

  /** The other connection stopped checkpointing (its thread ended): the worker starts again. */
  takeBackCheckpoints(): void {
    if (this.#checkpoints !== 'handed-over' || !this.db.open) return;
    this.#checkpoints = 'worker';
    this.#startWorker();
  }

  #startWorker(): void {
    this.db.pragma('wal_autocheckpoint = 0');
    // A worker already handed over may still report a last failure: only the current one counts.
    const worker: Checkpointer = startCheckpointer(this.path, CHECKPOINT_INTERVAL_MS, () => {
      if (this.checkpointer === worker) this.#checkpointOnCommits();
    });
    this.checkpointer = worker;
  }

  /** Without a working checkpointer, commits checkpoint again as SQLite does by default. */
  #checkpointOnCommits(): void {
    this.#checkpoints = 'commits';
    if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async backlog(now: number): Promise<PollerBacklog> {
    return toBacklog(now, this.statement(backlogSql('@now')).get({ now }) as Record<string, unknown>);
  }

  async getChannelBinding(teamId: string, channelId: string): Promise<ChannelBinding | undefined> {
    const row = this.statement('SELECT * FROM channel_bindings WHERE team_id = ? AND channel_id = ?').get(teamId, channelId) as ChannelBindingRow | undefined;
    return row && toChannelBinding(row);
  }

  async channelsDefaultingTo(teamId: string, projectName: string, sessionId: string): Promise<string[]> {
    const rows = this.statement(
      'SELECT channel_id FROM channel_bindings WHERE team_id = ? AND project_name = ? AND session_id = ? ORDER BY updated_at DESC, channel_id LIMIT 20',
    ).all(teamId, projectName, sessionId) as { channel_id: string }[];
    return rows.map((row) => row.channel_id);
  }

  async setChannelBinding(change: ChannelBindingChange): Promise<void> {
    this.statement(
      `INSERT INTO channel_bindings (team_id, channel_id, project_name, session_id, updated_by, updated_at)
       VALUES (@teamId, @channelId, @projectName, @sessionId, @updatedBy, @updatedAt)
       ON CONFLICT (team_id, channel_id) DO UPDATE SET
         project_name = CASE WHEN @keepProject THEN project_name ELSE excluded.project_name END,
         session_id   = CASE WHEN @keepSession THEN session_id ELSE excluded.session_id END,
         updated_by   = excluded.updated_by,
         updated_at   = excluded.updated_at`,
    ).run({
      teamId: change.teamId,
      channelId: change.channelId,
      projectName: change.projectName ?? null,
      sessionId: change.sessionId ?? null,
      keepProject: change.projectName === undefined ? 1 : 0,
      keepSession: change.sessionId === undefined ? 1 : 0,
      updatedBy: change.updatedBy,
      updatedAt: change.updatedAt,
    });
  }

  async putAlias(alias: SessionAlias): Promise<void> {
    this.statement(
      `INSERT INTO session_aliases (team_id, alias, project_name, session_id, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, alias) DO UPDATE SET
         project_name = excluded.project_name,
         session_id   = excluded.session_id,
         created_by   = excluded.created_by,
         created_at   = excluded.created_at`,
    ).run(alias.teamId, normalizeAlias(alias.alias), alias.projectName, alias.sessionId, alias.createdBy, alias.createdAt);
  }

  async getAlias(teamId: string, alias: string): Promise<SessionAlias | undefined> {
    const row = this.statement('SELECT * FROM session_aliases WHERE team_id = ? AND alias = ?').get(teamId, normalizeAlias(alias)) as
      SessionAliasRow | undefined;
    return row && toSessionAlias(row);
  }

  async listAliases(teamId: string, prefix = '', limit?: number): Promise<SessionAlias[]> {
    const rows = this.statement(
      `SELECT * FROM session_aliases
       WHERE team_id = ? AND alias LIKE ? ESCAPE '\\'
       ORDER BY alias LIMIT ?`,
    ).all(teamId, prefixPattern(prefix), clampLimit(limit, LIST_LIMITS.aliases)) as SessionAliasRow[];
    return rows.map(toSessionAlias);
  }

  async aliasOfSession(teamId: string, projectName: string, sessionId: string): Promise<string | undefined> {
    const row = this.statement('SELECT alias FROM session_aliases WHERE team_id = ? AND project_name = ? AND session_id = ? ORDER BY alias LIMIT 1').get(
      teamId,
      projectName,
      sessionId,
    ) as { alias: string } | undefined;
    return row?.alias;
  }

  async deleteAlias(teamId: string, alias: string): Promise<boolean> {
    const result = this.statement('DELETE FROM session_aliases WHERE team_id = ? AND alias = ?').run(teamId, normalizeAlias(alias));
    return result.changes > 0;
  }

  async touchRecentSession(entry: RecentSession): Promise<void> {
    this.db.transaction(() => {
      this.statement(
        `INSERT INTO recent_sessions (team_id, project_name, session_id, used_by, used_at, seq)
         VALUES (@teamId, @projectName, @sessionId, @usedBy, @usedAt,
                 (SELECT COALESCE(MAX(seq), 0) + 1 FROM recent_sessions))
         ON CONFLICT (team_id, project_name, session_id) DO UPDATE SET
           used_by = excluded.used_by,
           used_at = excluded.used_at,
           seq     = excluded.seq`,
      ).run(entry);
      this.statement(
        `DELETE FROM recent_sessions
         WHERE team_id = @teamId AND (project_name, session_id) NOT IN (
           SELECT project_name, session_id FROM recent_sessions
           WHERE team_id = @teamId
           ORDER BY used_at DESC, seq DESC
           LIMIT @kept)`,
      ).run({ teamId: entry.teamId, kept: RECENT_SESSIONS_KEPT });
    })();
  }

  async listRecentSessions(teamId: string, limit?: number): Promise<RecentSession[]> {
    const rows = this.statement(
      `SELECT * FROM recent_sessions WHERE team_id = ?
       ORDER BY used_at DESC, seq DESC LIMIT ?`,
    ).all(teamId, clampLimit(limit, LIST_LIMITS.recentSessions)) as RecentSessionRow[];
    return rows.map(toRecentSession);
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const row = this.statement(
      `INSERT INTO audit_log (at, team_id, user_id, channel_id, project_name, command, target, outcome, error)
       VALUES (@at, @teamId, @userId, @channelId, @projectName, @command, @target, @outcome, @error)
       RETURNING *`,
    ).get({ ...entry, error: entry.error ?? null }) as AuditRow;
    return toAuditEntry(row);
  }

  async listAudit(teamId: string, limit?: number): Promise<AuditEntry[]> {
    const rows = this.statement('SELECT * FROM audit_log WHERE team_id = ? ORDER BY at DESC, id DESC LIMIT ?').all(
      teamId,
      clampLimit(limit, LIST_LIMITS.audit),
    ) as AuditRow[];
    return rows.map(toAuditEntry);
  }

  async putSecret(secret: StoredSecret): Promise<void> {
    this.statement(
      `INSERT INTO secrets (name, ciphertext, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
    ).run(secret.name, secret.ciphertext, secret.updatedAt);
  }

  async getSecret(name: string): Promise<StoredSecret | undefined> {
    const row = this.statement('SELECT * FROM secrets WHERE name = ?').get(name) as SecretRow | undefined;
    return row && toStoredSecret(row);
  }

  async putStreamMute(key: MuteKey, mute: StreamMute): Promise<void> {
    this.statement(
      `INSERT INTO stream_mutes (team_id, project_name, session_id, stream_id, muted_by, muted_at, via)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, project_name, session_id, stream_id) DO UPDATE SET
         muted_by = excluded.muted_by, muted_at = excluded.muted_at, via = excluded.via`,
    ).run(key.teamId, key.projectName, key.sessionId, mute.streamId, mute.by, mute.at, mute.via);
  }

  async putSessionMute(key: MuteKey, state: SessionMute): Promise<void> {
    this.statement(
      `INSERT INTO session_mutes (team_id, project_name, session_id, active, excluded, changed_by, changed_at, via)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, project_name, session_id) DO UPDATE SET
         active = excluded.active, excluded = excluded.excluded, changed_by = excluded.changed_by,
         changed_at = excluded.changed_at, via = excluded.via`,
    ).run(key.teamId, key.projectName, key.sessionId, state.active ? 1 : 0, JSON.stringify(state.excluded), state.by, state.at, state.via);
  }

  async getMuteState(key: MuteKey): Promise<MuteState> {
    const where = 'team_id = ? AND project_name = ? AND session_id = ?';
    const args = [key.teamId, key.projectName, key.sessionId];
    const streams = this.statement(`SELECT * FROM stream_mutes WHERE ${where} ORDER BY muted_at, stream_id`).all(...args) as StreamMuteRow[];
    const session = this.statement(`SELECT * FROM session_mutes WHERE ${where}`).get(...args) as SessionMuteRow | undefined;
    return toMuteState(streams, session);
  }

  async claimDelivery(key: string, now: number, ttlMs: number): Promise<boolean> {
    // A record past its expiry is taken over, as if the key were new.
    const result = this.statement(
      `INSERT INTO slack_deliveries (delivery_key, received_at, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (delivery_key) DO UPDATE SET received_at = excluded.received_at, expires_at = excluded.expires_at
       WHERE slack_deliveries.expires_at <= excluded.received_at`,
    ).run(key, now, now + ttlMs);
    return result.changes > 0;
  }

  async purgeDeliveries(now: number): Promise<number> {
    return this.statement('DELETE FROM slack_deliveries WHERE expires_at <= ?').run(now).changes;
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

  /** Prepared once, on first use: tables exist only after `migrate()`. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

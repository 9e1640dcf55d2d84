/**
 * WatchStore on SQLite. Every write runs in a `BEGIN IMMEDIATE` transaction: it takes the
 * database write lock before reading, so a claim sees every lease committed before it, even one
 * taken by another connection to the same file, and never fails with SQLITE_BUSY_SNAPSHOT.
 */
import type Database from 'better-sqlite3';
import type {
  CardChange,
  ClaimOptions,
  CompletedPoll,
  HistoryRetention,
  LeaseChangeCursor,
  LeaseChanges,
  LeaseCheck,
  NewWatch,
  OutboxClaimOptions,
  OutboxRow,
  PollOutcome,
  PrunedHistory,
  Watch,
  WatchFilter,
  WatchLease,
  WatchStore,
} from '../poller/watch';
import {
  LEASE_CHANGE_PRUNE_EVERY_MS,
  LEASE_CHANGE_RETENTION_MS,
  pickDueSync,
  announcePollerSql,
  forgetPollersSql,
  pruneOutboxSql,
  pruneWatchesSql,
  retirePollerSql,
  toNewOutboxRecord,
  toNewWatchRecord,
  toOutboxRow,
  toWatch,
  watchFilterSql,
  type DueRow,
  type OutboxRecord,
  type WatchRecord,
} from './watch-rows';

type PrepareStatement = (sql: string) => Database.Statement;

/** The filter's conditions with named parameters `@f0`, `@f1`…, and their values. */
function matchesFilter(filter: WatchFilter): { sql: string; params: Record<string, string> } {
  const { sql, values } = watchFilterSql(filter, (index) => `@f${index}`);
  return { sql, params: Object.fromEntries(values.map((value, index) => [`f${index}`, value])) };
}

const INSERT_WATCH = `
  INSERT INTO watches (id, kind, resource_id, session_id, team_id, channel_id, message_ts, thread_ts,
                       project_name, last_state, card, last_change_at, next_poll_at, created_at, expires_at)
  VALUES (@id, @kind, @resource_id, @session_id, @team_id, @channel_id, @message_ts, @thread_ts,
          @project_name, @last_state, @card, @last_change_at, @next_poll_at, @created_at, @expires_at)
  ON CONFLICT (id) DO NOTHING`;

/**
 * Claimable watches in due order after a (next_poll_at, id) cursor (see `pickDue`): the unleased
 * rows along `watches_due_unleased` merged with the rows whose lease ran out, found along
 * `watches_lease_end`. Kept leases stay at the front of `watches_due` (their next_poll_at is their
 * claim time), and neither index holds them, so the claim no longer walks past them.
 */
const DUE_PAGE = `
  SELECT id, project_name, next_poll_at FROM (
    SELECT * FROM (
      SELECT id, project_name, next_poll_at FROM watches INDEXED BY watches_due_unleased
      WHERE ended_at IS NULL AND lease_until IS NULL AND next_poll_at <= @now
        AND (next_poll_at, id) > (@after_at, @after_id)
      ORDER BY next_poll_at, id
      LIMIT @page)
    UNION ALL
    SELECT * FROM (
      SELECT id, project_name, next_poll_at FROM watches INDEXED BY watches_lease_end
      WHERE ended_at IS NULL AND lease_until IS NOT NULL AND lease_until <= @now AND next_poll_at <= @now
        AND (next_poll_at, id) > (@after_at, @after_id)
      ORDER BY next_poll_at, id
      LIMIT @page))
  ORDER BY next_poll_at, id
  LIMIT @page`;

/** The database's clock in ms (lease changes are logged and read by it, whichever process writes). */
const DB_NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/** Logs a lease change for each id of the JSON array @ids whose row matches the condition. */
const logLeaseChanges = (condition: string) => `
  INSERT INTO lease_changes (watch_id, logged_at)
  SELECT id, ${DB_NOW_MS} FROM watches WHERE id IN (SELECT value FROM json_each(@ids)) AND ${condition}`;

const LEASE_WATCHES = `
  UPDATE watches SET lease_owner = @owner, lease_until = @lease_until, repoll_requested = 0
  WHERE id IN (SELECT value FROM json_each(@ids))
  RETURNING *`;

const COMPLETE_POLL = `
  UPDATE watches SET
    last_state       = @last_state,
    last_change_at   = CASE WHEN @changed THEN @polled_at ELSE last_change_at END,
    next_poll_at     = CASE WHEN repoll_requested THEN @polled_at ELSE @next_poll_at END,
    failures         = @failures,
    ended_at         = CASE WHEN @ended THEN @polled_at ELSE ended_at END,
    revision         = revision + 1,
    repoll_requested = 0,
    lease_owner      = NULL,
    lease_until      = NULL
  WHERE id = @id AND lease_owner = @owner AND ended_at IS NULL`;

/** The live rows among a JSON array of ids, with their lease (a read: the common answer, `held`, writes nothing). */
const LEASE_ROWS = `
  SELECT id, lease_owner, repoll_requested FROM watches
  WHERE id IN (SELECT value FROM json_each(@ids)) AND ended_at IS NULL`;

const INSERT_OUTBOX = `
  INSERT INTO outbox (idempotency_key, watch_id, transition_key, team_id, channel_id, thread_ts,
                      payload, created_at, retry_at)
  VALUES (@idempotency_key, @watch_id, @transition_key, @team_id, @channel_id, @thread_ts,
          @payload, @created_at, @retry_at)
  ON CONFLICT (idempotency_key) DO NOTHING`;

/** Exported, as the next one, for the test that reads their query plans. */
export const PRUNE_OUTBOX = pruneOutboxSql('@before', '@limit');
export const PRUNE_WATCHES = pruneWatchesSql('@before', '@limit');

const ANNOUNCE_POLLER = announcePollerSql('@instance', '@now');
const FORGET_POLLERS = forgetPollersSql('@before');
const RETIRE_POLLER = retirePollerSql('@instance');

/** Exported for the test that reads its query plan. */
export const CLAIM_OUTBOX = `
  UPDATE outbox SET
    lease_owner      = @owner,
    lease_until      = @lease_until,
    attempts         = attempts + 1,
    first_attempt_at = COALESCE(first_attempt_at, @now)
  WHERE id IN (
    SELECT o.id FROM outbox o
    WHERE o.delivered_at IS NULL AND o.discarded_at IS NULL
      AND o.retry_at <= @now
      AND (o.lease_until IS NULL OR o.lease_until <= @now)
      AND NOT EXISTS (
        SELECT 1 FROM outbox earlier
        WHERE earlier.team_id = o.team_id AND earlier.channel_id = o.channel_id AND earlier.id < o.id
          AND earlier.delivered_at IS NULL AND earlier.discarded_at IS NULL)
      AND (@paced_since IS NULL OR json_extract(o.payload, '$.type') <> 'reply' OR NOT EXISTS (
        SELECT 1 FROM outbox recent
        WHERE recent.team_id = o.team_id AND recent.channel_id = o.channel_id
          AND recent.delivered_at > @paced_since AND json_extract(recent.payload, '$.type') = 'reply'))
    ORDER BY o.id
    LIMIT @limit)
  RETURNING *`;

interface LeaseRow {
  id: string;
  lease_owner: string | null;
  repoll_requested: number;
}

const flag = (value: boolean): number => (value ? 1 : 0);

const byDueTimeThenId = (a: Watch, b: Watch): number => a.nextPollAt - b.nextPollAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class SqliteWatchStore implements WatchStore {
  /** When this connection last pruned the lease change log (the database's clock). */
  private prunedAt = -Infinity;

  constructor(
    private readonly db: Database.Database,
    private readonly statement: PrepareStatement,
  ) {}

  async addWatch(watch: NewWatch): Promise<boolean> {
    return this.immediate(() => this.insertWatch(watch));
  }

  async getWatch(id: string): Promise<Watch | undefined> {
    const row = this.statement('SELECT * FROM watches WHERE id = ?').get(id) as WatchRecord | undefined;
    return row && toWatch(row);
  }

  async listWatches(filter: WatchFilter, options: { includeEnded?: boolean } = {}): Promise<Watch[]> {
    const matches = matchesFilter(filter);
    const rows = this.statement(
      `SELECT * FROM watches
       WHERE ${options.includeEnded ? '' : 'ended_at IS NULL AND '}${matches.sql}
       ORDER BY created_at, id`,
    ).all(matches.params) as WatchRecord[];
    return rows.map(toWatch);
  }

  async claimDue(owner: string, now: number, limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<Watch[]> {
    if (limit < 1) return [];
    const rows = this.immediate(() => {
      const page = this.statement(DUE_PAGE);
      const ids = pickDueSync(
        (cursor, size) => page.all({ now, page: size, after_at: cursor.afterAt, after_id: cursor.afterId }) as DueRow[],
        limit,
        options,
      ).map((row) => row.id);
      if (ids.length === 0) return [];
      const picked = JSON.stringify(ids);
      // A lease that ran out is taken over: its holder may still keep the watch.
      this.statement(logLeaseChanges('lease_owner IS NOT NULL')).run({ ids: picked });
      return this.statement(LEASE_WATCHES).all({ owner, lease_until: now + leaseMs, ids: picked }) as WatchRecord[];
    });
    // RETURNING comes back in no particular order.
    return rows.map(toWatch).sort(byDueTimeThenId);
  }

  async completePoll(watchId: string, owner: string, outcome: PollOutcome): Promise<boolean> {
    return this.immediate(() => this.writePoll(watchId, owner, outcome));
  }

  /** One IMMEDIATE transaction for the whole list: one commit instead of one per watch. */
  async completePolls(owner: string, polls: readonly CompletedPoll[]): Promise<boolean[]> {
    if (polls.length === 0) return [];
    return this.immediate(() => polls.map(({ watchId, outcome }) => this.writePoll(watchId, owner, outcome)));
  }

  async releaseWatch(watchId: string, owner: string): Promise<boolean> {
    const released = this.immediate(() =>
      this.statement('UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?').run(watchId, owner),
    );
    return released.changes > 0;
  }

  async renewLeases(leases: readonly WatchLease[], until: number): Promise<boolean[]> {
    if (leases.length === 0) return [];
    const renew = this.statement('UPDATE watches SET lease_until = ? WHERE id = ? AND lease_owner = ? AND ended_at IS NULL');
    return this.immediate(() => leases.map((l) => renew.run(until, l.watchId, l.owner).changes > 0));
  }

  async checkLeases(leases: readonly WatchLease[]): Promise<LeaseCheck[]> {
    if (leases.length === 0) return [];
    const rows = this.statement(LEASE_ROWS).all({ ids: JSON.stringify(leases.map((l) => l.watchId)) }) as LeaseRow[];
    const found = new Map<string, LeaseRow>();
    for (const row of rows) found.set(row.id, row);
    const checks = leases.map((l): LeaseCheck => {
      const row = found.get(l.watchId);
      return row?.lease_owner !== l.owner ? 'lost' : row.repoll_requested ? 'repoll' : 'held';
    });
    const repolled = new Map<string, string[]>();
    leases.forEach((l, i) => {
      if (checks[i] !== 'repoll') return;
      const ids = repolled.get(l.owner);
      if (ids) ids.push(l.watchId);
      else repolled.set(l.owner, [l.watchId]);
    });
    if (repolled.size > 0) {
      // Each owner clears only its own requests (a hint may mark every kept watch at once).
      const clear = this.statement('UPDATE watches SET repoll_requested = 0 WHERE id IN (SELECT value FROM json_each(@ids)) AND lease_owner = @owner');
      this.immediate(() => repolled.forEach((ids, owner) => clear.run({ ids: JSON.stringify(ids), owner })));
    }
    return checks;
  }

  async expedite(filter: WatchFilter, now: number): Promise<number> {
    const matches = matchesFilter(filter);
    const expedited = this.immediate(() => {
      this.statement(
        `INSERT INTO lease_changes (watch_id, logged_at)
         SELECT id, ${DB_NOW_MS} FROM watches WHERE ended_at IS NULL AND lease_until > @now AND ${matches.sql}`,
      ).run({ ...matches.params, now });
      return this.statement(
        `UPDATE watches SET
           next_poll_at     = MIN(next_poll_at, @now),
           repoll_requested = CASE WHEN lease_until > @now THEN 1 ELSE repoll_requested END
         WHERE ended_at IS NULL AND ${matches.sql}`,
      ).run({ ...matches.params, now });
    });
    return expedited.changes;
  }

  async updateCard(watchId: string, change: CardChange): Promise<boolean> {
    const state = change.state === undefined ? null : JSON.stringify(change.state);
    const updated = this.immediate(() => {
      const written = this.statement(
        `UPDATE watches SET
           card           = @card,
           last_state     = COALESCE(@state, last_state),
           last_change_at = CASE WHEN @state IS NULL THEN last_change_at ELSE @at END,
           next_poll_at   = MIN(next_poll_at, @at),
           revision       = revision + 1,
           lease_owner    = NULL,
           lease_until    = NULL
         WHERE id = @id`,
      ).run({ id: watchId, card: JSON.stringify(change.card), state, at: change.at });
      if (written.changes > 0) {
        this.logLeaseChange(watchId);
        this.statement(
          `UPDATE outbox SET discarded_at = @at, last_error = 'superseded by an action'
           WHERE watch_id = @id AND delivered_at IS NULL AND discarded_at IS NULL
             AND json_extract(payload, '$.type') = 'card' AND (lease_until IS NULL OR lease_until <= @at)`,
        ).run({ id: watchId, at: change.at });
      }
      return written;
    });
    return updated.changes > 0;
  }

  async endWatch(watchId: string, at: number): Promise<boolean> {
    const ended = this.immediate(() => {
      const written = this.statement('UPDATE watches SET ended_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND ended_at IS NULL').run(
        at,
        watchId,
      );
      if (written.changes > 0) this.logLeaseChange(watchId);
      return written;
    });
    return ended.changes > 0;
  }

  /**
   * By rowid: SQLite has one writer at a time, so rows are numbered in the order they commit and
   * a read after the highest it saw misses nothing (PostgreSQL reads back an overlap instead).
   * The newest row is never pruned, so rowids are never handed out again.
   */
  async leaseChanges(after?: LeaseChangeCursor): Promise<LeaseChanges> {
    const now = (this.statement(`SELECT ${DB_NOW_MS} AS now`).get() as { now: number }).now;
    if (now - this.prunedAt >= LEASE_CHANGE_PRUNE_EVERY_MS) {
      this.immediate(() =>
        this.statement('DELETE FROM lease_changes WHERE logged_at < ? AND rowid < (SELECT MAX(rowid) FROM lease_changes)').run(now - LEASE_CHANGE_RETENTION_MS),
      );
      this.prunedAt = now;
    }
    const { first, last } = this.statement('SELECT MIN(rowid) AS first, MAX(rowid) AS last FROM lease_changes').get() as {
      first: number | null;
      last: number | null;
    };
    const cursor = last ?? after ?? 0;
    if (after === undefined) return { watchIds: [], cursor, complete: true };
    // Rows after the cursor were pruned: no telling what they named.
    if (first !== null && first > after + 1) return { watchIds: [], cursor, complete: false };
    const watchIds = this.statement('SELECT watch_id FROM lease_changes WHERE rowid > ?').pluck().all(after) as string[];
    return { watchIds, cursor, complete: true };
  }

  private logLeaseChange(watchId: string): void {
    this.statement(`INSERT INTO lease_changes (watch_id, logged_at) VALUES (?, ${DB_NOW_MS})`).run(watchId);
  }

  async claimOutbox(owner: string, now: number, limit: number, leaseMs: number, options: OutboxClaimOptions = {}): Promise<OutboxRow[]> {
    if (limit < 1) return [];
    const pacedSince = options.channelIntervalMs ? now - options.channelIntervalMs : null;
    const rows = this.immediate(
      () => this.statement(CLAIM_OUTBOX).all({ owner, now, limit, lease_until: now + leaseMs, paced_since: pacedSince }) as OutboxRecord[],
    );
    return rows.map(toOutboxRow).sort((a, b) => a.id - b.id);
  }

  async markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean> {
    return this.settleOutbox(`delivered_at = @delivered_at, message_ts = COALESCE(@message_ts, message_ts)`, {
      id,
      owner,
      delivered_at: result.deliveredAt,
      message_ts: result.messageTs ?? null,
    });
  }

  async deferOutbox(id: number, owner: string, retryAt: number, error: string): Promise<boolean> {
    return this.settleOutbox('retry_at = @retry_at, last_error = @error', { id, owner, retry_at: retryAt, error });
  }

  async discardOutbox(id: number, owner: string, at: number, error: string): Promise<boolean> {
    return this.settleOutbox('discarded_at = @at, last_error = @error', { id, owner, at, error });
  }

  async listOutbox(watchId: string): Promise<OutboxRow[]> {
    const rows = this.statement('SELECT * FROM outbox WHERE watch_id = ? ORDER BY id').all(watchId) as OutboxRecord[];
    return rows.map(toOutboxRow);
  }

  async pruneHistory(now: number, retention: HistoryRetention, limit: number): Promise<PrunedHistory> {
    return this.immediate(() => ({
      outboxRows: this.statement(PRUNE_OUTBOX).run({ before: now - retention.outboxMs, limit }).changes,
      watches: this.statement(PRUNE_WATCHES).run({ before: now - retention.endedWatchMs, limit }).changes,
    }));
  }

  async announcePoller(instance: string, now: number, withinMs: number): Promise<number> {
    return this.immediate(() => {
      this.statement(ANNOUNCE_POLLER).run({ instance, now });
      this.statement(FORGET_POLLERS).run({ before: now - withinMs });
      return (this.statement('SELECT count(*) AS pollers FROM pollers').get() as { pollers: number }).pollers;
    });
  }

  async retirePoller(instance: string): Promise<void> {
    this.statement(RETIRE_POLLER).run({ instance });
  }

  /** Writes one poll inside the caller's transaction; false (writing nothing) unless `owner` holds the watch. */
  private writePoll(watchId: string, owner: string, outcome: PollOutcome): boolean {
    const updated = this.statement(COMPLETE_POLL).run({
      id: watchId,
      owner,
      last_state: outcome.state === undefined ? null : JSON.stringify(outcome.state),
      changed: flag(outcome.changed),
      polled_at: outcome.polledAt,
      next_poll_at: outcome.nextPollAt,
      failures: outcome.failures,
      ended: flag(outcome.ended),
    });
    if (updated.changes === 0) return false;
    for (const item of outcome.outbox) {
      this.statement(INSERT_OUTBOX).run(toNewOutboxRecord(watchId, item, outcome.polledAt));
    }
    for (const spawned of outcome.spawn ?? []) this.insertWatch(spawned);
    return true;
  }

  private insertWatch(watch: NewWatch): boolean {
    return this.statement(INSERT_WATCH).run(toNewWatchRecord(watch)).changes > 0;
  }

  /** Applies `assignments` to a pending row leased by `owner`, and gives the lease back. */
  private settleOutbox(assignments: string, params: { id: number; owner: string } & Record<string, unknown>): boolean {
    const settled = this.immediate(() =>
      this.statement(
        `UPDATE outbox SET ${assignments}, lease_owner = NULL, lease_until = NULL
         WHERE id = @id AND lease_owner = @owner AND delivered_at IS NULL AND discarded_at IS NULL`,
      ).run(params),
    );
    return settled.changes > 0;
  }

  private immediate<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }
}

/**
 * WatchStore on PostgreSQL, shared by several replicas. Claims are single statements that lock
 * their rows with `FOR UPDATE SKIP LOCKED`, so replicas claiming at once neither wait on each
 * other nor get the same row; a poll's results are written in one transaction.
 */
import type { Pool, PoolClient } from 'pg';
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
  OutboxItem,
  OutboxRow,
  PollOutcome,
  PrunedHistory,
  Watch,
  WatchFilter,
  WatchLease,
  WatchStore,
} from '../poller/watch';
import { inTransaction } from './pg-transaction';
import {
  LEASE_CHANGE_PRUNE_EVERY_MS,
  LEASE_CHANGE_RETENTION_MS,
  pickDue,
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

type Queryable = Pick<Pool | PoolClient, 'query'>;

/** The filter's conditions with positional parameters from `$first` on, and their values. */
const matchesFilter = (filter: WatchFilter, first: number) => watchFilterSql(filter, (index) => `$${first + index}`);

/**
 * Claimable watches in due order after a (next_poll_at, id) cursor (see `pickDue`): the unleased
 * rows along `watches_due_unleased` merged with the rows whose lease ran out, found along
 * `watches_lease_end`. Kept leases stay at the front of `watches_due` (their next_poll_at is their
 * claim time), and neither index holds them, so the claim no longer scans past them.
 */
const DUE_PAGE = `
  (SELECT id, project_name, next_poll_at FROM watches
   WHERE ended_at IS NULL AND lease_until IS NULL AND next_poll_at <= $1::bigint
     AND (next_poll_at, id) > ($2::bigint, $3::text)
   ORDER BY next_poll_at, id
   LIMIT $4)
  UNION ALL
  (SELECT id, project_name, next_poll_at FROM watches
   WHERE ended_at IS NULL AND lease_until IS NOT NULL AND lease_until <= $1::bigint AND next_poll_at <= $1::bigint
     AND (next_poll_at, id) > ($2::bigint, $3::text)
   ORDER BY next_poll_at, id
   LIMIT $4)
  ORDER BY next_poll_at, id
  LIMIT $4`;

// The picked rows are locked by primary key and the claim conditions checked again under the
// lock: a row another replica leased since the page was read is skipped (SKIP LOCKED while its
// transaction runs, the re-check once it committed), so two replicas never lease the same watch.
// \`COALESCE(ended_at, -1) = -1\` is \`ended_at IS NULL\` in a form the partial index \`watches_due\`
// cannot serve: with it, the planner scanned every active watch instead of fetching these ids.
/**
 * A read of the lease change log goes back this far before the last one's end: writers commit out
 * of order, so a change logged while that read ran but committed after it is read now (a
 * transaction that touches a watch lasts milliseconds).
 */
const LEASE_CHANGE_OVERLAP_MS = 5_000;

/** Where a read after `after` starts, and whether the log still holds everything since (`now` is the database's clock). */
function leaseChangeWindow(after: number | undefined, now: number): { since: number; complete: boolean } {
  if (after === undefined) return { since: now, complete: true };
  const since = after - LEASE_CHANGE_OVERLAP_MS;
  return { since, complete: since >= now - LEASE_CHANGE_RETENTION_MS };
}

/** The database's clock in ms (lease changes are logged and read by it, whichever replica writes). */
const DB_NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

// A lease that ran out is taken over: its holder may still keep the watch (\`taken_over\`, logged).
const LEASE_WATCHES = `
  WITH picked AS (
    SELECT id, lease_owner IS NOT NULL AS taken_over FROM watches
    WHERE id = ANY($4::text[]) AND COALESCE(ended_at, -1) = -1 AND next_poll_at <= $2::bigint
      AND (lease_until IS NULL OR lease_until <= $2::bigint)
    FOR UPDATE SKIP LOCKED
  ), logged AS (
    INSERT INTO lease_changes (watch_id, logged_at) SELECT id, ${DB_NOW_MS} FROM picked WHERE taken_over
  )
  UPDATE watches w SET lease_owner = $1, lease_until = $2::bigint + $3::bigint, repoll_requested = false
  FROM picked WHERE w.id = picked.id
  RETURNING w.*`;

// Rows are locked in id order first, so two transactions completing overlapping lists (a lease
// taken over) wait for each other instead of deadlocking; they are found by primary key from the
// id array `$3` and nothing the partial index `watches_due` could serve (a subquery over the
// recordset, or `ended_at IS NULL` here, made the planner scan every active watch; an ended one
// is locked for nothing and then left alone by the UPDATE);
// `NULLIF` because a JSON null in the recordset is the jsonb value null, not SQL NULL.
const COMPLETE_POLLS = `
  WITH polls AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb)
      AS p(id text, last_state jsonb, changed boolean, polled_at bigint, next_poll_at bigint, failures int, ended boolean)
  ), locked AS (
    SELECT w.id FROM watches w
    WHERE w.id = ANY($3::text[]) AND w.lease_owner = $1
    ORDER BY w.id
    FOR UPDATE
  )
  UPDATE watches w SET
    last_state       = NULLIF(p.last_state, 'null'::jsonb),
    last_change_at   = CASE WHEN p.changed THEN p.polled_at ELSE w.last_change_at END,
    next_poll_at     = CASE WHEN w.repoll_requested THEN p.polled_at ELSE p.next_poll_at END,
    failures         = p.failures,
    ended_at         = CASE WHEN p.ended THEN p.polled_at ELSE w.ended_at END,
    revision         = w.revision + 1,
    repoll_requested = false,
    lease_owner      = NULL,
    lease_until      = NULL
  FROM polls p JOIN locked l ON l.id = p.id
  WHERE w.id = p.id AND w.lease_owner = $1 AND w.ended_at IS NULL
  RETURNING w.id`;

/**
 * The leased, active rows among $1 (ids), found by primary key: a join on a JSON recordset was
 * planned as a scan of every watch (92 ms per call of 250 at 10,000 watches, stale statistics).
 */
const LEASE_ROWS = `
  SELECT id, lease_owner, repoll_requested FROM watches
  WHERE id = ANY($1::text[]) AND ended_at IS NULL AND lease_owner IS NOT NULL`;

/** Clears the repoll flag of ($1 ids, $2 owners) pairs, each only while its owner still holds it. */
const CLEAR_REPOLL = `
  UPDATE watches w SET repoll_requested = false
  FROM unnest($1::text[], $2::text[]) AS l(id, owner)
  WHERE w.id = l.id AND w.lease_owner = l.owner AND w.ended_at IS NULL AND w.repoll_requested
  RETURNING w.id`;

/**
 * Extends the leases of ($2 ids, $3 owners) pairs to $1, each only while its owner still holds
 * it. As in COMPLETE_POLLS, the rows are found by primary key from the id array and locked in id
 * order first (two writers of the same rows wait for each other instead of deadlocking).
 */
const RENEW_LEASES = `
  WITH leases AS (
    SELECT * FROM unnest($2::text[], $3::text[]) AS l(id, owner)
  ), locked AS (
    SELECT w.id FROM watches w
    WHERE w.id = ANY($2::text[])
    ORDER BY w.id
    FOR UPDATE
  )
  UPDATE watches w SET lease_until = $1::bigint
  FROM leases l JOIN locked k ON k.id = l.id
  WHERE w.id = l.id AND w.lease_owner = l.owner AND w.ended_at IS NULL
  RETURNING w.id`;

const INSERT_WATCH = `
  INSERT INTO watches (id, kind, resource_id, session_id, team_id, channel_id, message_ts, thread_ts,
                       project_name, last_state, last_change_at, next_poll_at, created_at, expires_at, card)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15::jsonb)
  ON CONFLICT (id) DO NOTHING`;

/** Inserted in the order given (WITH ORDINALITY): id order is delivery order within a channel. */
const INSERT_OUTBOX = `
  INSERT INTO outbox (idempotency_key, watch_id, transition_key, team_id, channel_id, thread_ts,
                      payload, created_at, retry_at)
  SELECT r.idempotency_key, r.watch_id, r.transition_key, r.team_id, r.channel_id, r.thread_ts,
         r.payload, r.created_at, r.retry_at
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(item, n),
       LATERAL jsonb_to_record(e.item) AS r(idempotency_key text, watch_id text, transition_key text, team_id text,
                                            channel_id text, thread_ts text, payload jsonb, created_at bigint, retry_at bigint)
  ORDER BY e.n
  ON CONFLICT (idempotency_key) DO NOTHING`;

const CLAIM_OUTBOX = `
  WITH picked AS (
    SELECT o.id FROM outbox o
    WHERE o.delivered_at IS NULL AND o.discarded_at IS NULL
      AND o.retry_at <= $2::bigint
      AND (o.lease_until IS NULL OR o.lease_until <= $2::bigint)
      AND NOT EXISTS (
        SELECT 1 FROM outbox earlier
        WHERE earlier.team_id = o.team_id AND earlier.channel_id = o.channel_id AND earlier.id < o.id
          AND earlier.delivered_at IS NULL AND earlier.discarded_at IS NULL)
      AND ($5::bigint IS NULL OR o.payload->>'type' <> 'reply' OR NOT EXISTS (
        SELECT 1 FROM outbox recent
        WHERE recent.team_id = o.team_id AND recent.channel_id = o.channel_id
          AND recent.delivered_at > $5::bigint AND recent.payload->>'type' = 'reply'))
    ORDER BY o.id
    LIMIT $3
    FOR UPDATE OF o SKIP LOCKED
  ), claimed AS (
    UPDATE outbox o SET
      lease_owner      = $1,
      lease_until      = $2::bigint + $4::bigint,
      attempts         = o.attempts + 1,
      first_attempt_at = COALESCE(o.first_attempt_at, $2::bigint)
    FROM picked WHERE o.id = picked.id
    RETURNING o.*
  )
  SELECT * FROM claimed ORDER BY id`;

const byDueTimeThenId = (a: Watch, b: Watch): number => a.nextPollAt - b.nextPollAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Keeps the channel locks apart from any other advisory lock of the application. */
const CHANNEL_LOCK_SPACE = 0x7669_646f;

/** FNV-1a of the channel, as the signed 32-bit key `pg_advisory_xact_lock(int, int)` takes. */
function channelLockKey(item: Pick<OutboxItem, 'teamId' | 'channelId'>): number {
  let hash = 0x811c_9dc5;
  for (const char of `${item.teamId}/${item.channelId}`) {
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x0100_0193);
  }
  return hash | 0;
}

export class PostgresWatchStore implements WatchStore {
  /** When this store last pruned the lease change log (the database's clock). */
  private prunedAt = -Infinity;

  constructor(private readonly pool: Pool) {}

  async addWatch(watch: NewWatch): Promise<boolean> {
    return insertWatch(this.pool, watch);
  }

  async getWatch(id: string): Promise<Watch | undefined> {
    const { rows } = await this.pool.query<WatchRecord>('SELECT * FROM watches WHERE id = $1', [id]);
    return rows[0] && toWatch(rows[0]);
  }

  async listWatches(filter: WatchFilter, options: { includeEnded?: boolean } = {}): Promise<Watch[]> {
    const matches = matchesFilter(filter, 1);
    const { rows } = await this.pool.query<WatchRecord>(
      `SELECT * FROM watches
       WHERE ${options.includeEnded ? '' : 'ended_at IS NULL AND '}${matches.sql}
       ORDER BY created_at, id`,
      matches.values,
    );
    return rows.map(toWatch);
  }

  /**
   * Picks due rows, then leases them; rows another replica leased in between are not returned,
   * so this claim picks again after the last row it saw until it has `limit` or there are none.
   */
  async claimDue(owner: string, now: number, limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<Watch[]> {
    const leased: Watch[] = [];
    const taken = new Map<string, number>();
    let after = options.after;
    while (leased.length < limit) {
      const projectLimits: Record<string, number> = { ...options.projectLimits };
      taken.forEach((count, projectName) => {
        projectLimits[projectName] = (options.projectLimits?.[projectName] ?? options.perProjectLimit ?? Infinity) - count;
      });
      const picked = await pickDue(
        async (cursor, size) => (await this.pool.query<DueRow>(DUE_PAGE, [now, cursor.afterAt, cursor.afterId, size])).rows,
        limit - leased.length,
        { ...options, projectLimits, ...(after && { after }) },
      );
      const last = picked.at(-1);
      if (last === undefined) break;
      const { rows } = await this.pool.query<WatchRecord>(LEASE_WATCHES, [owner, now, leaseMs, picked.map((row) => row.id)]);
      for (const row of rows) {
        leased.push(toWatch(row));
        taken.set(row.project_name, (taken.get(row.project_name) ?? 0) + 1);
      }
      after = { nextPollAt: Number(last.next_poll_at), id: last.id };
    }
    return leased.sort(byDueTimeThenId);
  }

  async completePoll(watchId: string, owner: string, outcome: PollOutcome): Promise<boolean> {
    const [written] = await this.completePolls(owner, [{ watchId, outcome }]);
    return written ?? false;
  }

  /**
   * One transaction for the list. The watches are updated in id order and the channel locks
   * taken after all of them, in key order, as a single poll does: two replicas completing
   * overlapping lists wait for each other instead of deadlocking.
   */
  async completePolls(owner: string, polls: readonly CompletedPoll[]): Promise<boolean[]> {
    if (polls.length === 0) return [];
    return inTransaction(this.pool, async (client) => {
      const written = await updatePolledWatches(client, owner, polls);
      const kept = polls.filter((poll) => written.has(poll.watchId));
      for (const { outcome } of kept) {
        for (const spawned of outcome.spawn ?? []) await insertWatch(client, spawned);
      }
      await appendOutbox(client, kept);
      return polls.map((poll) => written.has(poll.watchId));
    });
  }

  async releaseWatch(watchId: string, owner: string): Promise<boolean> {
    const released = await this.pool.query('UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [watchId, owner]);
    return (released.rowCount ?? 0) > 0;
  }

  async renewLeases(leases: readonly WatchLease[], until: number): Promise<boolean[]> {
    if (leases.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(RENEW_LEASES, [until, leases.map((l) => l.watchId), leases.map((l) => l.owner)]);
    const renewed = new Set(rows.map((row) => row.id));
    return leases.map((l) => renewed.has(l.watchId));
  }

  async checkLeases(leases: readonly WatchLease[]): Promise<LeaseCheck[]> {
    if (leases.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string; lease_owner: string; repoll_requested: boolean }>(LEASE_ROWS, [leases.map((l) => l.watchId)]);
    const found = new Map(rows.map((row) => [row.id, row]));
    const standing = (l: WatchLease) => found.get(l.watchId)?.lease_owner === l.owner;
    const flagged = leases.filter((l) => standing(l) && found.get(l.watchId)!.repoll_requested);
    // Rare (a hint from another replica); the update re-checks the owner under the row lock.
    const cleared =
      flagged.length === 0
        ? new Set<string>()
        : new Set(
            (await this.pool.query<{ id: string }>(CLEAR_REPOLL, [flagged.map((l) => l.watchId), flagged.map((l) => l.owner)])).rows.map((row) => row.id),
          );
    return leases.map((l) => (!standing(l) ? 'lost' : cleared.has(l.watchId) ? 'repoll' : found.get(l.watchId)!.repoll_requested ? 'lost' : 'held'));
  }

  async expedite(filter: WatchFilter, now: number): Promise<number> {
    const matches = matchesFilter(filter, 2);
    const expedited = await this.pool.query<{ n: number }>(
      `WITH expedited AS (
         UPDATE watches SET
           next_poll_at     = LEAST(next_poll_at, $1::bigint),
           repoll_requested = CASE WHEN lease_until > $1::bigint THEN true ELSE repoll_requested END
         WHERE ended_at IS NULL AND ${matches.sql}
         RETURNING id, lease_until > $1::bigint AS leased),
       logged AS (INSERT INTO lease_changes (watch_id, logged_at) SELECT id, ${DB_NOW_MS} FROM expedited WHERE leased)
       SELECT count(*)::int AS n FROM expedited`,
      [now, ...matches.values],
    );
    return expedited.rows[0]?.n ?? 0;
  }

  async updateCard(watchId: string, change: CardChange): Promise<boolean> {
    // One statement: the watch, then its card redraws still waiting (superseded by this one).
    const updated = await this.pool.query(
      `WITH written AS (
         UPDATE watches SET
           card           = $2::jsonb,
           last_state     = COALESCE($3::jsonb, last_state),
           last_change_at = CASE WHEN $3::jsonb IS NULL THEN last_change_at ELSE $4::bigint END,
           next_poll_at   = LEAST(next_poll_at, $4::bigint),
           revision       = revision + 1,
           lease_owner    = NULL,
           lease_until    = NULL
         WHERE id = $1
         RETURNING id),
       logged AS (INSERT INTO lease_changes (watch_id, logged_at) SELECT id, ${DB_NOW_MS} FROM written),
       superseded AS (
         UPDATE outbox SET discarded_at = $4::bigint, last_error = 'superseded by an action'
         WHERE watch_id IN (SELECT id FROM written) AND delivered_at IS NULL AND discarded_at IS NULL
           AND payload->>'type' = 'card' AND (lease_until IS NULL OR lease_until <= $4::bigint))
       SELECT count(*)::int AS n FROM written`,
      [watchId, JSON.stringify(change.card), change.state === undefined ? null : JSON.stringify(change.state), change.at],
    );
    return (updated.rows[0]?.n ?? 0) > 0;
  }

  async endWatch(watchId: string, at: number): Promise<boolean> {
    const ended = await this.pool.query(
      `WITH ended AS (
         UPDATE watches SET ended_at = $2, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND ended_at IS NULL RETURNING id)
       INSERT INTO lease_changes (watch_id, logged_at) SELECT id, ${DB_NOW_MS} FROM ended`,
      [watchId, at],
    );
    return (ended.rowCount ?? 0) > 0;
  }

  async leaseChanges(after?: LeaseChangeCursor): Promise<LeaseChanges> {
    const { rows } = await this.pool.query<{ now: string }>(`SELECT ${DB_NOW_MS} AS now`);
    const now = Number(rows[0]!.now);
    if (now - this.prunedAt >= LEASE_CHANGE_PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await this.pool.query('DELETE FROM lease_changes WHERE logged_at < $1', [now - LEASE_CHANGE_RETENTION_MS]);
    }
    const { since, complete } = leaseChangeWindow(after, now);
    if (after === undefined || !complete) return { watchIds: [], cursor: now, complete };
    const changed = await this.pool.query<{ watch_id: string }>('SELECT watch_id FROM lease_changes WHERE logged_at >= $1', [since]);
    return { watchIds: changed.rows.map((row) => row.watch_id), cursor: now, complete };
  }

  async claimOutbox(owner: string, now: number, limit: number, leaseMs: number, options: OutboxClaimOptions = {}): Promise<OutboxRow[]> {
    if (limit < 1) return [];
    const { rows } = await this.pool.query<OutboxRecord>(CLAIM_OUTBOX, [
      owner,
      now,
      limit,
      leaseMs,
      options.channelIntervalMs ? now - options.channelIntervalMs : null,
    ]);
    return rows.map(toOutboxRow);
  }

  async markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean> {
    return this.settleOutbox('delivered_at = $3, message_ts = COALESCE($4, message_ts)', [id, owner, result.deliveredAt, result.messageTs ?? null]);
  }

  async deferOutbox(id: number, owner: string, retryAt: number, error: string): Promise<boolean> {
    return this.settleOutbox('retry_at = $3, last_error = $4', [id, owner, retryAt, error]);
  }

  async discardOutbox(id: number, owner: string, at: number, error: string): Promise<boolean> {
    return this.settleOutbox('discarded_at = $3, last_error = $4', [id, owner, at, error]);
  }

  async listOutbox(watchId: string): Promise<OutboxRow[]> {
    const { rows } = await this.pool.query<OutboxRecord>('SELECT * FROM outbox WHERE watch_id = $1 ORDER BY id', [watchId]);
    return rows.map(toOutboxRow);
  }

  async pruneHistory(now: number, retention: HistoryRetention, limit: number): Promise<PrunedHistory> {
    const outbox = await this.pool.query(pruneOutboxSql('$1', '$2'), [now - retention.outboxMs, limit]);
    const watches = await this.pool.query(pruneWatchesSql('$1', '$2'), [now - retention.endedWatchMs, limit]);
    return { outboxRows: outbox.rowCount ?? 0, watches: watches.rowCount ?? 0 };
  }

  async announcePoller(instance: string, now: number, withinMs: number): Promise<number> {
    // One round trip: the count reads the table as it was before the statement, so it takes the
    // others still heard of and adds this one.
    const { rows } = await this.pool.query<{ pollers: number }>(
      `WITH announced AS (${announcePollerSql('$1', '$2')} RETURNING instance),
            forgotten AS (${forgetPollersSql('$3')} AND instance <> $1)
       SELECT 1 + count(*)::int AS pollers FROM pollers WHERE instance <> $1 AND seen_at >= $3`,
      [instance, now, now - withinMs],
    );
    return rows[0]!.pollers;
  }

  async retirePoller(instance: string): Promise<void> {
    await this.pool.query(retirePollerSql('$1'), [instance]);
  }

  /** Applies `assignments` (`$3`…) to a pending row leased by `owner` (`$1`, `$2`: id, owner), and gives the lease back. */
  private async settleOutbox(assignments: string, values: [id: number, owner: string, ...rest: unknown[]]): Promise<boolean> {
    const settled = await this.pool.query(
      `UPDATE outbox SET ${assignments}, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2 AND delivered_at IS NULL AND discarded_at IS NULL`,
      values,
    );
    return (settled.rowCount ?? 0) > 0;
  }
}

async function insertWatch(db: Queryable, watch: NewWatch): Promise<boolean> {
  const r = toNewWatchRecord(watch);
  const inserted = await db.query(INSERT_WATCH, [
    r.id,
    r.kind,
    r.resource_id,
    r.session_id,
    r.team_id,
    r.channel_id,
    r.message_ts,
    r.thread_ts,
    r.project_name,
    r.last_state,
    r.last_change_at,
    r.next_poll_at,
    r.created_at,
    r.expires_at,
    r.card,
  ]);
  return (inserted.rowCount ?? 0) > 0;
}

/**
 * Delivery follows id order within a channel, but identity values are handed out before
 * commit: two polls writing to one channel could commit their rows out of id order, and a
 * deliverer could send the later row before the earlier one became visible. Holding the
 * channel's lock from the first insert to commit makes id order commit order. The locks are
 * taken last and in key order, so a transaction holding one never waits for anything else.
 */
async function appendOutbox(client: PoolClient, polls: readonly CompletedPoll[]): Promise<void> {
  const items = polls.flatMap(({ outcome }) => outcome.outbox);
  if (items.length === 0) return;
  const lockKeys = [...new Set(items.map(channelLockKey))].sort((a, b) => a - b);
  for (const key of lockKeys) {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [CHANNEL_LOCK_SPACE, key]);
  }
  const records = polls.flatMap(({ watchId, outcome }) =>
    outcome.outbox.map((item) => {
      const record = toNewOutboxRecord(watchId, item, outcome.polledAt);
      // Nested as JSON, not as a JSON string.
      return { ...record, payload: item.payload };
    }),
  );
  await client.query(INSERT_OUTBOX, [JSON.stringify(records)]);
}

/** Writes the polls' states inside the caller's transaction; the ids written (`owner` holds them, not ended). */
async function updatePolledWatches(client: PoolClient, owner: string, polls: readonly CompletedPoll[]): Promise<Set<string>> {
  const records = polls.map(({ watchId, outcome }) => ({
    id: watchId,
    last_state: outcome.state ?? null,
    changed: outcome.changed,
    polled_at: outcome.polledAt,
    next_poll_at: outcome.nextPollAt,
    failures: outcome.failures,
    ended: outcome.ended,
  }));
  const { rows } = await client.query<{ id: string }>(COMPLETE_POLLS, [owner, JSON.stringify(records), records.map((r) => r.id)]);
  return new Set(rows.map((row) => row.id));
}

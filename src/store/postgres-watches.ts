/**
 * WatchStore on PostgreSQL, shared by several replicas. Claims are single statements that lock
 * their rows with `FOR UPDATE SKIP LOCKED`, so replicas claiming at once neither wait on each
 * other nor get the same row; a poll's results are written in one transaction.
 */
import type { Pool, PoolClient } from 'pg';
import type { CardChange, ClaimOptions, CompletedPoll, NewWatch, OutboxItem, OutboxRow, PollOutcome, Watch, WatchFilter, WatchStore } from '../poller/watch';
import { inTransaction } from './pg-transaction';
import {
  toClaimLimitsRecord,
  toNewOutboxRecord,
  toNewWatchRecord,
  toOutboxRow,
  toWatch,
  toWatchFilterRecord,
  type OutboxRecord,
  type WatchFilterRecord,
  type WatchRecord,
} from './watch-rows';

type Queryable = Pick<Pool | PoolClient, 'query'>;

/** `$1`…`$6`: the values of `filterValues`. */
const MATCHES_FILTER = `
  ($1::text IS NULL OR project_name = $1)
  AND ($2::text IS NULL OR kind = $2)
  AND ($3::text IS NULL OR resource_id = $3)
  AND ($4::text IS NULL OR session_id = $4)
  AND ($5::text IS NULL OR team_id = $5)
  AND ($6::text IS NULL OR channel_id = $6)`;

const filterValues = (f: WatchFilterRecord) => [f.project_name, f.kind, f.resource_id, f.session_id, f.team_id, f.channel_id];

// The locking step re-checks the claim conditions on `w` itself: a row another replica leased
// and committed after this statement's snapshot is re-read under the lock and dropped there, so
// LIMIT moves on to the next claimable row instead of returning fewer.
const CLAIM_DUE = `
  WITH ranked AS (
    SELECT id, project_name, row_number() OVER (PARTITION BY project_name ORDER BY next_poll_at, id) AS n
    FROM watches
    WHERE ended_at IS NULL AND next_poll_at <= $2::bigint
      AND (lease_until IS NULL OR lease_until <= $2::bigint)
      AND project_name <> ALL($5::text[])
  ), picked AS (
    SELECT w.id FROM watches w JOIN ranked r ON r.id = w.id
    WHERE r.n <= COALESCE(($7::jsonb ->> r.project_name)::bigint, $6::bigint, r.n)
      AND w.ended_at IS NULL AND w.next_poll_at <= $2::bigint
      AND (w.lease_until IS NULL OR w.lease_until <= $2::bigint)
    ORDER BY w.next_poll_at, w.id
    LIMIT $3
    FOR UPDATE OF w SKIP LOCKED
  ), claimed AS (
    UPDATE watches w SET lease_owner = $1, lease_until = $2::bigint + $4::bigint, repoll_requested = false
    FROM picked WHERE w.id = picked.id
    RETURNING w.*
  )
  SELECT * FROM claimed ORDER BY next_poll_at, id`;

const COMPLETE_POLL = `
  UPDATE watches SET
    last_state       = $3::jsonb,
    last_change_at   = CASE WHEN $4::boolean THEN $5::bigint ELSE last_change_at END,
    next_poll_at     = CASE WHEN repoll_requested THEN $5::bigint ELSE $6::bigint END,
    failures         = $7,
    ended_at         = CASE WHEN $8::boolean THEN $5::bigint ELSE ended_at END,
    revision         = revision + 1,
    repoll_requested = false,
    lease_owner      = NULL,
    lease_until      = NULL
  WHERE id = $1 AND lease_owner = $2 AND ended_at IS NULL`;

const INSERT_WATCH = `
  INSERT INTO watches (id, kind, resource_id, session_id, team_id, channel_id, message_ts, thread_ts,
                       project_name, last_state, last_change_at, next_poll_at, created_at, expires_at, card)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15::jsonb)
  ON CONFLICT (id) DO NOTHING`;

const INSERT_OUTBOX = `
  INSERT INTO outbox (idempotency_key, watch_id, transition_key, team_id, channel_id, thread_ts,
                      payload, created_at, retry_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
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
  constructor(private readonly pool: Pool) {}

  async addWatch(watch: NewWatch): Promise<boolean> {
    return insertWatch(this.pool, watch);
  }

  async getWatch(id: string): Promise<Watch | undefined> {
    const { rows } = await this.pool.query<WatchRecord>('SELECT * FROM watches WHERE id = $1', [id]);
    return rows[0] && toWatch(rows[0]);
  }

  async listWatches(filter: WatchFilter, options: { includeEnded?: boolean } = {}): Promise<Watch[]> {
    const { rows } = await this.pool.query<WatchRecord>(
      `SELECT * FROM watches
       WHERE ($7::boolean OR ended_at IS NULL) AND ${MATCHES_FILTER}
       ORDER BY created_at, id`,
      [...filterValues(toWatchFilterRecord(filter)), options.includeEnded ?? false],
    );
    return rows.map(toWatch);
  }

  async claimDue(owner: string, now: number, limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<Watch[]> {
    if (limit < 1) return [];
    const limits = toClaimLimitsRecord(options);
    const { rows } = await this.pool.query<WatchRecord>(CLAIM_DUE, [
      owner,
      now,
      limit,
      leaseMs,
      options.excludeProjects ?? [],
      limits.per_project_limit,
      limits.project_limits,
    ]);
    return rows.map(toWatch);
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
      const written = new Set<CompletedPoll>();
      for (const poll of [...polls].sort((a, b) => (a.watchId < b.watchId ? -1 : a.watchId > b.watchId ? 1 : 0))) {
        if (await updatePolledWatch(client, owner, poll)) written.add(poll);
      }
      const kept = polls.filter((poll) => written.has(poll));
      for (const { outcome } of kept) {
        for (const spawned of outcome.spawn ?? []) await insertWatch(client, spawned);
      }
      await appendOutbox(client, kept);
      return polls.map((poll) => written.has(poll));
    });
  }

  async releaseWatch(watchId: string, owner: string): Promise<boolean> {
    const released = await this.pool.query(
      'UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
      [watchId, owner],
    );
    return (released.rowCount ?? 0) > 0;
  }

  async expedite(filter: WatchFilter, now: number): Promise<number> {
    const expedited = await this.pool.query(
      `UPDATE watches SET
         next_poll_at     = LEAST(next_poll_at, $7::bigint),
         repoll_requested = CASE WHEN lease_until > $7::bigint THEN true ELSE repoll_requested END
       WHERE ended_at IS NULL AND ${MATCHES_FILTER}`,
      [...filterValues(toWatchFilterRecord(filter)), now],
    );
    return expedited.rowCount ?? 0;
  }

  async updateCard(watchId: string, change: CardChange): Promise<boolean> {
    const updated = await this.pool.query(
      `UPDATE watches SET
         card           = $2::jsonb,
         last_state     = COALESCE($3::jsonb, last_state),
         last_change_at = CASE WHEN $3::jsonb IS NULL THEN last_change_at ELSE $4::bigint END
       WHERE id = $1`,
      [watchId, JSON.stringify(change.card), change.state === undefined ? null : JSON.stringify(change.state), change.at],
    );
    return (updated.rowCount ?? 0) > 0;
  }

  async endWatch(watchId: string, at: number): Promise<boolean> {
    const ended = await this.pool.query(
      'UPDATE watches SET ended_at = $2, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND ended_at IS NULL',
      [watchId, at],
    );
    return (ended.rowCount ?? 0) > 0;
  }

  async claimOutbox(owner: string, now: number, limit: number, leaseMs: number): Promise<OutboxRow[]> {
    if (limit < 1) return [];
    const { rows } = await this.pool.query<OutboxRecord>(CLAIM_OUTBOX, [owner, now, limit, leaseMs]);
    return rows.map(toOutboxRow);
  }

  async markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean> {
    return this.settleOutbox('delivered_at = $3, message_ts = COALESCE($4, message_ts)', [
      id,
      owner,
      result.deliveredAt,
      result.messageTs ?? null,
    ]);
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
  for (const { watchId, outcome } of polls) {
    for (const item of outcome.outbox) {
      const r = toNewOutboxRecord(watchId, item, outcome.polledAt);
      await client.query(INSERT_OUTBOX, [
        r.idempotency_key,
        r.watch_id,
        r.transition_key,
        r.team_id,
        r.channel_id,
        r.thread_ts,
        r.payload,
        r.created_at,
        r.retry_at,
      ]);
    }
  }
}

/** Writes a poll's state inside the caller's transaction; false (writing nothing) unless `owner` holds the watch. */
async function updatePolledWatch(client: PoolClient, owner: string, { watchId, outcome }: CompletedPoll): Promise<boolean> {
  const updated = await client.query(COMPLETE_POLL, [
    watchId,
    owner,
    outcome.state === undefined ? null : JSON.stringify(outcome.state),
    outcome.changed,
    outcome.polledAt,
    outcome.nextPollAt,
    outcome.failures,
    outcome.ended,
  ]);
  return (updated.rowCount ?? 0) > 0;
}

/**
 * The `watches` and `outbox` tables as both backends read and write them, and their mapping to
 * the poller's types. PostgreSQL returns BIGINT columns as strings and JSONB already parsed;
 * SQLite returns integers as numbers, booleans as 0/1 and JSON as TEXT.
 */
import type { Snapshot } from '../poller/snapshot';
import type { CardModel, ClaimOptions, NewWatch, OutboxItem, OutboxPayload, OutboxRow, Watch, WatchFilter, WatchKind } from '../poller/watch';

type DbInteger = number | string;
type DbJson<T> = T | string;

export interface WatchRecord {
  id: string;
  kind: WatchKind;
  resource_id: string;
  session_id: string;
  team_id: string;
  channel_id: string;
  message_ts: string | null;
  thread_ts: string | null;
  project_name: string;
  last_state: DbJson<Snapshot> | null;
  /** Null on rows written before the card model was stored (migration 5). */
  card: DbJson<CardModel> | null;
  last_change_at: DbInteger;
  next_poll_at: DbInteger;
  created_at: DbInteger;
  expires_at: DbInteger;
  ended_at: DbInteger | null;
  lease_owner: string | null;
  lease_until: DbInteger | null;
  failures: number;
  revision: number;
  repoll_requested: boolean | number;
}

export interface OutboxRecord {
  id: DbInteger;
  idempotency_key: string;
  watch_id: string;
  transition_key: string;
  team_id: string;
  channel_id: string;
  thread_ts: string | null;
  payload: DbJson<OutboxPayload>;
  created_at: DbInteger;
  retry_at: DbInteger;
  attempts: number;
  first_attempt_at: DbInteger | null;
  lease_owner: string | null;
  lease_until: DbInteger | null;
  last_error: string | null;
  delivered_at: DbInteger | null;
  message_ts: string | null;
  discarded_at: DbInteger | null;
}

/** Snapshots and payloads are always JSON objects, so a string can only be SQLite's TEXT. */
function fromJson<T>(value: DbJson<T>): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/**
 * Every row read brings its own copy of strings that thousands of watches share (kind, team,
 * channel, project, session): some 190 bytes a watch, 2 MB of the poller's heap at 10,000
 * watches, and 40 more for the lease owner (a heap snapshot of the soak's poller thread). One
 * copy of each is kept here instead; the pool starts over past `SHARED_LIMIT` values, so a
 * stream of distinct ones never grows it further.
 */
const shared = new Map<string, string>();
const SHARED_LIMIT = 10_000;

function sharedCopy<S extends string>(value: S): S {
  const known = shared.get(value);
  if (known !== undefined) return known as S;
  if (shared.size >= SHARED_LIMIT) shared.clear();
  shared.set(value, value);
  return value;
}

/** Optional fields are set only when present (no spread of temporary objects: this runs for every claimed watch). */
export function toWatch(row: WatchRecord): Watch {
  // Every field named here, set or not: V8 keeps them all inside the object. Fields added later go
  // to an array of their own, ~40 bytes more a watch (a heap snapshot of the poller's thread).
  return {
    id: row.id,
    kind: sharedCopy(row.kind),
    resourceId: row.resource_id,
    sessionId: sharedCopy(row.session_id),
    teamId: sharedCopy(row.team_id),
    channelId: sharedCopy(row.channel_id),
    projectName: sharedCopy(row.project_name),
    messageTs: row.message_ts ?? undefined,
    threadTs: row.thread_ts ?? undefined,
    lastState: row.last_state === null ? undefined : fromJson(row.last_state),
    card: row.card === null || row.card === undefined ? undefined : fromJson(row.card),
    lastChangeAt: Number(row.last_change_at),
    nextPollAt: Number(row.next_poll_at),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    endedAt: row.ended_at === null ? undefined : Number(row.ended_at),
    leaseOwner: row.lease_owner === null ? undefined : sharedCopy(row.lease_owner),
    leaseUntil: row.lease_until === null ? undefined : Number(row.lease_until),
    failures: row.failures,
    revision: row.revision,
    repollRequested: Boolean(row.repoll_requested),
  };
}

export function toOutboxRow(row: OutboxRecord): OutboxRow {
  return {
    id: Number(row.id),
    idempotencyKey: row.idempotency_key,
    watchId: row.watch_id,
    transitionKey: row.transition_key,
    teamId: row.team_id,
    channelId: row.channel_id,
    ...(row.thread_ts !== null && { threadTs: row.thread_ts }),
    payload: fromJson(row.payload),
    createdAt: Number(row.created_at),
    retryAt: Number(row.retry_at),
    attempts: row.attempts,
    ...(row.first_attempt_at !== null && { firstAttemptAt: Number(row.first_attempt_at) }),
    ...(row.lease_owner !== null && { leaseOwner: row.lease_owner }),
    ...(row.lease_until !== null && { leaseUntil: Number(row.lease_until) }),
    ...(row.last_error !== null && { lastError: row.last_error }),
    ...(row.delivered_at !== null && { deliveredAt: Number(row.delivered_at) }),
    ...(row.message_ts !== null && { messageTs: row.message_ts }),
    ...(row.discarded_at !== null && { discardedAt: Number(row.discarded_at) }),
  };
}

/** The columns a new watch is inserted with; the rest take their defaults. */
export type NewWatchRecord = Pick<
  WatchRecord,
  | 'id'
  | 'kind'
  | 'resource_id'
  | 'session_id'
  | 'team_id'
  | 'channel_id'
  | 'message_ts'
  | 'thread_ts'
  | 'project_name'
  | 'last_change_at'
  | 'next_poll_at'
  | 'created_at'
  | 'expires_at'
> & { last_state: string | null; card: string | null };

export function toNewWatchRecord(watch: NewWatch): NewWatchRecord {
  return {
    id: watch.id,
    kind: watch.kind,
    resource_id: watch.resourceId,
    session_id: watch.sessionId,
    team_id: watch.teamId,
    channel_id: watch.channelId,
    message_ts: watch.messageTs ?? null,
    thread_ts: watch.threadTs ?? null,
    project_name: watch.projectName,
    last_state: watch.lastState === undefined ? null : JSON.stringify(watch.lastState),
    card: watch.card === undefined ? null : JSON.stringify(watch.card),
    last_change_at: watch.lastChangeAt,
    next_poll_at: watch.nextPollAt,
    created_at: watch.createdAt,
    expires_at: watch.expiresAt,
  };
}

/** The columns a new outbox row is inserted with; the rest take their defaults. */
export type NewOutboxRecord = Pick<
  OutboxRecord,
  'idempotency_key' | 'watch_id' | 'transition_key' | 'team_id' | 'channel_id' | 'thread_ts' | 'created_at' | 'retry_at'
> & { payload: string };

/** A row due at once: `createdAt` and `retryAt` are the poll's time. */
export function toNewOutboxRecord(watchId: string, item: OutboxItem, polledAt: number): NewOutboxRecord {
  return {
    idempotency_key: `${watchId}:${item.transitionKey}`,
    watch_id: watchId,
    transition_key: item.transitionKey,
    team_id: item.teamId,
    channel_id: item.channelId,
    thread_ts: item.threadTs ?? null,
    payload: JSON.stringify(item.payload),
    created_at: polledAt,
    retry_at: polledAt,
  };
}

const FILTER_COLUMNS = [
  ['projectName', 'project_name'],
  ['kind', 'kind'],
  ['resourceId', 'resource_id'],
  ['sessionId', 'session_id'],
  ['teamId', 'team_id'],
  ['channelId', 'channel_id'],
] as const satisfies readonly (readonly [keyof WatchFilter, string])[];

/**
 * A WatchFilter as SQL: `column = <placeholder>` for each field it sets (`TRUE` when none),
 * with the values in that order. Only the columns given are in the text, so the indexes by
 * resource and by session apply; `col = $x OR $x IS NULL` for every column hid them, and every
 * mute's look for the session's consoles scanned all the watches (~10 ms at 10,000).
 */
export function watchFilterSql(filter: WatchFilter, placeholder: (index: number, column: string) => string): { sql: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const [field, column] of FILTER_COLUMNS) {
    const value = filter[field];
    if (value === undefined) continue;
    values.push(value);
    conditions.push(`${column} = ${placeholder(values.length - 1, column)}`);
  }
  return { sql: conditions.length > 0 ? conditions.join(' AND ') : 'TRUE', values };
}

/** A claimable watch as a claim reads it, in due order, before deciding whether to take it. */
export type DueRow = Pick<WatchRecord, 'id' | 'project_name' | 'next_poll_at'>;

/** Where a page of due rows starts: after this (next_poll_at, id). */
export interface DueCursor {
  afterAt: number;
  afterId: string;
}

/**
 * The rows one claim takes, reading claimable rows in due order a page at a time (`readPage`
 * gives up to `size` rows after the cursor): the first `limit` of them, skipping excluded
 * projects and those at their limit. Reading the due index in order costs about what a claim
 * takes; ranking every due watch per project (a window function) cost tens of milliseconds per
 * claim at 10,000 watches.
 */
export async function pickDue(
  readPage: (cursor: DueCursor, size: number) => DueRow[] | Promise<DueRow[]>,
  limit: number,
  options: ClaimOptions,
): Promise<DueRow[]> {
  const picker = duePicker(limit, options);
  const size = Math.max(64, 2 * limit);
  let cursor: DueCursor = options.after ? { afterAt: options.after.nextPollAt, afterId: options.after.id } : { afterAt: Number.MIN_SAFE_INTEGER, afterId: '' };
  for (;;) {
    const rows = await readPage(cursor, size);
    if (picker.offer(rows)) return picker.picked;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return picker.picked;
    cursor = { afterAt: Number(last.next_poll_at), afterId: last.id };
  }
}

/** `pickDue` for a synchronous driver (better-sqlite3 inside a transaction). */
export function pickDueSync(readPage: (cursor: DueCursor, size: number) => DueRow[], limit: number, options: ClaimOptions): DueRow[] {
  const picker = duePicker(limit, options);
  const size = Math.max(64, 2 * limit);
  let cursor: DueCursor = options.after ? { afterAt: options.after.nextPollAt, afterId: options.after.id } : { afterAt: Number.MIN_SAFE_INTEGER, afterId: '' };
  for (;;) {
    const rows = readPage(cursor, size);
    if (picker.offer(rows)) return picker.picked;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return picker.picked;
    cursor = { afterAt: Number(last.next_poll_at), afterId: last.id };
  }
}

/** Takes offered rows within the claim's limits; `offer` says when the claim is full. */
function duePicker(limit: number, options: ClaimOptions): { picked: DueRow[]; offer(rows: readonly DueRow[]): boolean } {
  const excluded = new Set(options.excludeProjects ?? []);
  const limitOf = (projectName: string): number => options.projectLimits?.[projectName] ?? options.perProjectLimit ?? Infinity;
  const taken = new Map<string, number>();
  const picked: DueRow[] = [];
  return {
    picked,
    offer(rows) {
      for (const row of rows) {
        const count = taken.get(row.project_name) ?? 0;
        if (excluded.has(row.project_name) || count >= limitOf(row.project_name)) continue;
        taken.set(row.project_name, count + 1);
        picked.push(row);
        if (picked.length >= limit) return true;
      }
      return false;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The lease change log (`leaseChanges`): rows carry the database's clock, by which both SQL stores
// prune it (SQLite reads it by rowid, PostgreSQL by that clock: see each store).

/** Lease changes older than this are pruned; a cursor from before then answers incomplete. */
export const LEASE_CHANGE_RETENTION_MS = 10 * 60_000;

/** How often a store prunes the log (at most), on a read. */
export const LEASE_CHANGE_PRUNE_EVERY_MS = 60_000;

/**
 * `pruneHistory`'s two deletes, the same on SQLite and PostgreSQL but for their placeholders (the
 * cutoff, then the row limit). Each reads along its index of finished rows (`outbox_finished`,
 * `watches_ended`); a watch goes only once no outbox row of it is left.
 */
export const pruneOutboxSql = (before: string, limit: string): string => `
  DELETE FROM outbox WHERE id IN (
    SELECT id FROM outbox
    WHERE (delivered_at IS NOT NULL OR discarded_at IS NOT NULL) AND coalesce(delivered_at, discarded_at) < ${before}
    LIMIT ${limit})`;

export const pruneWatchesSql = (before: string, limit: string): string => `
  DELETE FROM watches WHERE id IN (
    SELECT id FROM watches w
    WHERE ended_at IS NOT NULL AND ended_at < ${before} AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.watch_id = w.id)
    LIMIT ${limit})`;

/** A poller's announcement (`announcePoller`): its row, seen at `now`. */
export const announcePollerSql = (instance: string, now: string): string => `
  INSERT INTO pollers (instance, seen_at) VALUES (${instance}, ${now})
  ON CONFLICT (instance) DO UPDATE SET seen_at = excluded.seen_at`;

/** The pollers not heard of since `before`, forgotten (`announcePoller`). */
export const forgetPollersSql = (before: string): string => `DELETE FROM pollers WHERE seen_at < ${before}`;

/** A poller that stops, forgotten (`retirePoller`). */
export const retirePollerSql = (instance: string): string => `DELETE FROM pollers WHERE instance = ${instance}`;

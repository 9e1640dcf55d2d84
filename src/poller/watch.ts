/**
 * The Watch model and the storage contract the poller needs: due watches are claimed under a
 * lease, each poll is written back in one atomic step together with the notifications it
 * produced (the outbox), and the outbox is drained under leases of its own.
 *
 * All times are epoch milliseconds and are always passed in: a store never reads a clock, so
 * every implementation behaves the same under tests and across replicas.
 */
import type { Snapshot, WatchKind } from './snapshot';

export type { WatchKind } from './snapshot';

/** Where a watch reports: a Slack channel, usually in the thread of the card that started it. */
export interface WatchTarget {
  teamId: string;
  channelId: string;
  /** The card to keep up to date with `chat.update`, if there is one. */
  messageTs?: string;
  /** The thread to reply in; the card's own thread when unset. */
  threadTs?: string;
  projectName: string;
}

export interface Watch extends WatchTarget {
  id: string;
  kind: WatchKind;
  /** Archive, broadcast, composer, captions, SIP call or Audio Connector id; the session id for discovery. */
  resourceId: string;
  sessionId: string;
  /** What the last poll saw (or what the start response said), as JSON. */
  lastState: Snapshot | undefined;
  /**
   * The card model beside the state: the context captured at start and who did each later
   * action, as JSON the resource kind owns (src/kinds); undefined on rows of older versions.
   */
  card?: CardModel;
  lastChangeAt: number;
  nextPollAt: number;
  createdAt: number;
  /** Past this time the watch is closed whatever the resource is doing. */
  expiresAt: number;
  /** Set once the resource reached a final state (or the watch expired); ended watches are never claimed. */
  endedAt?: number;
  leaseOwner?: string;
  leaseUntil?: number;
  /** Consecutive failed polls. */
  failures: number;
  /** Bumped by every completed poll; tells apart repeated transitions (paused, resumed, paused again). */
  revision: number;
  /** A poll was asked for while this watch was leased: the poll in flight may have read too early. */
  repollRequested: boolean;
}

export type NewWatch = Omit<Watch, 'leaseOwner' | 'leaseUntil' | 'endedAt' | 'failures' | 'revision' | 'repollRequested'>;

/** A kind's card model as the engine carries it: opaque JSON (src/kinds parses it). */
export type CardModel = Readonly<Record<string, unknown>>;

/** Watches of one resource in one channel share an id, so adding the same watch twice is harmless. */
export function watchIdFor(target: Pick<WatchTarget, 'teamId' | 'channelId'>, kind: WatchKind, resourceId: string): string {
  return `${target.teamId}:${target.channelId}:${kind}:${resourceId}`;
}

export interface CreateWatchInput {
  target: WatchTarget;
  kind: WatchKind;
  resourceId: string;
  sessionId: string;
  /** Build it from the start response (see snapshot.ts) so the first poll reports only what changed since. */
  initialState: Snapshot | undefined;
  /** The kind's card model (context captured at start). */
  card?: CardModel;
  now: number;
  maxAgeMs: number;
}

/** A watch due at once, as if its resource had just changed. */
export function createWatch(input: CreateWatchInput): NewWatch {
  const { target, kind, resourceId, sessionId, initialState, card, now, maxAgeMs } = input;
  return {
    ...target,
    id: watchIdFor(target, kind, resourceId),
    kind,
    resourceId,
    sessionId,
    lastState: initialState,
    ...(card !== undefined && { card }),
    lastChangeAt: now,
    nextPollAt: now,
    createdAt: now,
    expiresAt: now + maxAgeMs,
  };
}

/** Slack blocks as JSON; built by the views, carried opaquely here. */
export type SlackBlocks = readonly Record<string, unknown>[];

export type OutboxPayload =
  /** A message in the watch's thread (or in the channel when the watch has no thread). */
  | { type: 'reply'; text: string; blocks?: SlackBlocks }
  /** A new rendering of the watch's card. */
  | { type: 'card'; messageTs: string; text: string; blocks: SlackBlocks };

/** A notification produced by a poll, handed to `completePoll`. */
export interface OutboxItem {
  /** Unique per watch and occurrence; the row's idempotency key is `${watchId}:${transitionKey}`. */
  transitionKey: string;
  teamId: string;
  channelId: string;
  threadTs?: string;
  payload: OutboxPayload;
}

export interface OutboxRow extends OutboxItem {
  /** Increasing in insertion order; delivery follows it within a channel. */
  id: number;
  idempotencyKey: string;
  watchId: string;
  createdAt: number;
  /** Not claimable before this time. */
  retryAt: number;
  /** Number of claims so far, including the current one. */
  attempts: number;
  /** When the first claim happened: a post from an earlier attempt can only be newer. */
  firstAttemptAt?: number;
  leaseOwner?: string;
  leaseUntil?: number;
  lastError?: string;
  deliveredAt?: number;
  /** The `ts` Slack gave the delivered message. */
  messageTs?: string;
  /** Set when delivery was given up (e.g. the channel is gone); the row no longer blocks its channel. */
  discardedAt?: number;
}

export interface PollOutcome {
  /** The time the poll read the service. */
  polledAt: number;
  state: Snapshot | undefined;
  /** The state changed: `lastChangeAt` becomes `polledAt`. */
  changed: boolean;
  nextPollAt: number;
  /** The resource reached a final state, or the watch expired: `endedAt` becomes `polledAt`. */
  ended: boolean;
  failures: number;
  outbox: readonly OutboxItem[];
  /** Watches to add for resources this poll discovered; ids that already exist are left alone. */
  spawn?: readonly NewWatch[];
}

/** What an action wrote to a watch: its card model, and the resource's state when the action changed it. */
export interface CardChange {
  card: CardModel;
  state?: Snapshot;
  at: number;
}

/** One watch's poll, for `completePolls`. */
export interface CompletedPoll {
  watchId: string;
  outcome: PollOutcome;
}

/** A lease a poller took with `claimDue` and keeps between polls (see `checkLeases`). */
export interface WatchLease {
  watchId: string;
  owner: string;
}

/**
 * What `checkLeases` found: the lease still stands (`held`), still stands and a poll was asked
 * for while it was leased (`repoll`), or it was taken back, taken over or the watch ended (`lost`).
 */
export type LeaseCheck = 'held' | 'repoll' | 'lost';

/** Where a read of `leaseChanges` ended; the next read starts there. Opaque to callers. */
export type LeaseChangeCursor = number;

/** What `leaseChanges` found since a cursor. */
export interface LeaseChanges {
  /** Watches whose lease may have been taken back, taken over or flagged for a repoll (repeats possible). */
  watchIds: string[];
  cursor: LeaseChangeCursor;
  /** False when the log no longer reaches back to the cursor given: any kept lease may have changed. */
  complete: boolean;
}

/**
 * How long finished work stays in the store (`pruneHistory`). Delivered and discarded
 * notifications matter for minutes (an idempotency key holds off a second copy of a poll written
 * twice), ended watches for as long as someone may act on their cards (an action redraws every
 * card of its resource, `applyToCards`) or look for a session's channel by them.
 */
export interface HistoryRetention {
  outboxMs: number;
  endedWatchMs: number;
}

const DAY_MS = 86_400_000;

export const HISTORY_RETENTION: HistoryRetention = { outboxMs: 7 * DAY_MS, endedWatchMs: 30 * DAY_MS };

/** What one `pruneHistory` deleted. */
export interface PrunedHistory {
  outboxRows: number;
  watches: number;
}

export interface WatchFilter {
  projectName?: string;
  kind?: WatchKind;
  resourceId?: string;
  sessionId?: string;
  teamId?: string;
  channelId?: string;
}

export function matchesFilter(watch: Watch, filter: WatchFilter): boolean {
  return (Object.keys(filter) as (keyof WatchFilter)[]).every((key) => filter[key] === undefined || watch[key] === filter[key]);
}

export interface OutboxClaimOptions {
  /**
   * A channel that had a reply delivered less than this long before `now` has no claimable
   * reply: Slack allows about one posted message per second per channel, whichever replica
   * posts it. Card updates (chat.update) post nothing new and are not held back.
   */
  channelIntervalMs?: number;
}

export interface ClaimOptions {
  /** At most this many watches of any one project, so a project with a backlog cannot crowd out the others. */
  perProjectLimit?: number;
  /** Limits for particular projects, overriding `perProjectLimit` (claim no more than their budget can serve). */
  projectLimits?: Readonly<Record<string, number>>;
  /** Projects not to claim from now (their budget is spent or they are backing off). */
  excludeProjects?: readonly string[];
  /**
   * Where the claim before this one (same `now`) ended in due order: a store may start looking
   * after it, since what comes before is leased already. A hint only; ignoring it is correct.
   */
  after?: { nextPollAt: number; id: string };
}

/**
 * Storage the poller and the deliverer need. `owner` names one claim attempt (a poller cycle or
 * a delivery round): callers use a fresh value each time, so a late answer from an attempt whose
 * lease was taken over is recognised and refused.
 *
 * Semantics every implementation must have (test/poller/watch-store-contract.ts checks them):
 *
 * Watches
 * - A watch is *claimable* at `now` when it has not ended, `nextPollAt <= now`, and it has no
 *   lease or `leaseUntil <= now`.
 * - `claimDue` leases up to `limit` claimable watches, oldest `nextPollAt` first (ties by id),
 *   skipping `excludeProjects` and taking at most `projectLimits[project] ?? perProjectLimit` per
 *   project: it sets
 *   `leaseOwner = owner`, `leaseUntil = now + leaseMs`, `repollRequested = false`, and returns the
 *   watches as updated. Until `leaseUntil` no other claim returns them. Concurrent claims never
 *   return the same watch.
 * - `completePoll` applies only while `leaseOwner === owner` (ownership decides, not the clock: a
 *   lease that ran out but was not re-claimed is still the owner's) and the watch has not ended;
 *   otherwise it changes nothing and resolves false. In ONE atomic step it sets `lastState`,
 *   `lastChangeAt` (when changed), `nextPollAt` (or `polledAt` if `repollRequested`), `failures`,
 *   `endedAt` (when ended), bumps `revision`, clears the lease and `repollRequested`, inserts each
 *   outbox item whose idempotency key `${watchId}:${transitionKey}` is new (an existing key is a
 *   silent no-op), and inserts each spawned watch whose id is new.
 * - `completePolls` is `completePoll` for several watches of one owner, in order, resolving
 *   what `completePoll` would have for each. Every watch is still checked and written on its
 *   own terms (a refused one does not stop the others), and each watch's state and outbox rows
 *   are still written together; an implementation may commit the whole list in one transaction.
 *   When the store fails, it rejects, and a watch either has all its writes or none of them.
 * - `releaseWatch` gives a lease back without polling (nothing else changes); owner-checked.
 * - `renewLeases` sets `leaseUntil = until` on each lease that still stands (the watch has not
 *   ended and `leaseOwner === owner`, as for `checkLeases`) and answers true for it, false for the
 *   others, in order; nothing else changes (not `repollRequested`, not the lease change log: the
 *   holder renews its own lease).
 * - `checkLeases` answers, per lease in order, whether it still stands: the watch has not ended
 *   and `leaseOwner === owner` (ownership decides, as for `completePoll`). A standing lease of a
 *   watch with `repollRequested` answers `repoll` and has the flag cleared (the caller polls it
 *   now, after the request); nothing else changes.
 * - `leaseChanges` names the watches whose leases something other than their holder touched since
 *   a cursor: `updateCard` and `endWatch` (the lease cleared), `expedite` of a leased watch (the
 *   repoll flag), `claimDue` of a watch whose lease had run out (taken over). Without a cursor it
 *   names none and only returns one. It may name a watch again (PostgreSQL reads back an overlap
 *   of a few seconds, so a change committed while the last read ran is not missed) and keeps a
 *   bounded history: a cursor older than that answers `complete: false`. A poller that keeps the
 *   watches it claimed between polls (writing nothing for a poll that found nothing new) reads
 *   this once a cycle and asks `checkLeases` about the kept watches named (all of them when
 *   incomplete) before polling them again, so an action, an unwatch, a takeover or a hint reaches
 *   a kept watch as it would a claim, without a read per kept watch per poll.
 * - `expedite` makes matching, not ended watches due at `now` (`nextPollAt = min(nextPollAt, now)`)
 *   and sets `repollRequested` on those currently leased; it returns how many matched.
 * - `updateCard` sets a watch's card model (ended or not, whatever its lease) and, when a state
 *   is given, `lastState` and `lastChangeAt = at`: an action changed the resource and its card
 *   was redrawn at once. What was read before the action must not draw over it: the lease is
 *   cleared (a poll in flight writes nothing), the watch is due at `at` (the next poll diffs
 *   against the action's state), `revision` is bumped, and card redraws of the watch still waiting
 *   in the outbox (not leased by a deliverer) are discarded. False when no such watch.
 * - `endWatch` ends a watch at `at` whatever its lease (someone unwatched it) and clears the
 *   lease, so a poll in flight finds it ended and writes nothing; false when it was not active.
 *
 * Outbox
 * - A row is *claimable* at `now` when it is neither delivered nor discarded, `retryAt <= now`,
 *   it has no lease or `leaseUntil <= now`, and no row of the same (teamId, channelId) with a
 *   smaller id is still neither delivered nor discarded. So each channel delivers in order, and
 *   a row held back by Slack holds back only its own channel. With `channelIntervalMs`, a reply
 *   is also not claimable while a reply of its channel was delivered after `now -
 *   channelIntervalMs` (`deliveredAt`), so a channel gets at most one posted message per interval
 *   across replicas.
 * - `claimOutbox` leases up to `limit` claimable rows in id order: `leaseOwner`, `leaseUntil`,
 *   `attempts + 1`, `firstAttemptAt` (kept once set).
 * - `markDelivered`, `deferOutbox` and `discardOutbox` apply only while `leaseOwner === owner`
 *   and the row is still pending; each clears the lease. `deferOutbox` sets `retryAt` and
 *   `lastError`; `markDelivered` sets `deliveredAt` and `messageTs`; `discardOutbox` sets
 *   `discardedAt` and `lastError`.
 *
 * SQL guidance
 * - Postgres (several replicas). Claim by reading the due index in order, a page at a time
 *   after a `(next_poll_at, id)` cursor, and taking rows within the project limits as they come
 *   (`pickDue` in src/store/watch-rows.ts; a window function ranking every due watch per project
 *   costs tens of ms per claim at 10,000 watches); then lease the picked ids:
 *     WITH picked AS (SELECT id FROM watches WHERE id = ANY($ids) AND <claimable at $now>
 *                     FOR UPDATE SKIP LOCKED)
 *     UPDATE watches w SET lease_owner = $owner, lease_until = $now + $leaseMs, repoll_requested = false
 *     FROM picked WHERE w.id = picked.id RETURNING w.*
 *   A row another replica leased in between is skipped (locked) or dropped by the re-check; the
 *   claim then picks again after the last row it saw, so concurrent claims neither overlap nor
 *   come back short while claimable rows remain.
 *   `completePoll` is one transaction: `UPDATE watches … WHERE id = $id AND lease_owner = $owner
 *   AND ended_at IS NULL` (no row → roll back, resolve false), then
 *   `INSERT INTO outbox … ON CONFLICT (idempotency_key) DO NOTHING` and
 *   `INSERT INTO watches … ON CONFLICT (id) DO NOTHING` for spawned watches. `completePolls`
 *   does the same for a list inside one transaction, in two statements (the watches from one
 *   JSON recordset, locked in id order; then the outbox rows of the watches written), so a chunk
 *   of polls costs one commit and a couple of round trips. The outbox head rule
 *   is `NOT EXISTS (SELECT 1 FROM outbox o2 WHERE o2.team_id = o.team_id AND o2.channel_id =
 *   o.channel_id AND o2.id < o.id AND o2.delivered_at IS NULL AND o2.discarded_at IS NULL)`;
 *   claim those rows with `FOR UPDATE SKIP LOCKED` the same way. Indexes: watches(next_poll_at, id)
 *   WHERE ended_at IS NULL AND lease_until IS NULL merged with watches(lease_until) WHERE ended_at
 *   IS NULL AND lease_until IS NOT NULL (leases that ran out), so kept leases are not walked past; outbox(team_id, channel_id, id) WHERE delivered_at IS NULL AND
 *   discarded_at IS NULL; outbox(team_id, channel_id, delivered_at) WHERE delivered_at IS NOT
 *   NULL (pacing); UNIQUE outbox(idempotency_key); for `pruneHistory`,
 *   outbox(coalesce(delivered_at, discarded_at)) and watches(ended_at), each WHERE not NULL.
 * - SQLite (one process owns the file). The same statements without `FOR UPDATE … SKIP LOCKED`
 *   (SQLite has no row locks): run each method in a `BEGIN IMMEDIATE` transaction, so claims
 *   serialise on the database write lock and a second poller (or a second process by mistake)
 *   sees the first one's lease. `INSERT OR IGNORE` stands for `ON CONFLICT DO NOTHING`. JSON columns
 *   (`last_state`, `payload`) are TEXT; times are INTEGER epoch ms.
 */
export interface WatchStore {
  /** Inserts the watch; resolves false (changing nothing) when one with its id exists. */
  addWatch(watch: NewWatch): Promise<boolean>;
  getWatch(id: string): Promise<Watch | undefined>;
  /** Watches matching the filter, not ended ones unless asked, ordered by `createdAt` then id. */
  listWatches(filter: WatchFilter, options?: { includeEnded?: boolean }): Promise<Watch[]>;

  claimDue(owner: string, now: number, limit: number, leaseMs: number, options?: ClaimOptions): Promise<Watch[]>;
  completePoll(watchId: string, owner: string, outcome: PollOutcome): Promise<boolean>;
  /** Several `completePoll`s at the price of one round trip; true or false per poll, in order. */
  completePolls(owner: string, polls: readonly CompletedPoll[]): Promise<boolean[]>;
  releaseWatch(watchId: string, owner: string): Promise<boolean>;
  /** Extends the leases that still stand to `until`: true or false per lease, in order. */
  renewLeases(leases: readonly WatchLease[], until: number): Promise<boolean[]>;
  /** Which of these leases still stand, in order; clears `repollRequested` on those it answers `repoll` for. */
  checkLeases(leases: readonly WatchLease[]): Promise<LeaseCheck[]>;
  /** The watches whose leases others touched since `after` (see above). */
  leaseChanges(after?: LeaseChangeCursor): Promise<LeaseChanges>;
  expedite(filter: WatchFilter, now: number): Promise<number>;
  /** Sets the card model (and the state an action left the resource in); false when no such watch. */
  updateCard(watchId: string, change: CardChange): Promise<boolean>;
  /** Ends the watch now (an unwatch); resolves false when there was no such active watch. */
  endWatch(watchId: string, at: number): Promise<boolean>;

  claimOutbox(owner: string, now: number, limit: number, leaseMs: number, options?: OutboxClaimOptions): Promise<OutboxRow[]>;
  markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean>;
  deferOutbox(id: number, owner: string, retryAt: number, error: string): Promise<boolean>;
  discardOutbox(id: number, owner: string, at: number, error: string): Promise<boolean>;
  /** A watch's outbox rows in id order (for inspection and support). */
  listOutbox(watchId: string): Promise<OutboxRow[]>;
  /**
   * Deletes at most `limit` outbox rows delivered or discarded before `now - retention.outboxMs`
   * (pending rows stay, however old), then at most `limit` watches that ended before
   * `now - retention.endedWatchMs` and have no outbox row left.
   */
  pruneHistory(now: number, retention: HistoryRetention, limit: number): Promise<PrunedHistory>;

  /**
   * Records that the poller `instance` runs at `now`, forgets those not heard of since
   * `now - withinMs`, and answers how many remain, itself included (replicas.ts).
   */
  announcePoller(instance: string, now: number, withinMs: number): Promise<number>;
  /** Forgets the poller `instance` (it stops). */
  retirePoller(instance: string): Promise<void>;
}

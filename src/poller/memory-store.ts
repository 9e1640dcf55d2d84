/**
 * The WatchStore contract held in memory: the reference the contract tests pin down and the
 * store the poller's own tests run on. Every method works on copies, so a caller can never
 * change stored state except through the contract.
 */
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
} from './watch';
import { matchesFilter } from './watch';

/** Stored values are plain JSON; a JSON round trip copies them and is much cheaper than structuredClone. */
const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** A watch's nested fields are its snapshot and its card model. */
const copyWatch = (watch: Watch): Watch => ({ ...watch, lastState: copy(watch.lastState), ...(watch.card !== undefined && { card: copy(watch.card) }) });

const isLeased = (row: { leaseUntil?: number }, now: number): boolean => row.leaseUntil !== undefined && row.leaseUntil > now;

const isPending = (row: OutboxRow): boolean => row.deliveredAt === undefined && row.discardedAt === undefined;

const channelOf = (row: OutboxRow): string => `${row.teamId}/${row.channelId}`;

/** Lease changes kept (`leaseChanges`); half are dropped when there are more. */
const LEASE_LOG_LIMIT = 10_000;

const byDueTimeThenId = (a: Watch, b: Watch): number => a.nextPollAt - b.nextPollAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class MemoryWatchStore implements WatchStore {
  readonly #watches = new Map<string, Watch>();
  readonly #outbox = new Map<number, OutboxRow>();
  readonly #keys = new Set<string>();
  /** Channel → the latest `deliveredAt` of a reply (a posted message) in it, for the pacing rule. */
  readonly #postedAt = new Map<string, number>();
  #nextOutboxId = 1;
  /** Watches whose leases others touched (`leaseChanges`), oldest first; the first has number `#leaseLogStart`. */
  #leaseLog: string[] = [];
  #leaseLogStart = 0;
  /** Poller instance → when it last announced itself. */
  readonly #pollers = new Map<string, number>();

  async addWatch(watch: NewWatch): Promise<boolean> {
    return this.#insertWatch(watch);
  }

  async getWatch(id: string): Promise<Watch | undefined> {
    const watch = this.#watches.get(id);
    return watch && copyWatch(watch);
  }

  async listWatches(filter: WatchFilter, options: { includeEnded?: boolean } = {}): Promise<Watch[]> {
    return [...this.#watches.values()]
      .filter((w) => (options.includeEnded || w.endedAt === undefined) && matchesFilter(w, filter))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map(copyWatch);
  }

  async claimDue(owner: string, now: number, limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<Watch[]> {
    const excluded = new Set(options.excludeProjects ?? []);
    const limitOf = (projectName: string): number => options.projectLimits?.[projectName] ?? options.perProjectLimit ?? Infinity;
    const takenPerProject = new Map<string, number>();
    const claimed: Watch[] = [];
    const candidates = [...this.#watches.values()]
      .filter((w) => w.endedAt === undefined && w.nextPollAt <= now && !isLeased(w, now) && !excluded.has(w.projectName))
      .sort(byDueTimeThenId);
    for (const watch of candidates) {
      if (claimed.length >= limit) break;
      const taken = takenPerProject.get(watch.projectName) ?? 0;
      if (taken >= limitOf(watch.projectName)) continue;
      takenPerProject.set(watch.projectName, taken + 1);
      if (watch.leaseOwner !== undefined) this.#logLeaseChange(watch.id);
      watch.leaseOwner = owner;
      watch.leaseUntil = now + leaseMs;
      watch.repollRequested = false;
      claimed.push(copyWatch(watch));
    }
    return claimed;
  }

  async completePoll(watchId: string, owner: string, outcome: PollOutcome): Promise<boolean> {
    const watch = this.#watches.get(watchId);
    if (!watch || watch.leaseOwner !== owner || watch.endedAt !== undefined) return false;
    watch.lastState = copy(outcome.state);
    if (outcome.changed) watch.lastChangeAt = outcome.polledAt;
    watch.nextPollAt = watch.repollRequested ? outcome.polledAt : outcome.nextPollAt;
    watch.failures = outcome.failures;
    if (outcome.ended) watch.endedAt = outcome.polledAt;
    watch.revision += 1;
    watch.repollRequested = false;
    delete watch.leaseOwner;
    delete watch.leaseUntil;
    for (const item of outcome.outbox) {
      const idempotencyKey = `${watchId}:${item.transitionKey}`;
      if (this.#keys.has(idempotencyKey)) continue;
      this.#keys.add(idempotencyKey);
      const id = this.#nextOutboxId++;
      this.#outbox.set(id, {
        ...copy(item),
        id,
        idempotencyKey,
        watchId,
        createdAt: outcome.polledAt,
        retryAt: outcome.polledAt,
        attempts: 0,
      });
    }
    for (const spawned of outcome.spawn ?? []) this.#insertWatch(spawned);
    return true;
  }

  async completePolls(owner: string, polls: readonly CompletedPoll[]): Promise<boolean[]> {
    const written: boolean[] = [];
    for (const { watchId, outcome } of polls) written.push(await this.completePoll(watchId, owner, outcome));
    return written;
  }

  async releaseWatch(watchId: string, owner: string): Promise<boolean> {
    const watch = this.#watches.get(watchId);
    if (!watch || watch.leaseOwner !== owner) return false;
    delete watch.leaseOwner;
    delete watch.leaseUntil;
    return true;
  }

  async renewLeases(leases: readonly WatchLease[], until: number): Promise<boolean[]> {
    return leases.map(({ watchId, owner }) => {
      const watch = this.#watches.get(watchId);
      if (!watch || watch.leaseOwner !== owner || watch.endedAt !== undefined) return false;
      watch.leaseUntil = until;
      return true;
    });
  }

  async checkLeases(leases: readonly WatchLease[]): Promise<LeaseCheck[]> {
    return leases.map(({ watchId, owner }) => {
      const watch = this.#watches.get(watchId);
      if (!watch || watch.leaseOwner !== owner || watch.endedAt !== undefined) return 'lost';
      if (!watch.repollRequested) return 'held';
      watch.repollRequested = false;
      return 'repoll';
    });
  }

  async expedite(filter: WatchFilter, now: number): Promise<number> {
    let matched = 0;
    for (const watch of this.#watches.values()) {
      if (watch.endedAt !== undefined || !matchesFilter(watch, filter)) continue;
      matched += 1;
      watch.nextPollAt = Math.min(watch.nextPollAt, now);
      if (!isLeased(watch, now)) continue;
      watch.repollRequested = true;
      this.#logLeaseChange(watch.id);
    }
    return matched;
  }

  async updateCard(watchId: string, change: CardChange): Promise<boolean> {
    const watch = this.#watches.get(watchId);
    if (!watch) return false;
    watch.card = copy(change.card);
    if (change.state !== undefined) {
      watch.lastState = copy(change.state);
      watch.lastChangeAt = change.at;
    }
    watch.nextPollAt = Math.min(watch.nextPollAt, change.at);
    watch.revision += 1;
    delete watch.leaseOwner;
    delete watch.leaseUntil;
    this.#logLeaseChange(watchId);
    for (const row of this.#outbox.values()) {
      if (row.watchId === watchId && isPending(row) && row.payload.type === 'card' && !isLeased(row, change.at)) {
        row.discardedAt = change.at;
        row.lastError = 'superseded by an action';
      }
    }
    return true;
  }

  async endWatch(watchId: string, at: number): Promise<boolean> {
    const watch = this.#watches.get(watchId);
    if (!watch || watch.endedAt !== undefined) return false;
    watch.endedAt = at;
    delete watch.leaseOwner;
    delete watch.leaseUntil;
    this.#logLeaseChange(watchId);
    return true;
  }

  async leaseChanges(after?: LeaseChangeCursor): Promise<LeaseChanges> {
    const end = this.#leaseLogStart + this.#leaseLog.length;
    if (after === undefined) return { watchIds: [], cursor: end, complete: true };
    if (after < this.#leaseLogStart) return { watchIds: [], cursor: end, complete: false };
    return { watchIds: this.#leaseLog.slice(after - this.#leaseLogStart), cursor: end, complete: true };
  }

  #logLeaseChange(watchId: string): void {
    this.#leaseLog.push(watchId);
    if (this.#leaseLog.length > LEASE_LOG_LIMIT) {
      const dropped = this.#leaseLog.length - LEASE_LOG_LIMIT / 2;
      this.#leaseLog = this.#leaseLog.slice(dropped);
      this.#leaseLogStart += dropped;
    }
  }

  async claimOutbox(owner: string, now: number, limit: number, leaseMs: number, options: OutboxClaimOptions = {}): Promise<OutboxRow[]> {
    const pacedSince = options.channelIntervalMs ? now - options.channelIntervalMs : Infinity;
    const claimed: OutboxRow[] = [];
    const headSeen = new Set<string>();
    for (const row of this.#outbox.values()) {
      if (claimed.length >= limit) break;
      if (!isPending(row)) continue;
      const channel = channelOf(row);
      if (headSeen.has(channel)) continue;
      headSeen.add(channel);
      if (row.retryAt > now || isLeased(row, now)) continue;
      if (row.payload.type === 'reply' && (this.#postedAt.get(channel) ?? -Infinity) > pacedSince) continue;
      row.leaseOwner = owner;
      row.leaseUntil = now + leaseMs;
      row.attempts += 1;
      row.firstAttemptAt ??= now;
      claimed.push(copy(row));
    }
    return claimed;
  }

  async markDelivered(id: number, owner: string, result: { deliveredAt: number; messageTs?: string }): Promise<boolean> {
    return this.#settle(id, owner, (row) => {
      row.deliveredAt = result.deliveredAt;
      if (row.payload.type === 'reply') {
        const channel = channelOf(row);
        this.#postedAt.set(channel, Math.max(this.#postedAt.get(channel) ?? -Infinity, result.deliveredAt));
      }
      if (result.messageTs !== undefined) row.messageTs = result.messageTs;
    });
  }

  async deferOutbox(id: number, owner: string, retryAt: number, error: string): Promise<boolean> {
    return this.#settle(id, owner, (row) => {
      row.retryAt = retryAt;
      row.lastError = error;
    });
  }

  async discardOutbox(id: number, owner: string, at: number, error: string): Promise<boolean> {
    return this.#settle(id, owner, (row) => {
      row.discardedAt = at;
      row.lastError = error;
    });
  }

  async listOutbox(watchId: string): Promise<OutboxRow[]> {
    return [...this.#outbox.values()].filter((row) => row.watchId === watchId).map(copy);
  }

  async pruneHistory(now: number, retention: HistoryRetention, limit: number): Promise<PrunedHistory> {
    const pruned: PrunedHistory = { outboxRows: 0, watches: 0 };
    const outboxBefore = now - retention.outboxMs;
    for (const row of this.#outbox.values()) {
      if (pruned.outboxRows >= limit) break;
      if ((row.deliveredAt ?? row.discardedAt ?? Infinity) >= outboxBefore) continue;
      this.#outbox.delete(row.id);
      this.#keys.delete(row.idempotencyKey);
      pruned.outboxRows += 1;
    }
    const watchesBefore = now - retention.endedWatchMs;
    const withRows = new Set([...this.#outbox.values()].map((row) => row.watchId));
    for (const watch of this.#watches.values()) {
      if (pruned.watches >= limit) break;
      if (watch.endedAt === undefined || watch.endedAt >= watchesBefore || withRows.has(watch.id)) continue;
      this.#watches.delete(watch.id);
      pruned.watches += 1;
    }
    return pruned;
  }

  async announcePoller(instance: string, now: number, withinMs: number): Promise<number> {
    this.#pollers.set(instance, now);
    for (const [other, seenAt] of this.#pollers) if (seenAt < now - withinMs) this.#pollers.delete(other);
    return this.#pollers.size;
  }

  async retirePoller(instance: string): Promise<void> {
    this.#pollers.delete(instance);
  }

  /** Every outbox row in id order; for tests and diagnostics. */
  allOutbox(): OutboxRow[] {
    return [...this.#outbox.values()].map(copy);
  }

  #insertWatch(watch: NewWatch): boolean {
    if (this.#watches.has(watch.id)) return false;
    this.#watches.set(watch.id, { ...copyWatch(watch as Watch), failures: 0, revision: 0, repollRequested: false });
    return true;
  }

  #settle(id: number, owner: string, apply: (row: OutboxRow) => void): boolean {
    const row = this.#outbox.get(id);
    if (!row || row.leaseOwner !== owner || !isPending(row)) return false;
    apply(row);
    delete row.leaseOwner;
    delete row.leaseUntil;
    return true;
  }
}

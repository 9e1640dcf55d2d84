/**
 * One poll cycle: claim the due watches under a lease, keep each project within its request
 * budget, read the service with as few batched calls as possible, diff, and write every
 * watch's new state together with its notifications in one step. A project whose reads fail
 * backs off alone; a watch that cannot be read this time keeps its place in the queue.
 */
import {
  type BatchConfig,
  type Fetched,
  DEFAULT_BATCH,
  type PlanHints,
  type RequestPlan,
  applyResults,
  isListed,
  naiveRequestCount,
  planRequests,
  resourceKey,
} from './batch';
import { type ProjectBudgets, planCycle } from './budget';
import { type Execution, type SettleRead, executePlan } from './executor';
import { receivedVersion } from '../api/lists';
import { replyFor, resourceLabel } from './messages';
import type { ListedKind, ListedResource, PollSource } from './resources';
import { KeptLeases } from './kept-leases';
import { oldestFirst } from './order';
import { PollerReplicas } from './replicas';
import { type Clock, type JobLogger, Ticker, type Timers, globalTimers, systemClock } from './runtime';
import { DEFAULT_SCHEDULE, MAX_WATCH_AGE_MS, type NextPollInput, ProjectBackoff, type Random, type ScheduleConfig, isExpired, nextPollAt } from './schedule';
import { type GONE, type ObservedOf, type Snapshot, type WatchKind, sameSnapshot } from './snapshot';
import { type Transition, deadlineOf, expiryTransition, isTerminal, observeWatch, quietSnapshot, readsService } from './transitions';
import {
  type CompletedPoll,
  type LeaseChangeCursor,
  type LeaseChanges,
  type NewWatch,
  type OutboxItem,
  type PollOutcome,
  type SlackBlocks,
  type Watch,
  type WatchFilter,
  type WatchStore,
  createWatch,
  matchesFilter,
  watchIdFor,
} from './watch';
import { yieldToEventLoop } from './yield';

/** Renders a watch's card anew after a change (the views own its look). */
export type CardRenderer = (watch: Watch, state: Snapshot | undefined, transitions: readonly Transition[]) => { text: string; blocks: SlackBlocks } | undefined;

export interface PollerOptions {
  store: WatchStore;
  source: PollSource;
  budgets: ProjectBudgets;
  logger: JobLogger;
  /** Unique per process; claim owners are derived from it. */
  instanceId: string;
  clock?: Clock;
  timers?: Timers;
  random?: Random;
  schedule?: ScheduleConfig;
  batch?: BatchConfig;
  /** Most watches claimed per cycle. */
  claimLimit?: number;
  /** Most watches of one project claimed per cycle. */
  perProjectLimit?: number;
  /** Must outlast a cycle; a crashed poller's watches return to the queue after it. */
  leaseMs?: number;
  /**
   * Keep claimed watches between polls while their polls find nothing to write (same state, no
   * notification, no failure): such a poll then writes nothing, and a kept watch is polled again
   * without a claim once its lease is confirmed (`checkLeases`). A hold lasts about two thirds to
   * three quarters of `leaseMs` (at random, see `#releaseAt`); at its end the lease is renewed
   * (`renewLeases`), or, for a share of them at random, written and given back (`#endHolds`). Off:
   * every poll is written and its lease given back.
   */
  keepLeases?: boolean;
  /** Pause between cycles. */
  tickMs?: number;
  /**
   * Watches whose outcomes are worked out and written together, in one store call; the cycle
   * yields to the event loop between chunks, so commands are acked while a large cycle runs.
   */
  settleChunk?: number;
  /** Watches claimed per store call; the cycle yields to the event loop between claims. */
  claimChunk?: number;
  renderCard?: CardRenderer;
  /** How long the watches this poller spawns (discoveries) may live, per kind. */
  maxWatchAgeMs?: Readonly<Record<WatchKind, number>>;
}

export interface CycleReport {
  claimed: number;
  /** Watches kept from earlier cycles (`keepLeases`) and polled again without a claim. */
  kept: number;
  /** Kept watches whose hold ended this cycle: renewed in place, or written and given back. */
  renewed: number;
  released: number;
  polled: number;
  /** Claimed but left for a later cycle (budget). */
  deferred: number;
  requests: number;
  /** Requests one GET per watch would have made for the same watches. */
  naiveRequests: number;
  transitions: number;
  failedProjects: string[];
}

type Current = ObservedOf<WatchKind> | typeof GONE;

/** What this poller learnt about a project's lists, kept between cycles. */
interface ProjectHints extends PlanHints {
  scanPages: Map<ListedKind, number>;
  readByGet: Set<string>;
}

/** A watch this poller holds the lease of: claimed this cycle, or kept from an earlier one. */
interface Lease {
  watch: Watch;
  owner: string;
  /** When this hold ends: the lease is renewed, or the watch written and given back (`#endHolds`). */
  releaseAt: number;
  /** The last poll not written, if any: what a release writes. */
  polledAt?: number;
  /** A hint arrived (`pollNow`) while kept: a poll already reading may have read too early. */
  repoll?: boolean;
  /** The hint count (`#hintCount`) when a hint last named this kept watch. */
  hintedAt?: number;
  /** Others may have touched the lease since it was last confirmed (`leaseChanges`): the store is asked before the next poll. */
  unconfirmed?: boolean;
  /**
   * The version of the listed item (`receivedVersion`) a quiet poll last found `quietState`, the
   * watch's snapshot then, unchanged by: while the snapshot is that one, an item of that version
   * finds it unchanged again without being read (`#quietNext`).
   */
  quietVersion?: number;
  quietState?: Snapshot;
  /** The last cycle (`#cycles`) this lease was one of the cycle's leases in: a mark, not a lookup, for each item a page holds. */
  cycle?: number;
  /** The last cycle in which a page's item kept this watch as it arrived (`#quietReads`). */
  keptIn?: number;
  /** Its place among the kept leases (`KeptLeases`), while kept. */
  keptSlot?: number;
}

/**
 * A lease with every field it may take: V8 keeps them inside the object. Fields added later go to
 * an array of their own, 64 bytes more a lease (a heap snapshot of the poller's thread at 10,000).
 */
function newLease(watch: Watch, owner: string, releaseAt: number, cycle: number): Lease {
  return {
    watch,
    owner,
    releaseAt,
    polledAt: undefined,
    repoll: undefined,
    hintedAt: undefined,
    unconfirmed: undefined,
    quietVersion: undefined,
    quietState: undefined,
    cycle,
    keptIn: undefined,
    keptSlot: undefined,
  };
}

/** A polled watch whose outcome is still to be worked out. */
interface Settling {
  lease: Lease;
  outcomeOf: () => Promise<PollOutcome>;
}

/** Enough to make a transaction's commit cheap per watch; small enough to hold the loop for 1–2 ms only. */
const DEFAULT_SETTLE_CHUNK = 50;
const DEFAULT_CLAIM_CHUNK = 100;

/** Chunk writes of one cycle in flight at once (each holds a pooled connection on PostgreSQL). */
const WRITES_IN_FLIGHT = 4;

/** Kept leases checked per store call; the cycle yields to the event loop between checks. */
const CHECK_CHUNK = 250;

/** Watches matched to what was read at a time, with a turn of the event loop between. */
const APPLY_CHUNK = 500;

/**
 * A cycle of more watches than this lets the event loop run between its steps (claim, the kept
 * leases' passes, planning, each project's reads, the holds' end). On the main thread
 * (`VIDOPS_POLLER_THREAD=off`, local mode, an in-memory store) a SQLite store answers at once, so
 * without a turn between them the steps ran as one task: at 10,000 watches the soak's acks waited
 * behind it (p99 2.05–2.15× the bare Bolt app's; 1.40–1.47× with the turns, bench/README.md).
 */
const STEP_YIELD_ABOVE = APPLY_CHUNK;

/**
 * The share of kept watches given back (written, left for any replica to claim) when their hold
 * ends while other pollers share the store (replicas.ts); the rest have their leases renewed in
 * place, and a poller alone renews them all. Giving every one back cost a write and a claim per
 * watch every hold (`bench:poller`: sweeps where holds ended 73 ms of CPU per cycle against 38
 * for a steady one); giving none back would leave a replica that starts later with nothing to
 * poll. With a quarter, a replica's surplus over another's shrinks by a quarter every hold (about
 * 42 s): two replicas are within a tenth of an even split in about 5 minutes.
 */
const RELEASE_SHARE = 0.25;

/** Even a project whose budget is spent claims this many, so it notices when the budget is back. */
const MIN_CLAIM_PER_PROJECT = 16;

const dueTime = (lease: Lease): number => lease.watch.nextPollAt;

/** The store failed while an outcome was being worked out (as opposed to a bug in working it out). */
class StoreFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('store failure');
  }
}

export class Poller {
  readonly #store: WatchStore;
  readonly #source: PollSource;
  readonly #budgets: ProjectBudgets;
  readonly #logger: JobLogger;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #schedule: ScheduleConfig;
  readonly #batch: BatchConfig;
  readonly #backoff: ProjectBackoff;
  readonly #ticker: Ticker;
  readonly #hints = new Map<string, ProjectHints>();
  /** Claim limits for projects whose budget could not serve all they had due last cycle. */
  readonly #claimLimits = new Map<string, number>();
  /** Watches kept between polls (`keepLeases`), by id. */
  readonly #kept = new KeptLeases<Lease>();
  /**
   * Filled in for each next poll time (10,000 a full cycle) instead of a new object with three
   * times, each a heap number of its own, per poll.
   */
  readonly #nextPollInput: NextPollInput = { now: 0, lastChangeAt: 0, deadline: undefined, expiresAt: 0, readsService: true };
  /** Hints (`pollNow`) so far: a page read before a kept watch's hint does not settle it. */
  #hintCount = 0;
  /** The leases of the cycle in progress: a hint for one of them may come after its read. */
  #polling: ReadonlyMap<string, Lease> = new Map();
  readonly #options: Required<Pick<PollerOptions, 'instanceId' | 'claimLimit' | 'perProjectLimit' | 'leaseMs' | 'settleChunk' | 'claimChunk'>> &
    Pick<PollerOptions, 'renderCard'> & { holdMs: number };
  readonly #maxAges: Readonly<Record<WatchKind, number>>;
  #cycles = 0;
  /** Where the next read of the store's lease changes starts. */
  #leaseCursor: LeaseChangeCursor | undefined;
  /** Whether other pollers share the store: what a hold's end gives back. */
  readonly #replicas: PollerReplicas;

  constructor(options: PollerOptions) {
    this.#store = options.store;
    this.#source = options.source;
    this.#budgets = options.budgets;
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#schedule = options.schedule ?? DEFAULT_SCHEDULE;
    this.#batch = options.batch ?? DEFAULT_BATCH;
    this.#backoff = new ProjectBackoff(this.#schedule, this.#random);
    this.#maxAges = options.maxWatchAgeMs ?? MAX_WATCH_AGE_MS;
    this.#options = {
      instanceId: options.instanceId,
      claimLimit: options.claimLimit ?? 2_000,
      perProjectLimit: options.perProjectLimit ?? 1_000,
      leaseMs: options.leaseMs ?? 60_000,
      settleChunk: Math.max(1, options.settleChunk ?? DEFAULT_SETTLE_CHUNK),
      claimChunk: Math.max(1, options.claimChunk ?? DEFAULT_CLAIM_CHUNK),
      renderCard: options.renderCard,
      holdMs: options.keepLeases ? Math.floor(0.75 * (options.leaseMs ?? 60_000)) : 0,
    };
    this.#replicas = new PollerReplicas(this.#store, options.instanceId, this.#logger);
    this.#ticker = new Ticker('poller', () => this.runCycle(), options.tickMs ?? 1_000, options.timers ?? globalTimers, this.#logger);
  }

  start(): void {
    this.#ticker.start();
  }

  /** Stops after the cycle in progress; its watches are completed or released first, and so are those it kept. */
  async stop(): Promise<void> {
    await this.#ticker.stop();
    const kept = [...this.#kept.values()];
    this.#kept.clear();
    await this.#release(kept);
    if (this.#options.holdMs > 0) await this.#replicas.retire();
  }

  /**
   * Polls the matching watches at once: for hints such as the service's composer-ended or
   * captions-ended callbacks. Returns how many watches matched.
   */
  async pollNow(filter: WatchFilter): Promise<number> {
    const now = this.#clock();
    const matched = await this.#store.expedite(filter, now);
    const hint = ++this.#hintCount;
    for (const lease of this.#kept.values()) if (matchesFilter(lease.watch, filter)) this.#hint(lease, hint, now);
    if (matched > 0) this.#ticker.trigger();
    return matched;
  }

  async runCycle(): Promise<CycleReport> {
    const report: CycleReport = {
      claimed: 0,
      kept: 0,
      renewed: 0,
      released: 0,
      polled: 0,
      deferred: 0,
      requests: 0,
      naiveRequests: 0,
      transitions: 0,
      failedProjects: [],
    };
    const now = this.#clock();
    const owner = `${this.#options.instanceId}:${++this.#cycles}`;
    // Before the claim: a change after it is in the next read. Nothing kept, nothing to learn (a
    // cursor left behind meanwhile reads back more, or answers incomplete, next time).
    if (this.#options.holdMs > 0 && (this.#kept.size > 0 || this.#leaseCursor === undefined)) await this.#readLeaseChanges(now);
    const excludeProjects = [...new Set([...this.#backoff.resting(now), ...this.#budgets.exhausted()])];
    await this.#betweenSteps(this.#kept.size);
    // Claims first: kept watches due beyond the cycle's limits are still polled by the pages read
    // for their project (#quietReads), watches claimed after them were read again a cycle later.
    // Not so for a project its budget holds back: its kept watches due keep their place.
    const claimed = await this.#claim(owner, now, excludeProjects, this.#keptDueOfLimitedProjects(now));
    await this.#betweenSteps(claimed.length + this.#kept.size);
    const leases = new Map<string, Lease>();
    for (const watch of claimed) {
      // A claim is the store's word: a kept copy of the same watch (its lease ran out) is stale.
      this.#kept.delete(watch.id);
      leases.set(watch.id, newLease(watch, owner, this.#releaseAt(now), this.#cycles));
    }
    const keptDue = this.#keptDue(now, excludeProjects, claimed);
    const early = this.#keptEarly(now, [...keptDue.map((l) => l.watch), ...claimed], this.#options.claimLimit - keptDue.length - claimed.length);
    const kept = [...keptDue, ...early].filter((lease) => this.#kept.get(lease.watch.id) === lease);
    await this.#betweenSteps(kept.length);
    for (const lease of await this.#confirm(kept, now)) {
      lease.cycle = this.#cycles;
      leases.set(lease.watch.id, lease);
    }
    report.claimed = claimed.length;
    report.kept = leases.size - claimed.length;
    this.#polling = leases;
    try {
      await this.#betweenSteps(leases.size);
      if (leases.size > 0) await this.#pollLeases(leases, now, report);
    } finally {
      this.#polling = new Map();
      this.#source.cycleEnded?.();
    }
    if (this.#options.holdMs > 0) {
      // Announced every cycle it is due, kept watches or not: a replica that starts later and has
      // none yet must be heard of for the others to give it its share.
      const releaseShare = (await this.#replicas.othersAt(now)) ? RELEASE_SHARE : 0;
      await this.#betweenSteps(this.#kept.size);
      await this.#endHolds(now, releaseShare, report);
    }
    if (leases.size > 0) this.#logger.debug('poll cycle', { ...report });
    return report;
  }

  async #pollLeases(leases: ReadonlyMap<string, Lease>, now: number, report: CycleReport): Promise<void> {
    const watches = [...leases.values()].map((lease) => lease.watch);
    const expired = watches.filter((w) => isExpired(w, now));
    const live = watches.filter((w) => !isExpired(w, now));
    // planCycle costs each project's whole list first; when it fits, #pollProject runs that very plan.
    const plans = new WeakMap<readonly Watch[], RequestPlan>();
    const plan = planCycle(
      live,
      (projectName) => this.#budgets.available(projectName),
      (watches) => {
        if (watches.length === 0) return 0;
        const requests = planRequests(watches, this.#batch, this.#hintsFor(watches[0]!.projectName));
        plans.set(watches, requests);
        return requests.estimatedRequests;
      },
    );
    report.deferred = plan.deferred.length;
    this.#adjustClaimLimits(live, plan.byProject);
    await this.#betweenSteps(watches.length);
    await Promise.all([
      this.#settle(
        now,
        expired.map((watch) => ({ lease: leases.get(watch.id)!, outcomeOf: async () => this.#expired(watch, now, report) })),
      ),
      this.#putBack(plan.deferred.map((watch) => leases.get(watch.id)!)),
      ...[...plan.byProject].map(([projectName, watches]) => this.#pollProject(projectName, watches, plans.get(watches), leases, report)),
    ]);
  }

  /**
   * When a hold that starts now ends: up to an eighth of the hold sooner, at random. Watches
   * claimed together (a whole project's, at start or after a takeover) would otherwise all reach
   * the end of their holds in one cycle, every hold: one cycle renewing or giving back every
   * watch (`bench:poller`, when all were given back: 830 ms of CPU for 10,000, against ~200 for
   * a cycle that polls them all) while changes waited behind it. A wider spread shortens the
   * average hold, and every hold's end is a store call more.
   */
  #releaseAt(now: number): number {
    const { holdMs } = this.#options;
    return now + holdMs - Math.floor((this.#random() * holdMs) / 8);
  }

  /**
   * Kept watches due now, oldest first, within what the cycle's and the projects' limits leave
   * after the watches claimed (kept watches count against them as claims do: the limits bound
   * the watches a cycle polls).
   */
  #keptDue(now: number, excludeProjects: readonly string[], claimed: readonly Watch[]): Lease[] {
    if (this.#kept.size === 0) return [];
    const taken = new Map<string, number>();
    for (const { projectName } of claimed) taken.set(projectName, (taken.get(projectName) ?? 0) + 1);
    const limitOf = (projectName: string) => (this.#claimLimits.get(projectName) ?? this.#options.perProjectLimit) - (taken.get(projectName) ?? 0);
    return this.#kept.pickDue(now, this.#options.claimLimit - claimed.length, limitOf, new Set(excludeProjects));
  }

  /**
   * Kept watches not due yet but soon (within half the fast interval) of the projects this cycle
   * reads anyway, up to `room`, soonest first. A project's list pages are read once for all of
   * its watches instead of once per cycle for the few that fell due in it: polls come a little
   * early, never late, and a project's watches fall due together from then on.
   */
  #keptEarly(now: number, read: readonly Watch[], room: number): Lease[] {
    if (room <= 0 || this.#kept.size === 0 || read.length === 0) return [];
    const projects = new Set(read.map((watch) => watch.projectName));
    const horizon = this.#earlyHorizon(now);
    const soon: Lease[] = [];
    this.#kept.dueWithin(now, horizon, (lease) => {
      if (projects.has(lease.watch.projectName)) soon.push(lease);
    });
    return soon.length <= room ? soon : oldestFirst(soon, dueTime).slice(0, room);
  }

  /** A turn of the event loop between two steps of a cycle that handles more than `STEP_YIELD_ABOVE` watches. */
  async #betweenSteps(watches: number): Promise<void> {
    if (watches > STEP_YIELD_ABOVE) await yieldToEventLoop();
  }

  /** How far ahead a watch may be polled with its project's reads: half the fast interval. */
  #earlyHorizon(now: number): number {
    return now + this.#schedule.fastMs / 2;
  }

  /** A kept watch named by a hint: due now, and polled again if a read of it is under way (it may be older than the hint). */
  #hint(lease: Lease, hint: number, now: number): void {
    lease.hintedAt = hint;
    if (this.#polling.get(lease.watch.id) === lease) lease.repoll = true;
    if (lease.watch.nextPollAt > now) {
      lease.watch = { ...lease.watch, nextPollAt: now };
      this.#kept.rescheduled(lease);
    }
  }

  /**
   * Asks the store at once about the kept leases others touched since the last read (an action,
   * an unwatch, a hint, a takeover): a hint given to another replica (the store flags the lease)
   * makes the watch due now here, not when its own schedule says; an action or unwatch that took
   * the lease back drops it. Every kept lease is marked for `#confirm` to ask about before its
   * next poll instead when the log cannot tell (it no longer reaches back, it could not be read,
   * or there was no cursor yet).
   */
  async #readLeaseChanges(now: number): Promise<void> {
    const after = this.#leaseCursor;
    let changes: LeaseChanges;
    try {
      changes = await this.#store.leaseChanges(after);
    } catch (error) {
      this.#logger.warn('could not read lease changes; every kept watch is checked before its next poll', { error });
      for (const lease of this.#kept.values()) lease.unconfirmed = true;
      return;
    }
    this.#leaseCursor = changes.cursor;
    if (after === undefined || !changes.complete) {
      for (const lease of this.#kept.values()) lease.unconfirmed = true;
      return;
    }
    const touched = new Set<Lease>();
    for (const watchId of changes.watchIds) {
      const lease = this.#kept.get(watchId);
      if (lease) touched.add(lease);
    }
    if (touched.size > 0) await this.#check([...touched], now);
  }

  /** The kept leases due that still stand: those marked unconfirmed are checked first (`#check`). */
  async #confirm(due: readonly Lease[], now: number): Promise<Lease[]> {
    const unconfirmed = due.filter((lease) => lease.unconfirmed);
    const standing = due.filter((lease) => !lease.unconfirmed);
    if (unconfirmed.length > 0) standing.push(...(await this.#check(unconfirmed, now)));
    return standing;
  }

  /**
   * Asks the store about kept leases, a read per chunk with a turn of the event loop between
   * chunks, and returns those that still stand: a lease lost (taken back or over) is dropped, one
   * a hint flagged is due now (`#hint`). A lease that cannot be checked is dropped; its watch
   * returns to the queue when the lease runs out.
   */
  async #check(leases: readonly Lease[], now: number): Promise<Lease[]> {
    const standing: Lease[] = [];
    for (let start = 0; start < leases.length; start += CHECK_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      const chunk = leases.slice(start, start + CHECK_CHUNK);
      let checks: Awaited<ReturnType<WatchStore['checkLeases']>>;
      try {
        checks = await this.#store.checkLeases(chunk.map((lease) => ({ watchId: lease.watch.id, owner: lease.owner })));
      } catch (error) {
        this.#logger.error('could not check kept leases; their watches return to the queue when the leases run out', { watches: chunk.length, error });
        chunk.forEach((lease) => this.#kept.delete(lease.watch.id));
        continue;
      }
      const hint = checks.includes('repoll') ? ++this.#hintCount : 0;
      chunk.forEach((lease, i) => {
        if (checks[i] === 'lost') {
          this.#kept.delete(lease.watch.id);
          return;
        }
        lease.unconfirmed = false;
        if (checks[i] === 'repoll') this.#hint(lease, hint, now);
        standing.push(lease);
      });
    }
    return standing;
  }

  /**
   * Kept watches whose hold has ended: most have their leases renewed in place for another hold,
   * a chunk per store call, without a write of their state or a claim (what was polled since the
   * claim is written when the watch is given back). While other pollers share the store, a share
   * of them (`releaseShare`, at random) are written and given back, so other replicas get their
   * share of the watches; so is every one overdue (due and not polled this cycle: deferred by its
   * project's budget, or left out by the limits), to take its place in the store's oldest-first
   * queue. The renewed stay kept
   * during the store call, so a hint (`pollNow`) that comes meanwhile still reaches them. A lease
   * the store refuses to renew (taken back or over meanwhile) is dropped; so is a chunk whose
   * renewal fails (its watches return to the queue when their leases run out).
   */
  async #endHolds(now: number, releaseShare: number, report: CycleReport): Promise<void> {
    const renew: Lease[] = [];
    const release: Lease[] = [];
    this.#kept.holdsEndedBy(now, (lease) => {
      (lease.watch.nextPollAt <= now || (releaseShare > 0 && this.#random() < releaseShare) ? release : renew).push(lease);
    });
    const drop = (lease: Lease) => {
      if (this.#kept.get(lease.watch.id) === lease) this.#kept.delete(lease.watch.id);
    };
    const until = now + this.#options.leaseMs;
    for (let start = 0; start < renew.length; start += CHECK_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      const chunk = renew.slice(start, start + CHECK_CHUNK);
      let renewed: boolean[];
      try {
        renewed = await this.#store.renewLeases(
          chunk.map((lease) => ({ watchId: lease.watch.id, owner: lease.owner })),
          until,
        );
      } catch (error) {
        this.#logger.error('could not renew kept leases; their watches return to the queue when the leases run out', { watches: chunk.length, error });
        chunk.forEach(drop);
        continue;
      }
      chunk.forEach((lease, i) => {
        if (!renewed[i]) return drop(lease);
        lease.releaseAt = this.#releaseAt(now);
        this.#kept.rescheduled(lease);
        report.renewed += 1;
      });
    }
    report.released = release.length;
    await this.#release(release);
  }

  /**
   * How many kept watches are due in each project whose claims its budget limits
   * (`#claimLimits`): the claim leaves them their room, so a budget-bound project polls its
   * deferred and kept watches before it leases more.
   */
  #keptDueOfLimitedProjects(now: number): Map<string, number> {
    const due = new Map<string, number>();
    if (this.#claimLimits.size === 0) return due;
    this.#kept.dueBy(now, ({ watch }) => {
      if (this.#claimLimits.has(watch.projectName)) due.set(watch.projectName, (due.get(watch.projectName) ?? 0) + 1);
    });
    return due;
  }

  /** Watches claimed or kept but not polled this cycle: kept (their holds end as every kept watch's do), given back without `keepLeases`. */
  async #putBack(leases: readonly Lease[]): Promise<void> {
    if (this.#options.holdMs === 0) return this.#release(leases);
    for (const lease of leases) this.#kept.set(lease.watch.id, lease);
  }

  /**
   * Gives leases back: a watch polled since its claim gets that poll's schedule written (nothing
   * else changed, or it would not have been kept); one never polled keeps its stored schedule.
   */
  async #release(leases: readonly Lease[]): Promise<void> {
    for (const lease of leases) if (this.#kept.get(lease.watch.id) === lease) this.#kept.delete(lease.watch.id);
    const polled = leases.filter((lease) => lease.polledAt !== undefined);
    const unpolled = leases.filter((lease) => lease.polledAt === undefined);
    // A store write each, a chunk at a time: a hold's end may give back thousands at once.
    for (let start = 0; start < unpolled.length; start += this.#options.settleChunk) {
      if (start > 0) await yieldToEventLoop();
      await Promise.all(
        unpolled.slice(start, start + this.#options.settleChunk).map((lease) =>
          this.#store.releaseWatch(lease.watch.id, lease.owner).catch((error: unknown) => {
            this.#logger.warn('could not give a lease back; its watch returns to the queue when the lease runs out', { watchId: lease.watch.id, error });
          }),
        ),
      );
    }
    for (let start = 0; start < polled.length; start += this.#options.settleChunk) {
      if (start > 0) await yieldToEventLoop();
      await this.#write(
        polled.slice(start, start + this.#options.settleChunk).map((lease) => ({
          lease,
          outcome: {
            polledAt: lease.polledAt!,
            state: lease.watch.lastState,
            changed: false,
            nextPollAt: lease.watch.nextPollAt,
            ended: false,
            failures: 0,
            outbox: [],
          },
        })),
        { releasing: true },
      );
    }
  }

  /**
   * Claims what one `claimDue` of `claimLimit` would, a chunk at a time with a turn of the event
   * loop between chunks: each chunk takes the next oldest due watches, within what the project
   * limits leave after the chunks before it.
   */
  async #claim(owner: string, now: number, excludeProjects: readonly string[], reserved: ReadonlyMap<string, number>): Promise<Watch[]> {
    const { claimChunk, claimLimit, perProjectLimit, leaseMs } = this.#options;
    const claimed: Watch[] = [];
    const taken = new Map(reserved);
    while (claimed.length < claimLimit) {
      if (claimed.length > 0) await yieldToEventLoop();
      const limit = Math.min(claimChunk, claimLimit - claimed.length);
      const projectLimits = Object.fromEntries(this.#claimLimits);
      taken.forEach((count, projectName) => {
        projectLimits[projectName] = Math.max(0, (this.#claimLimits.get(projectName) ?? perProjectLimit) - count);
      });
      const last = claimed.at(-1);
      const after = last && { nextPollAt: last.nextPollAt, id: last.id };
      const chunk = await this.#store.claimDue(owner, now, limit, leaseMs, { perProjectLimit, projectLimits, excludeProjects, ...(after && { after }) });
      for (const watch of chunk) taken.set(watch.projectName, (taken.get(watch.projectName) ?? 0) + 1);
      claimed.push(...chunk);
      if (chunk.length < limit) break;
    }
    return claimed;
  }

  /**
   * A project that had more due than its budget could serve claims about twice what it served
   * next time instead of its whole backlog, so budget-bound watches are not leased and released
   * every cycle; the limit grows again as soon as the budget keeps up.
   */
  #adjustClaimLimits(claimed: readonly Watch[], served: ReadonlyMap<string, readonly Watch[]>): void {
    const claimedPerProject = new Map<string, number>();
    for (const watch of claimed) claimedPerProject.set(watch.projectName, (claimedPerProject.get(watch.projectName) ?? 0) + 1);
    for (const [projectName, claimedCount] of claimedPerProject) {
      const servedCount = served.get(projectName)?.length ?? 0;
      if (servedCount < claimedCount) this.#claimLimits.set(projectName, Math.max(MIN_CLAIM_PER_PROJECT, 2 * servedCount));
      else this.#claimLimits.delete(projectName);
    }
  }

  async #pollProject(
    projectName: string,
    watches: readonly Watch[],
    planned: RequestPlan | undefined,
    leases: ReadonlyMap<string, Lease>,
    report: CycleReport,
  ): Promise<void> {
    const hints = this.#hintsFor(projectName);
    const plan = planned ?? planRequests(watches, this.#batch, hints);
    const reads = this.#quietReads(projectName, watches, leases, hints, report);
    await this.#betweenSteps(watches.length);
    const execution = await executePlan(projectName, plan, this.#source, () => this.#budgets.bucket(projectName).tryTake(), reads.settle);
    // Kept watches a page showed a change for join the cycle, with what the page said.
    const joined = reads.changed(execution.fetched);
    if (joined.length > 0) {
      watches = [...watches, ...joined.map((lease) => lease.watch)];
      leases = new Map([...leases, ...joined.map((lease): [string, Lease] => [lease.watch.id, lease])]);
    }
    report.requests += execution.requestsMade;
    if (execution.retried > 0) this.#logger.info('read the video service again after a failure in passing', { project: projectName, reads: execution.retried });
    report.naiveRequests += naiveRequestCount(watches);
    execution.scanPages.forEach((pages, kind) => hints.scanPages.set(kind, pages));
    execution.unread.forEach((key) => hints.readByGet.add(key));

    const polledAt = this.#clock();
    let retryAt: number | undefined;
    if (execution.failure !== undefined) {
      retryAt = this.#backoff.failed(projectName, polledAt);
      report.failedProjects.push(projectName);
      this.#logger.warn('reading the video service failed; backing off this project', {
        project: projectName,
        failures: this.#backoff.failures(projectName),
        retryInMs: retryAt - polledAt,
        error: execution.failure,
      });
    } else {
      this.#backoff.succeeded(projectName);
    }

    const settling: Settling[] = [];
    const unread: Lease[] = [];
    for (let start = 0; start < watches.length; start += APPLY_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      this.#sortOut(watches.slice(start, start + APPLY_CHUNK), execution, polledAt, retryAt, { hints, leases, report, settling, unread });
    }
    await Promise.all([this.#settle(polledAt, settling), this.#putBack(unread)]);
  }

  /** Which of the watches were read (to settle), failed with their project (to settle), or were not read (to put back). */
  #sortOut(
    watches: readonly Watch[],
    execution: Execution,
    polledAt: number,
    retryAt: number | undefined,
    into: { hints: ProjectHints; leases: ReadonlyMap<string, Lease>; report: CycleReport; settling: Settling[]; unread: Lease[] },
  ): void {
    const { hints, leases, report, settling, unread } = into;
    // Those polled and kept as their page arrived (#quietReads), most of a large cycle, are done.
    const cycle = this.#cycles;
    const pending = watches.filter((watch) => leases.get(watch.id)!.keptIn !== cycle);
    const observed = applyResults(pending, execution.fetched);
    for (const watch of pending) {
      const current = observed.get(watch.id);
      const lease = leases.get(watch.id)!;
      if (current !== undefined) {
        if (hints.readByGet.size > 0 && isListed(watch.kind)) hints.readByGet.delete(resourceKey(watch.kind, watch.resourceId));
        report.polled += 1;
        const version = receivedVersion(current);
        const next = this.#unchangedNext(lease, version, polledAt) ?? this.#quietNext(lease, current, polledAt, version);
        if (next !== undefined) {
          this.#keep(lease, next, polledAt, this.#kept.get(watch.id) === lease);
          continue;
        }
        settling.push({ lease, outcomeOf: () => this.#observed(watch, current, polledAt, report) });
      } else if (retryAt !== undefined) {
        settling.push({ lease, outcomeOf: async () => this.#failed(watch, polledAt, retryAt) });
      } else {
        unread.push(lease);
      }
    }
  }

  /**
   * Works out the watches' outcomes and writes them, a chunk at a time: one store call per
   * chunk (per owner), and a turn of the event loop between chunks. With `keepLeases`, a poll
   * that found nothing to write keeps its watch instead.
   */
  async #settle(polledAt: number, settling: readonly Settling[]): Promise<void> {
    const size = this.#options.settleChunk;
    // A store with round trips (PostgreSQL) writes a few chunks at once while the next ones are
    // worked out; a synchronous one (SQLite) has finished each write before the next starts.
    const writing: Promise<void>[] = [];
    for (let start = 0; start < settling.length; start += size) {
      if (start > 0) await yieldToEventLoop();
      const chunk = settling.slice(start, start + size);
      const outcomes = await Promise.all(chunk.map(({ lease, outcomeOf }) => this.#outcomeOf(lease, polledAt, outcomeOf)));
      const polls: { lease: Lease; outcome: PollOutcome }[] = [];
      chunk.forEach(({ lease }, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined) return;
        if (this.#keeps(lease, outcome)) {
          // As the store does with a repoll requested while leased (completePoll).
          lease.watch.nextPollAt = lease.repoll ? outcome.polledAt : outcome.nextPollAt;
          lease.repoll = false;
          lease.polledAt = outcome.polledAt;
          this.#kept.set(lease.watch.id, lease);
        } else {
          polls.push({ lease, outcome });
        }
      });
      if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
      writing.push(this.#write(polls));
    }
    await Promise.all(writing);
  }

  /**
   * Most polls of a large cycle find nothing new (`quietSnapshot`: no transition, the same
   * status). Such a poll is kept at once (`#keep`), with its next poll time, instead of going the
   * way of polls with something to write (an outcome per watch, worked out a chunk at a time,
   * then `#keeps`). Its next poll time, or undefined for any other poll. One whose hold ends
   * before its next poll is kept all the same: the first cycle at or after the hold's end renews
   * its lease or gives it back with this poll's schedule (`#endHolds`). A snapshot that differs
   * only in when it was read (a broadcast's) replaces the kept copy's, and is written when the
   * watch is given back.
   */
  #quietNext(lease: Lease, current: Current, polledAt: number, version: number | undefined): number | undefined {
    const watch = lease.watch;
    if (this.#options.holdMs === 0 || watch.failures !== 0) return undefined;
    const previous = watch.lastState;
    let state: Snapshot | undefined;
    try {
      state = quietSnapshot(watch, current, polledAt);
    } catch {
      // The slow way closes the watch and logs why.
      return undefined;
    }
    if (state === undefined || isTerminal(watch.kind, state)) return undefined;
    // Only a snapshot found unchanged (not one with a new read time: a broadcast's) is remembered.
    if (state === previous && version !== undefined) {
      lease.quietVersion = version;
      lease.quietState = state;
    }
    const next = this.#nextPollAt(watch, state, polledAt, watch.lastChangeAt);
    watch.lastState = state;
    return next;
  }

  /**
   * What `#quietNext` would answer for an item of `version` (`receivedVersion`) when that is the
   * very version that last found the watch's snapshot unchanged (`#quietNext` remembers it): the
   * item need not be read, let alone built, as a quiet snapshot is a function of the snapshot and
   * the item's bytes. Undefined otherwise: ask `#quietNext`.
   */
  #unchangedNext(lease: Lease, version: number | undefined, polledAt: number): number | undefined {
    const watch = lease.watch;
    if (version === undefined || lease.quietVersion !== version || lease.quietState !== watch.lastState) return undefined;
    if (this.#options.holdMs === 0 || watch.failures !== 0) return undefined;
    return this.#nextPollAt(watch, watch.lastState, polledAt, watch.lastChangeAt);
  }

  /**
   * Keeps a quiet poll's watch (as #settle keeps a poll: a hint that came while it was being read
   * asks for another); `kept` when the lease is kept already.
   */
  #keep(lease: Lease, next: number, polledAt: number, kept: boolean): void {
    lease.watch.nextPollAt = lease.repoll ? polledAt : next;
    lease.repoll = false;
    lease.polledAt = polledAt;
    if (kept) this.#kept.rescheduled(lease);
    else this.#kept.set(lease.watch.id, lease);
  }

  /**
   * What `executePlan` calls as each list page arrives (`settle`): the items whose watches all
   * find nothing new are settled there and then, so a page's items do not outlive it (most of a
   * large cycle's garbage was pages held until every call had been made). Besides the cycle's own
   * watches, a page serves the project's other kept watches due now or within half the fast
   * interval (the window #keptEarly takes from: polls a little early, never late), left out by
   * the cycle's limits: their items are in hand, and a later cycle would read the same pages
   * again for them (`bench:poller` latency run, serving only those due: 115 ms of CPU and 11.5
   * calls per simulated second; with the window: 73–75 ms and 7.6, change → post p99 3.5–3.75 s
   * either way). Not those due later: with a whole fast interval a project's watches all fell due
   * together, and a change waited for the next read of everything (p99 4.5–4.75 s). Those a page
   * shows a change for join the cycle (`changed`, their items put with what was read). Another
   * kept watch is served only if no hint named it since the pages began to be read and nobody
   * touched its lease since it was confirmed.
   */
  #quietReads(
    projectName: string,
    watches: readonly Watch[],
    leases: ReadonlyMap<string, Lease>,
    hints: ProjectHints,
    report: CycleReport,
  ): { settle: SettleRead; changed: (fetched: Fetched) => Lease[] } {
    if (this.#options.holdMs === 0) return { settle: () => false, changed: () => [] };
    // The cycle's leases not kept (claimed now); the kept ones are found through #kept.following.
    const claimed: Record<ListedKind, Map<string, Lease[]>> = { archive: new Map(), broadcast: new Map(), render: new Map() };
    for (const watch of watches) {
      const lease = leases.get(watch.id)!;
      if (!isListed(watch.kind) || this.#kept.get(watch.id) === lease) continue;
      const known = claimed[watch.kind].get(watch.resourceId);
      if (known) known.push(lease);
      else claimed[watch.kind].set(watch.resourceId, [lease]);
    }
    const now = this.#clock();
    const hintsBefore = this.#hintCount;
    const hintedSince = (lease: Lease): boolean => (lease.hintedAt ?? 0) > hintsBefore;
    const horizon = this.#earlyHorizon(now);
    /** Another kept watch of the project, due by the horizon, untouched since confirmed and not hinted since the pages began to be read. */
    const joins = (lease: Lease): boolean => {
      const watch = lease.watch;
      return watch.projectName === projectName && watch.nextPollAt <= horizon && !lease.unconfirmed && !isExpired(watch, now) && !hintedSince(lease);
    };
    // The watches of the item in hand: reused from item to item (emptying an array with
    // `length = 0` gives its storage back, and the next push allocates anew: 10,000 a cycle).
    const group: Lease[] = [];
    let size = 0;
    const cycle = this.#cycles;
    const add = (lease: Lease) => {
      if (lease.cycle === cycle || joins(lease)) group[size++] = lease;
    };
    const changed: { followers: Lease[]; kind: ListedKind; item: ListedResource }[] = [];
    // Called for every item of every page (10,000 a full cycle): plain loops, no callbacks.
    const settle: SettleRead = (kind, items, index) => {
      const id = items.id(index);
      size = 0;
      const kept = this.#kept.following(kind, id);
      if (kept !== undefined) {
        if (Array.isArray(kept)) for (let i = 0; i < kept.length; i++) add(kept[i]!);
        else add(kept as Lease);
      }
      // group[0, keptSize) are kept already; the claimed ones after them are not yet.
      const keptSize = size;
      const fresh = claimed[kind].get(id);
      if (fresh !== undefined) for (let i = 0; i < fresh.length; i++) if (this.#kept.get(fresh[i]!.watch.id) !== fresh[i]) group[size++] = fresh[i]!;
      if (size === 0) return false;
      const polledAt = this.#clock();
      const version = items.version(index);
      // Most resources have one watch: no array for its next poll time.
      let first = 0;
      let others: number[] | undefined;
      for (let i = 0; i < size; i++) {
        const lease = group[i]!;
        // A hint while the pages were read: the page may be older than the hint.
        const quiet = hintedSince(lease)
          ? undefined
          : (this.#unchangedNext(lease, version, polledAt) ?? this.#quietNext(lease, items.item(index) as Current, polledAt, version));
        if (quiet === undefined) {
          const notInCycle = group.slice(0, size).filter((follower) => !leases.has(follower.watch.id));
          if (notInCycle.length > 0) changed.push({ followers: notInCycle, kind, item: items.item(index) });
          return false;
        }
        if (i === 0) first = quiet;
        else (others ??= []).push(quiet);
      }
      for (let i = 0; i < size; i++) {
        const lease = group[i]!;
        this.#keep(lease, i === 0 ? first : others![i - 1]!, polledAt, i < keptSize);
        lease.keptIn = cycle;
      }
      report.polled += size;
      if (hints.readByGet.size > 0) hints.readByGet.delete(resourceKey(kind, id));
      return true;
    };
    return {
      settle,
      changed: (fetched) =>
        changed.flatMap(({ followers, kind, item }) => {
          const current = followers.filter((lease) => !hintedSince(lease) && this.#kept.get(lease.watch.id) === lease);
          if (current.length > 0) fetched.resources[kind].set(item.id, item);
          return current;
        }),
    };
  }

  #nextPollAt(watch: Watch, state: Snapshot | undefined, polledAt: number, lastChangeAt: number): number {
    const kind = watch.kind;
    const input = this.#nextPollInput;
    input.now = polledAt;
    input.lastChangeAt = lastChangeAt;
    input.deadline = deadlineOf(kind, state);
    input.expiresAt = watch.expiresAt;
    input.readsService = readsService(kind);
    return nextPollAt(input, this.#schedule, this.#random);
  }

  /**
   * A poll that changed nothing the store holds (but the schedule) is not written: the watch is
   * kept, also when its next poll falls after its hold's end (the hold's end renews the lease or
   * writes this poll's schedule, as `#quietNext`'s keep does).
   */
  #keeps(lease: Lease, outcome: PollOutcome): boolean {
    const watch = lease.watch;
    return (
      this.#options.holdMs > 0 &&
      !outcome.changed &&
      !outcome.ended &&
      outcome.failures === 0 &&
      watch.failures === 0 &&
      outcome.outbox.length === 0 &&
      (outcome.spawn?.length ?? 0) === 0 &&
      sameSnapshot(outcome.state, watch.lastState)
    );
  }

  /** Writes the polls, each under its own lease's owner; the watches are no longer kept. */
  async #write(polls: readonly { lease: Lease; outcome: PollOutcome }[], options: { releasing?: boolean } = {}): Promise<void> {
    const byOwner = new Map<string, CompletedPoll[]>();
    for (const { lease, outcome } of polls) {
      if (this.#kept.get(lease.watch.id) === lease) this.#kept.delete(lease.watch.id);
      const owned = byOwner.get(lease.owner);
      if (owned) owned.push({ watchId: lease.watch.id, outcome });
      else byOwner.set(lease.owner, [{ watchId: lease.watch.id, outcome }]);
    }
    await Promise.all([...byOwner].map(([owner, owned]) => this.#complete(owner, owned, options)));
  }

  /**
   * A watch whose outcome cannot be worked out is a bug, not bad luck: it is closed and logged
   * rather than retried every cycle. A store that fails is bad luck: the watch is left out
   * (undefined), stays leased and returns to the queue when the lease ends.
   */
  async #outcomeOf(lease: Lease, polledAt: number, outcomeOf: () => Promise<PollOutcome>): Promise<PollOutcome | undefined> {
    const watch = lease.watch;
    try {
      return await outcomeOf();
    } catch (error) {
      if (error instanceof StoreFailure) {
        this.#logger.error('store failed while polling a watch; it is retried after its lease', { watchId: watch.id, error: error.cause });
        if (this.#kept.get(watch.id) === lease) this.#kept.delete(watch.id);
        return undefined;
      }
      this.#logger.error('could not process a watch; closing it', { watchId: watch.id, kind: watch.kind, error });
      return { polledAt, state: watch.lastState, changed: false, nextPollAt: polledAt, ended: true, failures: watch.failures + 1, outbox: [] };
    }
  }

  /** Writes the polls; when the store fails, every watch of the chunk stays leased and is retried after its lease. */
  async #complete(owner: string, polls: readonly CompletedPoll[], options: { releasing?: boolean } = {}): Promise<void> {
    if (polls.length === 0) return;
    let written: boolean[];
    try {
      written = await this.#store.completePolls(owner, polls);
    } catch (error) {
      for (const { watchId } of polls) this.#logger.error('could not save a poll; the watch is retried after its lease', { watchId, error });
      return;
    }
    polls.forEach(({ watchId }, i) => {
      if (written[i]) return;
      // A kept watch written back that an action, an unwatch or another poller took meanwhile: as it should be.
      if (options.releasing) this.#logger.debug('a kept watch was taken back before it was given back', { watchId });
      else this.#logger.warn('lease lost before the poll was written; another poller took over', { watchId });
    });
  }

  async #observed(watch: Watch, current: Current, polledAt: number, report: CycleReport): Promise<PollOutcome> {
    const kind = watch.kind;
    const { state, transitions: seen } = observeWatch(watch, current, { now: polledAt });
    const { transitions, spawn } = await this.#discoveries(watch, seen, polledAt);
    const changed = transitions.length > 0 || watch.lastState?.status !== state.status;
    const lastChangeAt = changed ? polledAt : watch.lastChangeAt;
    report.transitions += transitions.length;
    return {
      polledAt,
      state,
      changed,
      nextPollAt: this.#nextPollAt(watch, state, polledAt, lastChangeAt),
      ended: isTerminal(kind, state),
      failures: 0,
      outbox: this.#outboxFor(watch, state, transitions),
      spawn,
    };
  }

  #failed(watch: Watch, polledAt: number, retryAt: number): PollOutcome {
    return {
      polledAt,
      state: watch.lastState,
      changed: false,
      nextPollAt: Math.min(retryAt, watch.expiresAt),
      ended: false,
      failures: watch.failures + 1,
      outbox: [],
    };
  }

  #expired(watch: Watch, now: number, report: CycleReport): PollOutcome {
    const transitions = [expiryTransition(watch.kind, watch.lastState)];
    report.transitions += 1;
    return {
      polledAt: now,
      state: watch.lastState,
      changed: true,
      nextPollAt: now,
      ended: true,
      failures: watch.failures,
      outbox: this.#outboxFor(watch, watch.lastState, transitions),
    };
  }

  /**
   * Discovered archives and broadcasts get watches of their own in the same thread, unless the
   * channel already watches them (started from Slack): those are neither announced nor added.
   */
  async #discoveries(watch: Watch, transitions: Transition[], now: number): Promise<{ transitions: Transition[]; spawn: NewWatch[] }> {
    const kept: Transition[] = [];
    const spawn: NewWatch[] = [];
    for (const transition of transitions) {
      const event = transition.event;
      if (event.type !== 'discovered-archive' && event.type !== 'discovered-broadcast' && event.type !== 'discovered-render') {
        kept.push(transition);
        continue;
      }
      const kind = DISCOVERED_KIND[event.type];
      const existing = await this.#store.getWatch(watchIdFor(watch, kind, event.id)).catch((error: unknown) => {
        throw new StoreFailure(error);
      });
      if (existing) continue;
      kept.push(transition);
      const threadTs = watch.threadTs ?? watch.messageTs;
      spawn.push(
        createWatch({
          target: { teamId: watch.teamId, channelId: watch.channelId, projectName: watch.projectName, ...(threadTs && { threadTs }) },
          kind,
          resourceId: event.id,
          // A watch on every session learnt the resource's own session.
          sessionId: event.sessionId ?? watch.sessionId,
          initialState: event.state,
          now,
          maxAgeMs: this.#maxAges[kind],
        }),
      );
    }
    return { transitions: kept, spawn };
  }

  #outboxFor(watch: Watch, state: Snapshot | undefined, transitions: readonly Transition[]): OutboxItem[] {
    if (transitions.length === 0) return [];
    const threadTs = watch.threadTs ?? watch.messageTs;
    const where = { teamId: watch.teamId, channelId: watch.channelId, ...(threadTs && { threadTs }) };
    const label = watch.messageTs === undefined && watch.kind !== 'session-discovery' ? labelOf(watch, state) : undefined;
    // The revision names the state this poll started from, so a repeated change gets a new key.
    const items: OutboxItem[] = transitions.map((transition) => ({
      ...where,
      transitionKey: `${transition.key}@${watch.revision}`,
      payload: { type: 'reply', text: replyFor(watch, transition, label) },
    }));
    const card = watch.messageTs === undefined ? undefined : this.#renderCard(watch, state, transitions);
    if (card && watch.messageTs !== undefined) {
      items.push({
        ...where,
        transitionKey: `card@${watch.revision}`,
        payload: { type: 'card', messageTs: watch.messageTs, text: card.text, blocks: card.blocks },
      });
    }
    return items;
  }

  /** A card that fails to render costs the card update, not the notifications. */
  #renderCard(watch: Watch, state: Snapshot | undefined, transitions: readonly Transition[]): ReturnType<CardRenderer> {
    try {
      return this.#options.renderCard?.(watch, state, transitions);
    } catch (error) {
      this.#logger.error('could not render a watch card', { watchId: watch.id, error });
      return undefined;
    }
  }

  #hintsFor(projectName: string): ProjectHints {
    let hints = this.#hints.get(projectName);
    if (!hints) {
      hints = { scanPages: new Map(), readByGet: new Set() };
      this.#hints.set(projectName, hints);
    }
    return hints;
  }
}

const DISCOVERED_KIND = { 'discovered-archive': 'archive', 'discovered-broadcast': 'broadcast', 'discovered-render': 'render' } as const;

function labelOf(watch: Watch, state: Snapshot | undefined): string {
  const name = state && 'name' in state && typeof state.name === 'string' ? state.name : undefined;
  return resourceLabel(watch.kind, watch.resourceId, name);
}

/**
 * One poll cycle: claim the due watches under a lease, keep each project within its request
 * budget, read the service with as few batched calls as possible, diff, and write every
 * watch's new state together with its notifications in one step. A project whose reads fail
 * backs off alone; a watch that cannot be read this time keeps its place in the queue.
 */
import { type BatchConfig, DEFAULT_BATCH, type PlanHints, applyResults, isListed, naiveRequestCount, planRequests, resourceKey } from './batch';
import { type ProjectBudgets, planCycle } from './budget';
import { executePlan } from './executor';
import { replyFor, resourceLabel } from './messages';
import type { ListedKind, PollSource } from './resources';
import { type Clock, type JobLogger, Ticker, type Timers, globalTimers, systemClock } from './runtime';
import { DEFAULT_SCHEDULE, MAX_WATCH_AGE_MS, ProjectBackoff, type Random, type ScheduleConfig, isExpired, nextPollAt } from './schedule';
import type { GONE, ObservedOf, Snapshot, WatchKind } from './snapshot';
import { type Transition, deadlineOf, expiryTransition, isTerminal, observeWatch, readsService } from './transitions';
import {
  type CompletedPoll,
  type NewWatch,
  type OutboxItem,
  type PollOutcome,
  type SlackBlocks,
  type Watch,
  type WatchFilter,
  type WatchStore,
  createWatch,
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

/** A polled watch whose outcome is still to be worked out. */
interface Settling {
  watch: Watch;
  outcomeOf: () => Promise<PollOutcome>;
}

/** Enough to make a transaction's commit cheap per watch; small enough to hold the loop for 1–2 ms only. */
const DEFAULT_SETTLE_CHUNK = 50;
const DEFAULT_CLAIM_CHUNK = 100;

/** Chunk writes of one cycle in flight at once (each holds a pooled connection on PostgreSQL). */
const WRITES_IN_FLIGHT = 4;

/** Even a project whose budget is spent claims this many, so it notices when the budget is back. */
const MIN_CLAIM_PER_PROJECT = 16;

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
  readonly #options: Required<Pick<PollerOptions, 'instanceId' | 'claimLimit' | 'perProjectLimit' | 'leaseMs' | 'settleChunk' | 'claimChunk'>> &
    Pick<PollerOptions, 'renderCard'>;
  readonly #maxAges: Readonly<Record<WatchKind, number>>;
  #cycles = 0;

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
    };
    this.#ticker = new Ticker('poller', () => this.runCycle(), options.tickMs ?? 1_000, options.timers ?? globalTimers, this.#logger);
  }

  start(): void {
    this.#ticker.start();
  }

  /** Stops after the cycle in progress; its watches are completed or released first. */
  stop(): Promise<void> {
    return this.#ticker.stop();
  }

  /**
   * Polls the matching watches at once: for hints such as the service's composer-ended or
   * captions-ended callbacks. Returns how many watches matched.
   */
  async pollNow(filter: WatchFilter): Promise<number> {
    const matched = await this.#store.expedite(filter, this.#clock());
    if (matched > 0) this.#ticker.trigger();
    return matched;
  }

  async runCycle(): Promise<CycleReport> {
    const report: CycleReport = { claimed: 0, polled: 0, deferred: 0, requests: 0, naiveRequests: 0, transitions: 0, failedProjects: [] };
    const now = this.#clock();
    const owner = `${this.#options.instanceId}:${++this.#cycles}`;
    const excludeProjects = [...new Set([...this.#backoff.resting(now), ...this.#budgets.exhausted()])];
    const claimed = await this.#claim(owner, now, excludeProjects);
    report.claimed = claimed.length;
    if (claimed.length === 0) return report;

    const expired = claimed.filter((w) => isExpired(w, now));
    const live = claimed.filter((w) => !isExpired(w, now));
    const plan = planCycle(
      live,
      (projectName) => this.#budgets.available(projectName),
      (watches) => (watches.length === 0 ? 0 : planRequests(watches, this.#batch, this.#hintsFor(watches[0]!.projectName)).estimatedRequests),
    );
    report.deferred = plan.deferred.length;
    this.#adjustClaimLimits(live, plan.byProject);
    await Promise.all([
      this.#settle(
        owner,
        now,
        expired.map((watch) => ({ watch, outcomeOf: async () => this.#expired(watch, now, report) })),
      ),
      ...plan.deferred.map((watch) => this.#store.releaseWatch(watch.id, owner)),
      ...[...plan.byProject].map(([projectName, watches]) => this.#pollProject(projectName, watches, owner, report)),
    ]);
    this.#logger.debug('poll cycle', { ...report });
    return report;
  }

  /**
   * Claims what one `claimDue` of `claimLimit` would, a chunk at a time with a turn of the event
   * loop between chunks: each chunk takes the next oldest due watches, within what the project
   * limits leave after the chunks before it.
   */
  async #claim(owner: string, now: number, excludeProjects: readonly string[]): Promise<Watch[]> {
    const { claimLimit, claimChunk, perProjectLimit, leaseMs } = this.#options;
    const claimed: Watch[] = [];
    const taken = new Map<string, number>();
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

  async #pollProject(projectName: string, watches: Watch[], owner: string, report: CycleReport): Promise<void> {
    const hints = this.#hintsFor(projectName);
    const plan = planRequests(watches, this.#batch, hints);
    const execution = await executePlan(projectName, plan, this.#source, () => this.#budgets.bucket(projectName).tryTake());
    report.requests += execution.requestsMade;
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

    const observed = applyResults(watches, execution.fetched);
    const settling: Settling[] = [];
    const unread: Watch[] = [];
    for (const watch of watches) {
      const current = observed.get(watch.id);
      if (current !== undefined) {
        if (isListed(watch.kind)) hints.readByGet.delete(resourceKey(watch.kind, watch.resourceId));
        report.polled += 1;
        settling.push({ watch, outcomeOf: () => this.#observed(watch, current, polledAt, report) });
      } else if (retryAt !== undefined) {
        settling.push({ watch, outcomeOf: async () => this.#failed(watch, polledAt, retryAt) });
      } else {
        unread.push(watch);
      }
    }
    await Promise.all([this.#settle(owner, polledAt, settling), ...unread.map((watch) => this.#store.releaseWatch(watch.id, owner))]);
  }

  /**
   * Works out the watches' outcomes and writes them, a chunk at a time: one store call per
   * chunk, and a turn of the event loop between chunks.
   */
  async #settle(owner: string, polledAt: number, settling: readonly Settling[]): Promise<void> {
    const size = this.#options.settleChunk;
    // A store with round trips (PostgreSQL) writes a few chunks at once while the next ones are
    // worked out; a synchronous one (SQLite) has finished each write before the next starts.
    const writing: Promise<void>[] = [];
    for (let start = 0; start < settling.length; start += size) {
      if (start > 0) await yieldToEventLoop();
      const chunk = settling.slice(start, start + size);
      const outcomes = await Promise.all(chunk.map(({ watch, outcomeOf }) => this.#outcomeOf(watch, polledAt, outcomeOf)));
      const polls: CompletedPoll[] = [];
      chunk.forEach(({ watch }, i) => {
        const outcome = outcomes[i];
        if (outcome !== undefined) polls.push({ watchId: watch.id, outcome });
      });
      if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
      writing.push(this.#complete(owner, polls));
    }
    await Promise.all(writing);
  }

  /**
   * A watch whose outcome cannot be worked out is a bug, not bad luck: it is closed and logged
   * rather than retried every cycle. A store that fails is bad luck: the watch is left out
   * (undefined), stays leased and returns to the queue when the lease ends.
   */
  async #outcomeOf(watch: Watch, polledAt: number, outcomeOf: () => Promise<PollOutcome>): Promise<PollOutcome | undefined> {
    try {
      return await outcomeOf();
    } catch (error) {
      if (error instanceof StoreFailure) {
        this.#logger.error('store failed while polling a watch; it is retried after its lease', { watchId: watch.id, error: error.cause });
        return undefined;
      }
      this.#logger.error('could not process a watch; closing it', { watchId: watch.id, kind: watch.kind, error });
      return { polledAt, state: watch.lastState, changed: false, nextPollAt: polledAt, ended: true, failures: watch.failures + 1, outbox: [] };
    }
  }

  /** Writes the polls; when the store fails, every watch of the chunk stays leased and is retried after its lease. */
  async #complete(owner: string, polls: readonly CompletedPoll[]): Promise<void> {
    if (polls.length === 0) return;
    let written: boolean[];
    try {
      written = await this.#store.completePolls(owner, polls);
    } catch (error) {
      for (const { watchId } of polls) this.#logger.error('could not save a poll; the watch is retried after its lease', { watchId, error });
      return;
    }
    polls.forEach(({ watchId }, i) => {
      if (!written[i]) this.#logger.warn('lease lost before the poll was written; another poller took over', { watchId });
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
      nextPollAt: nextPollAt(
        { now: polledAt, lastChangeAt, deadline: deadlineOf(kind, state), expiresAt: watch.expiresAt, readsService: readsService(kind) },
        this.#schedule,
        this.#random,
      ),
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

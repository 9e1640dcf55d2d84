/**
 * The poller as the running app uses it: one Poller and one OutboxDeliverer per process, over
 * the shared store, with owner ids unique to the process (so replicas share the work through
 * leases), started and stopped together, and the entry point for the video service's callbacks.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { CustomRoute, webApi } from '@slack/bolt';
import { videoCallbackRoute } from '../http/callbacks';
import type { Logger } from '../log';
import type { Services } from '../services';
import { ProjectBudgets } from './budget';
import { cardRenderer } from './cards';
import { type DelivererOptions, OutboxDeliverer, type SlackPoster } from './delivery';
import { HistoryPruner } from './history';
import { HomeRefresher } from './home-refresh';
import { type CycleReport, Poller, type PollerOptions } from './poller';
import { type Clock, type Timers, systemClock } from './runtime';
import type { Random } from './schedule';
import type { PollerSettings } from './settings';
import { posterClient, webClientPoster } from './slack-poster';
import { PollerThread, type PollerThreadOptions } from './thread';
import type { ThreadHeap } from './thread-protocol';
import { type PollClient, videoPollSource } from './video-source';
import type { WatchFilter, WatchStore } from './watch';

/** Unique per process: host, pid and a random part (a restarted pid must not inherit leases). */
export function processInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface PollerServiceOptions {
  store: WatchStore;
  /** The project's VideoClient (`services.projects.client`). */
  clientFor: (projectName: string) => PollClient;
  poster: SlackPoster;
  settings: PollerSettings;
  logger: Logger;
  instanceId?: string;
  clock?: Clock;
  timers?: Timers;
  random?: Random;
  /** Overrides for tests and the bench (tick, leases…). */
  poller?: Partial<Pick<PollerOptions, 'tickMs' | 'leaseMs' | 'batch' | 'keepLeases'>>;
  deliverer?: Partial<
    Pick<DelivererOptions, 'tickMs' | 'leaseMs' | 'channelIntervalMs' | 'postTimeoutMs' | 'retry' | 'maxAttempts' | 'batchLimit' | 'concurrency'>
  >;
}

/** The id fields a callback body may carry, looked for at any depth (the payload is not specified). */
const HINT_FIELDS = ['id', 'captionsId', 'sessionId'] as const;
type HintField = (typeof HINT_FIELDS)[number];

/** String values of the hint fields in a JSON value, a few levels deep. */
export function hintIds(body: unknown, depth = 0, found: Record<HintField, Set<string>> = { id: new Set(), captionsId: new Set(), sessionId: new Set() }) {
  if (depth > 4 || body === null || typeof body !== 'object') return found;
  if (Array.isArray(body)) {
    for (const item of body.slice(0, 100)) hintIds(item, depth + 1, found);
    return found;
  }
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if ((HINT_FIELDS as readonly string[]).includes(key) && typeof value === 'string' && value.length > 0 && value.length <= 256) {
      found[key as HintField].add(value);
    } else if (typeof value === 'object') {
      hintIds(value, depth + 1, found);
    }
  }
  return found;
}

/**
 * A Poller whose cycles wake the deliverer when they wrote notifications, so a change reaches
 * Slack right after the poll that saw it instead of at the deliverer's next tick.
 */
class WakingPoller extends Poller {
  constructor(
    private readonly wake: () => void,
    options: PollerOptions,
  ) {
    super(options);
  }

  override async runCycle(): Promise<CycleReport> {
    const report = await super.runCycle();
    if (report.transitions > 0) this.wake();
    return report;
  }
}

export class PollerService {
  readonly poller: Poller;
  readonly deliverer: OutboxDeliverer;
  readonly history: HistoryPruner;
  readonly instanceId: string;
  readonly #logger: Logger;
  #started = false;

  constructor(options: PollerServiceOptions) {
    const { settings, store } = options;
    const clock = options.clock ?? systemClock;
    this.instanceId = options.instanceId ?? processInstanceId();
    this.#logger = options.logger.child({ component: 'poller', instance: this.instanceId });
    this.poller = new WakingPoller(() => this.deliverer.wake(), {
      store,
      source: videoPollSource(options.clientFor),
      budgets: new ProjectBudgets(settings.budget, clock, settings.projectBudgets),
      logger: this.#logger,
      instanceId: this.instanceId,
      clock,
      ...(options.timers && { timers: options.timers }),
      ...(options.random && { random: options.random }),
      schedule: settings.schedule,
      tickMs: settings.tickMs,
      claimLimit: settings.claimLimit,
      perProjectLimit: settings.perProjectLimit,
      maxWatchAgeMs: settings.maxWatchAgeMs,
      renderCard: cardRenderer({ clock }),
      // A poll that finds nothing new writes nothing: most polls, at a few thousand a second.
      keepLeases: true,
      ...options.poller,
    });
    this.deliverer = new OutboxDeliverer({
      store,
      poster: options.poster,
      logger: options.logger.child({ component: 'delivery', instance: this.instanceId }),
      instanceId: this.instanceId,
      clock,
      ...(options.timers && { timers: options.timers }),
      ...(options.random && { random: options.random }),
      ...options.deliverer,
    });
    this.history = new HistoryPruner({ store, logger: this.#logger, clock, ...(options.timers && { timers: options.timers }) });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.poller.start();
    this.deliverer.start();
    this.history.start();
    this.#logger.info('poller started');
  }

  /**
   * Stops the loops after the work in progress: the cycle's watches are completed or released
   * and the round's rows marked or deferred, so no lease of this process is left.
   */
  async stop(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await Promise.all([this.poller.stop(), this.deliverer.stop(), this.history.stop()]);
    this.#logger.info('poller stopped');
  }

  /**
   * A composer-ended or captions-ended callback, taken as a hint: the watches it names (by any
   * `id`, `captionsId` or `sessionId` in the body) are polled at once, or every composer and
   * captions watch when it names none we know. Polling stays the source of truth, so a forged
   * or garbled body costs at most one early poll. Returns how many watches were expedited.
   */
  async hint(body: unknown): Promise<number> {
    const ids = hintIds(body);
    const filters: WatchFilter[] = [];
    for (const kind of ['render', 'captions'] as const) {
      for (const id of [...ids.id, ...(kind === 'captions' ? ids.captionsId : [])]) filters.push({ kind, resourceId: id });
      for (const sessionId of ids.sessionId) filters.push({ kind, sessionId });
    }
    let matched = 0;
    for (const filter of filters) matched += await this.poller.pollNow(filter);
    if (matched === 0) {
      for (const kind of ['render', 'captions'] as const) matched += await this.poller.pollNow({ kind });
    }
    this.#logger.info('video service callback', { named: filters.length, expedited: matched });
    return matched;
  }
}

export interface PollerRuntimeInput {
  services: Services;
  settings: PollerSettings;
  slack: { botToken: string; apiUrl?: string; fetch?: typeof fetch };
  /** Publishes one user's App Home tab (actions/home.ts `publishHome`; passed in to keep the poller free of the listeners). */
  publishHome(client: webApi.WebClient, teamId: string, userId: string): Promise<void>;
  /** Set to poll in a worker thread (src/poller/thread.ts): what it starts from, and where its metrics go. */
  thread?: Pick<PollerThreadOptions, 'data' | 'onVideoRequest' | 'onSlackCall' | 'onRunning' | 'onEnded'>;
}

export interface PollerRuntime {
  /** The callback route, when VIDOPS_CALLBACK_TOKEN is set (the HTTP receiver serves it). */
  routes: CustomRoute[];
  /** Starts polling and delivery unless VIDOPS_POLLER=off. */
  start(): void;
  /** Stops both loops (their leases released) and the Home refreshes. */
  stop(): Promise<void>;
  /** The poller thread's V8 heap, when the poller runs in a thread (undefined while none runs). */
  threadHeap?: () => Promise<ThreadHeap | undefined>;
}

/**
 * Everything main.ts runs for the poller: the service over the app's store and projects (or the
 * same in a worker thread), a SlackPoster on a WebClient of its own, App Home refreshes after
 * deliveries, and the callback route. A replica with VIDOPS_POLLER=off still serves callbacks
 * (they only mark watches due).
 */
export function pollerRuntime(input: PollerRuntimeInput): PollerRuntime {
  const { services, settings } = input;
  const logger = services.logger.child({ component: 'poller-runtime' });
  const client = posterClient({
    botToken: input.slack.botToken,
    slackApiUrl: input.slack.apiUrl,
    logger: services.logger,
    ...(input.slack.fetch && { fetch: input.slack.fetch }),
  });
  const refresher = new HomeRefresher({
    viewers: services.homeViewers,
    publish: (teamId, userId) => input.publishHome(client, teamId, userId),
    logger,
  });
  const thread =
    input.thread && settings.enabled
      ? new PollerThread({ ...input.thread, logger: services.logger, onDelivered: (teamId) => refresher.deliveredTo(teamId) })
      : undefined;
  const poller: Pick<PollerService, 'start' | 'stop' | 'hint'> =
    thread ??
    new PollerService({
      store: services.store,
      clientFor: (name) => services.projects.client(name),
      poster: webClientPoster(client, { onDelivered: (teamId) => refresher.deliveredTo(teamId) }),
      settings,
      logger: services.logger,
      clock: services.clock,
    });
  const routes = settings.callbackToken
    ? [videoCallbackRoute({ token: settings.callbackToken, hint: (body) => poller.hint(body), logger: services.logger })]
    : [];
  return {
    routes,
    start() {
      if (settings.enabled) poller.start();
      else logger.info('polling is off here (VIDOPS_POLLER=off); other replicas poll and deliver');
    },
    async stop() {
      refresher.stop();
      await poller.stop();
    },
    ...(thread && { threadHeap: () => thread.heap() }),
  };
}

/**
 * Delivers the outbox to Slack, each notification exactly once, in order per channel.
 *
 * How a repost is avoided. A row goes through: claim (lease, attempts + 1) → post → mark
 * delivered with the `ts` Slack returned. A crash or a lost answer between post and mark is
 * the only step that could repeat a message, so every post carries the row's idempotency key in
 * the message's metadata (`event_type` NOTIFICATION_EVENT_TYPE), and any attempt after the first
 * first asks Slack whether a message with that key exists in the thread (or channel) since the
 * row's first attempt (conversations.replies / conversations.history with
 * `include_all_metadata`). Found: the row is marked delivered with that `ts`, nothing is posted.
 * Not found: no earlier attempt reached Slack, so posting is safe. Two deliverers never work on
 * a row at once: the lease says who may, and a post only starts while the lease has at least
 * `postTimeoutMs` left (longer than the Slack client's own timeout), so a deliverer whose lease
 * ran out cannot still be posting when the next one looks. A crash before the post leaves a
 * row that is simply claimed again after its lease; a crash after the mark changes nothing.
 * Card updates (`chat.update`) are idempotent and need no check.
 *
 * Pacing: the store hands out only the oldest pending row of each channel, and no reply of a
 * channel that had a reply delivered less than `channelIntervalMs` (1 s) ago, by whichever
 * replica: a channel receives at most one new message per second, Slack's limit for
 * chat.postMessage (card updates are not messages and go at once). A round is due when the
 * second of a channel this deliverer just posted to is up, so a reply paced behind another goes
 * then rather than at the next tick. A 429 defers the row until Retry-After and with it only
 * that channel; 5xx and network errors back off exponentially; errors that retrying cannot fix
 * (channel gone, not in channel, invalid blocks) discard the row so it no longer blocks its
 * channel.
 */
import { type Clock, type JobLogger, Ticker, type Timers, globalTimers, systemClock } from './runtime';
import { type BackoffConfig, type Random, exponentialBackoff } from './schedule';
import type { OutboxRow, SlackBlocks, WatchStore } from './watch';

/** The metadata `event_type` that marks the app's notifications. */
export const NOTIFICATION_EVENT_TYPE = 'vidops_notification';

export interface NotificationMetadata {
  event_type: typeof NOTIFICATION_EVENT_TYPE;
  event_payload: { key: string };
}

/** The `metadata` to pass to chat.postMessage for a notification. */
export function notificationMetadata(idempotencyKey: string): NotificationMetadata {
  return { event_type: NOTIFICATION_EVENT_TYPE, event_payload: { key: idempotencyKey } };
}

/** The `ts` of the message carrying that key, among messages read with `include_all_metadata`. */
export function findNotification(
  messages: readonly { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[],
  idempotencyKey: string,
): string | undefined {
  return messages.find((m) => m.metadata?.event_type === NOTIFICATION_EVENT_TYPE && m.metadata.event_payload?.key === idempotencyKey)?.ts;
}

export interface PostContext {
  teamId: string;
  idempotencyKey: string;
  blocks?: SlackBlocks;
}

/**
 * Slack as the deliverer needs it. An implementation uses a WebClient built with
 * `rejectRateLimitedCalls: true` and `retryConfig: { retries: 0 }`, so that 429s and retries
 * come back here (where they hold back one channel) instead of blocking inside the client.
 */
export interface SlackPoster {
  /**
   * chat.postMessage in the thread (in the channel when `threadTs` is undefined) with
   * `metadata: notificationMetadata(context.idempotencyKey)`; resolves the new message's ts.
   */
  postThreadReply(channel: string, threadTs: string | undefined, text: string, context: PostContext): Promise<{ ts: string }>;
  /** chat.update of the card. */
  updateCard(channel: string, ts: string, blocks: SlackBlocks, context: { teamId: string; text: string }): Promise<void>;
  /**
   * The ts of a message already posted with this key at or after `sinceMs` (epoch ms): read the
   * thread with conversations.replies (or the channel with conversations.history), `oldest`
   * just before `sinceMs`, `include_all_metadata: true`, and apply `findNotification`.
   */
  findPosted(channel: string, threadTs: string | undefined, idempotencyKey: string, sinceMs: number, context: { teamId: string }): Promise<string | undefined>;
}

export type SlackFailureKind = 'rate-limited' | 'transient' | 'permanent';

/** What a SlackPoster may throw when it wants to say precisely what went wrong. */
export class SlackDeliveryError extends Error {
  override readonly name = 'SlackDeliveryError';

  constructor(
    message: string,
    readonly kind: SlackFailureKind,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface SlackFailure {
  kind: SlackFailureKind;
  retryAfterMs?: number;
  message: string;
}

/** Slack API errors that go away by themselves. */
const TRANSIENT_PLATFORM_ERRORS = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * Reads SlackDeliveryError and the error shapes of @slack/web-api (rate limited with
 * `retryAfter` seconds, platform errors with `data.error`, HTTP errors with `statusCode`,
 * request errors) without depending on the package. Anything unknown counts as transient.
 */
export function classifySlackError(error: unknown): SlackFailure {
  if (error instanceof SlackDeliveryError) {
    return { kind: error.kind, message: error.message, ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }) };
  }
  const e = (error ?? {}) as {
    code?: unknown;
    retryAfter?: unknown;
    data?: { error?: unknown };
    statusCode?: unknown;
    headers?: Record<string, unknown>;
    message?: unknown;
  };
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (e.code === 'slack_webapi_rate_limited_error') {
    return { kind: 'rate-limited', retryAfterMs: Number(e.retryAfter ?? 1) * 1000, message };
  }
  if (e.code === 'slack_webapi_platform_error') {
    const code = typeof e.data?.error === 'string' ? e.data.error : 'unknown_error';
    return { kind: TRANSIENT_PLATFORM_ERRORS.has(code) ? 'transient' : 'permanent', message: code };
  }
  if (e.code === 'slack_webapi_http_error' && typeof e.statusCode === 'number') {
    if (e.statusCode === 429) return { kind: 'rate-limited', retryAfterMs: Number(e.headers?.['retry-after'] ?? 1) * 1000, message };
    return { kind: e.statusCode >= 500 ? 'transient' : 'permanent', message };
  }
  return { kind: 'transient', message };
}

export interface DelivererOptions {
  store: WatchStore;
  poster: SlackPoster;
  logger: JobLogger;
  /** Unique per process; claim owners are derived from it. */
  instanceId: string;
  clock?: Clock;
  timers?: Timers;
  random?: Random;
  /** One round per tick; each round sends at most one message (reply) per channel. */
  tickMs?: number;
  /** Least time between two replies posted to one channel, across replicas (the store enforces it). */
  channelIntervalMs?: number;
  /** Most rows (so channels) per round. */
  batchLimit?: number;
  /** Channels served at the same time within a round. */
  concurrency?: number;
  leaseMs?: number;
  /** A post starts only with at least this much lease left; more than the Slack client's timeout. */
  postTimeoutMs?: number;
  retry?: BackoffConfig;
  /** Transient failures after which a row is given up. */
  maxAttempts?: number;
}

export interface DeliveryReport {
  claimed: number;
  delivered: number;
  /** Rows found already posted by an earlier attempt, marked without posting again. */
  recovered: number;
  deferred: number;
  discarded: number;
}

type Outcome = 'delivered' | 'recovered' | 'deferred' | 'discarded' | 'lost';

/**
 * Passes of a round at most: enough for a card update, the reply after it and that reply's own
 * card; what a channel has beyond that waits for the next round.
 */
const PASSES_PER_ROUND = 4;

export class OutboxDeliverer {
  readonly #store: WatchStore;
  readonly #poster: SlackPoster;
  readonly #logger: JobLogger;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #ticker: Ticker;
  readonly #settings: Required<
    Pick<DelivererOptions, 'instanceId' | 'channelIntervalMs' | 'batchLimit' | 'concurrency' | 'leaseMs' | 'postTimeoutMs' | 'retry' | 'maxAttempts'>
  >;
  #rounds = 0;
  /**
   * When channels this deliverer just posted a reply to may take the next (the reply's delivery
   * plus the channel interval): a round is due then, so a reply paced behind another goes out
   * when Slack allows, not up to a tick later (a wake by the poller restarts the tick).
   */
  #pacedUntil: number[] = [];

  constructor(options: DelivererOptions) {
    this.#store = options.store;
    this.#poster = options.poster;
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#settings = {
      instanceId: options.instanceId,
      channelIntervalMs: options.channelIntervalMs ?? 1_000,
      batchLimit: options.batchLimit ?? 100,
      concurrency: options.concurrency ?? 8,
      leaseMs: options.leaseMs ?? 60_000,
      postTimeoutMs: options.postTimeoutMs ?? 15_000,
      retry: options.retry ?? { baseMs: 2_000, maxMs: 10 * 60_000, jitterRatio: 0.1 },
      maxAttempts: options.maxAttempts ?? 20,
    };
    if (this.#settings.postTimeoutMs >= this.#settings.leaseMs) throw new RangeError('postTimeoutMs must be shorter than leaseMs');
    this.#ticker = new Ticker('outbox delivery', () => this.deliverOnce(), options.tickMs ?? 1_000, options.timers ?? globalTimers, this.#logger);
  }

  start(): void {
    this.#ticker.start();
  }

  stop(): Promise<void> {
    return this.#ticker.stop();
  }

  /**
   * Runs a round now instead of at the next tick (the poller just wrote notifications), so a
   * change reaches Slack without waiting up to a tick; the channel interval still applies.
   */
  wake(): void {
    this.#ticker.trigger();
  }

  /**
   * One round: passes over the oldest pending row of each channel, each pass after one that
   * delivered something. A channel's card update (not a message, so not paced) then goes out
   * with the reply before it rather than a round later, and a reply that waited behind a card
   * goes as soon as the channel's interval allows; a second reply within the interval stays
   * for a later round (the store's pacing).
   */
  async deliverOnce(): Promise<DeliveryReport> {
    const report: DeliveryReport = { claimed: 0, delivered: 0, recovered: 0, deferred: 0, discarded: 0 };
    const startedAt = this.#clock();
    for (let pass = 0; pass < PASSES_PER_ROUND; pass++) {
      const done = await this.#pass();
      for (const key of Object.keys(report) as (keyof DeliveryReport)[]) report[key] += done[key];
      if (done.delivered + done.recovered === 0) break;
    }
    this.#pacedUntil = this.#pacedUntil.filter((until) => until > startedAt);
    const pacedRoundAt = this.pacedRoundAt;
    if (pacedRoundAt !== undefined) this.#ticker.runAgainWithin(pacedRoundAt - this.#clock());
    return report;
  }

  /** When the next round is due for a channel whose second is up (what the ticker is asked for), if any. */
  get pacedRoundAt(): number | undefined {
    return this.#pacedUntil.length === 0 ? undefined : this.#pacedUntil.reduce((a, b) => Math.min(a, b));
  }

  /** The oldest pending row of each channel that may have one now, delivered. */
  async #pass(): Promise<DeliveryReport> {
    const owner = `${this.#settings.instanceId}:d${++this.#rounds}`;
    const rows = await this.#store.claimOutbox(owner, this.#clock(), this.#settings.batchLimit, this.#settings.leaseMs, {
      channelIntervalMs: this.#settings.channelIntervalMs,
    });
    const report: DeliveryReport = { claimed: rows.length, delivered: 0, recovered: 0, deferred: 0, discarded: 0 };
    const queue = [...rows];
    const worker = async (): Promise<void> => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const outcome = await this.#deliver(row, owner);
        if (outcome !== 'lost') report[outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#settings.concurrency, rows.length) }, worker));
    return report;
  }

  async #deliver(row: OutboxRow, owner: string): Promise<Outcome> {
    try {
      return await this.#send(row, owner);
    } catch (error) {
      return this.#handleFailure(row, owner, error);
    }
  }

  async #send(row: OutboxRow, owner: string): Promise<Outcome> {
    const { payload, teamId, channelId, threadTs, idempotencyKey } = row;
    if (payload.type === 'card') {
      await this.#poster.updateCard(channelId, payload.messageTs, payload.blocks, { teamId, text: payload.text });
      return this.#mark(row, owner, payload.messageTs, 'delivered');
    }
    if (row.attempts > 1) {
      const since = row.firstAttemptAt ?? row.createdAt;
      const ts = await this.#poster.findPosted(channelId, threadTs, idempotencyKey, since, { teamId });
      if (ts !== undefined) return this.#mark(row, owner, ts, 'recovered');
    }
    if (row.leaseUntil === undefined || this.#clock() + this.#settings.postTimeoutMs > row.leaseUntil) {
      await this.#store.deferOutbox(row.id, owner, this.#clock(), 'lease too short to post safely');
      return 'deferred';
    }
    const { ts } = await this.#poster.postThreadReply(channelId, threadTs, payload.text, {
      teamId,
      idempotencyKey,
      ...(payload.blocks && { blocks: payload.blocks }),
    });
    return this.#mark(row, owner, ts, 'delivered');
  }

  async #mark(row: OutboxRow, owner: string, messageTs: string, outcome: 'delivered' | 'recovered'): Promise<Outcome> {
    const deliveredAt = this.#clock();
    if (row.payload.type === 'reply' && this.#settings.channelIntervalMs > 0) this.#pacedUntil.push(deliveredAt + this.#settings.channelIntervalMs);
    if (await this.#store.markDelivered(row.id, owner, { deliveredAt, messageTs })) return outcome;
    // Someone else holds the row now; their check before posting finds this message.
    this.#logger.warn('outbox lease lost after delivering', { outboxId: row.id });
    return 'lost';
  }

  async #handleFailure(row: OutboxRow, owner: string, error: unknown): Promise<Outcome> {
    const failure = classifySlackError(error);
    const now = this.#clock();
    const fields = { outboxId: row.id, channel: row.channelId, attempts: row.attempts, failure: failure.kind, error: failure.message };
    try {
      if (failure.kind === 'permanent' || (failure.kind === 'transient' && row.attempts >= this.#settings.maxAttempts)) {
        this.#logger.error('giving up a Slack notification', fields);
        await this.#store.discardOutbox(row.id, owner, now, failure.message);
        return 'discarded';
      }
      const delay = failure.kind === 'rate-limited' ? (failure.retryAfterMs ?? 1_000) : exponentialBackoff(row.attempts, this.#settings.retry, this.#random);
      this.#logger.warn('Slack notification postponed', { ...fields, retryInMs: delay });
      await this.#store.deferOutbox(row.id, owner, now + delay, failure.message);
      return 'deferred';
    } catch (storeError) {
      // The row stays leased; after the lease another round retries it (checking Slack first).
      this.#logger.error('could not record a delivery failure', { outboxId: row.id, error: storeError });
      return 'lost';
    }
  }
}

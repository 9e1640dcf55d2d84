/**
 * The app's Prometheus metrics, on a registry of its own per app instance (never prom-client's
 * global one), so several apps can run in one process — tests do. Names are listed in the
 * README ("Operating vidops"). Gauges that read the store are refreshed when scraped.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ThreadHeap } from '../poller/thread-protocol';
import type { PollerBacklog } from '../store/types';

/** Seconds; Slack allows 3 s for an ack. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface MetricsOptions {
  /** Also export the process's CPU, memory, event-loop and GC metrics (the running product does). */
  processMetrics?: boolean;
  /** How long a scrape waits for a store query before serving the last values (default 2 s). */
  refreshTimeoutMs?: number;
}

export class VidopsMetrics {
  readonly registry = new Registry();
  readonly commands: Counter<'command' | 'outcome'>;
  readonly interactions: Counter<'kind' | 'outcome'>;
  readonly ackLatency: Histogram<'kind'>;
  readonly slackRequestsInFlight: Gauge;
  readonly videoRequests: Counter<'operation' | 'status'>;
  readonly videoRequestDuration: Histogram<'operation'>;
  readonly slackCalls: Counter<'method' | 'status'>;
  readonly slackRateLimited: Counter<'method'>;
  readonly slackCallDuration: Histogram<'method'>;
  readonly refreshErrors: Counter<'source'>;
  readonly #backlog: Record<keyof PollerBacklog, Gauge>;
  readonly #refreshers = new Map<string, () => Promise<void>>();
  readonly #refreshTimeoutMs: number;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.#refreshTimeoutMs = options.refreshTimeoutMs ?? 2_000;
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'vidops_' });
    this.commands = new Counter({
      name: 'vidops_commands_total',
      help: 'Slash commands handled, by command and outcome (ok, invalid, denied, error).',
      labelNames: ['command', 'outcome'],
      registers,
    });
    this.interactions = new Counter({
      name: 'vidops_interactions_total',
      help: 'Buttons, modal submissions, shortcuts, options and events handled, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.ackLatency = new Histogram({
      name: 'vidops_ack_latency_seconds',
      help: 'Time from receiving a Slack request to acknowledging it, by kind (command, block_actions…).',
      labelNames: ['kind'],
      buckets: ACK_BUCKETS,
      registers,
    });
    this.slackRequestsInFlight = new Gauge({
      name: 'vidops_slack_requests_in_flight',
      help: 'Slack requests being handled (ack and follow-up work).',
      registers,
    });
    this.videoRequests = new Counter({
      name: 'vidops_video_api_requests_total',
      help: 'HTTP exchanges with the video service (each retry counts), by operation and status (HTTP status, timeout, network, aborted).',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.videoRequestDuration = new Histogram({
      name: 'vidops_video_api_request_duration_seconds',
      help: 'Duration of each HTTP exchange with the video service, by operation.',
      labelNames: ['operation'],
      buckets: CALL_BUCKETS,
      registers,
    });
    this.slackCalls = new Counter({
      name: 'vidops_slack_api_calls_total',
      help: 'HTTP calls to the Slack Web API (each retry counts), by method and HTTP status (or network).',
      labelNames: ['method', 'status'],
      registers,
    });
    this.slackRateLimited = new Counter({
      name: 'vidops_slack_api_rate_limited_total',
      help: 'Slack Web API calls answered 429 (rate limited), by method.',
      labelNames: ['method'],
      registers,
    });
    this.slackCallDuration = new Histogram({
      name: 'vidops_slack_api_call_duration_seconds',
      help: 'Duration of each HTTP call to the Slack Web API, by method.',
      labelNames: ['method'],
      buckets: CALL_BUCKETS,
      registers,
    });
    this.refreshErrors = new Counter({
      name: 'vidops_metrics_refresh_errors_total',
      help: 'Scrapes that could not read a gauge source (e.g. the store) and served its last values.',
      labelNames: ['source'],
      registers,
    });
    this.#backlog = {
      activeWatches: this.#gauge('vidops_poller_watches_active', 'Watches not ended, across replicas.'),
      claimedWatches: this.#gauge('vidops_poller_watches_claimed', 'Watches leased by a poller right now, across replicas.'),
      dueWatches: this.#gauge('vidops_poller_watches_due', 'Watches due for a poll and not leased.'),
      pollLagMs: this.#gauge('vidops_poller_lag_seconds', 'How long the most overdue watch has waited past its poll time.'),
      outboxDepth: this.#gauge('vidops_outbox_depth', 'Notifications waiting for delivery to Slack (neither delivered nor given up).'),
      outboxOldestAgeMs: this.#gauge('vidops_outbox_oldest_age_seconds', 'Age of the oldest notification waiting for delivery.'),
    };
  }

  /** The poller and outbox gauges read `read()` (a store query) at each scrape. */
  watchBacklog(read: () => Promise<PollerBacklog>): void {
    this.#refreshers.set('store', async () => {
      const backlog = await read();
      for (const key of Object.keys(this.#backlog) as (keyof PollerBacklog)[]) {
        const value = backlog[key];
        this.#backlog[key].set(key.endsWith('Ms') ? value / 1000 : value);
      }
    });
  }

  /**
   * Gauges of the poller thread's heap, beside the process's own heap figures (vidops_nodejs_heap_*),
   * which cover the main thread's only. Registered only where a thread polls; they read `read()` (a
   * question to the thread) at each scrape, and no answer serves the last values.
   */
  watchPollerThreadHeap(read: () => Promise<ThreadHeap | undefined>): void {
    const gauges: Record<keyof ThreadHeap, Gauge> = {
      usedBytes: this.#gauge('vidops_poller_thread_heap_used_bytes', "The poller thread's V8 heap in use."),
      totalBytes: this.#gauge('vidops_poller_thread_heap_total_bytes', "The poller thread's V8 heap, committed."),
      externalBytes: this.#gauge('vidops_poller_thread_external_memory_bytes', "Memory outside the poller thread's V8 heap held by its objects (buffers)."),
    };
    this.#refreshers.set('poller-thread', async () => {
      const heap = await read();
      if (heap === undefined) throw new Error('the poller thread did not answer');
      for (const key of Object.keys(gauges) as (keyof ThreadHeap)[]) gauges[key].set(heap[key]);
    });
  }

  #gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text, after refreshing the store-backed gauges (bounded in time). */
  async scrape(): Promise<string> {
    await Promise.all(
      [...this.#refreshers].map(async ([source, refresh]) => {
        try {
          await withTimeout(refresh(), this.#refreshTimeoutMs);
        } catch {
          this.refreshErrors.inc({ source });
        }
      }),
    );
    return this.registry.metrics();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

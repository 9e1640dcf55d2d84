/**
 * Keeps the store's finished history bounded: delivered and discarded notifications, ended
 * watches (HISTORY_RETENTION). Without it the outbox grew by every notification ever sent — some
 * 30,000 rows an hour at the soak's load — and ended watches by every resource ever followed.
 * Every replica that polls prunes; the deletes are idempotent, so two at once only share the work.
 */
import { type Clock, type JobLogger, type Timers, Ticker, globalTimers, systemClock } from './runtime';
import { HISTORY_RETENTION, type HistoryRetention, type PrunedHistory, type WatchStore } from './watch';
import { yieldToEventLoop } from './yield';

export interface HistoryPrunerOptions {
  store: Pick<WatchStore, 'pruneHistory'>;
  logger: JobLogger;
  clock?: Clock;
  timers?: Timers;
  retention?: HistoryRetention;
  everyMs?: number;
  /** Rows of each kind one store call deletes at most (one short transaction). */
  batch?: number;
  /** Store calls one run makes at most; the rest waits for the next run. */
  maxBatches?: number;
}

export const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 500;
const MAX_BATCHES = 40;

export class HistoryPruner {
  readonly #options: Required<Omit<HistoryPrunerOptions, 'timers'>>;
  readonly #ticker: Ticker;

  constructor(options: HistoryPrunerOptions) {
    this.#options = {
      store: options.store,
      logger: options.logger,
      clock: options.clock ?? systemClock,
      retention: options.retention ?? HISTORY_RETENTION,
      everyMs: options.everyMs ?? PRUNE_EVERY_MS,
      batch: options.batch ?? PRUNE_BATCH,
      maxBatches: options.maxBatches ?? MAX_BATCHES,
    };
    this.#ticker = new Ticker('history pruning', () => this.pruneOnce(), this.#options.everyMs, options.timers ?? globalTimers, options.logger);
  }

  /** Prunes now, then every `everyMs`. */
  start(): void {
    this.#ticker.start();
  }

  async stop(): Promise<void> {
    await this.#ticker.stop();
  }

  /** Deletes what has outlived its retention, a batch per store call, yielding between calls. */
  async pruneOnce(): Promise<PrunedHistory> {
    const { store, clock, retention, batch, maxBatches, logger } = this.#options;
    const total: PrunedHistory = { outboxRows: 0, watches: 0 };
    for (let calls = 0; calls < maxBatches; calls++) {
      const pruned = await store.pruneHistory(clock(), retention, batch);
      total.outboxRows += pruned.outboxRows;
      total.watches += pruned.watches;
      if (pruned.outboxRows < batch && pruned.watches < batch) break;
      await yieldToEventLoop();
    }
    if (total.outboxRows + total.watches > 0) logger.info('pruned finished history', { ...total });
    return total;
  }
}

/**
 * Whether other pollers share the store. A kept watch is given back at a hold's end now and then
 * (`RELEASE_SHARE` in poller.ts) only so that other replicas get their share; a poller alone
 * gave a quarter back every hold and claimed the same watches again the sweep after, which was a
 * fifth of its CPU (`bench:poller`). Each poller announces itself to the store every
 * `ANNOUNCE_EVERY_MS` and learns how many did within `ANNOUNCED_WITHIN_MS`; until the store has
 * answered, and after a failed ask, it takes others to be there (giving back is the safe side).
 * A replica that starts later is heard of within `ANNOUNCE_EVERY_MS`, one that crashed is
 * forgotten after `ANNOUNCED_WITHIN_MS`, and one that stops says so (`retire`).
 */
import type { JobLogger } from './runtime';
import type { WatchStore } from './watch';

export const ANNOUNCE_EVERY_MS = 10_000;
export const ANNOUNCED_WITHIN_MS = 3 * ANNOUNCE_EVERY_MS;

export class PollerReplicas {
  readonly #store: Pick<WatchStore, 'announcePoller' | 'retirePoller'>;
  readonly #instance: string;
  readonly #logger: JobLogger;
  /** What the store last answered, and when it was asked. */
  #heard: { pollers: number; at: number } | undefined;

  constructor(store: Pick<WatchStore, 'announcePoller' | 'retirePoller'>, instance: string, logger: JobLogger) {
    this.#store = store;
    this.#instance = instance;
    this.#logger = logger;
  }

  /** Whether other pollers announced themselves lately; announces this one when it is time. */
  async othersAt(now: number): Promise<boolean> {
    let heard = this.#heard;
    if (heard === undefined || now - heard.at >= ANNOUNCE_EVERY_MS || now < heard.at) {
      try {
        heard = this.#heard = { pollers: await this.#store.announcePoller(this.#instance, now, ANNOUNCED_WITHIN_MS), at: now };
      } catch (error) {
        this.#heard = undefined;
        this.#logger.warn('could not announce this poller to the store; giving watches back as if others shared them', { error });
        return true;
      }
    }
    return heard.pollers > 1;
  }

  /** Tells the store this poller is gone; a failure only leaves it to be forgotten in time. */
  async retire(): Promise<void> {
    this.#heard = undefined;
    try {
      await this.#store.retirePoller(this.#instance);
    } catch (error) {
      this.#logger.warn('could not retire this poller from the store; it is forgotten in half a minute', { error });
    }
  }
}

/**
 * Duplicate deliveries: when an ack is late, Slack delivers the same command, click or form
 * again (`X-Slack-Retry-Num: 1`, `X-Slack-Retry-Reason: http_timeout`). The first delivery may
 * still be working — it started the archive — so the copy is acknowledged and dropped.
 *
 * Each delivery is claimed in the store (one row per delivery key, kept for `ttlMs`); the claim
 * is atomic in the database, so a copy that reaches another replica is dropped there too. When
 * the store cannot answer the delivery is served anyway: acting twice on a rare retry is better
 * than ignoring every command while the database is away.
 *
 * When: commands, clicks and shortcuts are claimed just after their ack (`afterAck`), for their
 * listeners ack before any work; the claim is a write that may wait its turn behind the poller's
 * (busy-retry), and before the ack that wait was the person's. Form submissions are claimed
 * before their listener runs (`middleware()`): the broadcast form starts the broadcast
 * before it acks, to show the service's refusal on the field it names.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../log';
import { claimedAfterAck, deliveryKey } from './delivery-key';

export interface DeliveryLedger {
  /**
   * Records the delivery; true the first time the key is seen (or once its previous record
   * expired), false for a copy.
   */
  claimDelivery(key: string, now: number, ttlMs: number): Promise<boolean>;
  /** Forgets deliveries whose record expired before `now`; returns how many. */
  purgeDeliveries(now: number): Promise<number>;
}

export interface DedupeOptions {
  ledger: DeliveryLedger;
  logger: Logger;
  clock?: () => number;
  /** How long a delivery is remembered; Slack's last retry comes within minutes (default 1 h). */
  ttlMs?: number;
}

export const DELIVERY_TTL_MS = 60 * 60 * 1000;

type Ack = (response?: unknown) => Promise<void>;

/** A copy of a delivery already claimed: its ack was sent, its work is not done again. */
export class DuplicateDelivery extends Error {
  constructor() {
    super('duplicate Slack delivery');
  }
}

export class DeliveryClaims {
  readonly #ledger: DeliveryLedger;
  readonly #clock: () => number;
  readonly #ttlMs: number;
  readonly #log: Logger;
  #nextPurgeAt = 0;

  constructor(options: DedupeOptions) {
    this.#ledger = options.ledger;
    this.#clock = options.clock ?? Date.now;
    this.#ttlMs = options.ttlMs ?? DELIVERY_TTL_MS;
    this.#log = options.logger.child({ component: 'slack-dedupe' });
  }

  /** Records the delivery; false for a copy (logged). A body that is never deduplicated, or a store that cannot answer, is served. */
  async isFirst(body: Record<string, unknown>, context: { retryNum?: unknown; retryReason?: unknown }): Promise<boolean> {
    const key = deliveryKey(body);
    if (key === undefined) return true;
    const now = this.#clock();
    let first: boolean;
    try {
      first = await this.#ledger.claimDelivery(key, now, this.#ttlMs);
    } catch (error) {
      this.#log.warn('could not record the Slack delivery; serving it without the duplicate check', { error });
      return true;
    }
    this.#purgeNowAndThen(now);
    if (!first) {
      this.#log.info('duplicate Slack delivery acknowledged without repeating its work', {
        kind: key.slice(0, key.indexOf(':')),
        retryNum: context.retryNum,
        retryReason: context.retryReason,
      });
    }
    return first;
  }

  /**
   * For `ackFirst`: after the ack of a command, click or shortcut, throws `DuplicateDelivery` for
   * a copy, which ends its listener there (ackFirst catches it); anything else goes on.
   */
  readonly afterAck = async (body: Record<string, unknown>, context: { retryNum?: unknown; retryReason?: unknown }): Promise<void> => {
    if (claimedAfterAck(body) && !(await this.isFirst(body, context))) throw new DuplicateDelivery();
  };

  /** Middleware for the deliveries not claimed after their ack (form submissions): a copy is acked and goes no further. */
  middleware(): Middleware<AnyMiddlewareArgs> {
    return async (args) => {
      const body = args.body as unknown as Record<string, unknown>;
      if (claimedAfterAck(body) || (await this.isFirst(body, args.context))) return args.next();
      const ack = (args as { ack?: Ack }).ack;
      if (ack) await ack();
    };
  }

  #purgeNowAndThen(now: number): void {
    if (now < this.#nextPurgeAt) return;
    this.#nextPurgeAt = now + this.#ttlMs / 4;
    this.#ledger.purgeDeliveries(now).catch((error: unknown) => this.#log.warn('forgetting old Slack deliveries failed', { error }));
  }
}

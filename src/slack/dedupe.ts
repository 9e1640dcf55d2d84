/**
 * Duplicate deliveries: when an ack is late, Slack delivers the same command, click or form
 * again (`X-Slack-Retry-Num: 1`, `X-Slack-Retry-Reason: http_timeout`). The first delivery may
 * still be working — it started the archive — so the copy is acknowledged and dropped.
 *
 * Each delivery is claimed in the store (one row per delivery key, kept for `ttlMs`) before any
 * listener runs; the claim is atomic in the database, so a copy that reaches another replica is
 * dropped there too. When the store cannot answer the delivery is served anyway: acting twice on
 * a rare retry is better than ignoring every command while the database is away.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../log';
import { deliveryKey } from './delivery-key';

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

export function dedupeDeliveries(options: DedupeOptions): Middleware<AnyMiddlewareArgs> {
  const clock = options.clock ?? Date.now;
  const ttlMs = options.ttlMs ?? DELIVERY_TTL_MS;
  const log = options.logger.child({ component: 'slack-dedupe' });
  let nextPurgeAt = 0;

  const purgeNowAndThen = (now: number): void => {
    if (now < nextPurgeAt) return;
    nextPurgeAt = now + ttlMs / 4;
    options.ledger.purgeDeliveries(now).catch((error: unknown) => log.warn('forgetting old Slack deliveries failed', { error }));
  };

  return async (args) => {
    const key = deliveryKey(args.body as unknown as Record<string, unknown>);
    if (key === undefined) return args.next();
    const now = clock();
    let first: boolean;
    try {
      first = await options.ledger.claimDelivery(key, now, ttlMs);
    } catch (error) {
      log.warn('could not record the Slack delivery; serving it without the duplicate check', { error });
      return args.next();
    }
    purgeNowAndThen(now);
    if (first) return args.next();
    const { retryNum, retryReason } = args.context;
    log.info('duplicate Slack delivery acknowledged without repeating its work', {
      kind: key.slice(0, key.indexOf(':')),
      retryNum,
      retryReason,
    });
    const ack = (args as { ack?: Ack }).ack;
    if (ack) await ack();
  };
}

/**
 * The payload shape check (payload-shape.ts) as the first Bolt middleware: a request whose body
 * Slack would never send is acknowledged (so it is not redelivered) and goes no further. Over
 * HTTP the signature guard already refused such a body with a 400; this covers Socket Mode.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../log';
import { checkParsedBody } from './payload-shape';

export function refuseBadShapes(logger: Logger): Middleware<AnyMiddlewareArgs> {
  const log = logger.child({ component: 'slack-shape' });
  return async (args) => {
    const verdict = checkParsedBody(args.body);
    if (verdict.ok) return args.next();
    log.warn('Slack request ignored: not the shape Slack sends', { problem: verdict.problem });
    const ack = (args as { ack?: () => Promise<void> }).ack;
    if (ack) await ack();
  };
}

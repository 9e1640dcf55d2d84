/**
 * The Slack request being handled, carried through every await with AsyncLocalStorage: its id
 * (in every log line and, as `X-Request-Id`, on every video API call it makes) and how it ended
 * (counted in the metrics). Entered once per incoming request in app.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/** How a command or interaction ended, from the operator's point of view. */
export type RequestOutcome = 'ok' | 'invalid' | 'denied' | 'error';

export interface RequestContext {
  readonly requestId: string;
  /** `command`, `block_actions`, `view_submission`, `shortcut`, `options`, `event`… */
  readonly kind: string;
  /** The slash command, action id, callback id or event type. */
  readonly name: string;
  outcome: RequestOutcome;
  /** Who made the request and where (Slack IDs), named in every log line written for it. */
  readonly user?: string;
  readonly channel?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** 16 hex characters: unique enough to find one request's lines, short enough to read. */
export function newRequestId(): string {
  return randomBytes(8).toString('hex');
}

export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * Records why the current request did not simply succeed. The first such reason wins: a denied
 * command whose denial notice then fails to post is still a denial.
 */
export function noteOutcome(outcome: Exclude<RequestOutcome, 'ok'>): void {
  const context = storage.getStore();
  if (context && context.outcome === 'ok') context.outcome = outcome;
}

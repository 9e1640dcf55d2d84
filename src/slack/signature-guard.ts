/**
 * A check in front of Bolt's HTTP receiver for what its own verification lets through.
 *
 * Bolt (5.x, `verifySlackRequest`) rejects a timestamp more than 5 minutes in the past, but not
 * one in the future, and it keeps no memory of requests: a captured, correctly signed request can
 * be sent again and again for 5 minutes, and one signed with a timestamp set ahead much longer.
 * This guard verifies Slack's signature itself (`v0=` + HMAC-SHA256 of `v0:{ts}:{body}`),
 * requires the timestamp within 5 minutes of now either way, and passes each signature on once,
 * whatever retry headers come with it: a resend of the same signed bytes is a duplicate, answered
 * as the delivery ledger answers one (an empty 200) and never handed on. (A retry Slack signs
 * anew passes, and the delivery ledger drops it.) Then it checks the body's shape
 * (payload-shape.ts): a body Bolt would choke on gets a 400 instead of reaching it.
 * The body it read is handed on as `rawBody`, which Bolt uses instead of reading the stream.
 *
 * The path judged is the one Bolt routes on (`routedPath`: the URL parser's, so `/slack/./events`,
 * `/slack/%2e/events` and `/slack/events#f` are Slack's path too); such a spelling is refused
 * outright (400), since Slack never sends one. Only POSTs to Slack's path are checked; other
 * routes (health, callbacks) pass.
 *
 * Rejections are bare, as Bolt answers; the log line gives the reason, never the signature.
 * The replay memory is per process: replicas behind a load balancer each keep their own.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from '../log';
import { checkRawBody } from './payload-shape';

export interface SignatureGuardOptions {
  signingSecret: string;
  /** The path Slack posts to (e.g. `/slack/events`); other paths are not checked. */
  path: string;
  logger?: Logger;
  /** Epoch milliseconds; default the wall clock. */
  now?: () => number;
  /** How far a timestamp may be from now, either way (Slack's rule: 5 minutes). */
  maxSkewSeconds?: number;
  /** Largest body read (Bolt's default: 4 MB); larger ones get a 413. */
  bodyLimitBytes?: number;
  /** Most signatures remembered at once; the oldest are forgotten first beyond it. */
  maxRemembered?: number;
}

export type GuardVerdict = { ok: true; signature: string } | { ok: false; reason: string };

const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,12}$/;

/** Slack's signature of a body at a timestamp (seconds). */
export function slackSignatureOf(signingSecret: string, timestampSeconds: string, body: Buffer): string {
  return createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:`).update(body).digest('hex');
}

/**
 * The path Bolt's receiver routes a request on (it parses the URL the same way), or undefined
 * when the URL does not parse (Bolt then refuses the request itself).
 */
export function routedPath(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The signature and timestamp headers and the body checked (pure, apart from the clock value given). */
export function verifySignedRequest(
  signingSecret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: Buffer,
  nowMs: number,
  maxSkewSeconds: number,
): GuardVerdict {
  if (headers.timestamp === undefined) return { ok: false, reason: 'no x-slack-request-timestamp header' };
  if (!TIMESTAMP.test(headers.timestamp)) return { ok: false, reason: 'x-slack-request-timestamp is not whole seconds' };
  const skew = Number(headers.timestamp) - Math.floor(nowMs / 1000);
  if (skew < -maxSkewSeconds) return { ok: false, reason: 'stale timestamp' };
  if (skew > maxSkewSeconds) return { ok: false, reason: 'timestamp in the future' };
  if (headers.signature === undefined) return { ok: false, reason: 'no x-slack-signature header' };
  const given = SIGNATURE.exec(headers.signature);
  if (!given) return { ok: false, reason: 'x-slack-signature is not v0=<64 hex digits>' };
  const expected = slackSignatureOf(signingSecret, headers.timestamp, body);
  if (!timingSafeEqual(Buffer.from(given[1]!, 'hex'), Buffer.from(expected, 'hex'))) return { ok: false, reason: 'signature mismatch' };
  return { ok: true, signature: expected };
}

/** Slack's SSL check is a form post of `ssl_check=1`, unsigned; Bolt answers it without doing any work. */
function isSslCheck(req: IncomingMessage, body: Buffer): boolean {
  if (!(header(req, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return false;
  return new URLSearchParams(body.toString('utf8')).get('ssl_check') === '1';
}

/** Signatures accepted lately, each until its timestamp has left the window. */
class SeenSignatures {
  private readonly until = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** True the first time a signature is offered while it is remembered. */
  firstTime(signature: string, expiresAtMs: number, nowMs: number): boolean {
    for (const [key, expiry] of this.until) {
      if (expiry > nowMs && this.until.size < this.max) break;
      this.until.delete(key);
    }
    if (this.until.has(signature)) return false;
    this.until.set(signature, expiresAtMs);
    return true;
  }
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function refuse(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status);
  res.end();
}

/** Wraps the receiver's request listener: Slack's requests reach it only when signed, current and new. */
export function guardSlackRequests(listener: RequestListener, options: SignatureGuardOptions): RequestListener {
  const now = options.now ?? Date.now;
  const maxSkewSeconds = options.maxSkewSeconds ?? 300;
  const limit = options.bodyLimitBytes ?? 4 * 1024 * 1024;
  const seen = new SeenSignatures(options.maxRemembered ?? 100_000);
  const logger = options.logger?.child({ guard: 'slack-signature' });

  return (req, res) => {
    if (req.method?.toUpperCase() !== 'POST' || routedPath(req.url) !== options.path) {
      listener(req, res);
      return;
    }
    if ((req.url ?? '').split('?')[0] !== options.path) {
      logger?.warn('Slack request refused', { reason: 'the path is not spelled as Slack spells it' });
      req.resume();
      refuse(res, 400);
      return;
    }
    void (async () => {
      let body: Buffer;
      try {
        body = await readBody(req, limit);
      } catch (error) {
        logger?.warn('Slack request refused: body unreadable or too large', { tooLarge: error instanceof BodyTooLarge });
        req.resume();
        refuse(res, error instanceof BodyTooLarge ? 413 : 400);
        return;
      }
      const signature = header(req, 'x-slack-signature');
      const timestamp = header(req, 'x-slack-request-timestamp');
      const nowMs = now();
      if (signature === undefined && timestamp === undefined && isSslCheck(req, body)) {
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        listener(req, res);
        return;
      }
      const verdict = verifySignedRequest(options.signingSecret, { signature, timestamp }, body, nowMs, maxSkewSeconds);
      if (!verdict.ok) {
        logger?.warn('Slack request refused', { reason: verdict.reason });
        refuse(res, 401);
        return;
      }
      const expiresAtMs = (Number(timestamp) + maxSkewSeconds) * 1000 + 1000;
      if (!seen.firstTime(verdict.signature, expiresAtMs, nowMs)) {
        logger?.info('Slack request dropped: a copy of one already served', { announcedRetry: header(req, 'x-slack-retry-num') !== undefined });
        refuse(res, 200);
        return;
      }
      const shape = checkRawBody(header(req, 'content-type') ?? '', body);
      if (!shape.ok) {
        logger?.warn('Slack request refused: not the shape Slack sends', { problem: shape.problem });
        refuse(res, 400);
        return;
      }
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
      listener(req, res);
    })().catch((error: unknown) => {
      logger?.error('Slack signature guard failed', { error });
      refuse(res, 500);
    });
  };
}

/**
 * POST /callbacks/video/<token>: the video service's composer-ended and captions-ended
 * callbacks. The service signs nothing, so a secret in the path is the guard: compared in
 * constant time, and any other token (or method), or any longer path under it, gets the same
 * 404 as an unknown path (not-found.ts), so the route does not reveal itself. The token never
 * reaches a log line (the receiver logs unknown paths through `loggablePath`). The body is only a hint
 * (its payload is not specified); what it names is polled at once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from '../log';
import { answerNotFound } from './not-found';

export const VIDEO_CALLBACK_ROUTE = '/callbacks/video/:token';
/** Callback bodies are small JSON documents; anything larger is cut off and read as no hint. */
const MAX_BODY_BYTES = 64 * 1024;

export interface VideoCallbackOptions {
  token: string;
  /** Polls what the body names; resolves how many watches it expedited. */
  hint(body: unknown): Promise<number>;
  logger: Logger;
}

/** Hashing both sides first makes the comparison constant-time whatever the lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (status === 404) return answerNotFound(res);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function videoCallbackRoute(options: VideoCallbackOptions): CustomRoute {
  const logger = options.logger.child({ route: 'video-callback' });
  return {
    path: VIDEO_CALLBACK_ROUTE,
    // Every method, so that no request on this path reaches Bolt's "unhandled request" log line with the token in it.
    method: ['POST', 'GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    handler: (req, res) => {
      void (async () => {
        const given = (req as IncomingMessage & { params?: Record<string, string | undefined> }).params?.token ?? '';
        if (req.method !== 'POST' || !sameSecret(given, options.token)) {
          req.resume();
          logger.info('video callback refused (wrong token or method)', { method: req.method });
          reply(res, 404, { ok: false, error: 'not_found' });
          return;
        }
        const body = parseJson(await readBody(req));
        const expedited = await options.hint(body);
        reply(res, 202, { ok: true, expedited });
      })().catch((error: unknown) => {
        logger.error('could not handle a video callback', { error });
        if (!res.headersSent) reply(res, 500, { ok: false, error: 'internal_error' });
      });
    },
  };
}

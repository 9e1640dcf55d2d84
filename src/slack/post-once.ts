/**
 * A channel message that must appear at most once — the card of a change — posted without the
 * app client's blind retries. A 500 or a time-out may come after Slack posted the message (its
 * answer was lost), and the app's WebClient would simply post it again: a second card. Here each
 * attempt carries a key in the message metadata; after an attempt whose outcome is unknown, the
 * channel's newest messages are read for that key before trying again. Rate limits are waited
 * out (nothing was posted); a refusal (`ok: false`) is final.
 */
import { randomUUID } from 'node:crypto';
import { webApi } from '@slack/bolt';
import type { Logger } from '../log';
import { toBoltLogger } from '../log';
import { findNotification, notificationMetadata } from '../poller/delivery';

export interface PostOnceOptions {
  logger: Logger;
  /** Attempts in all (default 3). */
  attempts?: number;
  /** Per-attempt time limit (default 10 s). */
  timeoutMs?: number;
  /** A Retry-After longer than this is not waited for (default 10 s). */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

type PostArguments = Parameters<webApi.WebClient['chat']['postMessage']>[0] & { channel: string };

/** How many of the channel's newest messages are searched for the key. */
const LOOKBACK = 50;

const clients = new WeakMap<webApi.WebClient, webApi.WebClient>();

/** A client with the app client's token and URL that rejects rate limits and never retries by itself. */
function singleShot(app: webApi.WebClient, logger: Logger, timeoutMs: number): webApi.WebClient {
  let client = clients.get(app);
  if (!client) {
    // WebClient keeps the transport it was given (the metrics' instrumented fetch) in a private
    // field; reusing it keeps these posts in the Slack call counts like the app client's own.
    const transport = (app as unknown as { fetchFn?: webApi.WebClientOptions['fetch'] }).fetchFn;
    client = new webApi.WebClient(app.token, {
      slackApiUrl: app.slackApiUrl,
      ...(transport ? { fetch: transport } : {}),
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      timeout: timeoutMs,
      // Shared by every later request: no request's user or channel bound in (log.ts adds the current one's).
      logger: toBoltLogger(logger.child({ component: 'slack-post-once', user: undefined, channel: undefined })),
    });
    clients.set(app, client);
  }
  return client;
}

interface SlackErrorShape {
  code?: unknown;
  retryAfter?: unknown;
}

export async function postOnce(app: webApi.WebClient, args: PostArguments, options: PostOnceOptions): Promise<{ channel?: string; ts?: string }> {
  const attempts = options.attempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const client = singleShot(app, options.logger, options.timeoutMs ?? 10_000);
  const key = `post:${randomUUID()}`;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const posted = await client.chat.postMessage({ ...args, metadata: notificationMetadata(key) });
      return { channel: posted.channel, ts: posted.ts };
    } catch (error) {
      lastError = error;
      const { code, retryAfter } = (error ?? {}) as SlackErrorShape;
      if (code === 'slack_webapi_platform_error') throw error;
      if (code === 'slack_webapi_rate_limited_error') {
        const waitMs = typeof retryAfter === 'number' ? retryAfter * 1000 : 1_000;
        if (waitMs > maxRetryAfterMs) throw error;
        await sleep(waitMs);
        continue;
      }
      // No answer, or an error after the request reached Slack: it may have posted.
      const ts = await findPosted(client, args.channel, key).catch(() => undefined);
      if (ts !== undefined) {
        options.logger.info('a post whose answer was lost is in the channel; not posting it again', { channel: args.channel });
        return { channel: args.channel, ts };
      }
      if (attempt + 1 < attempts) await sleep(250 * 2 ** attempt);
    }
  }
  throw lastError;
}

async function findPosted(client: webApi.WebClient, channel: string, key: string): Promise<string | undefined> {
  const answer = (await client.conversations.history({ channel, limit: LOOKBACK, include_all_metadata: true })) as {
    messages?: { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[];
  };
  return findNotification(answer.messages ?? [], key);
}

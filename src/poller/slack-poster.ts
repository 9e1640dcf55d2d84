/**
 * The SlackPoster the outbox deliverer needs, on a WebClient of its own: the app's client
 * retries and waits out rate limits inside the call, which would hold a delivery round (and so
 * every channel) behind one busy channel. This one rejects rate-limited calls and never
 * retries; the outbox defers the row and holds back only that channel.
 */
// The Web API client alone: the poller's thread loads this module, and Bolt would bring its receivers along.
import { WebClient } from '@slack/web-api';
import type { Logger } from '../log';
import { toBoltLogger } from '../log';
import { threadSlackTransport } from '../slack/transport';
import { type PostContext, type SlackPoster, findNotification, notificationMetadata } from './delivery';
import type { SlackBlocks } from './watch';

export interface PosterClientOptions {
  botToken: string;
  /** Web API base URL (a fake Slack in tests); Slack itself when unset. */
  slackApiUrl?: string;
  logger: Logger;
  /** Per-call limit; must stay under the deliverer's `postTimeoutMs` (15 s). */
  timeoutMs?: number;
  /** The fetch WebClient uses (the runtime passes one that feeds the metrics); default the thread's Slack transport. */
  fetch?: typeof fetch;
}

/** The WebClient deliveries go through: rate limits rejected, no retries, a time limit per call. */
export function posterClient(options: PosterClientOptions): WebClient {
  return new WebClient(options.botToken, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    fetch: options.fetch ?? threadSlackTransport(),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? 10_000,
    logger: toBoltLogger(options.logger.child({ component: 'slack-poster' })),
  });
}

/**
 * How far before a row's first attempt the duplicate check reads: our clock and Slack's may
 * differ a little, and reading a few more messages costs nothing but a page.
 */
const CLOCK_SKEW_MS = 120_000;
/** A thread or a busy channel rarely needs more; past it the row is posted again (logged). */
const MAX_PAGES = 10;

/** Slack `ts` strings are seconds with six decimals. */
export function slackTs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(6);
}

export interface SlackPosterOptions {
  /** Called after each successful post or card update (App Home refreshes hang off it). */
  onDelivered?: (teamId: string) => void;
}

interface HistoryPage {
  messages?: { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[];
  response_metadata?: { next_cursor?: string };
}

export function webClientPoster(client: WebClient, options: SlackPosterOptions = {}): SlackPoster {
  const delivered = (teamId: string): void => options.onDelivered?.(teamId);
  return {
    async postThreadReply(channel: string, threadTs: string | undefined, text: string, context: PostContext): Promise<{ ts: string }> {
      const posted = await client.chat.postMessage({
        channel,
        text,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        ...(context.blocks ? { blocks: context.blocks as never } : {}),
        metadata: notificationMetadata(context.idempotencyKey),
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!posted.ts) throw new Error('chat.postMessage answered without a ts');
      delivered(context.teamId);
      return { ts: posted.ts };
    },

    async updateCard(channel: string, ts: string, blocks: SlackBlocks, context: { teamId: string; text: string }): Promise<void> {
      await client.chat.update({ channel, ts, text: context.text, blocks: blocks as never });
      delivered(context.teamId);
    },

    async findPosted(channel: string, threadTs: string | undefined, idempotencyKey: string, sinceMs: number): Promise<string | undefined> {
      const oldest = slackTs(sinceMs - CLOCK_SKEW_MS);
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const common = { channel, oldest, inclusive: true, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) };
        const answer = (threadTs ? await client.conversations.replies({ ...common, ts: threadTs }) : await client.conversations.history(common)) as HistoryPage;
        const found = findNotification(answer.messages ?? [], idempotencyKey);
        if (found !== undefined) return found;
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!cursor) return undefined;
      }
      return undefined;
    },
  };
}

/**
 * Slack Web API calls counted, timed and their 429s noticed: a `fetch` for WebClient's `fetch`
 * option (Bolt passes it through `clientOptions`), wrapping the transport (src/slack/transport.ts).
 * Every HTTP attempt, retries included, goes through it. The poller's thread observes its calls
 * the same way and hands them to the main thread, which counts them (src/poller/thread.ts).
 */
import { threadSlackTransport } from '../slack/transport';
import type { VidopsMetrics } from './registry';

/** One HTTP attempt to the Slack Web API. */
export interface SlackCall {
  method: string;
  /** The HTTP status as text, or `network` when no answer came. */
  status: string;
  seconds: number;
}

/** `chat.postMessage` from `…/api/chat.postMessage`; anything else (upload URLs) is `other`. */
export function slackMethodOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  return /^[a-z]+(?:\.[a-zA-Z]+)+$/.test(last) ? last : 'other';
}

/** `base`, with every attempt reported to `onCall` once it is answered or failed. */
export function observedFetch(onCall: (call: SlackCall) => void, base: typeof fetch = threadSlackTransport()): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = slackMethodOf(url);
    const started = performance.now();
    let status = 'network';
    try {
      const response = await base(input, init);
      status = String(response.status);
      return response;
    } finally {
      onCall({ method, status, seconds: (performance.now() - started) / 1000 });
    }
  };
}

/** Counts a Slack call in the app's metrics. */
export function slackCallMetrics(metrics: VidopsMetrics): (call: SlackCall) => void {
  return ({ method, status, seconds }) => {
    if (status === '429') metrics.slackRateLimited.inc({ method });
    metrics.slackCalls.inc({ method, status });
    metrics.slackCallDuration.observe({ method }, seconds);
  };
}

export function instrumentedFetch(metrics: VidopsMetrics): typeof fetch {
  return observedFetch(slackCallMetrics(metrics));
}

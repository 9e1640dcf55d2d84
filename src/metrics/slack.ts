/**
 * Slack Web API calls counted, timed and their 429s noticed: a `fetch` for WebClient's `fetch`
 * option (Bolt passes it through `clientOptions`), wrapping the real one. Every HTTP attempt,
 * retries included, goes through it.
 */
import type { VidopsMetrics } from './registry';

/** `chat.postMessage` from `…/api/chat.postMessage`; anything else (upload URLs) is `other`. */
export function slackMethodOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  return /^[a-z]+(?:\.[a-zA-Z]+)+$/.test(last) ? last : 'other';
}

export function instrumentedFetch(metrics: VidopsMetrics, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = slackMethodOf(url);
    const started = performance.now();
    let status = 'network';
    try {
      const response = await base(input, init);
      status = String(response.status);
      if (response.status === 429) metrics.slackRateLimited.inc({ method });
      return response;
    } finally {
      metrics.slackCalls.inc({ method, status });
      metrics.slackCallDuration.observe({ method }, (performance.now() - started) / 1000);
    }
  };
}

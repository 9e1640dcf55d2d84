/**
 * /metrics of the running product: real commands over signed HTTP move the counters with the
 * right labels, acks and video calls are timed, Slack 429s are counted, and the poller and
 * outbox gauges follow the store.
 */
import { VidopsMetrics } from '../../src/metrics/registry';
import { BOT_TOKEN, CHANNEL, type OpsApp, SIGNING_SECRET, TEAM, VIEWER, sample, startOpsApp } from './harness';

describe('GET /metrics', () => {
  let t: OpsApp;
  beforeAll(async () => {
    t = await startOpsApp({ readiness: { cacheMs: 0 } });
  });
  afterAll(() => t.close());

  /** Waits until every request, follow-up work included, has finished (counters are final then). */
  async function settled(): Promise<void> {
    expect(await t.vidops.inFlight.idle(10_000)).toBe(true);
  }

  async function scrape(): Promise<string> {
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  }

  it('counts commands by name and outcome, times their acks, and counts the video calls they made', async () => {
    expect((await t.slash('/video', 'help')).status).toBe(200);
    expect((await t.slash('/mute', '--bogus')).status).toBe(200);
    const denied = await t.slash('/mute-all', '', VIEWER);
    await t.slack.waitForResponse(denied.responseUrl.split('/').pop()!);
    t.emulator.control.injectFault({ method: 'POST', path: '/session/create', kind: 'status', status: 500 });
    await t.slash('/session', 'create');
    await settled();
    const created = await t.slash('/session', 'create');
    expect(created.status).toBe(200);
    await t.slack.waitForCall('chat.postMessage', (call) => JSON.stringify(call.body).includes('created'));
    await settled();

    const text = await scrape();
    expect(sample(text, 'vidops_commands_total', { command: '/video', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'vidops_commands_total', { command: '/mute', outcome: 'invalid' })).toBe(1);
    expect(sample(text, 'vidops_commands_total', { command: '/mute-all', outcome: 'denied' })).toBe(1);
    expect(sample(text, 'vidops_commands_total', { command: '/session', outcome: 'error' })).toBe(1);
    expect(sample(text, 'vidops_commands_total', { command: '/session', outcome: 'ok' })).toBe(1);

    expect(sample(text, 'vidops_ack_latency_seconds_count', { kind: 'command' })).toBe(5);
    expect(sample(text, 'vidops_ack_latency_seconds_bucket', { kind: 'command', le: '3' })).toBe(5);
    expect(sample(text, 'vidops_ack_latency_seconds_bucket', { kind: 'command', le: '+Inf' })).toBe(5);
    expect(sample(text, 'vidops_slack_requests_in_flight')).toBe(0);

    expect(sample(text, 'vidops_video_api_requests_total', { operation: 'POST session/create', status: '500' })).toBe(1);
    expect(sample(text, 'vidops_video_api_requests_total', { operation: 'POST session/create', status: '200' })).toBe(1);
    expect(sample(text, 'vidops_video_api_request_duration_seconds_count', { operation: 'POST session/create' })).toBe(2);
    expect(sample(text, 'vidops_slack_api_calls_total', { method: 'chat.postMessage', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('counts Slack 429s by method, on the app client (retried) and the readiness client (refused)', async () => {
    const before = sample(await scrape(), 'vidops_slack_api_rate_limited_total', { method: 'chat.postMessage' }) ?? 0;
    const mark = t.slack.mark();
    t.slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 0 });
    await t.slash('/session', 'create');
    // The WebClient waits out the 429 and posts the card on its retry.
    await t.slack.waitForCall('chat.postMessage', (call) => JSON.stringify(call.body).includes('created'), { since: mark });
    await settled();
    t.slack.failNext('auth.test', { status: 429, retryAfterSeconds: 30 });
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);

    const text = await scrape();
    expect(sample(text, 'vidops_slack_api_rate_limited_total', { method: 'chat.postMessage' })).toBe(before + 1);
    expect(sample(text, 'vidops_slack_api_calls_total', { method: 'chat.postMessage', status: '429' })).toBe(1);
    expect(sample(text, 'vidops_slack_api_rate_limited_total', { method: 'auth.test' })).toBe(1);
  });

  it('reads poller lag, claimed watches and the outbox from the store at each scrape', async () => {
    const sessionId = t.emulator.control.createSession(t.project.apiKey);
    const watched = await t.slash('/video', `watch ${sessionId}`);
    expect(watched.status).toBe(200);
    await settled();
    const store = t.vidops.services.store;
    const watches = await store.listWatches({ sessionId });
    expect(watches.length).toBeGreaterThan(0);

    let text = await scrape();
    expect(sample(text, 'vidops_poller_watches_active')).toBe(watches.length);
    expect(sample(text, 'vidops_poller_watches_claimed')).toBe(0);
    expect(sample(text, 'vidops_outbox_depth')).toBe(0);
    expect(sample(text, 'vidops_outbox_oldest_age_seconds')).toBe(0);

    // A poller elsewhere claims them…
    const now = Date.now();
    const claimed = await store.claimDue('other-replica', now + 3_600_000, 100, 60 * 60_000);
    expect(claimed.length).toBe(watches.length);
    text = await scrape();
    expect(sample(text, 'vidops_poller_watches_claimed')).toBe(watches.length);
    expect(sample(text, 'vidops_poller_watches_due')).toBe(0);

    // …polls the first one, which is overdue again since 5 s and leaves a notification from 30 s ago.
    const [first, ...rest] = claimed;
    await store.completePoll(first!.id, 'other-replica', {
      polledAt: now - 30_000,
      state: undefined,
      changed: true,
      nextPollAt: now - 5_000,
      ended: false,
      failures: 0,
      outbox: [{ transitionKey: 'ops-test', teamId: TEAM, channelId: CHANNEL, payload: { type: 'reply', text: 'changed' } }],
    });
    for (const watch of rest) await store.releaseWatch(watch.id, 'other-replica');
    text = await scrape();
    expect(sample(text, 'vidops_poller_watches_claimed')).toBe(0);
    expect(sample(text, 'vidops_poller_watches_due')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'vidops_poller_lag_seconds')).toBeGreaterThanOrEqual(5);
    expect(sample(text, 'vidops_poller_lag_seconds')).toBeLessThan(60);
    expect(sample(text, 'vidops_outbox_depth')).toBe(1);
    expect(sample(text, 'vidops_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(30);
    expect(sample(text, 'vidops_outbox_oldest_age_seconds')).toBeLessThan(120);
  });

  it('has a registry per app: a second app in the same process starts from zero', async () => {
    const other = await startOpsApp();
    try {
      const text = await (await fetch(`${other.url}/metrics`)).text();
      expect(sample(text, 'vidops_commands_total', { command: '/video', outcome: 'ok' })).toBeUndefined();
      expect(sample(await scrape(), 'vidops_commands_total', { command: '/video', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    } finally {
      await other.close();
    }
  });

  it('documents every vidops_ metric it exports in the README', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(`${__dirname}/../../README.md`, 'utf8');
    const names = new Set([...(await scrape()).matchAll(/^# TYPE (vidops_(?!process_|nodejs_)\S+) /gm)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(readme).toContain(name);
  });

  it('never exports a secret: no token, API secret or signing secret in the scrape', async () => {
    const text = await scrape();
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, t.project.apiSecret]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/xox[a-z]-|eyJ/);
  });
});

describe("the poller thread's heap gauges", () => {
  it('take what the thread answers at each scrape, and keep their last values, counted as a refresh error, when it does not', async () => {
    const metrics = new VidopsMetrics();
    // No thread polls in a process that was not told of one: no gauges at 0 bytes for a thread that is not there.
    expect(await metrics.scrape()).not.toContain('vidops_poller_thread');
    const answers = [{ usedBytes: 30e6, totalBytes: 40e6, externalBytes: 11e6 }, undefined];
    metrics.watchPollerThreadHeap(async () => answers.shift());
    const first = await metrics.scrape();
    expect(sample(first, 'vidops_poller_thread_heap_used_bytes')).toBe(30e6);
    expect(sample(first, 'vidops_poller_thread_heap_total_bytes')).toBe(40e6);
    expect(sample(first, 'vidops_poller_thread_external_memory_bytes')).toBe(11e6);
    expect(sample(first, 'vidops_metrics_refresh_errors_total', { source: 'poller-thread' })).toBeUndefined();
    const second = await metrics.scrape();
    expect(sample(second, 'vidops_poller_thread_heap_used_bytes')).toBe(30e6);
    expect(sample(second, 'vidops_metrics_refresh_errors_total', { source: 'poller-thread' })).toBe(1);
  });
});

/**
 * The poller in a worker thread of its own, as main.ts runs it with a SQLite file (the default
 * VIDOPS_POLLER_THREAD=on): the running product (startVidops) polls and posts from that thread,
 * the main thread counts the thread's calls in its metrics and writes its log lines, callbacks
 * reach the thread, and stopping releases every lease. The emulator's clock is manual; the
 * poller runs on the wall clock with a 100 ms tick, and the test waits on the fake Slack's calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webApi } from '@slack/bolt';
import { archiveSnapshot, renderSnapshot } from '../../src/poller/snapshot';
import { PollerThread } from '../../src/poller/thread';
import { DEFAULT_POLLER_SETTINGS } from '../../src/poller/settings';
import { createLogger } from '../../src/log';
import { createStore } from '../../src/store';
import { BOT_TOKEN, CHANNEL, type OpsApp, TEAM, sample, startOpsApp } from '../ops/harness';

jest.setTimeout(60_000);

const CALLBACK_TOKEN = 'thread-test-callback-token-0123456789';

describe('the poller in a worker thread (a SQLite file)', () => {
  let app: OpsApp;
  let dir: string;
  let databaseUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidops-thread-'));
    databaseUrl = `sqlite:${join(dir, 'vidops.sqlite')}`;
    app = await startOpsApp({
      databaseUrl,
      pollerEnv: { VIDOPS_POLL_TICK_MS: '100', VIDOPS_POLL_FAST_SECONDS: '1', VIDOPS_POLL_SLOW_SECONDS: '1', VIDOPS_CALLBACK_TOKEN: CALLBACK_TOKEN },
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A recording with its card in the channel, handed to the poller as /record start does. */
  async function trackedRecording(): Promise<{ id: string; cardTs: string }> {
    const { control } = app.emulator;
    const { apiKey } = app.project;
    const sessionId = control.createSession(apiKey, { mediaMode: 'routed' });
    control.publish(apiKey, sessionId, control.connect(apiKey, sessionId), { name: 'Alice', videoType: 'camera' });
    const video = app.vidops.services.projects.client('default');
    const archive = await video.archives.start({ sessionId, name: 'Thread check' });
    const slack = new webApi.WebClient(BOT_TOKEN, { slackApiUrl: app.slack.apiUrl });
    const card = await slack.chat.postMessage({ channel: CHANNEL, text: `Recording ${archive.id}` });
    await app.vidops.services.track({
      kind: 'archive',
      resourceId: archive.id,
      sessionId,
      initialState: archiveSnapshot(archive),
      target: { teamId: TEAM, channelId: CHANNEL, messageTs: card.ts!, projectName: 'default' },
    });
    return { id: archive.id, cardTs: card.ts! };
  }

  test('a recording stopped in the service is told in its thread; the main thread counts the calls and writes the lines', async () => {
    const { id, cardTs } = await trackedRecording();
    await app.vidops.services.projects.client('default').archives.stop(id);
    const reply = await app.slack.waitForCall('chat.postMessage', (call) => call.body.thread_ts === cardTs, { timeoutMs: 20_000 });
    expect(String(reply.body.text)).toMatch(/stopped/i);

    // The thread reports a call once it is answered: just after the fake Slack recorded it.
    const postsCounted = async () => sample((await app.get('/metrics')).body, 'vidops_slack_api_calls_total', { method: 'chat.postMessage', status: '200' });
    const deadline = Date.now() + 5_000;
    while ((await postsCounted()) === undefined && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(await postsCounted()).toBeGreaterThanOrEqual(1);
    const metrics = (await app.get('/metrics')).body;
    // The thread's read of the recording (the main thread only started and stopped it).
    expect(sample(metrics, 'vidops_video_api_requests_total', { operation: 'GET archive/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    // Only the thread polls: its lines carry thread "poller", the main thread wrote them.
    expect(app.logs().filter((line) => line.msg === 'poller started')).toEqual([expect.objectContaining({ thread: 'poller', component: 'poller' })]);
    expect(app.logText()).not.toContain(app.project.apiSecret);
  });

  test("/metrics tells the poller thread's heap apart from the main thread's, asked of the thread at each scrape", async () => {
    const metrics = (await app.get('/metrics')).body;
    const used = sample(metrics, 'vidops_poller_thread_heap_used_bytes', {})!;
    const total = sample(metrics, 'vidops_poller_thread_heap_total_bytes', {})!;
    // A thread that loaded the poller's modules and polls: megabytes, less than the committed size.
    expect(used).toBeGreaterThan(2 * 1024 * 1024);
    expect(total).toBeGreaterThanOrEqual(used);
    expect(sample(metrics, 'vidops_poller_thread_external_memory_bytes', {})).toBeGreaterThan(0);
    // Not the main thread's heap under another name.
    const mainUsed = sample(metrics, 'vidops_nodejs_heap_size_used_bytes', {});
    expect(mainUsed).toBeGreaterThan(2 * 1024 * 1024);
    expect(used).not.toBe(mainUsed);
    expect(sample(metrics, 'vidops_metrics_refresh_errors_total', { source: 'poller-thread' })).toBeUndefined();
  });

  test("the main thread's store hands its WAL checkpoints to the thread's connection: no checkpoint worker besides the poller's", () => {
    expect((app.vidops.services.store as unknown as { checkpoints: string }).checkpoints).toBe('handed-over');
  });

  test('a callback reaches the thread, which polls the composer it names at once', async () => {
    const { control } = app.emulator;
    const { apiKey } = app.project;
    const sessionId = control.createSession(apiKey, { mediaMode: 'routed' });
    const video = app.vidops.services.projects.client('default');
    const render = await video.render.start({ sessionId, url: 'https://example.com/board', properties: { name: 'Board' } });
    await app.vidops.services.track({
      kind: 'render',
      resourceId: render.id,
      sessionId,
      initialState: renderSnapshot(render),
      target: { teamId: TEAM, channelId: CHANNEL, messageTs: '1.000001', projectName: 'default' },
    });
    const res = await fetch(`${app.url}/callbacks/video/${CALLBACK_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: render.id, status: 'stopped' }),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, expedited: 1 });
  });

  test('stopping the app stops the thread with its leases released', async () => {
    await trackedRecording();
    await app.vidops.stop();
    const store = createStore(databaseUrl);
    try {
      const watches = await store.listWatches({});
      expect(watches.length).toBeGreaterThan(0);
      expect(watches.filter((w) => w.leaseOwner !== undefined)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('a poller thread that cannot start', () => {
  afterEach(() => jest.useRealTimers());

  test('is started again after a pause that doubles, each failure logged without its secrets, and not once stopped', async () => {
    // The pauses run on jest's clock; the thread itself is real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const lines: string[] = [];
    const waiting: (() => void)[] = [];
    const logger = createLogger({
      level: 'info',
      stream: {
        write: (line: string) => {
          lines.push(line);
          for (const wake of waiting.splice(0)) wake();
        },
      },
    });
    const count = (text: string) => lines.filter((line) => line.includes(text)).length;
    const until = async (text: string, n: number) => {
      while (count(text) < n) await new Promise<void>((resolve) => waiting.push(resolve));
    };
    const events: string[] = [];
    const thread = new PollerThread({
      // Nothing listens on port 9: every start fails on the store's first query.
      data: {
        databaseUrl: 'postgres://vidops:db-password-never-logged@127.0.0.1:9/vidops',
        projects: [{ name: 'default', apiKey: '12345', apiSecret: 'secret-never-logged-0123456789', channels: [] }],
        defaultProject: 'default',
        video: { apiUrl: 'http://127.0.0.1:9' },
        slack: { botToken: 'xoxb-thread-test' },
        settings: DEFAULT_POLLER_SETTINGS,
        secrets: [],
        logLevel: 'info',
      },
      logger,
      onDelivered: () => {},
      onVideoRequest: () => {},
      onSlackCall: () => {},
      onRunning: () => events.push('running'),
      onEnded: () => events.push('ended'),
      restartDelayMs: 1_000,
    });
    thread.start();
    await until('the poller thread ended; starting another', 1);
    expect(count('the poller thread could not start')).toBe(1);
    expect(JSON.parse(lines.find((line) => line.includes('starting another'))!)).toMatchObject({ level: 'warn', delayMs: 1_000 });
    // Between two threads nobody answers for a heap: no figures (the scrape keeps its last ones).
    await expect(thread.heap()).resolves.toBeUndefined();
    jest.advanceTimersByTime(1_000);
    await until('the poller thread ended; starting another', 2);
    expect(count('the poller thread could not start')).toBe(2);
    expect(JSON.parse(lines.filter((line) => line.includes('starting another'))[1]!)).toMatchObject({ delayMs: 2_000 });
    // Never up, twice ended: the main store's checkpoints were never handed over, and are taken back each time (a no-op then).
    expect(events).toEqual(['ended', 'ended']);
    await thread.stop();
    // The pending restart is gone with the stop.
    expect(jest.getTimerCount()).toBe(0);
    expect(lines.join('')).not.toMatch(/secret-never-logged|db-password-never-logged/);
  });
});

/**
 * /readyz of the running product: 200 when the store, Slack and the video service answer; 503
 * naming the failed check when one does not, without a secret in the answer; reports reused
 * for a while; and 503 "draining" once stopping.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readiness } from '../../src/readiness';
import { BOT_TOKEN, type OpsApp, SIGNING_SECRET, startOpsApp } from './harness';

interface Report {
  ok: boolean;
  draining?: boolean;
  checks: Record<'store' | 'slack' | 'video', { ok: boolean; ms: number; error?: string }>;
}

async function ready(t: OpsApp): Promise<{ status: number; report: Report; text: string }> {
  const res = await t.get('/readyz');
  return { status: res.status, report: JSON.parse(res.body) as Report, text: res.body };
}

function expectNoSecret(t: OpsApp, text: string): void {
  for (const secret of [BOT_TOKEN, SIGNING_SECRET, t.project.apiSecret, t.project.apiKey, t.emulator.baseUrl, t.slack.apiUrl]) {
    expect(text).not.toContain(secret);
  }
}

describe('GET /readyz', () => {
  let t: OpsApp;
  beforeEach(async () => {
    t = await startOpsApp({ readiness: { cacheMs: 0 } });
  });
  afterEach(() => t.close());

  it('answers 200 with every check ok', async () => {
    const { status, report } = await ready(t);
    expect(status).toBe(200);
    expect(report).toEqual({
      ok: true,
      checks: { store: { ok: true, ms: expect.any(Number) }, slack: { ok: true, ms: expect.any(Number) }, video: { ok: true, ms: expect.any(Number) } },
    });
    expect(t.slack.callsOf('auth.test').length).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 naming the store when it is closed', async () => {
    await t.vidops.services.store.close();
    const { status, report, text } = await ready(t);
    expect(status).toBe(503);
    expect(report.ok).toBe(false);
    expect(report.checks.store).toEqual({ ok: false, ms: expect.any(Number), error: expect.any(String) });
    expect(report.checks.slack.ok).toBe(true);
    expect(report.checks.video.ok).toBe(true);
    expectNoSecret(t, text);
  });

  it("answers 503 naming Slack when auth.test refuses the token, with Slack's error code", async () => {
    t.slack.failNext('auth.test', { error: 'invalid_auth' });
    const { status, report, text } = await ready(t);
    expect(status).toBe(503);
    expect(report.checks.slack).toEqual({ ok: false, ms: expect.any(Number), error: 'invalid_auth' });
    expect(report.checks.store.ok).toBe(true);
    expect(report.checks.video.ok).toBe(true);
    expectNoSecret(t, text);
    // The next probe checks again: the failure was not sticky.
    expect((await ready(t)).status).toBe(200);
  });

  it('answers 503 naming the video service when it is down', async () => {
    await t.emulator.close();
    const { status, report, text } = await ready(t);
    expect(status).toBe(503);
    expect(report.checks.video).toEqual({ ok: false, ms: expect.any(Number), error: 'ECONNREFUSED' });
    expect(report.checks.store.ok).toBe(true);
    expect(report.checks.slack.ok).toBe(true);
    expectNoSecret(t, text);
  });

  it('answers 503 "draining" once the app is stopping', async () => {
    const stopping = t.vidops.stop();
    const report = await t.vidops.readiness.report();
    expect(report).toMatchObject({ ok: false, draining: true });
    await stopping;
  });
});

describe('Readiness', () => {
  it('reuses one report for cacheMs, shared by concurrent probes, then checks again', async () => {
    let now = 0;
    let calls = 0;
    const readiness = new Readiness({
      checks: { store: async () => undefined, slack: async () => void calls++, video: async () => undefined },
      cacheMs: 5_000,
      now: () => now,
    });
    await Promise.all([readiness.report(), readiness.report(), readiness.report()]);
    now = 4_999;
    await readiness.report();
    expect(calls).toBe(1);
    now = 5_000;
    await readiness.report();
    expect(calls).toBe(2);
  });

  it('bounds each check by its timeout', async () => {
    jest.useFakeTimers();
    try {
      const readiness = new Readiness({
        checks: { store: async () => undefined, slack: () => new Promise(() => undefined), video: async () => undefined },
        timeoutMs: 1_500,
      });
      const report = readiness.report();
      await jest.advanceTimersByTimeAsync(1_500);
      expect(await report).toMatchObject({ ok: false, checks: { slack: { ok: false, error: 'timeout' }, store: { ok: true } } });
    } finally {
      jest.useRealTimers();
    }
  });

  it('a video service answering 5xx is not ready (its own gateway is down)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(502);
      res.end('bad gateway');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const t = await startOpsApp({ readiness: { cacheMs: 0 }, videoApiUrl: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const { status, report } = await ready(t);
      expect(status).toBe(503);
      expect(report.checks.video).toMatchObject({ ok: false, error: 'http_502' });
    } finally {
      await t.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

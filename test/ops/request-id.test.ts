/**
 * One command, one request id: every log line written while it is handled and every call it
 * makes to the video service (as X-Request-Id, seen by a recording proxy in front of the
 * emulator) carry the same id, and the next command gets another.
 */
import { type IncomingHttpHeaders, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OpsApp, startOpsApp } from './harness';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** Forwards everything to `target`, remembering each request's method, path and headers. */
async function recordingProxy(): Promise<{ url: string; seen: Seen[]; target(url: string): void; close(): Promise<void> }> {
  const seen: Seen[] = [];
  let target = '';
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const to = new URL(req.url ?? '/', target);
    const upstream = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    target: (url) => void (target = url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('request ids', () => {
  let t: OpsApp;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  beforeAll(async () => {
    proxy = await recordingProxy();
    t = await startOpsApp({ logLevel: 'debug', videoApiUrl: (emulatorUrl) => (proxy.target(emulatorUrl), proxy.url) });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("tie a command's log lines to its video API calls, and differ between commands", async () => {
    await t.slash('/session', 'create');
    await t.slack.waitForCall('chat.postMessage');
    expect(await t.vidops.inFlight.idle(10_000)).toBe(true);
    const sessionId = t.emulator.control.createSession(t.project.apiKey);
    t.emulator.control.connect(t.project.apiKey, sessionId);
    await t.slash('/streams', sessionId);
    expect(await t.vidops.inFlight.idle(10_000)).toBe(true);

    const create = proxy.seen.filter((r) => r.path.endsWith('/session/create'));
    const streams = proxy.seen.filter((r) => r.path.includes(`/session/${sessionId}/stream`));
    expect(create).toHaveLength(1);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    const createId = create[0]!.headers['x-request-id'];
    const streamsId = streams[0]!.headers['x-request-id'];
    expect(createId).toMatch(/^[0-9a-f]{16}$/);
    expect(streamsId).toMatch(/^[0-9a-f]{16}$/);
    expect(streamsId).not.toBe(createId);

    const lines = t.logs().filter((line) => line.requestId === createId);
    const messages = lines.map((line) => line.msg);
    // The audit record of the change and the adapter's line for the call it made.
    expect(messages).toContain('audit');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'video api call', operation: 'POST session/create', status: '200' }));
    expect(lines.every((line) => line.command === undefined || line.command === '/session' || line.command === '/session create')).toBe(true);
    expect(
      t
        .logs()
        .filter((line) => line.requestId === streamsId)
        .map((line) => line.msg),
    ).toContain('video api call');
    // Lines written outside any request (start-up) carry no id.
    const startUp = t.logs().find((line) => String(line.msg).startsWith('polling is off here'));
    expect(startUp).toBeDefined();
    expect(startUp).not.toHaveProperty('requestId');
  });

  it('logs neither the API secret nor any token or JWT', () => {
    expect(t.logText()).not.toContain(t.project.apiSecret);
    expect(t.logText()).not.toMatch(/xox[a-z]-[A-Za-z0-9]|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
  });
});

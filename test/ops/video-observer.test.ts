/**
 * The adapter's observer and request id, against the emulator over HTTP: one event per
 * attempt with a bounded operation label and the status, the id sent as X-Request-Id, and an
 * observer that throws does not fail the call.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_FAST, VideoClient, type VideoRequestEvent, operationName } from '../../src/api';
import { type RunningEmulator, startEmulator } from '../../src/emulator';

describe('operationName', () => {
  it.each([
    ['POST', '/session/create', 'POST session/create'],
    ['GET', '/v2/project/46000001/archive', 'GET archive'],
    ['GET', '/v2/project/46000001/archive/9f1c-aa21?offset=0&count=1000', 'GET archive/:id'],
    ['POST', '/v2/project/46000001/session/2_MX40NjAwMDAwMX4/stream/abc-123/mute', 'POST session/:id/stream/:id/mute'],
    ['POST', '/v2/project/46000001/session/2_MX4/connection/c1/play-dtmf', 'POST session/:id/connection/:id/play-dtmf'],
    ['DELETE', '/v2/project/46000001/render/r-1/', 'DELETE render/:id'],
    ['PUT', '/v2/project/46000001/archive/storage', 'PUT archive/storage'],
    ['GET', '/v2/project', 'GET project'],
    ['PUT', '/v2/project/46000001', 'PUT project/:id'],
    ['POST', '/v2/project/46000001/refreshSecret', 'POST refreshSecret'],
  ] as const)('%s %s → %s', (method, path, expected) => {
    expect(operationName(method, path)).toBe(expected);
  });
});

describe('VideoClient observer', () => {
  let emulator: RunningEmulator;
  let creds: { apiKey: string; apiSecret: string };
  beforeAll(async () => {
    emulator = await startEmulator();
    creds = emulator.control.createProject();
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.control.clearFaults());

  it('reports each attempt, retries included, with operation, status and duration', async () => {
    const events: VideoRequestEvent[] = [];
    const client = new VideoClient({ baseUrl: emulator.baseUrl, ...creds, retry: RETRY_FAST, observer: (e) => events.push(e) });
    const sessionId = emulator.control.createSession(creds.apiKey);
    const connectionId = emulator.control.connect(creds.apiKey, sessionId);
    emulator.control.publish(creds.apiKey, sessionId, connectionId);
    emulator.control.injectFault({ method: 'GET', path: `/session/${sessionId}/stream`, kind: 'status', status: 503, count: 1 });
    await client.streams.list(sessionId);
    expect(events.map(({ operation, status, retry }) => ({ operation, status, retry }))).toEqual([
      { operation: 'GET session/:id/stream', status: '503', retry: 0 },
      { operation: 'GET session/:id/stream', status: '200', retry: 1 },
    ]);
    expect(events.every((e) => e.method === 'GET' && e.durationMs >= 0 && e.requestId === undefined)).toBe(true);
  });

  it('labels answers that never came: network', async () => {
    const events: VideoRequestEvent[] = [];
    const client = new VideoClient({ baseUrl: emulator.baseUrl, ...creds, retry: RETRY_FAST, observer: (e) => events.push(e) });
    emulator.control.injectFault({ method: 'GET', path: '/archive', kind: 'reset', count: 5 });
    await expect(client.archives.list({}, { maxRetries: 0 })).rejects.toThrow();
    expect(events.map((e) => e.status)).toEqual(['network']);
  });

  it('sends the request id as X-Request-Id, read at each call, and survives a throwing observer', async () => {
    const headers: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      headers.push(req.headers);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sessionId: 'S1', projectId: '1', createDt: 'x', mediaServerURL: '' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let current: string | undefined = 'req-1';
    const client = new VideoClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      ...creds,
      retry: RETRY_FAST,
      requestId: () => current,
      observer: () => {
        throw new Error('observer bug');
      },
    });
    try {
      await client.sessions.create().catch(() => undefined);
      current = undefined;
      await client.sessions.create().catch(() => undefined);
      expect(headers).toHaveLength(2);
      expect(headers[0]!['x-request-id']).toBe('req-1');
      expect(headers[1]!['x-request-id']).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

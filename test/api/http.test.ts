import { type AddressInfo } from 'node:net';
import { type ServerResponse, createServer } from 'node:http';
import { decodeJwt, jwtVerify } from 'jose';
import {
  RETRY_FAST,
  VideoAbortedError,
  VideoApiError,
  VideoAuthError,
  VideoClient,
  type VideoClientOptions,
  VideoConnectionError,
  VideoRateLimitError,
  VideoTimeoutError,
  closeSharedPools,
} from '../../src/api';
import { MAX_CONNECTIONS_PER_ORIGIN, projectPath, sharedPool } from '../../src/api/http';
import { type FakeService, type Handler, freePort, startFakeService } from './support/fake-service';

const API_KEY = '46123456';
const SECRET = 'project-secret-0123456789abcdef';
const ARCHIVE = { id: 'A1', sessionId: 'S1', createdAt: 1_700_000_000_000, status: 'started', projectId: 46123456, url: null };

let services: FakeService[] = [];
async function fake(handler: Handler, port?: number): Promise<FakeService> {
  const service = await startFakeService(handler, port);
  services.push(service);
  return service;
}

function clientFor(service: { baseUrl: string }, options: Partial<VideoClientOptions> = {}) {
  const delays: number[] = [];
  const client = new VideoClient({
    baseUrl: service.baseUrl,
    apiKey: API_KEY,
    apiSecret: SECRET,
    retry: RETRY_FAST,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  });
  return { client, delays };
}

afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
  await closeSharedPools();
});

describe('what goes on the wire', () => {
  test('JSON call: X-SERVICE-AUTH (HS256, project), accept and content type, path', async () => {
    const service = await fake(() => ({ body: ARCHIVE }));
    const { client } = clientFor(service, { userAgent: 'vidops-test/1' });
    await client.archives.start({ sessionId: 'S1', name: 'Standup', outputMode: 'composed' });
    const [req] = service.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe(`/v2/project/${API_KEY}/archive`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('vidops-test/1');
    expect(JSON.parse(req!.body)).toEqual({ sessionId: 'S1', name: 'Standup', outputMode: 'composed' });
    const { payload } = await jwtVerify(String(req!.headers['x-service-auth']), new TextEncoder().encode(SECRET));
    expect(payload).toMatchObject({ iss: API_KEY, ist: 'project' });
    expect(payload.exp! - payload.iat!).toBe(180);
  });

  test('session create: form-urlencoded, Accept JSON, first array element', async () => {
    const service = await fake(() => ({
      body: [{ session_id: '2_MX4x', project_id: API_KEY, create_dt: 'now', media_server_url: '' }],
    }));
    const { client } = clientFor(service);
    const session = await client.sessions.create({ mediaMode: 'routed', archiveMode: 'always', archiveName: 'Daily', e2ee: false });
    const [req] = service.requests;
    expect(req!.url).toBe('/session/create');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req!.headers.accept).toBe('application/json');
    expect(Object.fromEntries(new URLSearchParams(req!.body))).toEqual({
      'p2p.preference': 'disabled',
      archiveMode: 'always',
      archiveName: 'Daily',
      e2ee: 'false',
    });
    expect(session).toMatchObject({ sessionId: '2_MX4x', projectId: API_KEY, session_id: '2_MX4x' });
  });

  test('project admin: account token; body and content type only with a name', async () => {
    const service = await fake(() => ({ body: { id: 'NEWKEY', secret: 'new-secret-value', status: 'ACTIVE' } }));
    const { client } = clientFor(service, { accountApiKey: 'ACCT', accountApiSecret: 'account-secret-xyz' });
    const created = await client.projects.create();
    await client.projects.create('Support');
    const [bare, named] = service.requests;
    expect(bare!.headers['content-type']).toBeUndefined();
    expect(bare!.body).toBe('');
    expect(named!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(named!.body)).toEqual({ name: 'Support' });
    const { payload } = await jwtVerify(String(bare!.headers['x-service-auth']), new TextEncoder().encode('account-secret-xyz'));
    expect(payload).toMatchObject({ iss: 'ACCT', ist: 'account' });
    expect(created.apiKey).toBe('NEWKEY');
    expect(created.secret).toBe('new-secret-value');
    expect(JSON.stringify(created)).not.toContain('new-secret-value');
  });

  test('base URL path prefix is kept; ids are encoded; trailing slashes as in the spec', async () => {
    const service = await fake(() => ({ status: 204 }));
    const prefixed = clientFor({ baseUrl: `${service.baseUrl}/video/` }).client;
    await prefixed.render.stop('R 1');
    expect(service.requests[0]!.url).toBe(`/video/v2/project/${API_KEY}/render/R%201/`);
  });

  test('path segments: unreserved characters as they are, anything else percent-encoded', () => {
    expect(projectPath('46123456', 'archive', 'b40ef09b-3811-4726-b508-e41a0f96c68f')).toBe(
      '/v2/project/46123456/archive/b40ef09b-3811-4726-b508-e41a0f96c68f',
    );
    expect(projectPath('k_1.~', 'session', '2_MX4x-fg', '')).toBe('/v2/project/k_1.~/session/2_MX4x-fg/');
    for (const segment of ['R 1', 'a?b', 'a#b', 'a%2F', 'ü', "it's", '(x)*!', 'a\nb', 'a+b=c&d']) {
      expect(projectPath('k', segment)).toBe(`/v2/project/k/${encodeURIComponent(segment)}`);
    }
  });

  test('captions: minted moderator token, 202 accepted', async () => {
    const service = await fake(() => ({ status: 202, body: { captionsId: 'C1' } }));
    const { client } = clientFor(service);
    await expect(client.captions.start({ sessionId: 'S1', languageCode: 'fr-FR' })).resolves.toMatchObject({ captionsId: 'C1' });
    const body = JSON.parse(service.requests[0]!.body);
    expect(body).toMatchObject({ sessionId: 'S1', languageCode: 'fr-FR' });
    expect(decodeJwt(body.token)).toMatchObject({ role: 'moderator', session_id: 'S1', scope: 'session.connect', iss: API_KEY });
  });

  test('render: minted publisher token, 200 accepted too', async () => {
    const service = await fake(() => ({
      body: { id: 'R1', sessionId: 'S1', projectId: API_KEY, createdAt: 1, updatedAt: 1, url: 'https://example.com/page', status: 'starting' },
    }));
    const { client } = clientFor(service);
    const render = await client.render.start({ sessionId: 'S1', url: 'https://example.com/page', properties: { name: 'Board' } });
    expect(render.status).toBe('starting');
    expect(render.createdAt).toBe(1000);
    expect(decodeJwt(JSON.parse(service.requests[0]!.body).token)).toMatchObject({ role: 'publisher' });
  });

  test('204 without body resolves to undefined', async () => {
    const service = await fake(() => ({ status: 204 }));
    const { client } = clientFor(service);
    await expect(client.archives.delete('A1')).resolves.toBeUndefined();
    expect(service.requests[0]!.method).toBe('DELETE');
  });
});

describe('each attempt', () => {
  test('one signed token serves later calls and retries; request id, accept and user agent on every attempt', async () => {
    const service = await fake((_req, i) => (i === 1 ? { status: 500, body: 'boom' } : { body: ARCHIVE }));
    let requestId = 0;
    const events: { status: string; retry: number; requestId?: string }[] = [];
    const { client } = clientFor(service, {
      requestId: () => `req-${++requestId}`,
      observer: ({ status, retry, requestId }) => events.push({ status, retry, requestId }),
    });
    await client.archives.get('A1');
    await client.archives.get('A1');
    await client.archives.get('A1');
    expect(service.requests).toHaveLength(4);
    expect(client.restTokensMinted).toBe(1);
    const tokens = new Set(service.requests.map((r) => r.headers['x-service-auth']));
    expect(tokens.size).toBe(1);
    for (const [i, request] of service.requests.entries()) {
      expect(request.headers).toMatchObject({ accept: 'application/json', 'x-request-id': `req-${i + 1}` });
      expect(request.headers['user-agent']).toMatch(/^vidops-video-client\//);
      expect(request.headers['content-type']).toBeUndefined();
    }
    expect(events).toEqual([
      { status: '200', retry: 0, requestId: 'req-1' },
      { status: '500', retry: 0, requestId: 'req-2' },
      { status: '200', retry: 1, requestId: 'req-3' },
      { status: '200', retry: 0, requestId: 'req-4' },
    ]);
  });

  test('calls made while the first token is signed wait for it: one signing', async () => {
    const service = await fake(() => ({ body: ARCHIVE }));
    const { client } = clientFor(service);
    await Promise.all(Array.from({ length: 8 }, () => client.archives.get('A1')));
    expect(client.restTokensMinted).toBe(1);
    expect(new Set(service.requests.map((r) => r.headers['x-service-auth'])).size).toBe(1);
  });

  test('the secrets of a request are reported before each attempt, and a retried JSON body is sent again whole', async () => {
    const service = await fake((_req, i) => (i === 0 ? { status: 500, body: 'boom' } : { body: { type: 's3', config: { bucket: 'b' } } }));
    const reported: (readonly string[])[] = [];
    const { client } = clientFor(service, { secretsSent: (values) => reported.push(values) });
    await client.archives.setUploadTarget({ type: 's3', config: { accessKey: 'AKIA1', secretKey: 'S3CRET', bucket: 'b' } }, { maxRetries: 1 });
    expect(service.requests).toHaveLength(2);
    expect(reported).toEqual([
      ['AKIA1', 'S3CRET'],
      ['AKIA1', 'S3CRET'],
    ]);
    expect(service.requests[1]!.body).toBe(service.requests[0]!.body);
    expect(JSON.parse(service.requests[1]!.body)).toMatchObject({ type: 's3', config: { secretKey: 'S3CRET' } });
    expect(service.requests[1]!.headers['content-type']).toBe('application/json');
  });
});

describe('retries', () => {
  test('GET retried after 500, then succeeds', async () => {
    const service = await fake((_req, i) => (i < 2 ? { status: 500, body: 'boom' } : { body: ARCHIVE }));
    const { client, delays } = clientFor(service);
    await expect(client.archives.get('A1')).resolves.toMatchObject({ id: 'A1', projectId: '46123456' });
    expect(service.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    delays.forEach((ms) => expect(ms).toBeLessThan(RETRY_FAST.maxDelayMs));
  });

  test('gives up after maxRetries with the last error', async () => {
    const service = await fake(() => ({ status: 503, body: { code: 503, message: 'maintenance' } }));
    const { client } = clientFor(service);
    await expect(client.archives.get('A1', { maxRetries: 1 })).rejects.toMatchObject({ status: 503, message: expect.stringContaining('maintenance') });
    expect(service.requests).toHaveLength(2);
  });

  test('POST 429 with Retry-After is retried after the hinted delay', async () => {
    const service = await fake((_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { body: ARCHIVE }));
    const { client, delays } = clientFor(service);
    await expect(client.archives.start({ sessionId: 'S1' })).resolves.toMatchObject({ id: 'A1' });
    expect(delays).toEqual([2000]);
    expect(service.requests).toHaveLength(2);
  });

  test('Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    const service = await fake((_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': at } } : { body: ARCHIVE }));
    const { client, delays } = clientFor(service);
    await client.archives.get('A1');
    expect(delays[0]).toBeGreaterThan(3_000);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
  });

  test('a Retry-After beyond the policy goes back to the caller as VideoRateLimitError', async () => {
    const service = await fake(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: { message: 'slow down' } }));
    const { client, delays } = clientFor(service);
    const error = await client.archives.get('A1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoRateLimitError);
    expect((error as VideoRateLimitError).retryAfterMs).toBe(3_600_000);
    expect(delays).toEqual([]);
  });

  test('POST 500 is not retried (it may have taken effect)', async () => {
    const service = await fake(() => ({ status: 500 }));
    const { client } = clientFor(service);
    await expect(client.archives.start({ sessionId: 'S1' })).rejects.toMatchObject({ status: 500, method: 'POST' });
    expect(service.requests).toHaveLength(1);
  });

  test('GET retried after a connection reset', async () => {
    const service = await fake((_req, i) => (i === 0 ? 'reset' : { body: ARCHIVE }));
    const { client } = clientFor(service);
    await expect(client.archives.get('A1')).resolves.toMatchObject({ id: 'A1' });
    expect(service.requests).toHaveLength(2);
  });

  test('a body cut off after its headers fails the attempt as a broken connection; a GET is retried', async () => {
    let answered = 0;
    const server = createServer((_req, res) => {
      answered += 1;
      const body = JSON.stringify(ARCHIVE);
      if (answered > 1) return res.end(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.write(body.slice(0, 10), () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { client } = clientFor({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      await expect(client.archives.get('A1')).resolves.toMatchObject({ id: 'A1' });
      expect(answered).toBe(2);
      answered = 0;
      const error = await client.archives.stop('A1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VideoConnectionError);
      expect(answered).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('POST not retried after the request was sent and the connection reset', async () => {
    const service = await fake(() => 'reset');
    const { client } = clientFor(service);
    const error = await client.archives.stop('A1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoConnectionError);
    expect(service.requests).toHaveLength(1);
  });

  test('POST retried on ECONNREFUSED (nothing was sent)', async () => {
    const port = await freePort();
    let service: FakeService | undefined;
    const client = new VideoClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: API_KEY,
      apiSecret: SECRET,
      retry: RETRY_FAST,
      // The service comes up while the client backs off.
      sleep: async () => {
        service ??= await fake(() => ({ body: ARCHIVE }), port);
      },
    });
    await expect(client.archives.start({ sessionId: 'S1' })).resolves.toMatchObject({ id: 'A1' });
    expect(service!.requests).toHaveLength(1);
  });

  test('ECONNREFUSED with retries used up → VideoConnectionError without secrets', async () => {
    const port = await freePort();
    const { client, delays } = clientFor({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await client.signals.sendToAll('S1', { type: 'chat', data: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoConnectionError);
    expect((error as VideoConnectionError).code).toBe('ECONNREFUSED');
    expect((error as VideoConnectionError).message).toMatch(/could not connect/);
    expect(delays).toHaveLength(RETRY_FAST.maxRetries);
  });
});

describe('timeouts and cancellation', () => {
  test('a service that never answers → VideoTimeoutError after headersMs', async () => {
    const service = await fake(() => 'hang');
    const { client } = clientFor(service, { timeouts: { headersMs: 100 } });
    const started = Date.now();
    const error = await client.archives.stop('A1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoTimeoutError);
    expect((error as VideoTimeoutError).message).toMatch(/no response headers within 100 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(service.requests).toHaveLength(1);
  });

  test('GET headers timeout is retried', async () => {
    const service = await fake((_req, i) => (i === 0 ? 'hang' : { body: ARCHIVE }));
    const { client } = clientFor(service, { timeouts: { headersMs: 100 } });
    await expect(client.archives.get('A1')).resolves.toMatchObject({ id: 'A1' });
  });

  test('per-call timeoutMs bounds the whole call', async () => {
    const service = await fake(() => 'hang');
    const { client } = clientFor(service);
    const started = Date.now();
    const error = await client.archives.get('A1', { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoTimeoutError);
    expect((error as VideoTimeoutError).message).toMatch(/within 150 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('AbortSignal cancels an in-flight call', async () => {
    const service = await fake(() => 'hang');
    const { client } = clientFor(service);
    const controller = new AbortController();
    const pending = client.archives.get('A1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoAbortedError);
    expect(service.requests.length).toBeLessThanOrEqual(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const service = await fake(() => ({ body: ARCHIVE }));
    const { client } = clientFor(service);
    await expect(client.archives.get('A1', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(VideoAbortedError);
    expect(service.requests).toHaveLength(0);
  });
});

describe('errors and bodies', () => {
  test('malformed JSON on 200 → VideoApiError "malformed response", not retried', async () => {
    const service = await fake(() => ({ body: '{ "count": 2 "items": [] }', headers: { 'content-type': 'application/json' } }));
    const { client } = clientFor(service);
    const error = await client.streams.list('S1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error).toMatchObject({ status: 200, code: 'MALFORMED_RESPONSE', method: 'GET' });
    expect((error as Error).message).toMatch(/malformed response/);
    expect(service.requests).toHaveLength(1);
  });

  test('nothing secret in an error, even when the service echoes the request', async () => {
    const service = await fake((req) => ({ status: 403, body: { code: 403, message: `bad auth ${String(req.headers['x-service-auth'])} body ${req.body}` } }));
    const { client } = clientFor(service);
    const error = (await client.archives
      .setUploadTarget({ type: 's3', config: { accessKey: 'AKIAEXAMPLEKEY', secretKey: 'wJalrXUtnFEMIK7MDENG', bucket: 'recordings' } })
      .catch((e: unknown) => e)) as VideoAuthError;
    expect(error).toBeInstanceOf(VideoAuthError);
    const token = String(service.requests[0]!.headers['x-service-auth']);
    const everything = [error.message, error.raw, JSON.stringify(error), String(error.stack)].join('\n');
    for (const secret of [token, SECRET, 'AKIAEXAMPLEKEY', 'wJalrXUtnFEMIK7MDENG']) expect(everything).not.toContain(secret);
    expect(error.message).toContain('recordings');
  });

  test('upload target echo comes back with keys masked', async () => {
    const service = await fake((req) => ({ body: req.body }));
    const { client } = clientFor(service);
    const stored = await client.archives.setUploadTarget({
      type: 'blobstore',
      config: { accountName: 'acme', accountKey: 'KEY-123456', container: 'rec' },
      fallback: 'none',
    });
    expect(stored.config).toEqual({ accountName: 'acme', accountKey: '[redacted]', container: 'rec' });
    expect(JSON.parse(service.requests[0]!.body).config.accountKey).toBe('KEY-123456');
  });

  test('XML error body is read', async () => {
    const service = await fake(() => ({
      status: 403,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><errorPayload><code>-1</code><message>Issuer not found</message></errorPayload>',
    }));
    const { client } = clientFor(service);
    await expect(client.signals.sendToAll('S1', { type: 'a', data: 'b' })).rejects.toMatchObject({
      name: 'VideoAuthError',
      status: 403,
      code: -1,
      message: 'POST /v2/project/46123456/session/S1/signal failed with 403: Issuer not found (code -1)',
    });
  });
});

describe('pooling and paging', () => {
  test('clients with the same origin share one keep-alive connection', async () => {
    const service = await fake(() => ({ body: ARCHIVE }));
    const a = clientFor(service).client;
    const b = clientFor(service).client;
    for (let i = 0; i < 10; i++) {
      await a.archives.get('A1');
      await b.archives.get('A1');
    }
    expect(service.requests).toHaveLength(20);
    // undici may open a second socket while the first is being released; never one per call.
    expect(service.connections).toBeLessThanOrEqual(2);
    expect(sharedPool(new URL(service.baseUrl).origin, 5_000)).toBe(sharedPool(`${service.baseUrl}`, 5_000));
  });

  test(`a burst beyond the pool's ${MAX_CONNECTIONS_PER_ORIGIN} sockets: that many calls in flight at once, the rest on the same sockets`, async () => {
    const held: ServerResponse[] = [];
    let opened = 0;
    let releaseAll = false;
    let full: () => void = () => undefined;
    const filled = new Promise<void>((resolve) => (full = resolve));
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (releaseAll) return void res.end(JSON.stringify(ARCHIVE));
        held.push(res);
        if (held.length === MAX_CONNECTIONS_PER_ORIGIN) full();
      });
    });
    server.on('connection', () => opened++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { client } = clientFor({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const burst = MAX_CONNECTIONS_PER_ORIGIN + 44;
      const calls = Array.from({ length: burst }, () => client.archives.get('A1'));
      await filled;
      releaseAll = true;
      for (const res of held) res.end(JSON.stringify(ARCHIVE));
      const answers = await Promise.all(calls);
      expect(answers.map((a) => a.id)).toEqual(Array(burst).fill('A1'));
      expect(opened).toBe(MAX_CONNECTIONS_PER_ORIGIN);
    } finally {
      await closeSharedPools();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('listAll pages with offset/count until the end', async () => {
    const total = 2_345;
    const service = await fake((req) => {
      const query = new URL(req.url, 'http://x').searchParams;
      const offset = Number(query.get('offset'));
      const count = Number(query.get('count'));
      const items = Array.from({ length: Math.max(0, Math.min(count, total - offset)) }, (_, i) => ({ ...ARCHIVE, id: `A${offset + i}` }));
      return { body: { count: total, items } };
    });
    const { client } = clientFor(service);
    const ids: string[] = [];
    for await (const archive of client.archives.listAll({ sessionId: 'S1' })) ids.push(archive.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(service.requests.map((r) => r.url)).toEqual([
      `/v2/project/${API_KEY}/archive?offset=0&count=1000&sessionId=S1`,
      `/v2/project/${API_KEY}/archive?offset=1000&count=1000&sessionId=S1`,
      `/v2/project/${API_KEY}/archive?offset=2000&count=1000&sessionId=S1`,
    ]);
  });

  test('listAll stops on an empty page and honours pageSize', async () => {
    const service = await fake((_req, i) => ({
      body: {
        count: 99,
        items:
          i === 0
            ? [
                { ...ARCHIVE, id: 'x' },
                { ...ARCHIVE, id: 'y' },
              ]
            : [],
      },
    }));
    const { client } = clientFor(service);
    const seen: string[] = [];
    for await (const render of client.broadcasts.listAll({ pageSize: 2 })) seen.push(render.id);
    expect(seen).toEqual(['x', 'y']);
    expect(service.requests).toHaveLength(2);
    expect(service.requests[1]!.url).toContain('offset=2&count=2');
  });

  test('setCredentials switches key and secret for later calls', async () => {
    const service = await fake(() => ({ body: ARCHIVE }));
    const { client } = clientFor(service);
    client.setCredentials('OTHERKEY', 'other-secret-123456');
    await client.archives.get('A1');
    const req = service.requests[0]!;
    expect(req.url).toBe('/v2/project/OTHERKEY/archive/A1');
    await jwtVerify(String(req.headers['x-service-auth']), new TextEncoder().encode('other-secret-123456'));
    expect(client.apiKey).toBe('OTHERKEY');
  });
});

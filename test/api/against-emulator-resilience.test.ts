/**
 * The adapter against the emulator: JWT rejections, retries and timeouts under injected
 * faults, and automatic transitions driven by the emulator clock.
 */
import { randomUUID } from 'node:crypto';
import { type VideoApiError, VideoAuthError, VideoClient, VideoConnectionError, VideoRateLimitError, VideoTimeoutError } from '../../src/api';
import { EmulatorWorld } from './support/emulator-world';

let world: EmulatorWorld;
let client: VideoClient;

beforeAll(async () => {
  world = await EmulatorWorld.start();
  client = world.client();
});
afterAll(() => world.close());
afterEach(() => {
  world.control.clearFaults();
  world.delays.length = 0;
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function failure(promise: Promise<unknown>): Promise<VideoApiError> {
  try {
    await promise;
  } catch (error) {
    return error as VideoApiError;
  }
  throw new Error('expected the call to fail');
}

describe('JWT rejections', () => {
  const archivePath = () => world.path('archive');

  test('wrong secret and unknown key → VideoAuthError 403', async () => {
    expect(await failure(world.client({ apiSecret: 'definitely-wrong' }).archives.list())).toMatchObject({ name: 'VideoAuthError', status: 403 });
    const unknownKey = new VideoClient({ baseUrl: world.emulator.baseUrl, apiKey: '99999999', apiSecret: world.apiSecret });
    expect(await failure(unknownKey.archives.list())).toBeInstanceOf(VideoAuthError);
  });

  test.each<[string, (iat: number) => Record<string, unknown>]>([
    ['expired', (iat) => ({ iat: iat - 600, exp: iat - 300 })],
    ['lifetime over 5 minutes', (iat) => ({ iat, exp: iat + 301 })],
    ['ist account on a project call', () => ({ ist: 'account' })],
    ['iss of another key', () => ({ iss: '12345678' })],
    ['no exp', () => ({ exp: undefined })],
  ])('%s → 403', async (_name, claims) => {
    const token = await world.token(claims(Math.floor(Date.now() / 1000)));
    expect((await world.raw('GET', archivePath(), undefined, token)).status).toBe(403);
  });

  test('a well-formed token at the 5-minute limit is accepted; no header is 403', async () => {
    const iat = Math.floor(Date.now() / 1000);
    expect((await world.raw('GET', archivePath(), undefined, await world.token({ iat, exp: iat + 300 }))).status).toBe(200);
    expect((await world.raw('GET', archivePath(), undefined, 'not.a.jwt')).status).toBe(403);
  });

  test('a reused token (same jti) within its window is accepted, as the adapter relies on', async () => {
    const token = await world.token({ jti: randomUUID() });
    for (let i = 0; i < 3; i++) expect((await world.raw('GET', archivePath(), undefined, token)).status).toBe(200);
  });

  test('the adapter error carries no token or secret', async () => {
    const error = await failure(world.client({ apiSecret: 'definitely-wrong' }).archives.list());
    const text = [error.message, error.raw, JSON.stringify(error)].join(' ');
    expect(text).not.toContain('definitely-wrong');
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });
});

describe('retries under injected faults', () => {
  test('GET retried through two 500s', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    world.control.injectFault({ path: `/archive/${archive.id}`, method: 'GET', kind: 'status', status: 500, count: 2 });
    const before = world.requestsTo(`/archive/${archive.id}`, 'GET');
    await expect(client.archives.get(archive.id)).resolves.toMatchObject({ id: archive.id });
    expect(world.requestsTo(`/archive/${archive.id}`, 'GET') - before).toBe(3);
    expect(world.delays).toHaveLength(2);
  });

  test('POST retried after 429 with Retry-After, waiting the hinted time', async () => {
    const { sessionId } = world.session();
    world.control.injectFault({ path: '/archive', method: 'POST', kind: 'status', status: 429, retryAfterSeconds: 2 });
    await expect(client.archives.start({ sessionId })).resolves.toMatchObject({ status: 'started' });
    expect(world.delays).toEqual([2000]);
  });

  test('429 with a Retry-After beyond the policy → VideoRateLimitError with retryAfterMs', async () => {
    world.control.injectFault({ path: '/archive', method: 'GET', kind: 'status', status: 429, retryAfterSeconds: 600 });
    const error = await failure(client.archives.list());
    expect(error).toBeInstanceOf(VideoRateLimitError);
    expect(error.retryAfterMs).toBe(600_000);
  });

  test('POST 500 is not retried', async () => {
    const { sessionId } = world.session();
    world.control.injectFault({ path: '/broadcast', method: 'POST', kind: 'status', status: 500, count: 3 });
    const before = world.requestsTo('/broadcast', 'POST');
    expect((await failure(client.broadcasts.start({ sessionId, outputs: { hls: {} } }))).status).toBe(500);
    expect(world.requestsTo('/broadcast', 'POST') - before).toBe(1);
  });

  test('GET retried after a connection reset', async () => {
    world.control.injectFault({ path: '/archive', method: 'GET', kind: 'reset' });
    await expect(client.archives.list()).resolves.toHaveProperty('count');
    expect(world.delays).toHaveLength(1);
  });

  test('POST not retried once sent: reset → VideoConnectionError, one request logged', async () => {
    const { sessionId } = world.session();
    world.control.injectFault({ path: '/signal', method: 'POST', kind: 'reset', count: 3 });
    const before = world.requestsTo('/signal', 'POST');
    expect(await failure(client.signals.sendToAll(sessionId, { type: 'chat', data: 'x' }))).toBeInstanceOf(VideoConnectionError);
    expect(world.requestsTo('/signal', 'POST') - before).toBe(1);
  });

  test('malformed 200 body → VideoApiError "malformed response", no crash', async () => {
    const { sessionId } = world.session();
    world.control.injectFault({ path: '/stream', method: 'GET', kind: 'malformed' });
    expect(await failure(client.streams.list(sessionId))).toMatchObject({ code: 'MALFORMED_RESPONSE', method: 'GET' });
  });

  test('hang → VideoTimeoutError within the headers timeout (POST: no retry)', async () => {
    const quick = world.client({ timeouts: { headersMs: 150 } });
    const { sessionId } = world.session();
    world.control.injectFault({ path: '/archive', method: 'POST', kind: 'hang' });
    const started = Date.now();
    expect(await failure(quick.archives.start({ sessionId }))).toBeInstanceOf(VideoTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('hang on GET: retried, then succeeds', async () => {
    const quick = world.client({ timeouts: { headersMs: 150 } });
    world.control.injectFault({ path: '/archive', method: 'GET', kind: 'hang' });
    await expect(quick.archives.list()).resolves.toHaveProperty('items');
  });

  test('per-call timeoutMs with latency', async () => {
    world.control.setLatency(300);
    try {
      expect(await failure(client.archives.list({}, { timeoutMs: 100 }))).toBeInstanceOf(VideoTimeoutError);
    } finally {
      world.control.setLatency(0);
    }
  });
});

describe('automatic transitions on the emulator clock', () => {
  test('archive: paused when everyone leaves, stopped 60 s later (session ended)', async () => {
    const { sessionId, connectionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    world.control.disconnect(world.apiKey, sessionId, connectionId);
    expect((await client.archives.get(archive.id)).status).toBe('paused');
    world.control.advanceTime(59_000);
    expect((await client.archives.get(archive.id)).status).toBe('paused');
    world.control.advanceTime(1_000);
    expect(await client.archives.get(archive.id)).toMatchObject({ status: 'stopped', reason: 'session ended' });
  });

  test('archive: paused without publishers, resumes, then stops after 60 idle minutes', async () => {
    const { sessionId, connectionId, streamId } = world.session();
    const archive = await client.archives.start({ sessionId });
    world.control.unpublish(world.apiKey, sessionId, streamId);
    expect((await client.archives.get(archive.id)).status).toBe('paused');
    world.control.publish(world.apiKey, sessionId, connectionId);
    expect((await client.archives.get(archive.id)).status).toBe('started');
    const again = world.control.getSession(world.apiKey, sessionId).streams[0]!.streamId;
    world.control.unpublish(world.apiKey, sessionId, again);
    world.control.advanceTime(60 * MINUTE);
    expect(await client.archives.get(archive.id)).toMatchObject({ status: 'stopped', reason: 'maximum idle time exceeded' });
  });

  test('archive: stopped after 4 hours of recording (maximum duration exceeded)', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    world.control.advanceTime(4 * HOUR);
    const stopped = await client.archives.get(archive.id);
    expect(stopped).toMatchObject({ status: 'stopped', reason: 'maximum duration exceeded' });
  });

  test('archive processing: stopped → available with a download URL, then listed', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    world.control.advanceTime(90_000);
    await client.archives.stop(archive.id);
    world.control.advanceTime(world.control.transitions().archiveProcessingMs);
    const done = await client.archives.get(archive.id);
    expect(done.status).toBe('available');
    expect(done.duration).toBeGreaterThanOrEqual(90);
    expect(done.size).toBeGreaterThan(0);
    expect(done.url).toMatch(/^https?:\/\//);
  });

  test('broadcast: HLS connecting → ready → live, RTMP → live; stops 60 s after the last client leaves', async () => {
    const { sessionId, connectionId } = world.session();
    const broadcast = await client.broadcasts.start({
      sessionId,
      outputs: { hls: {}, rtmp: [{ id: 'out', serverUrl: 'rtmp://ingest.example.com:1935/live', streamName: 'k' }] },
    });
    const timings = world.control.transitions();
    world.control.advanceTime(Math.max(timings.hlsReadyMs + timings.hlsLiveMs, timings.rtmpLiveMs) + 1_000);
    const live = await client.broadcasts.get(broadcast.id);
    expect(live.broadcastUrls?.hlsStatus).toBe('live');
    expect(live.broadcastUrls?.rtmp).toEqual([expect.objectContaining({ id: 'out', status: 'live' })]);

    world.control.disconnect(world.apiKey, sessionId, connectionId);
    world.control.advanceTime(59_000);
    expect((await client.broadcasts.get(broadcast.id)).status).toBe('started');
    world.control.advanceTime(1_000);
    expect((await client.broadcasts.list({ sessionId })).items).toHaveLength(0);
  });

  test('broadcast: stopped at maxDuration', async () => {
    const { sessionId } = world.session();
    const broadcast = await client.broadcasts.start({ sessionId, outputs: { hls: {} }, maxDuration: 120 });
    world.control.advanceTime(119_000);
    expect((await client.broadcasts.list({ sessionId })).items.map((b) => b.id)).toEqual([broadcast.id]);
    world.control.advanceTime(1_000);
    expect((await client.broadcasts.list({ sessionId })).items).toHaveLength(0);
  });

  test('render: starting → started with a stream, stopped at maxDuration', async () => {
    const { sessionId } = world.session();
    const render = await client.render.start({ sessionId, url: 'https://example.com/board', maxDuration: 60 });
    world.control.advanceTime(world.control.transitions().renderStartMs);
    const started = await client.render.get(render.id);
    expect(started.status).toBe('started');
    expect(started.streamId).toBeTruthy();
    expect((await client.streams.get(sessionId, started.streamId!)).id).toBe(started.streamId);
    world.control.advanceTime(60_000);
    expect(await client.render.get(render.id)).toMatchObject({ status: 'stopped', reason: 'Max Duration Exceeded' });
  });

  test('captions end by themselves after maxDuration, then can start again', async () => {
    const { sessionId } = world.session();
    const { captionsId } = await client.captions.start({ sessionId, maxDuration: 300 });
    world.control.advanceTime(300_000);
    expect(world.control.getCaptions(world.apiKey, captionsId).status).toBe('stopped');
    await expect(client.captions.start({ sessionId })).resolves.toHaveProperty('captionsId');
  });
});

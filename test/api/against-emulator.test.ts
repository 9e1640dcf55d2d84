/**
 * The adapter against the independently written emulator, over real HTTP: every operation's
 * success path and the error statuses the spec lists for it.
 */
import { SignJWT } from 'jose';
import {
  type VideoApiError,
  VideoAuthError,
  VideoClient,
  VideoConflictError,
  VideoNotFoundError,
  VideoValidationError,
  errorFromResponse,
} from '../../src/api';
import { EmulatorWorld } from './support/emulator-world';

let world: EmulatorWorld;
let client: VideoClient;

beforeAll(async () => {
  world = await EmulatorWorld.start();
  client = world.client();
});
afterAll(() => world.close());

const MISSING_SESSION = '2_MX40NzAwMDAwMX5-bm8tc3VjaC1zZXNzaW9ufg';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function failure(promise: Promise<unknown>): Promise<VideoApiError> {
  try {
    await promise;
  } catch (error) {
    return error as VideoApiError;
  }
  throw new Error('expected the call to fail');
}

async function rawError(method: string, path: string, body?: unknown, token?: string): Promise<VideoApiError> {
  const res = await world.raw(method, path, body, token);
  return errorFromResponse({ method, path, status: res.status, body: res.text });
}

describe('sessions', () => {
  test('create routed, relayed and always-archived sessions', async () => {
    const routed = await client.sessions.create();
    expect(routed.sessionId).toBeTruthy();
    expect(routed.projectId).toBe(world.apiKey);
    expect(world.control.getSession(world.apiKey, routed.sessionId).mediaMode).toBe('routed');

    const relayed = await client.sessions.create({ mediaMode: 'relayed', e2ee: true, location: '203.0.113.7' });
    expect(world.control.getSession(world.apiKey, relayed.sessionId)).toMatchObject({ mediaMode: 'relayed', e2ee: true });

    const always = await client.sessions.create({ archiveMode: 'always', archiveName: 'Daily', archiveResolution: '1280x720' });
    expect(world.control.getSession(world.apiKey, always.sessionId)).toMatchObject({
      archiveMode: 'always',
      archiveName: 'Daily',
      archiveResolution: '1280x720',
    });
  });

  test('403 with a wrong secret', async () => {
    const wrong = world.client({ apiSecret: 'not-the-secret-at-all' });
    const error = await failure(wrong.sessions.create());
    expect(error).toBeInstanceOf(VideoAuthError);
    expect(error.status).toBe(403);
  });
});

describe('signals', () => {
  test('to all and to one connection', async () => {
    const { sessionId, connectionId } = world.session();
    const other = world.control.connect(world.apiKey, sessionId);
    await client.signals.sendToAll(sessionId, { type: 'chat', data: 'hello everyone' });
    await client.signals.sendToConnection(sessionId, other, { type: 'dm', data: 'just you' });
    expect(world.control.signalsReceived(world.apiKey, sessionId, connectionId)).toEqual([{ type: 'chat', data: 'hello everyone', from: '' }]);
    expect(world.control.signalsReceived(world.apiKey, sessionId, other)).toEqual([
      { type: 'chat', data: 'hello everyone', from: '' },
      { type: 'dm', data: 'just you', from: '' },
    ]);
  });

  test('404 when the connection is not connected', async () => {
    const { sessionId, connectionId } = world.session();
    world.control.disconnect(world.apiKey, sessionId, connectionId);
    const error = await failure(client.signals.sendToConnection(sessionId, connectionId, { type: 'chat', data: 'x' }));
    expect(error).toBeInstanceOf(VideoNotFoundError);
    expect(typeof error.code).toBe('number');
  });

  test('400 for an invalid session ID', async () => {
    expect((await failure(client.signals.sendToAll('not-a-session', { type: 'chat', data: 'x' }))).status).toBe(400);
  });

  test('413 beyond the limits: rejected by the adapter first, and by the service too', async () => {
    const { sessionId } = world.session();
    const before = world.requestsTo('/signal');
    await expect(client.signals.sendToAll(sessionId, { type: 'chat', data: 'x'.repeat(8193) })).rejects.toBeInstanceOf(VideoValidationError);
    expect(world.requestsTo('/signal')).toBe(before);
    const tooLarge = await rawError('POST', world.path('session', sessionId, 'signal'), { type: 'chat', data: 'x'.repeat(8193) });
    expect(tooLarge.status).toBe(413);
    expect((await rawError('POST', world.path('session', sessionId, 'signal'), { type: 't'.repeat(129), data: '' })).status).toBe(413);
    const atLimit = await world.raw('POST', world.path('session', sessionId, 'signal'), { type: 't'.repeat(128), data: 'é'.repeat(4096) });
    expect(atLimit.status).toBeLessThan(300);
  });
});

describe('moderation', () => {
  test('force disconnect', async () => {
    const { sessionId, connectionId } = world.session();
    await client.moderation.disconnect(sessionId, connectionId);
    const connection = world.control.getSession(world.apiKey, sessionId).connections.find((c) => c.connectionId === connectionId);
    expect(connection?.connected).toBe(false);
    expect((await failure(client.moderation.disconnect(sessionId, connectionId))).status).toBe(404);
    expect((await failure(client.moderation.disconnect('bad session', connectionId))).status).toBe(400);
  });

  test('mute one stream; 404 for an unknown stream', async () => {
    const { sessionId, streamId } = world.session();
    await client.moderation.muteStream(sessionId, streamId);
    expect(world.control.getSession(world.apiKey, sessionId).streams.find((s) => s.streamId === streamId)?.muted).toBe(true);
    expect(await failure(client.moderation.muteStream(sessionId, MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
  });

  test('mute all with exclusions, then off; 404 for an unknown session', async () => {
    const { sessionId, streamId, connectionId } = world.session();
    const second = world.control.publish(world.apiKey, sessionId, connectionId, { videoType: 'screen' });
    await client.moderation.muteAll(sessionId, { active: true, excludedStreamIds: [second] });
    let snapshot = world.control.getSession(world.apiKey, sessionId);
    expect(snapshot.mute).toEqual({ active: true, excludedStreamIds: [second] });
    expect(snapshot.streams.find((s) => s.streamId === streamId)?.muted).toBe(true);
    expect(snapshot.streams.find((s) => s.streamId === second)?.muted).toBe(false);
    await client.moderation.muteAll(sessionId, { active: false });
    snapshot = world.control.getSession(world.apiKey, sessionId);
    expect(snapshot.mute.active).toBe(false);
    expect(snapshot.streams.find((s) => s.streamId === streamId)?.muted).toBe(true);
    expect(await failure(client.moderation.muteAll(MISSING_SESSION, { active: true }))).toBeInstanceOf(VideoNotFoundError);
  });
});

describe('streams', () => {
  test('list and get', async () => {
    const { sessionId, streamId, connectionId } = world.session();
    world.control.publish(world.apiKey, sessionId, connectionId, { videoType: 'screen', name: 'slides' });
    const page = await client.streams.list(sessionId);
    expect(page.count).toBe(2);
    expect(page.items.map((s) => s.videoType).sort()).toEqual(['camera', 'screen']);
    await expect(client.streams.get(sessionId, streamId)).resolves.toMatchObject({ id: streamId, videoType: 'camera', name: 'cam', layoutClassList: [] });
  });

  test('404 while no stream was added; 408 for an invalid stream ID; 403 bad JWT', async () => {
    const { sessionId } = world.session({ publish: false });
    expect((await failure(client.streams.list(sessionId))).status).toBe(404);
    const { sessionId: withStream } = world.session();
    expect((await failure(client.streams.get(withStream, 'not-a-stream'))).status).toBe(408);
    // The spec names no status for a well-formed ID that matches no stream; the emulator says 404.
    expect([404, 408]).toContain((await failure(client.streams.get(withStream, MISSING_ID))).status);
    expect((await failure(world.client({ apiSecret: 'wrong-secret-value' }).streams.list(withStream))).status).toBe(403);
  });

  test('set layout classes of several streams', async () => {
    const { sessionId, streamId, connectionId } = world.session();
    const second = world.control.publish(world.apiKey, sessionId, connectionId, { videoType: 'screen' });
    await client.streams.setLayoutClasses(sessionId, [
      { id: streamId, layoutClassList: ['focus'] },
      { id: second, layoutClassList: ['full', 'focus'] },
    ]);
    expect((await client.streams.get(sessionId, second)).layoutClassList).toEqual(['full', 'focus']);
    expect((await rawError('PUT', world.path('session', sessionId, 'stream'), '{"items": [')).status).toBe(400);
  });
});

describe('archives', () => {
  test('start, get, list, stop', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId, name: 'Standup', resolution: '1280x720' });
    expect(archive).toMatchObject({
      sessionId,
      status: 'started',
      name: 'Standup',
      resolution: '1280x720',
      duration: 0,
      size: 0,
      url: null,
      projectId: world.apiKey,
    });
    await expect(client.archives.get(archive.id)).resolves.toMatchObject({ id: archive.id, status: 'started' });
    const listed = await client.archives.list({ sessionId, count: 10 });
    expect(listed.items.map((a) => a.id)).toEqual([archive.id]);
    const stopped = await client.archives.stop(archive.id);
    expect(stopped).toMatchObject({ status: 'stopped', reason: 'user initiated', size: 0 });
  });

  test('individual archive; both media off rejected locally', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId, outputMode: 'individual', hasVideo: false });
    expect(archive).toMatchObject({ outputMode: 'individual', hasAudio: true, hasVideo: false });
    expect(archive.resolution).toBeUndefined();
    await expect(client.archives.start({ sessionId, hasAudio: false, hasVideo: false })).rejects.toBeInstanceOf(VideoValidationError);
    expect((await rawError('POST', world.path('archive'), { sessionId, outputMode: 'individual', resolution: '640x480' })).status).toBe(400);
  });

  test('409: relayed session, already recording, tag reused; 404 unknown session; 400 no clients', async () => {
    const relayed = world.session({ mediaMode: 'relayed' });
    expect(await failure(client.archives.start({ sessionId: relayed.sessionId }))).toBeInstanceOf(VideoConflictError);

    const { sessionId } = world.session();
    await client.archives.start({ sessionId });
    expect(await failure(client.archives.start({ sessionId }))).toBeInstanceOf(VideoConflictError);
    await client.archives.start({ sessionId, multiArchiveTag: 'second' });
    expect(await failure(client.archives.start({ sessionId, multiArchiveTag: 'second' }))).toBeInstanceOf(VideoConflictError);

    expect(await failure(client.archives.start({ sessionId: MISSING_SESSION }))).toBeInstanceOf(VideoNotFoundError);

    const empty = world.session({ publish: false });
    world.control.disconnect(world.apiKey, empty.sessionId, empty.connectionId);
    expect([400, 404]).toContain((await failure(client.archives.start({ sessionId: empty.sessionId }))).status);
  });

  test('stop: 404 unknown archive, 409 when not recording', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    await client.archives.stop(archive.id);
    expect(await failure(client.archives.stop(archive.id))).toBeInstanceOf(VideoConflictError);
    expect(await failure(client.archives.stop(MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
  });

  test('delete: only available/uploaded; then get shows deleted and list skips it', async () => {
    const { sessionId } = world.session();
    const archive = await client.archives.start({ sessionId });
    expect(await failure(client.archives.delete(archive.id))).toBeInstanceOf(VideoConflictError);
    await client.archives.stop(archive.id);
    world.control.setArchiveStatus(world.apiKey, archive.id, 'available');
    const available = await client.archives.get(archive.id);
    expect(available.status).toBe('available');
    expect(available.url).toMatch(/^https?:\/\//);
    await client.archives.delete(archive.id);
    expect((await client.archives.get(archive.id)).status).toBe('deleted');
    expect((await client.archives.list({ sessionId })).items).toHaveLength(0);
  });

  test('layout change of a composed archive; 400 for an individual one', async () => {
    const { sessionId, streamId } = world.session();
    const composed = await client.archives.start({ sessionId, layout: { type: 'bestFit', screenshareType: 'verticalPresentation' } });
    // Layout rule 5: layouts other than best fit need layout classes on the streams.
    expect((await failure(client.archives.setLayout(composed.id, { type: 'pip' }))).status).toBe(400);
    await client.streams.setLayoutClasses(sessionId, [{ id: streamId, layoutClassList: ['focus'] }]);
    await client.archives.setLayout(composed.id, { type: 'custom', stylesheet: 'stream.focus { width: 50%; }' });
    await client.archives.setLayout(composed.id, { type: 'pip' });
    const individual = await client.archives.start({ sessionId, outputMode: 'individual', multiArchiveTag: 'ind' });
    expect((await failure(client.archives.setLayout(individual.id, { type: 'pip' }))).status).toBe(400);
    expect((await rawError('PUT', world.path('archive', composed.id, 'layout'), { type: 'pip', stylesheet: 'x' })).status).toBe(400);
  });

  test('stream selection of a manual archive; 400 in auto mode; 404 unknown stream', async () => {
    const { sessionId, streamId } = world.session();
    const manual = await client.archives.start({ sessionId, streamMode: 'manual' });
    await client.archives.addStream(manual.id, streamId, { hasVideo: false });
    expect((await client.archives.get(manual.id)).streams).toEqual([{ streamId, hasAudio: true, hasVideo: false }]);
    await client.archives.addStream(manual.id, streamId);
    expect((await client.archives.get(manual.id)).streams).toEqual([{ streamId, hasAudio: true, hasVideo: true }]);
    await client.archives.removeStream(manual.id, streamId);
    expect((await client.archives.get(manual.id)).streams).toEqual([]);
    expect(await failure(client.archives.addStream(manual.id, MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
    expect(await failure(client.archives.addStream(MISSING_ID, streamId))).toBeInstanceOf(VideoNotFoundError);

    const auto = await client.archives.start({ sessionId, multiArchiveTag: 'auto' });
    expect((await failure(client.archives.addStream(auto.id, streamId))).status).toBe(400);
  });

  test('listAll pages through every archive', async () => {
    const { sessionId } = world.session();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await client.archives.start({ sessionId, multiArchiveTag: `t${i}` })).id);
    const seen: string[] = [];
    for await (const archive of client.archives.listAll({ sessionId, pageSize: 3 })) seen.push(archive.id);
    expect(seen).toEqual([...ids].reverse());
  });

  test('upload target: s3 and blobstore set, echoed with keys masked, deleted; 404 when none', async () => {
    const s3 = await client.archives.setUploadTarget({
      type: 's3',
      config: { accessKey: 'AKIAEXAMPLE123', secretKey: 'very-secret-key-123', bucket: 'recordings', endpoint: 'https://s3.example.com' },
      fallback: 'service',
    });
    expect(s3).toMatchObject({ type: 's3', fallback: 'service', config: { bucket: 'recordings', secretKey: '[redacted]', accessKey: '[redacted]' } });
    expect(world.control.uploadTarget(world.apiKey)).toMatchObject({ config: { secretKey: 'very-secret-key-123' } });
    await client.archives.setUploadTarget({ type: 'blobstore', config: { accountName: 'acme', accountKey: 'blob-key-999', container: 'rec' } });
    expect(world.control.uploadTarget(world.apiKey)).toMatchObject({ type: 'blobstore' });
    await client.archives.deleteUploadTarget();
    expect(world.control.uploadTarget(world.apiKey)).toBeNull();
    expect(await failure(client.archives.deleteUploadTarget())).toBeInstanceOf(VideoNotFoundError);
    expect((await rawError('PUT', world.path('archive', 'storage'), { type: 'gcs', config: {} })).status).toBe(400);
    expect((await rawError('PUT', world.path('archive', 'storage'), { type: 's3' })).status).toBe(400);
  });
});

describe('SIP and DTMF', () => {
  test('dial joins the session with a connection and an audio stream', async () => {
    const { sessionId } = world.session();
    const call = await client.sip.dial({
      sessionId,
      tokenData: 'sip:alice@example.com',
      sip: { uri: 'sip:alice@example.com;transport=tls', from: '+15551234567@example.com', auth: { username: 'u', password: 'p4ssw0rd!' }, secure: true },
    });
    expect(call.id && call.connectionId && call.streamId).toBeTruthy();
    const snapshot = world.control.getSession(world.apiKey, sessionId);
    expect(snapshot.connections.map((c) => c.connectionId)).toContain(call.connectionId);
    expect(snapshot.streams.find((s) => s.streamId === call.streamId)).toMatchObject({ hasVideo: false });
    await client.moderation.disconnect(sessionId, call.connectionId);
  });

  test('dial errors: 404 no session, 409 relayed, 400 invalid session ID', async () => {
    const sip = { uri: 'sip:bob@example.com' };
    expect(await failure(client.sip.dial({ sessionId: MISSING_SESSION, sip }))).toBeInstanceOf(VideoNotFoundError);
    const relayed = world.session({ mediaMode: 'relayed' });
    expect(await failure(client.sip.dial({ sessionId: relayed.sessionId, sip }))).toBeInstanceOf(VideoConflictError);
    expect((await failure(client.sip.dial({ sessionId: 'nope', sip }))).status).toBe(400);
  });

  test('DTMF to the session and to one connection; 404s; 400 for bad digits', async () => {
    const { sessionId, connectionId } = world.session();
    await client.sip.playDtmf(sessionId, '1p2#*');
    await client.sip.playDtmf(sessionId, '9', { connectionId });
    expect(world.control.dtmfReceived(world.apiKey, sessionId).map((d) => d.digits)).toEqual(['1p2#*', '9']);
    expect(world.control.dtmfReceived(world.apiKey, sessionId, connectionId).map((d) => d.digits)).toContain('9');
    expect(await failure(client.sip.playDtmf(MISSING_SESSION, '1'))).toBeInstanceOf(VideoNotFoundError);
    world.control.disconnect(world.apiKey, sessionId, connectionId);
    expect(await failure(client.sip.playDtmf(sessionId, '1', { connectionId }))).toBeInstanceOf(VideoNotFoundError);
    const bad = await rawError('POST', world.path('session', sessionId, 'play-dtmf'), { digits: '12a' });
    expect(bad.status).toBe(400);
    expect(typeof bad.code).toBe('number');
  });
});

describe('broadcasts', () => {
  const rtmp = [
    { id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: 'key-1' },
    { id: 'tw', serverUrl: 'rtmp://ingest.example.com:1935/live', streamName: 'key-2' },
  ];

  test('start (HLS + RTMP), get, list, stop', async () => {
    const { sessionId } = world.session();
    const started = await client.broadcasts.start({
      sessionId,
      outputs: { hls: { lowLatency: true }, rtmp },
      maxDuration: 3600,
      maxBitrate: 2_000_000,
      resolution: '1280x720',
    });
    expect(started).toMatchObject({ sessionId, status: 'started', resolution: '1280x720', projectId: world.apiKey });
    expect(started.broadcastUrls?.hlsStatus).toBe('connecting');
    expect(started.broadcastUrls?.rtmp.map((o) => [o.id, o.status])).toEqual([
      ['yt', 'connecting'],
      ['tw', 'connecting'],
    ]);
    expect(started.createdAt).toBeGreaterThan(1e12);

    const fetched = await client.broadcasts.get(started.id);
    expect(fetched.broadcastUrls?.rtmp.map((o) => o.id).sort()).toEqual(['tw', 'yt']);
    expect(fetched.settings?.hls).toMatchObject({ lowLatency: true, dvr: false });
    expect((await client.broadcasts.list({ sessionId })).items.map((b) => b.id)).toEqual([started.id]);

    const stopped = await client.broadcasts.stop(started.id);
    expect(stopped).toMatchObject({ status: 'stopped', broadcastUrls: null, streams: [] });
    expect(stopped.createdAt).toBe(started.createdAt);
    expect((await client.broadcasts.list({ sessionId })).items).toHaveLength(0);
  });

  test('errors: 409 already broadcasting, 404 stopped or unknown, 400 six RTMP outputs', async () => {
    const { sessionId } = world.session();
    const first = await client.broadcasts.start({ sessionId, outputs: { hls: {} } });
    expect(await failure(client.broadcasts.start({ sessionId, outputs: { hls: {} } }))).toBeInstanceOf(VideoConflictError);
    await client.broadcasts.start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: 'b2' });
    expect(await failure(client.broadcasts.start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: 'b2' }))).toBeInstanceOf(VideoConflictError);
    await client.broadcasts.stop(first.id);
    expect(await failure(client.broadcasts.stop(first.id))).toBeInstanceOf(VideoNotFoundError);
    expect(await failure(client.broadcasts.get(MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
    const six = Array.from({ length: 6 }, (_, i) => ({ id: `o${i}`, serverUrl: `rtmp://h.example.com:1935/a${i}`, streamName: 's' }));
    expect((await rawError('POST', world.path('broadcast'), { sessionId: world.session().sessionId, outputs: { rtmp: six } })).status).toBe(400);
  });

  test('layout, manual stream selection; 400 in auto mode; 404 unknown stream', async () => {
    const { sessionId, streamId } = world.session();
    const manual = await client.broadcasts.start({ sessionId, outputs: { hls: {} }, streamMode: 'manual' });
    expect((await failure(client.broadcasts.setLayout(manual.id, { type: 'verticalPresentation' }))).status).toBe(400);
    await client.streams.setLayoutClasses(sessionId, [{ id: streamId, layoutClassList: ['focus'] }]);
    await client.broadcasts.setLayout(manual.id, { type: 'verticalPresentation' });
    await client.broadcasts.addStream(manual.id, streamId, { hasAudio: false });
    expect((await client.broadcasts.get(manual.id)).streams).toEqual([{ streamId, hasAudio: false, hasVideo: true }]);
    await client.broadcasts.removeStream(manual.id, streamId);
    expect(await failure(client.broadcasts.addStream(manual.id, MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
    const auto = await client.broadcasts.start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: 'auto' });
    expect((await failure(client.broadcasts.addStream(auto.id, streamId))).status).toBe(400);
  });

  test('listAll', async () => {
    const { sessionId } = world.session();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await client.broadcasts.start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: `m${i}` })).id);
    const seen: string[] = [];
    for await (const b of client.broadcasts.listAll({ sessionId, pageSize: 3 })) seen.push(b.id);
    expect(seen.sort()).toEqual(ids.sort());
  });
});

describe('captions', () => {
  test('start with a minted moderator token, 409 while running, stop, 404 unknown', async () => {
    const { sessionId } = world.session();
    const { captionsId } = await client.captions.start({ sessionId, languageCode: 'de-DE', maxDuration: 600, partialCaptions: false });
    expect(world.control.getCaptions(world.apiKey, captionsId)).toMatchObject({ sessionId, status: 'started', languageCode: 'de-DE' });
    expect(await failure(client.captions.start({ sessionId }))).toBeInstanceOf(VideoConflictError);
    await client.captions.stop(captionsId);
    expect(world.control.getCaptions(world.apiKey, captionsId).status).toBe('stopped');
    expect(await failure(client.captions.stop(MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
    expect(
      (await rawError('POST', world.path('captions'), { sessionId, token: await client.tokens.client({ sessionId, role: 'moderator' }), maxDuration: 299 }))
        .status,
    ).toBe(400);
  });

  test('a publisher token is refused: locally, and by the service', async () => {
    const { sessionId } = world.session();
    const publisher = await client.tokens.client({ sessionId, role: 'publisher' });
    await expect(client.captions.start({ sessionId, token: publisher })).rejects.toBeInstanceOf(VideoValidationError);
    expect((await rawError('POST', world.path('captions'), { sessionId, token: publisher })).status).toBe(403);
  });
});

describe('composed web-page streams (render)', () => {
  test('start, get, list, stop; 404 once stopped', async () => {
    const { sessionId } = world.session();
    const render = await client.render.start({ sessionId, url: 'https://example.com/board', resolution: '1920x1080', properties: { name: 'Board' } });
    expect(render).toMatchObject({ sessionId, status: 'starting', url: 'https://example.com/board', resolution: '1920x1080', projectId: world.apiKey });
    expect(render.streamId).toBeUndefined();
    await expect(client.render.get(render.id)).resolves.toMatchObject({ id: render.id });
    expect((await client.render.list({ count: 1000 })).items.map((r) => r.id)).toContain(render.id);
    const all: string[] = [];
    for await (const r of client.render.listAll({ pageSize: 1 })) all.push(r.id);
    expect(all).toContain(render.id);
    await client.render.stop(render.id);
    await expect(client.render.get(render.id)).resolves.toMatchObject({ status: 'stopped', reason: 'Stop Requested' });
    expect(await failure(client.render.stop(render.id))).toBeInstanceOf(VideoNotFoundError);
    expect(await failure(client.render.get(MISSING_ID))).toBeInstanceOf(VideoNotFoundError);
  });

  test('400 codes 50001/50005/50006/50007/50008 from the service', async () => {
    const { sessionId } = world.session();
    const token = await client.tokens.client({ sessionId, role: 'publisher' });
    const start = (body: Record<string, unknown>) => rawError('POST', world.path('render'), { sessionId, token, url: 'https://example.com/board', ...body });
    expect(await start({ url: 'not a url, not at all' })).toMatchObject({ status: 400, code: 50001 });
    expect(await start({ maxDuration: 59 })).toMatchObject({ status: 400, code: 50005 });
    expect(await start({ resolution: '1x1' })).toMatchObject({ status: 400, code: 50006 });
    expect(await start({ properties: { name: '' } })).toMatchObject({ status: 400, code: 50007 });
    expect(await rawError('POST', world.path('render'), { sessionId: 'bad', token, url: 'https://example.com/board' })).toMatchObject({
      status: 400,
      code: 50008,
    });
  });

  test('403 codes: 10001 garbage token, 10007 other session, 10012 expired token', async () => {
    const { sessionId } = world.session();
    const other = world.session();
    const garbage = await failure(client.render.start({ sessionId, token: 'garbage', url: 'https://example.com/board' }));
    expect(garbage).toMatchObject({ status: 403, code: 10001 });
    expect(garbage.message).toContain('10001');
    const otherToken = await client.tokens.client({ sessionId: other.sessionId, role: 'publisher' });
    expect(await rawError('POST', world.path('render'), { sessionId, token: otherToken, url: 'https://example.com/board' })).toMatchObject({
      status: 403,
      code: 10007,
    });
    const iat = Math.floor(Date.now() / 1000) - 7200;
    const expired = await new SignJWT({
      iss: world.apiKey,
      ist: 'project',
      iat,
      exp: iat + 60,
      jti: 'x',
      scope: 'session.connect',
      session_id: sessionId,
      role: 'publisher',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(world.apiSecret));
    expect(await failure(client.render.start({ sessionId, token: expired, url: 'https://example.com/board' }))).toMatchObject({ status: 403, code: 10012 });
  });
});

describe('Audio Connector', () => {
  test('start; 409 relayed; 400 invalid property', async () => {
    const { sessionId, streamId } = world.session();
    const connection = await client.connect.start({
      sessionId,
      websocket: { uri: 'wss://asr.example.com/in', streams: [streamId], headers: { 'X-Call': '1' }, audioRate: 8000 },
    });
    expect(world.control.getAudioConnection(world.apiKey, connection.id)).toMatchObject({ connectionId: connection.connectionId });
    const relayed = world.session({ mediaMode: 'relayed' });
    expect(await failure(client.connect.start({ sessionId: relayed.sessionId, websocket: { uri: 'wss://asr.example.com/in' } }))).toBeInstanceOf(
      VideoConflictError,
    );
    const token = await client.tokens.client({ sessionId, role: 'publisher' });
    expect((await rawError('POST', world.path('connect'), { sessionId, token, websocket: { uri: 'wss://asr.example.com/in', audioRate: 44100 } })).status).toBe(
      400,
    );
    expect(
      (await rawError('POST', world.path('connect'), { sessionId, token, websocket: { uri: 'wss://a.example', headers: { h: 'v'.repeat(600) } } })).status,
    ).toBe(400);
  });
});

describe('projects (account credentials)', () => {
  test('create, get, list, suspend/activate, refresh secret, delete', async () => {
    const created = await client.projects.create('Created by tests');
    expect(created.apiKey).toBeTruthy();
    expect(created.secret).toBeTruthy();
    world.control.advanceTime(60_000);
    expect((await client.projects.get(created.apiKey)).apiKey).toBe(created.apiKey);
    expect((await client.projects.list()).map((p) => p.apiKey)).toContain(created.apiKey);

    const projectClient = world.client({ apiKey: created.apiKey, apiSecret: created.secret! });
    await projectClient.sessions.create();

    expect((await client.projects.setStatus(created.apiKey, 'SUSPENDED')).status).toBe('SUSPENDED');
    expect(await failure(projectClient.sessions.create())).toBeInstanceOf(VideoAuthError);
    expect((await client.projects.setStatus(created.apiKey, 'ACTIVE')).status).toBe('ACTIVE');
    await projectClient.sessions.create();

    const refreshed = await client.projects.refreshSecret(created.apiKey);
    expect(refreshed.secret).toBeTruthy();
    expect(refreshed.secret).not.toBe(created.secret);
    expect(JSON.stringify(refreshed)).not.toContain(refreshed.secret!);
    expect(await failure(projectClient.sessions.create())).toBeInstanceOf(VideoAuthError);
    projectClient.setCredentials(created.apiKey, refreshed.secret!);
    await projectClient.sessions.create();

    await client.projects.delete(created.apiKey);
    expect(await failure(client.projects.get(created.apiKey))).toBeInstanceOf(VideoNotFoundError);
    expect(await failure(client.projects.delete(created.apiKey))).toBeInstanceOf(VideoNotFoundError);
    expect(await failure(client.projects.refreshSecret(created.apiKey))).toBeInstanceOf(VideoNotFoundError);
  });

  test('403 with a wrong account secret, and with project credentials', async () => {
    expect(await failure(world.client({ accountApiSecret: 'wrong-account-secret' }).projects.list())).toBeInstanceOf(VideoAuthError);
    const projectAsAccount = world.client({ accountApiKey: world.apiKey, accountApiSecret: world.apiSecret });
    expect(await failure(projectAsAccount.projects.list())).toBeInstanceOf(VideoAuthError);
    expect(
      (
        await rawError(
          'PUT',
          `/v2/project/${world.apiKey}`,
          { status: 'PAUSED' },
          await world.token({ iss: world.control.account.key, ist: 'account' }, world.control.account.secret),
        )
      ).status,
    ).toBe(400);
  });
});

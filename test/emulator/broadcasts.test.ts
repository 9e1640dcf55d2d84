import { Harness } from './helpers';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const rtmp = (id: string) => ({ id, serverUrl: 'rtmps://live.example.com:443/app', streamName: `key-${id}` });

describe('emulator broadcasts', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.start({ transitions: { hlsReadyMs: 5_000, hlsLiveMs: 10_000, rtmpLiveMs: 3_000 } });
  });
  afterAll(() => h.close());

  const start = (body: Record<string, unknown>) => h.call('POST', '/broadcast', { body });
  const get = (id: string) => h.call('GET', `/broadcast/${id}`);

  it('starts with RTMP as an array, statuses connecting, and ms timestamps', async () => {
    const { sessionId } = h.room();
    const res = await start({ sessionId, outputs: { hls: {}, rtmp: [rtmp('a'), rtmp('b')] }, maxDuration: 5400, maxBitrate: 2_000_000 });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      sessionId,
      projectId: Number(h.apiKey),
      partnerId: Number(h.apiKey),
      createdAt: h.control.now(),
      updatedAt: h.control.now(),
      resolution: '640x480',
      status: 'started',
      streamMode: 'auto',
      streams: [],
      hasAudio: true,
      hasVideo: true,
      maxDuration: 5400,
      maxBitrate: 2_000_000,
      broadcastUrls: {
        hls: `${h.emu.baseUrl}/hls/${h.apiKey}/${res.json.id}/playlist.m3u8`,
        hlsStatus: 'connecting',
        rtmp: [
          { id: 'a', status: 'connecting', serverUrl: 'rtmps://live.example.com:443/app', streamName: 'key-a' },
          { id: 'b', status: 'connecting', serverUrl: 'rtmps://live.example.com:443/app', streamName: 'key-b' },
        ],
      },
    });
  });

  it('accepts a single RTMP object, adds ?DVR, and shows settings plus RTMP keyed by id in get/list', async () => {
    const { sessionId } = h.room();
    const { json } = await start({ sessionId, outputs: { hls: { dvr: true }, rtmp: rtmp('yt') } });
    const read = await get(json.id);
    expect(read.json.broadcastUrls).toEqual({
      hls: expect.stringMatching(/playlist\.m3u8\?DVR$/),
      hlsStatus: 'connecting',
      rtmp: { yt: { serverUrl: 'rtmps://live.example.com:443/app', streamName: 'key-yt', status: 'connecting' } },
    });
    expect(read.json.settings).toEqual({ hls: { dvr: true, lowLatency: false } });
    const list = await h.call('GET', `/broadcast?sessionId=${sessionId}`);
    expect(list.json).toEqual({ count: 1, items: [read.json] });
  });

  it.each([
    ['missing outputs', {}],
    ['empty outputs', { outputs: {} }],
    ['six RTMP outputs', { outputs: { rtmp: ['1', '2', '3', '4', '5', '6'].map(rtmp) } }],
    ['duplicate RTMP ids', { outputs: { rtmp: [rtmp('x'), rtmp('x')] } }],
    ['a non-RTMP server URL', { outputs: { rtmp: [{ serverUrl: 'http://x.example.com/app', streamName: 'k' }] } }],
    ['an RTMP output without streamName', { outputs: { rtmp: [{ serverUrl: 'rtmp://x.example.com:1935/app' }] } }],
    ['lowLatency with dvr', { outputs: { hls: { dvr: true, lowLatency: true } } }],
    ['maxBitrate below 100000', { outputs: { hls: {} }, maxBitrate: 99_999 }],
    ['maxBitrate above 6000000', { outputs: { hls: {} }, maxBitrate: 6_000_001 }],
    ['maxDuration below 60', { outputs: { hls: {} }, maxDuration: 59 }],
    ['maxDuration above 36000', { outputs: { hls: {} }, maxDuration: 36_001 }],
    ['an unknown resolution', { outputs: { hls: {} }, resolution: '1024x768' }],
    ['an invalid layout', { outputs: { hls: {} }, layout: { type: 'custom' } }],
    ['hasAudio and hasVideo false', { outputs: { hls: {} }, hasAudio: false, hasVideo: false }],
  ])('rejects %s with 400', async (_label, body) => {
    const { sessionId } = h.room();
    const res = await start({ sessionId, ...body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 400, message: expect.any(String) });
  });

  it('needs a routed session with a connected client; one per session unless unique multiBroadcastTag', async () => {
    const relayed = h.room({ mediaMode: 'relayed' });
    expect((await start({ sessionId: relayed.sessionId, outputs: { hls: {} } })).status).toBe(409);
    const empty = h.control.createSession(h.apiKey);
    expect((await start({ sessionId: empty, outputs: { hls: {} } })).status).toBe(400);
    const { sessionId } = h.room();
    expect((await start({ sessionId, outputs: { hls: {} } })).status).toBe(200);
    expect((await start({ sessionId, outputs: { hls: {} } })).status).toBe(409);
    expect((await start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: 'two' })).status).toBe(200);
    expect((await start({ sessionId, outputs: { hls: {} }, multiBroadcastTag: 'two' })).status).toBe(409);
  });

  it('moves HLS connecting → ready → live and RTMP connecting → live on the clock', async () => {
    const { sessionId } = h.room();
    const { json } = await start({ sessionId, outputs: { hls: {}, rtmp: [rtmp('r')] } });
    const statuses = async () => {
      const urls = (await get(json.id)).json.broadcastUrls;
      return [urls.hlsStatus, urls.rtmp.r.status];
    };
    h.control.advanceTime(2_999);
    expect(await statuses()).toEqual(['connecting', 'connecting']);
    h.control.advanceTime(1);
    expect(await statuses()).toEqual(['connecting', 'live']);
    h.control.advanceTime(2_000);
    expect(await statuses()).toEqual(['ready', 'live']);
    h.control.advanceTime(10_000);
    expect(await statuses()).toEqual(['live', 'live']);
  });

  it('keeps outputs connecting / ready while no stream is published, then goes live after the first publish', async () => {
    const sessionId = h.control.createSession(h.apiKey);
    const c = h.control.connect(h.apiKey, sessionId);
    const { json } = await start({ sessionId, outputs: { hls: {}, rtmp: [rtmp('r')] } });
    h.control.advanceTime(60_000);
    const waiting = (await get(json.id)).json.broadcastUrls;
    expect([waiting.hlsStatus, waiting.rtmp.r.status]).toEqual(['ready', 'connecting']);
    h.control.publish(h.apiKey, sessionId, c);
    h.control.advanceTime(10_000);
    const live = (await get(json.id)).json.broadcastUrls;
    expect([live.hlsStatus, live.rtmp.r.status]).toEqual(['live', 'live']);
  });

  it('stops with seconds timestamps and null broadcastUrls, then 404; leaves the list', async () => {
    const { sessionId } = h.room();
    const { json } = await start({ sessionId, outputs: { hls: {} } });
    h.control.advanceTime(30_000);
    const stopped = await h.call('POST', `/broadcast/${json.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.json).toMatchObject({
      status: 'stopped',
      broadcastUrls: null,
      streams: [],
      createdAt: Math.floor(json.createdAt / 1000),
      updatedAt: Math.floor(json.createdAt / 1000) + 30,
    });
    expect((await h.call('POST', `/broadcast/${json.id}/stop`)).status).toBe(404);
    expect((await h.call('POST', `/broadcast/${UNKNOWN}/stop`)).status).toBe(404);
    expect((await get(json.id)).json).toMatchObject({ status: 'stopped', broadcastUrls: null, createdAt: json.createdAt });
    expect((await h.call('GET', `/broadcast?sessionId=${sessionId}`)).json).toEqual({ count: 0, items: [] });
    expect((await get(UNKNOWN)).status).toBe(404);
  });

  it('stops by itself at maxDuration and 60 s after the last client disconnects', async () => {
    const timed = h.room();
    const a = (await start({ sessionId: timed.sessionId, outputs: { hls: {} }, maxDuration: 60 })).json;
    h.control.advanceTime(59_999);
    expect((await get(a.id)).json.status).toBe('started');
    h.control.advanceTime(1);
    expect((await get(a.id)).json.status).toBe('stopped');

    const left = h.room();
    const b = (await start({ sessionId: left.sessionId, outputs: { hls: {} } })).json;
    h.control.disconnect(h.apiKey, left.sessionId, left.connections[0] ?? '');
    h.control.advanceTime(30_000);
    h.control.connect(h.apiKey, left.sessionId);
    h.control.advanceTime(60_000);
    expect((await get(b.id)).json.status).toBe('started');
    const session = h.control.getSession(h.apiKey, left.sessionId);
    const connected = session.connections.filter((c) => c.connected).map((c) => c.connectionId);
    for (const id of connected) h.control.disconnect(h.apiKey, left.sessionId, id);
    h.control.advanceTime(60_000);
    expect((await get(b.id)).json.status).toBe('stopped');
  });

  it('lists newest first with offset and count', async () => {
    const other = await Harness.start();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const { sessionId } = other.room();
        ids.push((await other.call('POST', '/broadcast', { body: { sessionId, outputs: { hls: {} } } })).json.id);
        other.control.advanceTime(1_000);
      }
      const page = await other.call('GET', '/broadcast?offset=1&count=2');
      expect(page.json.count).toBe(3);
      expect(page.json.items.map((b: { id: string }) => b.id)).toEqual([ids[1], ids[0]]);
      expect((await other.call('GET', '/broadcast?count=5000')).status).toBe(400);
    } finally {
      await other.close();
    }
  });

  it('changes layout and selects streams of manual broadcasts', async () => {
    const room = h.room({ clients: 2 });
    const [s1] = room.streams as [string];
    const manual = (await start({ sessionId: room.sessionId, outputs: { rtmp: [rtmp('m')] }, streamMode: 'manual' })).json;
    expect((await h.call('PUT', `/broadcast/${manual.id}/layout`, { body: { type: 'bestFit', screenshareType: 'pip' } })).status).toBe(200);
    expect((await h.call('PUT', `/broadcast/${manual.id}/layout`, { body: { type: 'bestFit', stylesheet: 'x' } })).status).toBe(400);
    h.control.advanceTime(10_000);
    expect((await get(manual.id)).json.broadcastUrls.rtmp.m.status).toBe('connecting');
    expect((await h.call('PATCH', `/broadcast/${manual.id}/streams`, { body: { addStream: s1, hasVideo: false } })).status).toBe(204);
    expect((await get(manual.id)).json.streams).toEqual([{ streamId: s1, hasAudio: true, hasVideo: false }]);
    h.control.advanceTime(3_000);
    expect((await get(manual.id)).json.broadcastUrls.rtmp.m.status).toBe('live');
    expect((await h.call('PATCH', `/broadcast/${manual.id}/streams`, { body: { addStream: UNKNOWN } })).status).toBe(404);
    const auto = (await start({ sessionId: room.sessionId, outputs: { hls: {} }, multiBroadcastTag: 'auto' })).json;
    expect((await h.call('PATCH', `/broadcast/${auto.id}/streams`, { body: { addStream: s1 } })).status).toBe(400);
  });

  it('follows output statuses pushed from outside', async () => {
    const { sessionId } = h.room();
    const { json } = await start({ sessionId, outputs: { hls: {}, rtmp: [rtmp('o')] } });
    h.control.setBroadcastOutputStatus(h.apiKey, json.id, { hls: 'error', rtmp: { o: 'offline' } });
    const urls = (await get(json.id)).json.broadcastUrls;
    expect([urls.hlsStatus, urls.rtmp.o.status]).toEqual(['error', 'offline']);
    h.control.advanceTime(60_000);
    expect((await get(json.id)).json.broadcastUrls.hlsStatus).toBe('error');
  });
});

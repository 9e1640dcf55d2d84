import { Harness } from './helpers';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('emulator SIP, captions, composers and Audio Connector', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.start({ transitions: { renderStartMs: 2_000 } });
  });
  afterAll(() => h.close());

  describe('SIP dial', () => {
    const dial = async (sessionId: string, sip: Record<string, unknown>, token?: string) =>
      h.call('POST', '/dial', { body: { sessionId, token: token ?? (await h.clientToken(sessionId)), sip } });

    it('joins the session as a connection with an audio-only stream and ends on force disconnect', async () => {
      const { sessionId } = h.room();
      const res = await dial(sessionId, {
        uri: 'sip:+15551234567@sip.example.com;transport=tls',
        from: '+15550000000@example.com',
        headers: { 'X-Room': 'a' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: expect.any(String), connectionId: expect.any(String), streamId: expect.any(String) });
      const session = h.control.getSession(h.apiKey, sessionId);
      expect(session.connections.find((c) => c.connectionId === res.json.connectionId)).toMatchObject({ kind: 'sip', connected: true });
      expect(session.streams.find((s) => s.streamId === res.json.streamId)).toMatchObject({ hasAudio: true, hasVideo: false });
      expect((await h.call('DELETE', `/session/${sessionId}/connection/${res.json.connectionId}`)).status).toBe(204);
      expect(h.control.getSipCall(h.apiKey, res.json.id).status).toBe('ended');
    });

    it('closes the call after 6 hours', async () => {
      const { sessionId } = h.room();
      const res = await dial(sessionId, { uri: 'sip:bob@example.com' });
      h.control.advanceTime(6 * 3600_000);
      expect(h.control.getSipCall(h.apiKey, res.json.id)).toMatchObject({ status: 'ended', reason: 'maximum duration exceeded' });
      const connection = h.control.getSession(h.apiKey, sessionId).connections.find((c) => c.connectionId === res.json.connectionId);
      expect(connection?.connected).toBe(false);
    });

    it('validates the body, the session, the media mode and the token', async () => {
      const { sessionId } = h.room();
      expect((await dial(sessionId, {})).status).toBe(400);
      expect((await h.call('POST', '/dial', { body: { sessionId, token: await h.clientToken(sessionId) } })).status).toBe(400);
      expect((await dial(sessionId, { uri: 'http://not-sip' })).status).toBe(400);
      expect((await dial(sessionId, { uri: 'sip:a@b', from: 'no domain' })).status).toBe(400);
      expect((await dial('bad', { uri: 'sip:a@b' }, 'x')).status).toBe(400);
      expect((await dial(`${sessionId}x`, { uri: 'sip:a@b' })).status).toBe(404);
      const relayed = h.room({ mediaMode: 'relayed' });
      expect((await dial(relayed.sessionId, { uri: 'sip:a@b' })).status).toBe(409);
      const other = h.room();
      expect((await dial(sessionId, { uri: 'sip:a@b' }, await h.clientToken(other.sessionId))).status).toBe(403);
      expect((await dial(sessionId, { uri: 'sip:a@b' }, await h.clientToken(sessionId, 'publisher', { scope: 'other' }))).status).toBe(403);
    });
  });

  describe('captions', () => {
    const startCaptions = async (sessionId: string, extra: Record<string, unknown> = {}, role = 'moderator') =>
      h.call('POST', '/captions', { body: { sessionId, token: await h.clientToken(sessionId, role), ...extra } });

    it('starts with 202 {captionsId}, one per session, stops with 202 then 404', async () => {
      const { sessionId } = h.room();
      const res = await startCaptions(sessionId, { languageCode: 'fr-CA', partialCaptions: false });
      expect(res.status).toBe(202);
      expect(res.json).toEqual({ captionsId: expect.any(String) });
      expect(h.control.getCaptions(h.apiKey, res.json.captionsId)).toMatchObject({ status: 'started', languageCode: 'fr-CA', maxDuration: 14_400 });
      expect((await startCaptions(sessionId)).status).toBe(409);
      expect((await h.call('POST', `/captions/${res.json.captionsId}/stop`)).status).toBe(202);
      expect((await h.call('POST', `/captions/${res.json.captionsId}/stop`)).status).toBe(404);
      expect((await h.call('POST', `/captions/${UNKNOWN}/stop`)).status).toBe(404);
      expect((await startCaptions(sessionId)).status).toBe(202);
    });

    it('ends by itself at maxDuration', async () => {
      const { sessionId } = h.room();
      const res = await startCaptions(sessionId, { maxDuration: 300 });
      h.control.advanceTime(300_000);
      expect(h.control.getCaptions(h.apiKey, res.json.captionsId)).toMatchObject({ status: 'stopped', reason: 'Max Duration Exceeded' });
    });

    it('requires the moderator role and valid options', async () => {
      const { sessionId } = h.room();
      expect((await startCaptions(sessionId, {}, 'publisher')).status).toBe(403);
      expect((await startCaptions(sessionId, { languageCode: 'xx-XX' })).status).toBe(400);
      expect((await startCaptions(sessionId, { maxDuration: 299 })).status).toBe(400);
      expect((await startCaptions(sessionId, { maxDuration: 14_401 })).status).toBe(400);
      const expired = await h.clientToken(sessionId, 'moderator', { exp: Math.floor(Date.now() / 1000) - 1 });
      expect((await h.call('POST', '/captions', { body: { sessionId, token: expired } })).status).toBe(403);
    });
  });

  describe('composed web-page streams', () => {
    const startRender = async (sessionId: string, extra: Record<string, unknown> = {}, token?: string) =>
      h.call('POST', '/render', {
        body: { sessionId, token: token ?? (await h.clientToken(sessionId, 'publisher')), url: 'https://example.com/page', ...extra },
      });

    it('starts (202, starting, no streamId), publishes its stream when started, stops on DELETE (204) then 404', async () => {
      const { sessionId } = h.room();
      const res = await startRender(sessionId, { properties: { name: 'Composer' } });
      expect(res.status).toBe(202);
      expect(res.json).toEqual({
        id: expect.any(String),
        sessionId,
        projectId: h.apiKey,
        createdAt: h.control.now(),
        updatedAt: h.control.now(),
        url: 'https://example.com/page',
        resolution: '1280x720',
        status: 'starting',
        name: 'Composer',
      });
      h.control.advanceTime(2_000);
      const started = await h.call('GET', `/render/${res.json.id}`);
      expect(started.json).toMatchObject({ status: 'started', streamId: expect.any(String), updatedAt: res.json.createdAt + 2_000 });
      const stream = h.control.getSession(h.apiKey, sessionId).streams.find((s) => s.streamId === started.json.streamId);
      expect(stream).toMatchObject({ name: 'Composer' });
      expect((await h.call('DELETE', `/render/${res.json.id}/`)).status).toBe(204);
      expect((await h.call('GET', `/render/${res.json.id}`)).json).toMatchObject({ status: 'stopped', reason: 'Stop Requested' });
      expect(h.control.getSession(h.apiKey, sessionId).streams.some((s) => s.streamId === started.json.streamId)).toBe(false);
      expect((await h.call('DELETE', `/render/${res.json.id}`)).status).toBe(404);
      expect((await h.call('GET', `/render/${UNKNOWN}`)).status).toBe(404);
    });

    it('stops at maxDuration, can fail from outside, and lists newest first', async () => {
      const { sessionId } = h.room();
      const a = (await startRender(sessionId, { maxDuration: 60 })).json;
      const b = (await startRender(sessionId)).json;
      h.control.advanceTime(60_000);
      expect((await h.call('GET', `/render/${a.id}`)).json).toMatchObject({ status: 'stopped', reason: 'Max Duration Exceeded' });
      h.control.failRender(h.apiKey, b.id, 'Could not load URL');
      expect((await h.call('GET', `/render/${b.id}`)).json).toMatchObject({ status: 'failed', reason: 'Could not load URL' });
      const list = await h.call('GET', '/render?offset=0&count=2');
      expect(list.json.items.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
      expect(list.json.count).toBeGreaterThanOrEqual(2);
    });

    it.each([
      ['a short url', 50001, { url: 'https://a.b' }],
      ['a url of 2049 characters', 50001, { url: `https://example.com/${'a'.repeat(2029)}` }],
      ['a non-http url', 50001, { url: 'ftp://example.com/page' }],
      ['maxDuration 59', 50005, { maxDuration: 59 }],
      ['maxDuration 36001', 50005, { maxDuration: 36_001 }],
      ['an unknown resolution', 50006, { resolution: '100x100' }],
      ['an empty stream name', 50007, { properties: { name: '' } }],
      ['a 201-character stream name', 50007, { properties: { name: 'n'.repeat(201) } }],
    ])('rejects %s with 400 code %d', async (_label, code, extra) => {
      const { sessionId } = h.room();
      const res = await startRender(sessionId, extra);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code, message: expect.any(String) });
    });

    it('rejects an unknown session with 400 code 50008', async () => {
      const { sessionId } = h.room();
      const res = await startRender(`${sessionId}x`, {}, 'irrelevant');
      expect(res.json).toEqual({ code: 50008, message: expect.any(String) });
    });

    it('maps participant token problems to 403 codes 10001, 10002, 10007 and 10012', async () => {
      const { sessionId } = h.room();
      const other = h.room();
      const cases: Array<[Promise<string>, number]> = [
        [Promise.resolve('not.a.token'), 10001],
        [h.clientToken(sessionId, 'publisher').then((t) => `${t.slice(0, -2)}xx`), 10001],
        [h.clientToken(sessionId, 'subscriber'), 10002],
        [h.clientToken(other.sessionId, 'publisher'), 10007],
        [h.clientToken(sessionId, 'publisher', { exp: Math.floor(Date.now() / 1000) - 5 }), 10012],
      ];
      for (const [token, code] of cases) {
        const res = await startRender(sessionId, {}, await token);
        expect([res.status, res.json.code]).toEqual([403, code]);
      }
      expect((await startRender(sessionId, {}, await h.clientToken(sessionId, 'moderator'))).status).toBe(202);
    });
  });

  describe('Audio Connector', () => {
    const connect = async (sessionId: string, websocket: Record<string, unknown>) =>
      h.call('POST', '/connect', { body: { sessionId, token: await h.clientToken(sessionId), websocket } });

    it('joins as a connection and ends when force-disconnected', async () => {
      const { sessionId } = h.room();
      const res = await connect(sessionId, { uri: 'wss://audio.example.com/socket', audioRate: 8000, headers: { room: 'a' } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ id: expect.any(String), connectionId: expect.any(String) });
      expect(h.control.getAudioConnection(h.apiKey, res.json.id)).toMatchObject({ status: 'connected', audioRate: 8000 });
      await h.call('DELETE', `/session/${sessionId}/connection/${res.json.connectionId}`);
      expect(h.control.getAudioConnection(h.apiKey, res.json.id).status).toBe('disconnected');
    });

    it('validates uri, audioRate, headers size and media mode', async () => {
      const { sessionId } = h.room();
      expect((await connect(sessionId, {})).status).toBe(400);
      expect((await connect(sessionId, { uri: 'https://x.example.com' })).status).toBe(400);
      expect((await connect(sessionId, { uri: 'wss://x.example.com', audioRate: 44_100 })).status).toBe(400);
      expect((await connect(sessionId, { uri: 'wss://x.example.com', headers: { big: 'x'.repeat(520) } })).status).toBe(400);
      expect((await connect(sessionId, { uri: 'wss://x.example.com', headers: { n: 1 } })).status).toBe(400);
      const relayed = h.room({ mediaMode: 'relayed' });
      expect((await connect(relayed.sessionId, { uri: 'wss://x.example.com' })).status).toBe(409);
    });
  });
});

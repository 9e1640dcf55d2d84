import { Harness } from './helpers';

describe('emulator sessions, signals, moderation and streams', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.start();
  });
  afterAll(() => h.close());

  const create = (form: Record<string, string>, json = true) =>
    h.call('POST', '//session/create', { form, headers: json ? { Accept: 'application/json' } : {} });

  describe('session creation', () => {
    it('answers a JSON array for Accept: application/json, routed by default', async () => {
      const res = await create({});
      expect(res.status).toBe(200);
      expect(res.json).toEqual([
        {
          session_id: expect.stringMatching(/^2_MX4/),
          project_id: h.apiKey,
          partner_id: h.apiKey,
          create_dt: 'Mon Nov 02 17:00:00 UTC 2026',
          media_server_url: '',
        },
      ]);
      expect(h.control.getSession(h.apiKey, res.json[0].session_id).mediaMode).toBe('routed');
    });

    it('answers XML without Accept: application/json', async () => {
      const res = await create({}, false);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('xml');
      expect(res.text).toMatch(/<sessions><Session><session_id>2_MX4[^<]+<\/session_id><partner_id>\d+<\/partner_id><create_dt>/);
    });

    it('makes a relayed session for p2p.preference=enabled', async () => {
      const res = await create({ 'p2p.preference': 'enabled' });
      expect(h.control.getSession(h.apiKey, res.json[0].session_id).mediaMode).toBe('relayed');
    });

    it('translates ~ - _ in archiveName to colons for archiveMode=always', async () => {
      const res = await create({ archiveMode: 'always', archiveName: 'team~weekly-sync_1', archiveResolution: '1280x720' });
      expect(res.status).toBe(200);
      const session = h.control.getSession(h.apiKey, res.json[0].session_id);
      expect(session).toMatchObject({ archiveMode: 'always', archiveName: 'team:weekly:sync:1', archiveResolution: '1280x720' });
    });

    it.each([
      ['archiveMode always with p2p enabled', { archiveMode: 'always', 'p2p.preference': 'enabled' }],
      ['archiveName without always', { archiveName: 'x' }],
      ['archiveResolution without always', { archiveResolution: '1280x720' }],
      ['an archiveName over 80 characters', { archiveMode: 'always', archiveName: 'n'.repeat(81) }],
      ['an unknown archiveMode', { archiveMode: 'sometimes' }],
      ['an unknown resolution', { archiveMode: 'always', archiveResolution: '800x600' }],
      ['a non-IP location', { location: 'paris' }],
      ['a non-boolean e2ee', { e2ee: 'yes' }],
    ])('rejects %s with 400', async (_label, form) => {
      const res = await create(form);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 400, message: expect.any(String) });
    });

    it('rejects a JSON body', async () => {
      const res = await h.call('POST', '//session/create', { body: { archiveMode: 'manual' }, headers: { Accept: 'application/json' } });
      expect(res.status).toBe(400);
    });
  });

  describe('signals', () => {
    it('delivers to every connected client, with an empty from', async () => {
      const room = h.room({ clients: 2 });
      const res = await h.call('POST', `/session/${room.sessionId}/signal`, { body: { type: 'chat', data: 'hello' } });
      expect(res.status).toBe(204);
      for (const c of room.connections) {
        expect(h.control.signalsReceived(h.apiKey, room.sessionId, c)).toEqual([{ type: 'chat', data: 'hello', from: '' }]);
      }
    });

    it('delivers to one connection only', async () => {
      const room = h.room({ clients: 2 });
      const [first, second] = room.connections as [string, string];
      const res = await h.call('POST', `/session/${room.sessionId}/connection/${first}/signal`, { body: { type: 't', data: 'd' } });
      expect(res.status).toBe(204);
      expect(h.control.signalsReceived(h.apiKey, room.sessionId, first)).toHaveLength(1);
      expect(h.control.signalsReceived(h.apiKey, room.sessionId, second)).toHaveLength(0);
    });

    it('limits type to 128 bytes and data to 8 kB in UTF-8 bytes (413)', async () => {
      const { sessionId } = h.room();
      const send = (body: unknown) => h.call('POST', `/session/${sessionId}/signal`, { body });
      expect((await send({ type: 't'.repeat(128), data: 'x' })).status).toBe(204);
      expect((await send({ type: 't'.repeat(129), data: 'x' })).status).toBe(413);
      expect((await send({ type: 'é'.repeat(65), data: 'x' })).status).toBe(413);
      expect((await send({ type: 't', data: 'x'.repeat(8192) })).status).toBe(204);
      const tooBig = await send({ type: 't', data: 'é'.repeat(4097) });
      expect(tooBig.status).toBe(413);
      expect(tooBig.json).toEqual({ code: 413, message: expect.any(String) });
    });

    it('answers 404 for a connection that is not connected and 400 for invalid ids or bodies', async () => {
      const room = h.room();
      const gone = h.control.connect(h.apiKey, room.sessionId);
      h.control.disconnect(h.apiKey, room.sessionId, gone);
      const notConnected = await h.call('POST', `/session/${room.sessionId}/connection/${gone}/signal`, { body: { data: 'x' } });
      expect(notConnected.status).toBe(404);
      expect((await h.call('POST', `/session/${room.sessionId}/connection/nope/signal`, { body: { data: 'x' } })).status).toBe(400);
      expect((await h.call('POST', `/session/bad-session/signal`, { body: { data: 'x' } })).status).toBe(400);
      expect((await h.call('POST', `/session/${room.sessionId}/signal`, { body: { type: 5, data: 'x' } })).status).toBe(400);
      expect((await h.call('POST', `/session/${room.sessionId}/signal`, { body: '{"data": ' })).status).toBe(400);
    });
  });

  describe('force disconnect', () => {
    it('removes the connection and its streams (204), then 404', async () => {
      const room = h.room({ clients: 2 });
      const [first] = room.connections as [string];
      const res = await h.call('DELETE', `/session/${room.sessionId}/connection/${first}`);
      expect(res.status).toBe(204);
      const session = h.control.getSession(h.apiKey, room.sessionId);
      expect(session.streams.map((s) => s.connectionId)).not.toContain(first);
      expect(session.connections.find((c) => c.connectionId === first)?.connected).toBe(false);
      expect((await h.call('DELETE', `/session/${room.sessionId}/connection/${first}`)).status).toBe(404);
    });
  });

  describe('muting', () => {
    it('mutes one stream and answers project details', async () => {
      const room = h.room({ clients: 2 });
      const [first, second] = room.streams as [string, string];
      const res = await h.call('POST', `/session/${room.sessionId}/stream/${first}/mute`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: h.apiKey, status: 'ACTIVE' });
      expect(res.json.secret).toBeUndefined();
      const streams = h.control.getSession(h.apiKey, room.sessionId).streams;
      expect(streams.find((s) => s.streamId === first)?.muted).toBe(true);
      expect(streams.find((s) => s.streamId === second)?.muted).toBe(false);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await h.call('POST', `/session/${room.sessionId}/stream/${unknown}/mute`)).status).toBe(404);
    });

    it('mutes all but excluded streams, including later ones, and leaves them muted after active=false', async () => {
      const room = h.room({ clients: 2 });
      const [first, second] = room.streams as [string, string];
      const on = await h.call('POST', `/session/${room.sessionId}/mute`, { body: { active: true, excludedStreamIds: [second] } });
      expect(on.status).toBe(200);
      const muted = () => Object.fromEntries(h.control.getSession(h.apiKey, room.sessionId).streams.map((s) => [s.streamId, s.muted]));
      expect(muted()).toEqual({ [first]: true, [second]: false });
      const later = h.control.publish(h.apiKey, room.sessionId, h.control.connect(h.apiKey, room.sessionId));
      expect(muted()[later]).toBe(true);
      expect(h.control.getSession(h.apiKey, room.sessionId).mute).toEqual({ active: true, excludedStreamIds: [second] });
      const off = await h.call('POST', `/session/${room.sessionId}/mute`, { body: { active: false, excludedStreamIds: [first] } });
      expect(off.status).toBe(200);
      const after = h.control.publish(h.apiKey, room.sessionId, h.control.connect(h.apiKey, room.sessionId));
      expect(muted()).toMatchObject({ [first]: true, [later]: true, [after]: false });
    });

    it('treats an empty body as active=true and rejects a body without active', async () => {
      const room = h.room();
      expect((await h.call('POST', `/session/${room.sessionId}/mute`)).status).toBe(200);
      expect(h.control.getSession(h.apiKey, room.sessionId).mute.active).toBe(true);
      expect((await h.call('POST', `/session/${room.sessionId}/mute`, { body: { excludedStreamIds: [] } })).status).toBe(400);
      expect((await h.call('POST', `/session/${room.sessionId}/mute`, { body: '{nope' })).status).toBe(400);
    });

    it('answers 404 for an unknown session', async () => {
      const other = await h.call('POST', '//session/create', { form: {}, headers: { Accept: 'application/json' } });
      const id = `${other.json[0].session_id as string}x`;
      expect((await h.call('POST', `/session/${id}/mute`)).status).toBe(404);
    });
  });

  describe('stream information and layout classes', () => {
    it('gets one stream and lists them in the fixture shape', async () => {
      const sessionId = h.control.createSession(h.apiKey);
      const c = h.control.connect(h.apiKey, sessionId);
      const cam = h.control.publish(h.apiKey, sessionId, c, { layoutClassList: ['full'] });
      const screen = h.control.publish(h.apiKey, sessionId, c, { videoType: 'screen', name: 'slides' });
      const one = await h.call('GET', `/session/${sessionId}/stream/${cam}`);
      expect(one.json).toEqual({ id: cam, videoType: 'camera', name: '', layoutClassList: ['full'] });
      const all = await h.call('GET', `/session/${sessionId}/stream/`);
      expect(all.json).toEqual({
        count: 2,
        items: [one.json, { id: screen, videoType: 'screen', name: 'slides', layoutClassList: [] }],
      });
    });

    it('answers 404 before any stream, 408 for a malformed stream id, 404 for an unknown one', async () => {
      const sessionId = h.control.createSession(h.apiKey);
      expect((await h.call('GET', `/session/${sessionId}/stream`)).status).toBe(404);
      const c = h.control.connect(h.apiKey, sessionId);
      h.control.publish(h.apiKey, sessionId, c);
      expect((await h.call('GET', `/session/${sessionId}/stream/not-a-stream`)).status).toBe(408);
      expect((await h.call('GET', `/session/${sessionId}/stream/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    });

    it('sets layout classes of several streams at once, all or nothing', async () => {
      const room = h.room({ clients: 2 });
      const [a, b] = room.streams as [string, string];
      const res = await h.call('PUT', `/session/${room.sessionId}/stream`, {
        body: {
          items: [
            { id: a, layoutClassList: ['full', 'focus'] },
            { id: b, layoutClassList: [] },
          ],
        },
      });
      expect(res.status).toBe(200);
      const classes = () => h.control.getSession(h.apiKey, room.sessionId).streams.map((s) => s.layoutClassList);
      expect(classes()).toEqual([['full', 'focus'], []]);
      const bad = await h.call('PUT', `/session/${room.sessionId}/stream`, {
        body: {
          items: [
            { id: b, layoutClassList: ['x'] },
            { id: '00000000-0000-4000-8000-000000000000', layoutClassList: [] },
          ],
        },
      });
      expect(bad.status).toBe(400);
      expect(classes()).toEqual([['full', 'focus'], []]);
      expect((await h.call('PUT', `/session/${room.sessionId}/stream`, { body: { items: [{ id: a, layoutClassList: 'full' }] } })).status).toBe(400);
    });
  });

  describe('DTMF', () => {
    it('plays to all or one connection and validates digits', async () => {
      const room = h.room({ clients: 2 });
      const [first] = room.connections as [string];
      expect((await h.call('POST', `/session/${room.sessionId}/play-dtmf`, { body: { digits: '1p2#*' } })).status).toBe(200);
      const one = await h.call('POST', `/session/${room.sessionId}/connection/${first}/play-dtmf`, { body: { digits: '9' } });
      expect(one.status).toBe(200);
      expect(h.control.dtmfReceived(h.apiKey, room.sessionId, first).map((r) => r.digits)).toEqual(['1p2#*', '9']);
      expect(h.control.dtmfReceived(h.apiKey, room.sessionId).map((r) => r.target)).toEqual(['all', first]);
      const bad = await h.call('POST', `/session/${room.sessionId}/play-dtmf`, { body: { digits: '12a' } });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({ code: 400, message: 'Invalid DTMF Digits' });
      expect((await h.call('POST', `/session/${room.sessionId}/play-dtmf`, { body: { digits: '' } })).status).toBe(400);
      const stranger = '00000000-0000-4000-8000-000000000000';
      expect((await h.call('POST', `/session/${room.sessionId}/connection/${stranger}/play-dtmf`, { body: { digits: '1' } })).status).toBe(404);
    });
  });
});

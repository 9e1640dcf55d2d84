import { Harness } from './helpers';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const MIN = 60_000;

describe('emulator archives', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.start();
  });
  afterAll(() => h.close());

  const start = (body: Record<string, unknown>) => h.call('POST', '/archive', { body });
  const get = (id: string) => h.call('GET', `/archive/${id}`);

  describe('start', () => {
    it('answers the fixture shape with status started and an integer projectId', async () => {
      const { sessionId } = h.room();
      const res = await start({ sessionId, name: 'Weekly', resolution: '1280x720', hasVideo: false });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        createdAt: h.control.now(),
        duration: 0,
        hasAudio: true,
        hasVideo: false,
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Weekly',
        outputMode: 'composed',
        projectId: Number(h.apiKey),
        partnerId: Number(h.apiKey),
        reason: '',
        resolution: '1280x720',
        sessionId,
        size: 0,
        status: 'started',
        streamMode: 'auto',
        streams: [],
        url: null,
      });
    });

    it('has no resolution for individual archives and echoes multiArchiveTag', async () => {
      const { sessionId } = h.room();
      const res = await start({ sessionId, outputMode: 'individual', multiArchiveTag: 'tag-1' });
      expect(res.json.resolution).toBeUndefined();
      expect(res.json).toMatchObject({ outputMode: 'individual', multiArchiveTag: 'tag-1' });
    });

    it.each([
      ['a missing sessionId', { sessionId: undefined }],
      ['a malformed sessionId', { sessionId: 'nope' }],
      ['hasAudio and hasVideo both false', { hasAudio: false, hasVideo: false }],
      ['an unknown resolution', { resolution: '800x600' }],
      ['resolution with individual', { outputMode: 'individual', resolution: '640x480' }],
      ['a layout with individual', { outputMode: 'individual', layout: { type: 'bestFit' } }],
      ['a name over 255 characters', { name: 'n'.repeat(256) }],
      ['an unknown layout type', { layout: { type: 'grid' } }],
      ['rule 1: stylesheet without custom', { layout: { type: 'bestFit', stylesheet: 'a {}' } }],
      ['rule 1: custom without stylesheet', { layout: { type: 'custom' } }],
      ['rule 2: screenshareType with another type', { layout: { type: 'pip', screenshareType: 'pip' } }],
      ['rule 3: an unknown screenshareType', { layout: { type: 'bestFit', screenshareType: 'mosaic' } }],
      ['rule 5: pip without layout classes on streams', { layout: { type: 'pip' } }],
      ['an unknown outputMode', { outputMode: 'both' }],
    ])('rejects %s with 400', async (_label, body) => {
      const { sessionId } = h.room();
      const res = await start({ sessionId, ...body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 400, message: expect.any(String) });
    });

    it('accepts a layout with screenshareType and a non-bestFit layout once streams carry classes', async () => {
      const { sessionId } = h.room();
      expect((await start({ sessionId, layout: { type: 'bestFit', screenshareType: 'horizontalPresentation' } })).status).toBe(200);
      const other = h.control.createSession(h.apiKey);
      h.control.publish(h.apiKey, other, h.control.connect(h.apiKey, other), { layoutClassList: ['focus'] });
      expect((await start({ sessionId: other, layout: { type: 'custom', stylesheet: '.focus { width: 100% }' } })).status).toBe(200);
    });

    it('answers 404 for an unknown session or one without connected clients, 409 for a relayed one', async () => {
      const room = h.room();
      expect((await start({ sessionId: `${room.sessionId}x` })).status).toBe(404);
      const empty = h.control.createSession(h.apiKey);
      expect((await start({ sessionId: empty })).status).toBe(404);
      const relayed = h.room({ mediaMode: 'relayed' });
      expect((await start({ sessionId: relayed.sessionId })).status).toBe(409);
    });

    it('allows simultaneous archives only with unique multiArchiveTags', async () => {
      const { sessionId } = h.room();
      expect((await start({ sessionId })).status).toBe(200);
      expect((await start({ sessionId })).status).toBe(409);
      expect((await start({ sessionId, multiArchiveTag: 'a' })).status).toBe(200);
      expect((await start({ sessionId, multiArchiveTag: 'a' })).status).toBe(409);
      expect((await start({ sessionId, multiArchiveTag: 'b' })).status).toBe(200);
    });
  });

  describe('stop, get, list, delete', () => {
    it('stops with reason user initiated, then 409; unknown archives are 404', async () => {
      const { sessionId } = h.room();
      const { json } = await start({ sessionId });
      h.control.advanceTime(30_000);
      const stopped = await h.call('POST', `/archive/${json.id}/stop`);
      expect(stopped.status).toBe(200);
      expect(stopped.json).toMatchObject({ status: 'stopped', reason: 'user initiated', size: 0, url: null, duration: 30 });
      const again = await h.call('POST', `/archive/${json.id}/stop`);
      expect(again.status).toBe(409);
      expect(again.json).toEqual({ code: 409, message: expect.any(String) });
      expect((await h.call('POST', `/archive/${UNKNOWN}/stop`)).status).toBe(404);
    });

    it('becomes available after processing with duration, size and a fresh 10-minute download URL', async () => {
      const { sessionId } = h.room();
      const { json } = await start({ sessionId });
      h.control.advanceTime(62_000);
      await h.call('POST', `/archive/${json.id}/stop`);
      h.control.advanceTime(4_999);
      expect((await get(json.id)).json.status).toBe('stopped');
      h.control.advanceTime(1);
      const first = await get(json.id);
      expect(first.json).toMatchObject({ status: 'available', duration: 62, reason: 'user initiated' });
      expect(first.json.size).toBeGreaterThan(0);
      expect(first.json.url).toMatch(new RegExp(`^${h.emu.baseUrl}/archive-files/${h.apiKey}/${json.id}/archive.mp4\\?Expires=\\d+&Signature=\\w+$`));
      const download = await fetch(first.json.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('video/mp4');
      h.control.advanceTime(1_000);
      const second = await get(json.id);
      expect(second.json.url).not.toBe(first.json.url);
      h.control.advanceTime(10 * MIN);
      expect((await fetch(first.json.url)).status).toBe(403);
      expect((await fetch(`${first.json.url}0`)).status).toBe(403);
    });

    it('lists newest first with offset, count, sessionId and total count; excludes deleted archives', async () => {
      const { sessionId } = h.room();
      const ids: string[] = [];
      for (const tag of ['one', 'two', 'three']) {
        ids.push((await start({ sessionId, multiArchiveTag: tag })).json.id);
        h.control.advanceTime(1_000);
      }
      const page = await h.call('GET', `/archive?sessionId=${sessionId}&offset=1&count=1`);
      expect(page.json.count).toBe(3);
      expect(page.json.items.map((a: { id: string }) => a.id)).toEqual([ids[1]]);
      const all = await h.call('GET', `/archive?sessionId=${sessionId}`);
      expect(all.json.items.map((a: { id: string }) => a.id)).toEqual([...ids].reverse());
      for (const id of ids) await h.call('POST', `/archive/${id}/stop`);
      h.control.advanceTime(5_000);
      expect((await h.call('DELETE', `/archive/${ids[0]}`)).status).toBe(204);
      const after = await h.call('GET', `/archive?sessionId=${sessionId}`);
      expect(after.json.count).toBe(2);
      expect((await get(ids[0] ?? '')).json.status).toBe('deleted');
      expect((await h.call('DELETE', `/archive/${ids[0]}`)).status).toBe(204);
      expect((await h.call('GET', '/archive?count=1001')).status).toBe(400);
      expect((await h.call('GET', '/archive?offset=-1')).status).toBe(400);
      expect((await h.call('GET', '/archive?count=1000')).status).toBe(200);
    });

    it('deletes only available or uploaded archives (409 otherwise, 403 for unknown ids)', async () => {
      const { sessionId } = h.room();
      const { json } = await start({ sessionId });
      expect((await h.call('DELETE', `/archive/${json.id}`)).status).toBe(409);
      expect((await h.call('DELETE', `/archive/${UNKNOWN}`)).status).toBe(403);
      expect((await get('bad-id')).status).toBe(400);
      expect((await get(UNKNOWN)).status).toBe(404);
    });
  });

  describe('lifecycle on the clock', () => {
    it('pauses when nobody publishes, resumes on publish, stops after 60 minutes without publishers', async () => {
      const room = h.room();
      const { json } = await start({ sessionId: room.sessionId });
      h.control.advanceTime(10_000);
      h.control.unpublish(h.apiKey, room.sessionId, room.streams[0] ?? '');
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('paused');
      h.control.advanceTime(5 * MIN);
      h.control.publish(h.apiKey, room.sessionId, room.connections[0] ?? '');
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('started');
      h.control.advanceTime(20_000);
      const stream = h.control.getSession(h.apiKey, room.sessionId).streams[0]?.streamId ?? '';
      h.control.unpublish(h.apiKey, room.sessionId, stream);
      h.control.advanceTime(60 * MIN - 1);
      expect((await get(json.id)).json.status).toBe('paused');
      h.control.advanceTime(1);
      const stopped = await get(json.id);
      expect(stopped.json).toMatchObject({ status: 'stopped', reason: 'maximum idle time exceeded', duration: 30 });
    });

    it('pauses when every client disconnects and stops 60 s later with session ended', async () => {
      const room = h.room();
      const { json } = await start({ sessionId: room.sessionId });
      h.control.advanceTime(5_000);
      h.control.disconnect(h.apiKey, room.sessionId, room.connections[0] ?? '');
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('paused');
      h.control.advanceTime(59_999);
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('paused');
      h.control.advanceTime(1);
      expect(h.control.getArchive(h.apiKey, json.id)).toMatchObject({ status: 'stopped', reason: 'session ended', duration: 5 });
      h.control.advanceTime(5_000);
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('available');
    });

    it('pauses right after starting when the connected clients do not publish', async () => {
      const sessionId = h.control.createSession(h.apiKey);
      h.control.connect(h.apiKey, sessionId);
      const { json } = await start({ sessionId });
      expect(json.status).toBe('started');
      expect((await get(json.id)).json.status).toBe('paused');
    });

    it('stops at 4 hours of recording with maximum duration exceeded', async () => {
      const { sessionId } = h.room();
      const { json } = await start({ sessionId });
      h.control.advanceTime(4 * 60 * MIN);
      expect((await get(json.id)).json).toMatchObject({ status: 'stopped', reason: 'maximum duration exceeded', duration: 14_400 });
    });

    it('is uploaded (url null) when an upload target is set', async () => {
      const other = await Harness.start();
      try {
        const target = { type: 's3', config: { accessKey: 'AK', secretKey: 'SK', bucket: 'rec' }, fallback: 'none' };
        expect((await other.call('PUT', '/archive/storage', { body: target })).status).toBe(200);
        const { sessionId } = other.room();
        const { json } = await other.call('POST', '/archive', { body: { sessionId } });
        await other.call('POST', `/archive/${json.id}/stop`);
        other.control.advanceTime(5_000);
        expect((await other.call('GET', `/archive/${json.id}`)).json).toMatchObject({ status: 'uploaded', url: null });
      } finally {
        await other.close();
      }
    });

    it('auto-archives archiveMode=always sessions on first publish and continues with a new file after 4 hours', async () => {
      const sessionId = h.control.createSession(h.apiKey, { archiveMode: 'always', archiveName: 'auto', archiveResolution: '1280x720' });
      const c = h.control.connect(h.apiKey, sessionId);
      expect((await h.call('GET', `/archive?sessionId=${sessionId}`)).json.count).toBe(0);
      h.control.publish(h.apiKey, sessionId, c);
      const first = (await h.call('GET', `/archive?sessionId=${sessionId}`)).json.items[0];
      expect(first).toMatchObject({ status: 'started', name: 'auto', resolution: '1280x720' });
      const stop = await h.call('POST', `/archive/${first.id}/stop`);
      expect(stop.status).toBe(200);
      expect(stop.json.status).toBe('started');
      expect((await start({ sessionId })).status).toBe(409);
      expect((await start({ sessionId, multiArchiveTag: 'manual-copy' })).status).toBe(200);
      h.control.advanceTime(4 * 60 * MIN + 5_000);
      const list = (await h.call('GET', `/archive?sessionId=${sessionId}`)).json;
      const automatic = list.items.filter((a: { name: string }) => a.name === 'auto');
      expect(automatic.map((a: { status: string; reason: string }) => [a.status, a.reason])).toEqual([
        ['started', ''],
        ['available', 'maximum duration exceeded'],
      ]);
    });

    it('follows the statuses pushed from outside', async () => {
      const { sessionId } = h.room();
      const { json } = await start({ sessionId });
      h.control.setArchiveStatus(h.apiKey, json.id, 'failed');
      expect((await get(json.id)).json).toMatchObject({ status: 'failed', reason: 'failure', url: null });
      h.control.setArchiveStatus(h.apiKey, json.id, 'expired');
      expect((await get(json.id)).json.status).toBe('expired');
    });
  });

  describe('layout and stream selection', () => {
    it('changes the layout of a recording composed archive only', async () => {
      const { sessionId } = h.room();
      const composed = (await start({ sessionId })).json;
      const individual = (await start({ sessionId, outputMode: 'individual', multiArchiveTag: 'i' })).json;
      const layout = { type: 'bestFit', screenshareType: 'pip' };
      expect((await h.call('PUT', `/archive/${composed.id}/layout`, { body: layout })).status).toBe(200);
      expect(h.control.getArchive(h.apiKey, composed.id).layout).toEqual(layout);
      expect((await h.call('PUT', `/archive/${individual.id}/layout`, { body: layout })).status).toBe(400);
      expect((await h.call('PUT', `/archive/${composed.id}/layout`, { body: { type: 'pip' } })).status).toBe(400);
      expect((await h.call('PUT', `/archive/${composed.id}/layout`, { body: '{' })).status).toBe(400);
      await h.call('POST', `/archive/${composed.id}/stop`);
      expect((await h.call('PUT', `/archive/${composed.id}/layout`, { body: layout })).status).toBe(409);
      expect((await h.call('PUT', `/archive/${UNKNOWN}/layout`, { body: layout })).status).toBe(404);
    });

    it('adds, toggles and removes streams of a manual archive', async () => {
      const room = h.room({ clients: 2 });
      const [a, b] = room.streams as [string, string];
      const manual = (await start({ sessionId: room.sessionId, streamMode: 'manual' })).json;
      expect(manual.streams).toEqual([]);
      const patch = (body: unknown) => h.call('PATCH', `/archive/${manual.id}/streams`, { body });
      expect((await patch({ addStream: a })).status).toBe(204);
      expect((await patch({ addStream: b, hasVideo: false })).status).toBe(204);
      expect((await patch({ addStream: a, hasAudio: false })).status).toBe(204);
      expect((await get(manual.id)).json.streams).toEqual([
        { streamId: a, hasAudio: false, hasVideo: true },
        { streamId: b, hasAudio: true, hasVideo: false },
      ]);
      expect((await patch({ removeStream: b })).status).toBe(204);
      expect((await patch({ removeStream: b })).status).toBe(404);
      expect((await patch({ addStream: UNKNOWN })).status).toBe(404);
      expect((await patch({ addStream: a, hasAudio: false, hasVideo: false })).status).toBe(400);
      expect((await patch({})).status).toBe(400);
      const auto = (await start({ sessionId: room.sessionId, multiArchiveTag: 'auto' })).json;
      expect((await h.call('PATCH', `/archive/${auto.id}/streams`, { body: { addStream: a } })).status).toBe(400);
    });
  });

  describe('upload target', () => {
    it('validates, echoes the body, and deletes (404 when none)', async () => {
      const other = await Harness.start();
      try {
        const put = (body: unknown) => other.call('PUT', '/archive/storage', { body });
        const blob = { type: 'blobstore', config: { accountName: 'acct', accountKey: 'k', container: 'c', domain: 'd.example' }, fallback: 'service' };
        const ok = await put(blob);
        expect(ok.status).toBe(200);
        expect(ok.json).toEqual(blob);
        expect(other.control.uploadTarget(other.apiKey)).toEqual(blob);
        expect((await put({ config: {} })).status).toBe(400);
        expect((await put({ type: 'gcs', config: {} })).status).toBe(400);
        expect((await put({ type: 's3' })).status).toBe(400);
        expect((await put({ type: 's3', config: { accessKey: 'a', secretKey: 's' } })).status).toBe(400);
        expect((await put({ type: 's3', config: { accessKey: 'a', secretKey: 's', bucket: 'b', endpoint: 'ftp://x' } })).status).toBe(400);
        expect((await put({ ...blob, fallback: 'maybe' })).status).toBe(400);
        expect((await put('{oops')).status).toBe(400);
        expect((await other.call('DELETE', '/archive/storage')).status).toBe(204);
        expect((await other.call('DELETE', '/archive/storage')).status).toBe(404);
      } finally {
        await other.close();
      }
    });
  });
});

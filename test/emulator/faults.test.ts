import { Harness } from './helpers';

describe('emulator faults, latency, control plane and unknown routes', () => {
  let h: Harness;
  let sessionId: string;

  beforeAll(async () => {
    h = await Harness.start();
  });
  beforeEach(() => {
    h.control.clearFaults();
    h.control.setLatency(0);
    sessionId = h.room().sessionId;
  });
  afterAll(() => h.close());

  const list = () => h.call('GET', `/session/${sessionId}/stream`);

  it('answers an injected status once (count) and then normally', async () => {
    h.control.injectFault({ path: '/stream', kind: 'status', status: 503, count: 2 });
    expect((await list()).status).toBe(503);
    const second = await list();
    expect(second.json).toEqual({ code: 503, message: 'Injected fault' });
    expect((await list()).status).toBe(200);
  });

  it('sends Retry-After with a 429 and matches method and regex paths', async () => {
    h.control.injectFault({ method: 'GET', path: 'session/[^/]+/stream$', kind: 'status', status: 429, retryAfterSeconds: 2 });
    expect((await h.call('POST', `/session/${sessionId}/signal`, { body: { data: 'x' } })).status).toBe(204);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
  });

  it('answers malformed JSON with 200', async () => {
    h.control.injectFault({ path: '/stream', kind: 'malformed' });
    const res = await list();
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('resets the connection without answering', async () => {
    h.control.injectFault({ path: '/stream', kind: 'reset' });
    await expect(list()).rejects.toThrow();
    expect((await list()).status).toBe(200);
  });

  it('hangs without answering until the client gives up', async () => {
    h.control.injectFault({ path: '/stream', kind: 'hang' });
    const url = `${h.emu.baseUrl}/v2/project/${h.apiKey}/session/${sessionId}/stream`;
    await expect(fetch(url, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(h.control.requestLog().at(-1)).toMatchObject({ method: 'GET', status: 0 });
  });

  it('delays answers by the configured latency and logs every public call', async () => {
    h.control.setLatency(150);
    const before = h.control.requestLog().length;
    const t0 = Date.now();
    expect((await list()).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const log = h.control.requestLog();
    expect(log).toHaveLength(before + 1);
    expect(log.at(-1)).toMatchObject({ method: 'GET', path: `/v2/project/${h.apiKey}/session/${sessionId}/stream`, status: 200 });
  });

  it('answers unknown routes and unknown methods with a 404 JSON body, invalid JSON with 400', async () => {
    const unknown = await h.call('GET', '//nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 404, message: expect.any(String) });
    expect((await h.call('PATCH', `/session/${sessionId}/stream`)).status).toBe(404);
    // Insights answers only POST /insights/graphql (see insights.http.test.ts); other paths are unknown.
    const insights = await h.call('POST', '//insights/other', { body: { query: '{ project }' } });
    expect(insights.status).toBe(404);
    expect(insights.json).toEqual({ code: 404, message: expect.any(String) });
    const invalid = await h.call('POST', '/archive', { body: '{"sessionId": ' });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toEqual({ code: 400, message: 'Invalid JSON in request body' });
    const wrongType = await h.call('POST', '/archive', { body: JSON.stringify({ sessionId }), headers: { 'Content-Type': 'text/plain' } });
    expect(wrongType.status).toBe(400);
  });

  it('exposes the control plane over HTTP under /_emulator', async () => {
    const base = `${h.emu.baseUrl}/_emulator`;
    const post = async (path: string, body?: unknown): Promise<{ status: number; json: any }> => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: res.status === 204 ? undefined : await res.json() };
    };
    const getJson = async (path: string): Promise<any> => (await fetch(`${base}${path}`)).json();
    const project = await post('/projects', { apiKey: 'http-key', apiSecret: 'http-secret' });
    expect(project.json).toEqual({ apiKey: 'http-key', apiSecret: 'http-secret' });
    const { sessionId: sid } = (await post('/projects/http-key/sessions', { mediaMode: 'routed' })).json;
    const { connectionId } = (await post(`/projects/http-key/sessions/${sid}/connections`, { data: 'name=ann' })).json;
    const { streamId } = (await post(`/projects/http-key/sessions/${sid}/streams`, { connectionId, videoType: 'screen' })).json;
    const state = await getJson(`/state/projects/http-key/sessions/${sid}`);
    expect(state.streams).toEqual([expect.objectContaining({ streamId, videoType: 'screen', muted: false })]);
    const before = (await getJson('/clock')).now;
    expect((await post('/clock/advance', { ms: 1_500 })).json.now).toBe(before + 1_500);
    expect((await post('/faults', { path: '/nowhere', kind: 'teapot' })).status).toBe(400);
    expect((await post('/faults', { path: '/stream', kind: 'status', status: 418 })).status).toBe(204);
    expect((await list()).status).toBe(418);
    expect((await post('/transitions', { hlsReadyMs: 1 })).json.hlsReadyMs).toBe(1);
    expect((await post('/transitions', { noSuchTiming: 1 })).status).toBe(400);
    expect((await getJson('/account')).key).toBe(h.control.account.key);
    expect((await fetch(`${base}/state/projects/nope`)).status).toBe(404);
    expect(Array.isArray(await getJson('/state/requests'))).toBe(true);
  });

  it('resets everything with reset()', async () => {
    const other = await Harness.start();
    try {
      other.room();
      other.control.advanceTime(10_000);
      other.control.setLatency(100);
      other.control.reset();
      expect(other.control.now()).toBe(Date.parse('2026-11-02T17:00:00Z'));
      expect(other.control.requestLog()).toEqual([]);
      expect(() => other.control.getProject(other.apiKey)).toThrow();
    } finally {
      await other.close();
    }
  });
});

import { accountToken, jwt, projectToken } from './helpers';
import { codes, HOUR, InsightsHarness, MINUTE } from './insights-helpers';

/** `POST {insightsUrl}/graphql` over HTTP: methods, bodies, authentication, limits. */

const PING = (key: string) => `{ project(projectId: "${key}") { projectId } }`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Insights over HTTP', () => {
  let h: InsightsHarness;

  beforeAll(async () => {
    h = await InsightsHarness.start({ accountKey: 'acct-9', accountSecret: 'account-secret' });
  });
  afterAll(() => h.close());

  it('answers POST with application/json, also with a trailing slash', async () => {
    const res = await h.query(PING(h.apiKey));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ data: { project: { projectId: h.apiKey } } });
    const slash = await fetch(`${h.emu.insightsUrl}/graphql/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-AUTH': await projectToken(h.apiKey, h.apiSecret) },
      body: JSON.stringify({ query: PING(h.apiKey) }),
    });
    expect(slash.status).toBe(200);
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])('refuses %s with 405 (POST only)', async (method) => {
    const res = await h.query(PING(h.apiKey), { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.json.errors[0].message).toMatch(/POST/);
  });

  it('goes through injected faults and the request log like the REST routes', async () => {
    h.control.injectFault({ path: '/insights/graphql', kind: 'status', status: 429, retryAfterSeconds: 7, body: '{"errors":[{"message":"slow down"}]}' });
    const faulted = await h.query(PING(h.apiKey));
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get('retry-after')).toBe('7');
    expect(faulted.json).toEqual({ errors: [{ message: 'slow down' }] });
    expect((await h.query(PING(h.apiKey))).status).toBe(200);
    expect(h.control.requestLog().slice(-2)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/insights/graphql', status: 429 }),
      expect.objectContaining({ method: 'POST', path: '/insights/graphql', status: 200 }),
    ]);
  });

  it('answers 404 for other paths under the Insights URL', async () => {
    const res = await fetch(`${h.emu.insightsUrl}/graphiql`, { method: 'POST' });
    expect(res.status).toBe(404);
  });

  it.each([
    ['a body that is not JSON', { body: '{query', headers: {} }, 1004],
    ['a non-JSON content type', { body: 'query { x }', headers: { 'Content-Type': 'application/graphql' } }, 1004],
    ['no query', { body: '{}', headers: {} }, 1013],
    ['a query that is not a string', { body: '{"query": 5}', headers: {} }, 1022],
    ['variables that are not an object', { body: '{"query": "{ __typename }", "variables": [1]}', headers: {} }, 1022],
  ])('answers 400 for %s', async (_label, opts, code) => {
    const res = await h.query('', opts);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: [{ message: expect.any(String), errorCode: code, extensions: { errorCode: code } }] });
  });

  describe('authentication (X-SERVICE-AUTH: project JWT, iss = project ID)', () => {
    const refused = async (token: string | null, code: number) => {
      const res = await h.query(PING(h.apiKey), { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ errors: [{ message: expect.any(String), errorCode: code, extensions: { errorCode: code } }] });
      return res;
    };

    it('1001 without a header', async () => {
      await refused(null, 1001);
      await refused('  ', 1001);
    });

    it('1011 for a token that is not a valid JWT: garbage, other algorithm, wrong secret, expired', async () => {
      await refused('not-a-jwt', 1011);
      await refused('Bearer abc.def.ghi', 1011);
      await refused(await projectToken(h.apiKey, 'wrong-secret'), 1011);
      await refused(await projectToken(h.apiKey, h.apiSecret, { iat: nowSeconds() - 400, exp: nowSeconds() - 100 }), 1011);
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: h.apiKey, ist: 'project' })).toString('base64url')}.`;
      await refused(unsigned, 1011);
    });

    it('1000 for an unknown or missing issuer', async () => {
      await refused(await projectToken('12345678', h.apiSecret), 1000);
      await refused(await jwt(h.apiSecret, { ist: 'project', iat: nowSeconds(), exp: nowSeconds() + 60 }), 1000);
      // The account key is no project: account tokens are not for Insights.
      await refused(await accountToken('acct-9', 'account-secret'), 1000);
    });

    it('1020 when iat / exp cannot be validated (missing, or more than 5 minutes apart)', async () => {
      await refused(await projectToken(h.apiKey, h.apiSecret, { iat: undefined }), 1020);
      await refused(await projectToken(h.apiKey, h.apiSecret, { exp: undefined }), 1020);
      await refused(await projectToken(h.apiKey, h.apiSecret, { iat: nowSeconds(), exp: nowSeconds() + 301 }), 1020);
    });

    it('1021 for a non-project token or a suspended project', async () => {
      await refused(await projectToken(h.apiKey, h.apiSecret, { ist: 'account' }), 1021);
      await refused(await projectToken(h.apiKey, h.apiSecret, { ist: undefined }), 1021);
      const put = async (status: string) =>
        fetch(`${h.emu.baseUrl}/v2/project/${h.apiKey}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', 'X-SERVICE-AUTH': await accountToken('acct-9', 'account-secret') },
          body: JSON.stringify({ status }),
        });
      expect((await put('SUSPENDED')).status).toBe(200);
      try {
        const res = await refused(await projectToken(h.apiKey, h.apiSecret), 1021);
        expect(res.json.errors[0].message).toMatch(/suspended/);
      } finally {
        expect((await put('ACTIVE')).status).toBe(200);
      }
      expect((await h.query(PING(h.apiKey))).status).toBe(200);
    });

    it('1019 when the token was issued for another project than the one asked for', async () => {
      const other = h.control.createProject();
      const res = await h.query(PING(other.apiKey));
      expect(res.status).toBe(200);
      expect(codes(res)).toEqual([1019]);
    });
  });
});

describe('Insights control plane over HTTP', () => {
  it('creates projects with Insights options and connections with client details', async () => {
    const h = await InsightsHarness.start({ startTime: Date.parse('2026-10-05T16:00:00Z') });
    try {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${h.emu.baseUrl}/_emulator${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, json: (res.status === 204 ? undefined : await res.json()) as any };
      };
      const project = await post('/projects', { advancedInsights: true, syntheticHistory: false });
      expect(project.status).toBe(200);
      const key = project.json.apiKey as string;
      expect(h.control.getProject(key).insights).toEqual({ advancedInsights: true, syntheticHistory: false });
      expect(h.control.getProject(h.control.createProject().apiKey).insights).toEqual({ advancedInsights: false, syntheticHistory: true });
      const { sessionId } = (await post(`/projects/${key}/sessions`, {})).json;
      const ios = (
        await post(`/projects/${key}/sessions/${sessionId}/connections`, { client: { sdkType: 'IOS', sdkVersion: '2.27.3', country: 'ES', region: 'ES-MD' } })
      ).json.connectionId;
      const web = (await post(`/projects/${key}/sessions/${sessionId}/connections`, { client: { browser: 'SAFARI', browserVersion: '18.1' } })).json
        .connectionId;
      expect((await post(`/projects/${key}/sessions/${sessionId}/connections`, { client: { sdkType: 'BASIC' } })).status).toBe(400);
      await post(`/projects/${key}/sessions/${sessionId}/streams`, { connectionId: ios });
      await post(`/projects/${key}/sessions/${sessionId}/streams`, { connectionId: web });
      await post('/clock/advance', { ms: 30 * MINUTE });
      expect((await fetch(`${h.emu.baseUrl}/_emulator/projects/${key}/sessions/${sessionId}/connections/${ios}`, { method: 'DELETE' })).status).toBe(204);
      expect((await fetch(`${h.emu.baseUrl}/_emulator/projects/${key}/sessions/${sessionId}/connections/${web}`, { method: 'DELETE' })).status).toBe(204);
      await post('/clock/advance', { ms: 3 * 24 * HOUR });
      const creds = { apiKey: key, apiSecret: h.control.getProject(key).secret };
      const res = await h.query(
        `{ project(projectId: ${key}) { projectData(start: "2026-10-05", groupBy: [SDK_TYPE, SDK_VERSION, COUNTRY, REGION, BROWSER, BROWSER_VERSION]) { resources { sdkType sdkVersion country region browser browserVersion usage { streamedPublishedMinutes } } } } }`,
        {},
        creds,
      );
      expect(res.json.data.project.projectData.resources).toEqual([
        { sdkType: 'IOS', sdkVersion: '2.27.3', country: 'ES', region: 'ES-MD', browser: null, browserVersion: null, usage: { streamedPublishedMinutes: 30 } },
        {
          sdkType: 'JS',
          sdkVersion: '2.28.0',
          country: 'US',
          region: 'US-CA',
          browser: 'SAFARI',
          browserVersion: '18.1',
          usage: { streamedPublishedMinutes: 30 },
        },
      ]);
      const bad = await post('/insights/limits', {});
      expect(bad.status).toBe(400);
    } finally {
      await h.close();
    }
  });
});

describe('Insights limits (when enforced)', () => {
  it('allows 100 requests per 30 s per API key, then answers 429 with Retry-After until the window moves', async () => {
    const h = await InsightsHarness.start();
    try {
      const other = h.control.createProject();
      expect(h.control.insightsLimits()).toEqual({ enforce: false });
      const token = await projectToken(h.apiKey, h.apiSecret);
      // Not enforced: no limit.
      for (let i = 0; i < 105; i += 1) expect((await h.query(PING(h.apiKey), { token })).status).toBe(200);

      const on = await fetch(`${h.emu.baseUrl}/_emulator/insights/limits`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ enforce: true }),
      });
      expect(await on.json()).toEqual({ enforce: true });
      for (let i = 0; i < 60; i += 1) expect((await h.query(PING(h.apiKey), { token })).status).toBe(200);
      h.control.advanceTime(20_000);
      for (let i = 0; i < 40; i += 1) expect((await h.query(PING(h.apiKey), { token })).status).toBe(200);
      const limited = await h.query(PING(h.apiKey), { token });
      expect(limited.status).toBe(429);
      // The first 60 leave the window 10 s from now.
      expect(limited.headers.get('retry-after')).toBe('10');
      expect(limited.json).toEqual({ errors: [{ message: expect.stringMatching(/Too many requests/), extensions: { code: 'TOO_MANY_REQUESTS' } }] });
      // Another key has its own window.
      expect((await h.query(PING(other.apiKey), {}, other)).status).toBe(200);
      h.control.advanceTime(10_000);
      expect((await h.query(PING(h.apiKey), { token })).status).toBe(200);
      const state = await fetch(`${h.emu.baseUrl}/_emulator/insights/limits`);
      expect(await state.json()).toEqual({ enforce: true });
      h.control.reset();
      expect(h.control.insightsLimits()).toEqual({ enforce: false });
    } finally {
      await h.close();
    }
  });

  it('refuses an answer of more than 500,000 nodes', async () => {
    const h = await InsightsHarness.start();
    try {
      const { control, apiKey } = h;
      const sid = control.createSession(apiKey);
      const conns = [0, 1, 2, 3].map(() => control.connect(apiKey, sid));
      for (const c of conns) control.publish(apiKey, sid, c);
      control.advanceTime(6 * HOUR);
      for (const c of conns) control.disconnect(apiKey, sid, c);
      control.advanceTime(10 * MINUTE);
      const stats =
        'streamStatsCollection(first: 1000) { resources { createdAt hasAudio hasVideo audioBitrateKbps videoBitrateKbps audioLatencyMs videoLatencyMs audioPacketLossRatio videoPacketLossRatio videoResolution audioCodec videoCodec } }';
      const one = (alias: string) =>
        `${alias}: sessions(sessionIds: ["${sid}"]) { resources { meetings { resources { publishers { resources { ${stats} } } subscribers { resources { ${stats} } } } } } }`;
      const query = `{ project(projectId: "${apiKey}") { sessionData { ${['a', 'b', 'c', 'd'].map(one).join(' ')} } } }`;

      control.setInsightsLimits({ enforce: true });
      const refused = await h.query(query);
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        errors: [{ message: expect.stringMatching(/^Query too large: \d+ nodes, at most 500000/), errorCode: 1004, extensions: { errorCode: 1004 } }],
      });
      // 4 aliases x (4 publishers + 12 subscribers) x 720 samples x (1 + 12 fields), plus the levels above.
      const counted = Number(/(\d+) nodes/.exec(refused.json.errors[0].message)?.[1]);
      expect(counted).toBeGreaterThan(4 * 16 * 720 * 13);
      // A quarter of it is answered, and has a quarter of the nodes.
      const small = await h.query(`{ project(projectId: "${apiKey}") { sessionData { ${one('a')} } } }`);
      expect(small.status).toBe(200);
      expect(countNodes(small.json.data)).toBe((counted - 2) / 4 + 2);
      control.setInsightsLimits({ enforce: false });
    } finally {
      await h.close();
    }
  });
});

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + 1 + countNodes(v), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + 1 + countNodes(v), 0);
  return 0;
}

import { Harness, accountToken, jwt, projectToken } from './helpers';

describe('emulator REST authentication', () => {
  let h: Harness;
  let sessionId: string;

  beforeAll(async () => {
    h = await Harness.start();
    sessionId = h.room().sessionId;
  });
  afterAll(() => h.close());

  const listStreams = (token: string | null) => h.call('GET', `/session/${sessionId}/stream`, { token });

  it('accepts a fresh project token', async () => {
    const res = await listStreams(await projectToken(h.apiKey, h.apiSecret));
    expect(res.status).toBe(200);
  });

  it.each([
    ['a missing header', async () => null],
    ['garbage', async () => 'not-a-jwt'],
    ['a bad signature', async () => projectToken(h.apiKey, 'wrong-secret')],
    ['an unknown issuer', async () => projectToken('99999999', h.apiSecret)],
    ['ist=account on a project call', async () => projectToken(h.apiKey, h.apiSecret, { ist: 'account' })],
    ['a missing ist', async () => projectToken(h.apiKey, h.apiSecret, { ist: undefined })],
    [
      'an expired token',
      async () => projectToken(h.apiKey, h.apiSecret, { iat: Math.floor(Date.now() / 1000) - 200, exp: Math.floor(Date.now() / 1000) - 10 }),
    ],
    ['a lifetime over 5 minutes', async () => projectToken(h.apiKey, h.apiSecret, { exp: Math.floor(Date.now() / 1000) + 301 })],
    ['a missing iat', async () => projectToken(h.apiKey, h.apiSecret, { iat: undefined })],
    ['a missing exp', async () => projectToken(h.apiKey, h.apiSecret, { exp: undefined })],
  ])('rejects %s with 403 {code, message}', async (_label, make) => {
    const res = await listStreams(await make());
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 403, message: expect.any(String) });
  });

  it('rejects a token whose iss is another project than the path key', async () => {
    const other = h.control.createProject();
    const res = await listStreams(await projectToken(other.apiKey, other.apiSecret));
    expect(res.status).toBe(403);
  });

  it('rejects a token signed with HS512', async () => {
    const { SignJWT } = await import('jose');
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ iss: h.apiKey, ist: 'project', iat, exp: iat + 60 })
      .setProtectedHeader({ alg: 'HS512' })
      .sign(new TextEncoder().encode(h.apiSecret));
    expect((await listStreams(token)).status).toBe(403);
  });

  it('judges expiry on the wall clock, so advancing emulator time does not expire fresh tokens', async () => {
    h.control.advanceTime(6 * 3600_000);
    expect((await listStreams(await projectToken(h.apiKey, h.apiSecret))).status).toBe(200);
  });

  it('refuses project-administration calls with a project token and project calls with the account token', async () => {
    const { key, secret } = h.control.account;
    const admin = await h.call('GET', '//v2/project', { token: await projectToken(h.apiKey, h.apiSecret) });
    expect(admin.status).toBe(403);
    const project = await listStreams(await accountToken(key, secret));
    expect(project.status).toBe(403);
    const ok = await h.call('GET', '//v2/project', { token: await accountToken(key, secret) });
    expect(ok.status).toBe(200);
  });

  it('refuses every call of a suspended project until it is activated again', async () => {
    const { key, secret } = h.control.account;
    const p = h.control.createProject();
    const s = h.control.createSession(p.apiKey);
    const url = `//v2/project/${p.apiKey}/session/${s}/mute`;
    const admin = async (status: string) => h.call('PUT', `//v2/project/${p.apiKey}`, { token: await accountToken(key, secret), body: { status } });
    expect((await admin('SUSPENDED')).json.status).toBe('SUSPENDED');
    const refused = await h.call('POST', url, { token: await projectToken(p.apiKey, p.apiSecret) });
    expect(refused.status).toBe(403);
    const created = await h.call('POST', '//session/create', { token: await projectToken(p.apiKey, p.apiSecret), form: {} });
    expect(created.status).toBe(403);
    expect((await admin('ACTIVE')).status).toBe(200);
    expect((await h.call('POST', url, { token: await projectToken(p.apiKey, p.apiSecret) })).status).toBe(200);
  });

  it('rejects the old secret after refreshSecret and accepts the new one', async () => {
    const { key, secret } = h.control.account;
    const p = h.control.createProject();
    const s = h.control.createSession(p.apiKey);
    const url = `//v2/project/${p.apiKey}/session/${s}/mute`;
    const refreshed = await h.call('POST', `//v2/project/${p.apiKey}/refreshSecret`, { token: await accountToken(key, secret) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.secret).not.toBe(p.apiSecret);
    expect((await h.call('POST', url, { token: await projectToken(p.apiKey, p.apiSecret) })).status).toBe(403);
    expect((await h.call('POST', url, { token: await projectToken(p.apiKey, refreshed.json.secret) })).status).toBe(200);
  });

  it('answers composer auth failures with codes 10003 (format) and 10004 (refused)', async () => {
    const malformed = await h.call('GET', '/render', { token: 'x.y' });
    expect(malformed.json).toEqual({ code: 10003, message: expect.any(String) });
    const refused = await h.call('GET', '/render', { token: await projectToken(h.apiKey, 'nope') });
    expect(refused.json).toEqual({ code: 10004, message: expect.any(String) });
  });

  it('answers session creation auth errors in XML unless JSON is accepted', async () => {
    const xml = await h.call('POST', '//session/create', { token: await jwt('x', { iss: 'nobody' }), form: {} });
    expect(xml.status).toBe(403);
    expect(xml.text).toMatch(/^<\?xml .*<errorPayload><code>403<\/code><message>Issuer not found<\/message><\/errorPayload>$/);
    const json = await h.call('POST', '//session/create', {
      token: await jwt('x', { iss: 'nobody' }),
      form: {},
      headers: { Accept: 'application/json' },
    });
    expect(json.json).toEqual({ code: 403, message: 'Issuer not found' });
  });
});

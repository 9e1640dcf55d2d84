import { Harness, accountToken } from './helpers';

describe('emulator project administration', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await Harness.start({ accountKey: 'acct-1', accountSecret: 'account-secret' });
  });
  afterAll(() => h.close());

  const admin = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    h.call(method, `//v2/project${path}`, {
      token: await accountToken('acct-1', 'account-secret'),
      ...(body === undefined ? {} : { body }),
      ...(headers ? { headers } : {}),
    });

  it('creates a project usable at once, with details including the secret', async () => {
    const res = await admin('POST', '', { name: 'Marketing' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^\d+$/),
      secret: expect.stringMatching(/^[0-9a-f]{40}$/),
      status: 'ACTIVE',
      name: 'Marketing',
      environment: 'standard',
      createdAt: h.control.now(),
      updatedAt: h.control.now(),
    });
    expect(h.control.getProject(res.json.id).secret).toBe(res.json.secret);
  });

  it('creates without a body, but refuses a JSON content type with no body', async () => {
    expect((await admin('POST', '')).status).toBe(200);
    expect((await admin('POST', '', undefined, { 'Content-Type': 'application/json' })).status).toBe(400);
    expect((await admin('POST', '', { name: 7 })).status).toBe(400);
  });

  it('lists and gets projects; 404 for unknown keys', async () => {
    const list = await admin('GET', '');
    expect(list.status).toBe(200);
    expect(list.json.map((p: { id: string }) => p.id)).toContain(h.apiKey);
    expect((await admin('GET', `/${h.apiKey}`)).json).toMatchObject({ id: h.apiKey, name: 'Test project' });
    expect((await admin('GET', '/123')).status).toBe(404);
  });

  it('changes status both ways and validates it', async () => {
    const { json } = await admin('POST', '', { name: 'Temp' });
    expect((await admin('PUT', `/${json.id}`, { status: 'SUSPENDED' })).json.status).toBe('SUSPENDED');
    expect((await admin('PUT', `/${json.id}`, { status: 'ACTIVE' })).json.status).toBe('ACTIVE');
    expect((await admin('PUT', `/${json.id}`, { status: 'PAUSED' })).status).toBe(400);
    expect((await admin('PUT', `/${json.id}`)).status).toBe(400);
    expect((await admin('PUT', '/123', { status: 'ACTIVE' })).status).toBe(404);
  });

  it('deletes (204) then 404, and the deleted key no longer authenticates', async () => {
    const { json } = await admin('POST', '', {});
    expect((await admin('DELETE', `/${json.id}`)).status).toBe(204);
    expect((await admin('DELETE', `/${json.id}`)).status).toBe(404);
    expect((await admin('POST', `/${json.id}/refreshSecret`)).status).toBe(404);
  });

  it('refuses a wrong account secret or a project-level ist', async () => {
    const wrong = await h.call('GET', '//v2/project', { token: await accountToken('acct-1', 'nope') });
    expect(wrong.status).toBe(403);
    const ist = await h.call('GET', '//v2/project', { token: await accountToken('acct-1', 'account-secret', { ist: 'project' }) });
    expect(ist.status).toBe(403);
  });
});

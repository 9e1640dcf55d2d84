import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { HmacSigner, REST_TOKEN_LIFETIME_S, RestTokenSource } from '../../src/api/auth';
import { VideoValidationError } from '../../src/api/errors';
import { Tokens, clientTokenClaims } from '../../src/api/tokens';

const SECRET = 'project-secret-0123456789abcdef';
const key = new TextEncoder().encode(SECRET);

describe('REST tokens (X-SERVICE-AUTH)', () => {
  test('claims: iss, ist, iat, exp = iat + 180, jti; HS256 signed with the secret', async () => {
    const source = new RestTokenSource('46123456', new HmacSigner(SECRET), 'project', { reuseMs: 0 });
    const before = Math.floor(Date.now() / 1000);
    const token = await source.token();
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload.iss).toBe('46123456');
    expect(payload.ist).toBe('project');
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp).toBe(payload.iat! + REST_TOKEN_LIFETIME_S);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('account tokens carry ist=account', async () => {
    const token = await new RestTokenSource('acct-1', new HmacSigner(SECRET), 'account', { reuseMs: 0 }).token();
    expect(decodeJwt(token)).toMatchObject({ iss: 'acct-1', ist: 'account' });
  });

  test('reuseMs 0: a fresh token (new jti) every call', async () => {
    const source = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 0 });
    const a = decodeJwt(await source.token());
    const b = decodeJwt(await source.token());
    expect(a.jti).not.toBe(b.jti);
    expect(source.minted).toBe(2);
  });

  test('reuse window: same token within it, a new one after, never past exp minus a minute', async () => {
    let now = 1_700_000_000_000;
    const source = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 30_000, now: () => now });
    const first = await source.token();
    now += 29_999;
    expect(await source.token()).toBe(first);
    now += 1;
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(decodeJwt(second).iat).toBe(Math.floor(now / 1000));

    const greedy = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 10 * 60_000, now: () => now });
    const t = await greedy.token();
    now += 120_000;
    expect(await greedy.token()).not.toBe(t);
  });

  test('concurrent callers share one signing', async () => {
    const source = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 30_000 });
    const tokens = await Promise.all(Array.from({ length: 32 }, () => source.token()));
    expect(new Set(tokens).size).toBe(1);
    expect(source.minted).toBe(1);
  });

  test('a clock going backwards does not extend reuse', async () => {
    let now = 1_700_000_000_000;
    const source = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 30_000, now: () => now });
    const first = await source.token();
    now -= 5_000;
    expect(await source.token()).not.toBe(first);
  });

  test('reusable(): the signed token while token() would reuse it, undefined while signing and after the window', async () => {
    let now = 1_700_000_000_000;
    const source = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 30_000, now: () => now });
    expect(source.reusable()).toBeUndefined();
    const signing = source.token();
    expect(source.reusable()).toBeUndefined();
    const first = await signing;
    expect(source.reusable()).toBe(first);
    now += 29_999;
    expect(source.reusable()).toBe(first);
    now += 1;
    expect(source.reusable()).toBeUndefined();
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(source.reusable()).toBe(second);
    now -= 5_000;
    expect(source.reusable()).toBeUndefined();
  });

  test('reusable(): never with reuseMs 0, nor after a failed signing', async () => {
    const once = new RestTokenSource('k', new HmacSigner(SECRET), 'project', { reuseMs: 0 });
    await once.token();
    expect(once.reusable()).toBeUndefined();

    const failing = { sign: () => Promise.reject(new Error('no key')) } as unknown as HmacSigner;
    const source = new RestTokenSource('k', failing, 'project', { reuseMs: 30_000 });
    await expect(source.token()).rejects.toThrow('no key');
    expect(source.reusable()).toBeUndefined();
    await expect(source.token()).rejects.toThrow('no key');
    expect(source.minted).toBe(2);
  });
});

describe('participant (client) tokens', () => {
  const tokens = new Tokens({ apiKey: () => '46123456', signer: () => new HmacSigner(SECRET) });

  test.each(['publisher', 'moderator', 'subscriber', 'publisheronly'] as const)('role %s', async (role) => {
    const token = await tokens.client({ sessionId: 'SESSION', role });
    const { payload } = await jwtVerify(token, key);
    expect(payload).toMatchObject({ iss: '46123456', ist: 'project', scope: 'session.connect', session_id: 'SESSION', role });
    expect(typeof payload.jti).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(86_400);
    expect(payload).not.toHaveProperty('connection_data');
    expect(payload).not.toHaveProperty('initial_layout_class_list');
  });

  test('connection data, space-separated layout classes, custom expiry', () => {
    const claims = clientTokenClaims(
      'k',
      { sessionId: 'S', role: 'publisher', data: 'name=Alice', initialLayoutClassList: ['focus', 'full'], expiresInSeconds: 600 },
      1_700_000_000_000,
    );
    expect(claims).toMatchObject({ connection_data: 'name=Alice', initial_layout_class_list: 'focus full', iat: 1_700_000_000, exp: 1_700_000_600 });
  });

  test.each([
    [{ sessionId: '', role: 'publisher' }, 'sessionId'],
    [{ sessionId: 'S', role: 'admin' }, 'role'],
    [{ sessionId: 'S', role: 'publisher', initialLayoutClassList: ['two words'] }, 'initialLayoutClassList[0]'],
    [{ sessionId: 'S', role: 'publisher', expiresInSeconds: 0 }, 'expiresInSeconds'],
  ])('invalid %j → %s', (options, field) => {
    expect(() => clientTokenClaims('k', options as never)).toThrow(VideoValidationError);
    try {
      clientTokenClaims('k', options as never);
    } catch (error) {
      expect((error as VideoValidationError).field).toBe(field);
      expect((error as VideoValidationError).message).toContain('Example:');
    }
  });
});

/**
 * Stored project secrets: sealing (context = API key), saving after a rotation (applied first,
 * then stored), and loading over the configuration — a stored secret wins only when it is
 * newer than the configuration — plus the periodic reloader. Real SQLite store and registry.
 */
import { randomBytes } from 'node:crypto';
import type { VideoClient } from '../../src/api';
import { SecretBox, SecretBoxError } from '../../src/crypto';
import { createLogger } from '../../src/log';
import {
  type SecretDeps,
  apiKeyOfSecretName,
  loadStoredSecrets,
  openProjectSecret,
  projectSecretName,
  saveProjectSecret,
  sealProjectSecret,
  secretFingerprint,
  startSecretReloader,
} from '../../src/secrets/project-secrets';
import { type ProjectSettings, ProjectRegistry } from '../../src/projects';
import { createStore } from '../../src/store';
import type { VidopsStore } from '../../src/store/types';

const PROD: ProjectSettings = { name: 'prod', apiKey: '46000001', apiSecret: 'configured-prod-secret-0001', channels: [] };
const ALIAS: ProjectSettings = { name: 'prod-eu', apiKey: '46000001', apiSecret: 'configured-prod-secret-0001', channels: [] };
const OTHER: ProjectSettings = { name: 'other', apiKey: '46000002', apiSecret: 'configured-other-secret-002', channels: [] };

/** A client double that remembers the credentials it signs with. */
class RecordingClient {
  constructor(
    public apiKey: string,
    public secret: string,
  ) {}
  setCredentials(apiKey: string, apiSecret: string): void {
    this.apiKey = apiKey;
    this.secret = apiSecret;
  }
}

function setup(options: { box?: SecretBox; projects?: ProjectSettings[] } = {}) {
  const store = createStore('sqlite::memory:');
  const lines: string[] = [];
  const logger = createLogger({ level: 'trace', stream: { write: (line: string) => lines.push(line) } });
  const created: RecordingClient[] = [];
  const projects = new ProjectRegistry(options.projects ?? [PROD, ALIAS, OTHER], 'prod', { apiUrl: 'http://127.0.0.1:9' }, (p) => {
    const client = new RecordingClient(p.apiKey, p.apiSecret);
    created.push(client);
    return client as unknown as VideoClient;
  });
  let now = Date.UTC(2026, 0, 5, 12);
  const deps: SecretDeps = { store, projects, clock: () => now, ...(options.box ? { secretBox: options.box } : {}) };
  const signing = (name: string) => (projects.client(name) as unknown as RecordingClient).secret;
  return { store, projects, deps, logger, lines, created, signing, tick: (ms: number) => (now += ms) };
}

/** The store with some methods replaced (the others bound to the real store). */
function withOverrides(store: VidopsStore, overrides: Partial<VidopsStore>): VidopsStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop in overrides) return overrides[prop as keyof VidopsStore];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function storeRecord(store: VidopsStore, box: SecretBox, apiKey: string, record: { secret: string; replaces: string[] }, updatedAt = 1): Promise<void> {
  await store.putSecret({ name: projectSecretName(apiKey), ciphertext: sealProjectSecret(box, apiKey, record), updatedAt });
}

describe('sealed project secrets', () => {
  const box = new SecretBox(randomBytes(32));

  it('names secrets project:<apiKey> and reads the key back', () => {
    expect(projectSecretName('46000001')).toBe('project:46000001');
    expect(apiKeyOfSecretName('project:46000001')).toBe('46000001');
    expect(apiKeyOfSecretName('project:')).toBeUndefined();
    expect(apiKeyOfSecretName('upload:x')).toBeUndefined();
  });

  it('round-trips, hides the secret, and is bound to its API key (context)', () => {
    const sealed = sealProjectSecret(box, '46000001', { secret: 'the-new-secret-123456', replaces: ['abc'] });
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('the-new-secret');
    expect(openProjectSecret(box, '46000001', sealed)).toEqual({ v: 1, secret: 'the-new-secret-123456', replaces: ['abc'] });
    expect(() => openProjectSecret(box, '46000002', sealed)).toThrow(SecretBoxError);
    expect(() => openProjectSecret(new SecretBox(randomBytes(32)), '46000001', sealed)).toThrow(/another VIDOPS_SECRET_KEY/);
  });

  it('rejects sealed text that is not a project secret record', () => {
    expect(() => openProjectSecret(box, 'k', box.seal('plain words', 'k'))).toThrow('stored secret is not a vidops project secret record');
    expect(() => openProjectSecret(box, 'k', box.seal('{"v":2,"secret":"x"}', 'k'))).toThrow(SecretBoxError);
  });

  it('fingerprints depend on key and secret and do not contain the secret', () => {
    const fp = secretFingerprint('46000001', 'configured-prod-secret-0001');
    expect(fp).toHaveLength(22);
    expect(fp).not.toContain('configured');
    expect(secretFingerprint('46000002', 'configured-prod-secret-0001')).not.toBe(fp);
    expect(secretFingerprint('46000001', 'configured-prod-secret-0002')).not.toBe(fp);
  });
});

describe('saveProjectSecret', () => {
  const box = new SecretBox(randomBytes(32));

  it('applies the secret to every configured project with the key (live and future clients), then stores it sealed', async () => {
    const s = setup({ box });
    await s.store.migrate();
    s.projects.client('prod'); // live; prod-eu has no client yet
    const result = await saveProjectSecret(s.deps, PROD.apiKey, 'rotated-secret-0000000001');
    expect(result).toEqual({ stored: true, name: 'project:46000001', applied: ['prod', 'prod-eu'] });
    expect(s.signing('prod')).toBe('rotated-secret-0000000001');
    expect(s.signing('prod-eu')).toBe('rotated-secret-0000000001');
    expect(s.signing('other')).toBe(OTHER.apiSecret);
    expect(s.projects.configured('prod')!.apiSecret).toBe(PROD.apiSecret);
    const stored = await s.store.getSecret('project:46000001');
    expect(stored).toEqual({ name: 'project:46000001', ciphertext: expect.stringMatching(/^v1\./), updatedAt: Date.UTC(2026, 0, 5, 12) });
    expect(openProjectSecret(box, PROD.apiKey, stored!.ciphertext)).toEqual({
      v: 1,
      secret: 'rotated-secret-0000000001',
      replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)],
    });
  });

  it('stores the secret of a project vidops does not use, replacing nothing', async () => {
    const s = setup({ box });
    await s.store.migrate();
    expect(await saveProjectSecret(s.deps, '47000009', 'new-project-secret-000001')).toEqual({ stored: true, name: 'project:47000009', applied: [] });
    expect(openProjectSecret(box, '47000009', (await s.store.getSecret('project:47000009'))!.ciphertext).replaces).toEqual([]);
  });

  it('still applies the secret when storing fails, and reports the failure', async () => {
    const s = setup({ box });
    await s.store.migrate();
    const failing = withOverrides(s.store, { putSecret: () => Promise.reject(new Error('disk full')) });
    const result = await saveProjectSecret({ ...s.deps, store: failing }, PROD.apiKey, 'rotated-secret-0000000002');
    expect(result).toEqual({ stored: false, name: 'project:46000001', applied: ['prod', 'prod-eu'], error: new Error('disk full') });
    expect(s.signing('prod')).toBe('rotated-secret-0000000002');
  });

  it('without a secret box, applies but does not store', async () => {
    const s = setup();
    await s.store.migrate();
    const result = await saveProjectSecret(s.deps, PROD.apiKey, 'rotated-secret-0000000003');
    expect(result.stored).toBe(false);
    expect(await s.store.getSecret('project:46000001')).toBeUndefined();
  });
});

describe('loadStoredSecrets', () => {
  const box = new SecretBox(randomBytes(32));
  const NEW = 'rotated-earlier-secret-0001';

  it('uses a stored secret that replaced the configured one (the configuration is older)', async () => {
    const s = setup({ box });
    await s.store.migrate();
    await storeRecord(s.store, box, PROD.apiKey, { secret: NEW, replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] }, 1000);
    const decisions = await loadStoredSecrets(s.deps, { logger: s.logger });
    expect(decisions).toEqual([
      { project: 'prod', outcome: 'loaded', storedAt: 1000 },
      { project: 'prod-eu', outcome: 'loaded', storedAt: 1000 },
    ]);
    expect(s.signing('prod')).toBe(NEW);
    expect(s.signing('prod-eu')).toBe(NEW);
    expect(s.signing('other')).toBe(OTHER.apiSecret);
    expect(s.lines.join('')).toContain('using the stored secret of this project');
    expect(s.lines.join('')).not.toContain(NEW);
  });

  it('applies a stored secret to a client that already exists', async () => {
    const s = setup({ box });
    await s.store.migrate();
    s.projects.client('prod');
    await storeRecord(s.store, box, PROD.apiKey, { secret: NEW, replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] });
    await loadStoredSecrets(s.deps, { logger: s.logger });
    expect(s.created).toHaveLength(1);
    expect(s.signing('prod')).toBe(NEW);
  });

  it('keeps the configured secret when the configuration changed after the secret was stored', async () => {
    const s = setup({ box });
    await s.store.migrate();
    await storeRecord(s.store, box, PROD.apiKey, { secret: NEW, replaces: [secretFingerprint(PROD.apiKey, 'the-secret-configured-back-then')] });
    const decisions = await loadStoredSecrets(s.deps, { logger: s.logger });
    expect(decisions.map((d) => d.outcome)).toEqual(['configuration-newer', 'configuration-newer']);
    expect(s.signing('prod')).toBe(PROD.apiSecret);
    expect(s.lines.join('')).toContain('the configured secret of this project changed after vidops stored a rotated one');
  });

  it('is a no-op when the configuration already holds the stored secret (e.g. a created project added to the file)', async () => {
    const s = setup({ box });
    await s.store.migrate();
    await storeRecord(s.store, box, OTHER.apiKey, { secret: OTHER.apiSecret, replaces: [] });
    expect(await loadStoredSecrets(s.deps, { logger: s.logger })).toEqual([{ project: 'other', outcome: 'current', storedAt: 1 }]);
    expect(s.signing('other')).toBe(OTHER.apiSecret);
  });

  it('keeps the configured secret, and says why, when the stored one cannot be opened or there is no key', async () => {
    const other = new SecretBox(randomBytes(32));
    const s = setup({ box });
    await s.store.migrate();
    await storeRecord(s.store, other, PROD.apiKey, { secret: NEW, replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] });
    const decisions = await loadStoredSecrets(s.deps, { logger: s.logger });
    expect(decisions[0]).toEqual({ project: 'prod', outcome: 'unreadable', storedAt: 1, reason: expect.stringContaining('another VIDOPS_SECRET_KEY') });
    expect(s.signing('prod')).toBe(PROD.apiSecret);

    const noKey = setup();
    await noKey.store.migrate();
    await storeRecord(noKey.store, box, PROD.apiKey, { secret: NEW, replaces: [] });
    expect((await loadStoredSecrets(noKey.deps, { logger: noKey.logger }))[0]).toEqual(
      expect.objectContaining({ outcome: 'unreadable', reason: 'VIDOPS_SECRET_KEY is not set' }),
    );
    expect(noKey.lines.join('')).toContain('VIDOPS_SECRET_KEY is not set; using the configured secret');
  });

  it('refuses a record moved to another project’s name (sealed with its key as context)', async () => {
    const s = setup({ box });
    await s.store.migrate();
    await s.store.putSecret({
      name: projectSecretName(OTHER.apiKey),
      ciphertext: sealProjectSecret(box, PROD.apiKey, { secret: NEW, replaces: [] }),
      updatedAt: 1,
    });
    expect(await loadStoredSecrets(s.deps, { logger: s.logger })).toEqual([expect.objectContaining({ project: 'other', outcome: 'unreadable' })]);
    expect(s.signing('other')).toBe(OTHER.apiSecret);
  });

  it('decides each stored version once when given the same `seen` map, and again after a new rotation', async () => {
    const s = setup({ box, projects: [PROD] });
    await s.store.migrate();
    const seen = new Map<string, number>();
    await storeRecord(s.store, box, PROD.apiKey, { secret: NEW, replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] }, 10);
    expect(await loadStoredSecrets(s.deps, { logger: s.logger, seen })).toHaveLength(1);
    expect(await loadStoredSecrets(s.deps, { logger: s.logger, seen })).toEqual([]);
    // Another replica rotates again: the record still replaces the configured secret.
    await storeRecord(s.store, box, PROD.apiKey, { secret: 'rotated-again-0000000002', replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] }, 20);
    expect(await loadStoredSecrets(s.deps, { logger: s.logger, seen })).toEqual([{ project: 'prod', outcome: 'loaded', storedAt: 20 }]);
    expect(s.signing('prod')).toBe('rotated-again-0000000002');
  });

  it('saving then loading on a fresh start with the same configuration ends on the rotated secret', async () => {
    const s = setup({ box });
    await s.store.migrate();
    await saveProjectSecret(s.deps, PROD.apiKey, 'rotated-secret-0000000004');
    await saveProjectSecret(s.deps, PROD.apiKey, 'rotated-secret-0000000005');
    // A restart: a new registry from the unchanged configuration, the same store.
    const restarted = new ProjectRegistry(
      [PROD, ALIAS, OTHER],
      'prod',
      { apiUrl: 'http://127.0.0.1:9' },
      (p) => new RecordingClient(p.apiKey, p.apiSecret) as unknown as VideoClient,
    );
    await loadStoredSecrets({ ...s.deps, projects: restarted }, { logger: s.logger });
    expect(restarted.secretInUse('prod')).toBe('rotated-secret-0000000005');
    expect(restarted.secretInUse('prod-eu')).toBe('rotated-secret-0000000005');
  });
});

describe('startSecretReloader', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('picks up a secret another replica stored, on its next tick', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const box = new SecretBox(randomBytes(32));
    const s = setup({ box, projects: [PROD] });
    await s.store.migrate();
    const reloader = startSecretReloader(s.deps, { logger: s.logger, intervalMs: 30_000 });
    try {
      await storeRecord(s.store, box, PROD.apiKey, { secret: 'from-another-replica-0001', replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] }, 5);
      expect(s.signing('prod')).toBe(PROD.apiSecret);
      await jest.advanceTimersByTimeAsync(30_000);
      expect(s.signing('prod')).toBe('from-another-replica-0001');
    } finally {
      reloader.stop();
    }
  });

  it('logs a failing tick and tries again on the next', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const box = new SecretBox(randomBytes(32));
    const s = setup({ box, projects: [PROD] });
    await s.store.migrate();
    let fail = true;
    const flaky = withOverrides(s.store, {
      getSecret: (name: string) => (fail ? Promise.reject(new Error('connection reset')) : s.store.getSecret(name)),
    });
    await storeRecord(s.store, box, PROD.apiKey, { secret: 'eventually-loaded-000001', replaces: [secretFingerprint(PROD.apiKey, PROD.apiSecret)] });
    const reloader = startSecretReloader({ ...s.deps, store: flaky }, { logger: s.logger, intervalMs: 1000 });
    try {
      await jest.advanceTimersByTimeAsync(1000);
      expect(s.lines.join('')).toContain('reloading stored project secrets failed');
      expect(s.signing('prod')).toBe(PROD.apiSecret);
      fail = false;
      await jest.advanceTimersByTimeAsync(1000);
      expect(s.signing('prod')).toBe('eventually-loaded-000001');
    } finally {
      reloader.stop();
    }
  });
});

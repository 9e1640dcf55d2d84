/** The operator's retrieval tool: prints a stored project secret (or a projects-file entry). */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '../../src/crypto';
import { createLogger } from '../../src/log';
import { USAGE, parseArgs, run } from '../../src/secrets/cli';
import { projectSecretName, sealProjectSecret } from '../../src/secrets/project-secrets';
import { createStore } from '../../src/store';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'operator-visible-secret-000000000001';

describe('src/secrets/cli.ts', () => {
  const key = randomBytes(32);
  let env: Record<string, string>;

  beforeAll(async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'vidops-cli-')), 'vidops.sqlite');
    const store = createStore(`sqlite:${dbPath}`, { logger: createLogger({ level: 'silent' }) });
    await store.migrate();
    await store.putSecret({
      name: projectSecretName('47000123'),
      ciphertext: sealProjectSecret(new SecretBox(key), '47000123', { secret: SECRET, replaces: [] }),
      updatedAt: Date.UTC(2026, 0, 5),
    });
    await store.close();
    env = { DATABASE_URL: `sqlite:${dbPath}`, VIDOPS_SECRET_KEY: key.toString('hex') };
  });

  async function cli(argv: string[], overrides: Record<string, string | undefined> = {}) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, { ...env, ...overrides }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  }

  it('parses its arguments', () => {
    expect(parseArgs(['project:1'])).toEqual({ name: 'project:1', apiKey: '1' });
    expect(parseArgs(['project:1', '--entry', 'support'])).toEqual({ name: 'project:1', apiKey: '1', entry: 'support' });
    expect(parseArgs(['--entry=support', 'project:1'])).toEqual({ name: 'project:1', apiKey: '1', entry: 'support' });
    expect(parseArgs([])).toMatch(/name the secret/);
    expect(parseArgs(['upload:x'])).toMatch(/not a project secret name/);
    expect(parseArgs(['project:1', '--entry'])).toMatch(/--entry needs/);
    expect(parseArgs(['project:1', '-x'])).toBe('unknown option -x');
    expect(parseArgs(['project:1', 'project:2'])).toBe('unexpected argument project:2');
  });

  it('prints the secret alone on stdout (the date on stderr)', async () => {
    const result = await cli(['project:47000123']);
    expect(result).toEqual({ code: 0, stdout: `${SECRET}\n`, stderr: expect.stringContaining('Stored 2026-01-05T00:00:00.000Z') });
  });

  it('prints a projects-file entry with --entry', async () => {
    const result = await cli(['project:47000123', '--entry', 'support']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'support', apiKey: '47000123', apiSecret: SECRET, channels: [] });
  });

  it('exits 1 for a secret that is not stored or cannot be opened', async () => {
    expect(await cli(['project:999'])).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('No secret is stored as project:999') });
    const wrongKey = await cli(['project:47000123'], { VIDOPS_SECRET_KEY: randomBytes(32).toString('hex') });
    expect(wrongKey).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('cannot be opened: sealed secret could not be opened') });
  });

  it('exits 2 with what to do for wrong usage, a missing or invalid key', async () => {
    expect(await cli([])).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining(USAGE) });
    expect(await cli(['project:47000123'], { VIDOPS_SECRET_KEY: undefined })).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('VIDOPS_SECRET_KEY is not set'),
    });
    const invalid = await cli(['project:47000123'], { VIDOPS_SECRET_KEY: 'short' });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('VIDOPS_SECRET_KEY');
    expect(invalid.stderr).not.toContain('short');
  });

  it('runs as a script', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'secrets', 'cli.ts'), 'project:47000123'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${SECRET}\n`);
  });
});

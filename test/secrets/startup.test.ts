/**
 * Start-up loading of a stored secret, end to end: the project's secret was rotated (by an
 * earlier run of vidops) so the configured one is refused by the emulator; loading the stored
 * secret makes commands work again. Once through the harness, once through the real process
 * entry (src/main.ts) with a SQLite file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RETRY_FAST, VideoClient } from '../../src/api';
import { SecretBox } from '../../src/crypto';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { createLogger } from '../../src/log';
import { loadStoredSecrets, projectSecretName, sealProjectSecret, secretFingerprint } from '../../src/secrets/project-secrets';
import { createStore } from '../../src/store';
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { signedSlashCommand } from '../harness/signing';
import { renderedText } from '../harness/text';

const ROOT = join(__dirname, '..', '..');

/** Rotates the project's secret at the service, as `/video-admin rotate-secret` did in an earlier run. */
async function rotateAtService(emulator: RunningEmulator, apiKey: string, apiSecret: string): Promise<string> {
  const { key, secret } = emulator.control.account;
  const admin = new VideoClient({ baseUrl: emulator.baseUrl, apiKey, apiSecret, accountApiKey: key, accountApiSecret: secret, retry: RETRY_FAST });
  const details = await admin.projects.refreshSecret(apiKey);
  return details.secret!;
}

describe('loading stored secrets at start-up (harness)', () => {
  const secretKey = randomBytes(32);
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ secretKey, logLevel: 'info', logStream: { write: (line: string) => lines.push(line) } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('commands fail with the configured secret, and work once the stored, newer secret is loaded', async () => {
    const seeded = t.seedSession({ streams: 2 });
    const fresh = await rotateAtService(t.emulator, t.project.apiKey, t.project.apiSecret);
    const box = new SecretBox(secretKey);
    await t.store.putSecret({
      name: projectSecretName(t.project.apiKey),
      ciphertext: sealProjectSecret(box, t.project.apiKey, { secret: fresh, replaces: [secretFingerprint(t.project.apiKey, t.project.apiSecret)] }),
      updatedAt: Date.now(),
    });

    const refused = await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    expect(renderedText((await refused.waitForResponse()).body)).toContain('refused the credentials of project *prod*');

    const decisions = await loadStoredSecrets(t.services, { logger: t.services.logger });
    expect(decisions).toEqual([expect.objectContaining({ project: 'prod', outcome: 'loaded' })]);

    const since = t.slack.mark();
    await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);
    expect(lines.join('')).toContain('using the stored secret of this project');
    expect(lines.join('')).not.toContain(fresh);
  });
});

function waitForLine(child: ChildProcess, pattern: RegExp, seen: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = seen()
        .split('\n')
        .find((l) => pattern.test(l));
      if (line) {
        child.stdout!.off('data', check);
        resolve(line);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before logging ${pattern}`)));
    check();
  });
}

describe('loading stored secrets at start-up (src/main.ts)', () => {
  let slack: FakeSlack;
  let emulator: RunningEmulator;
  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: 'xoxb-startup-test' });
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await slack.close();
    await emulator.close();
  });

  it('uses the stored secret over the configured one it replaced, and a signed /mute works', async () => {
    const creds = emulator.control.createProject({ name: 'prod' });
    const fresh = await rotateAtService(emulator, creds.apiKey, creds.apiSecret);
    const secretKey = randomBytes(32);
    const dbPath = join(mkdtempSync(join(tmpdir(), 'vidops-secrets-')), 'vidops.sqlite');
    const store = createStore(`sqlite:${dbPath}`, { logger: createLogger({ level: 'silent' }) });
    await store.migrate();
    await store.putSecret({
      name: projectSecretName(creds.apiKey),
      ciphertext: sealProjectSecret(new SecretBox(secretKey), creds.apiKey, { secret: fresh, replaces: [secretFingerprint(creds.apiKey, creds.apiSecret)] }),
      updatedAt: Date.now(),
    });
    await store.close();

    const signingSecret = 'startup-test-signing-secret';
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SLACK_BOT_TOKEN: 'xoxb-startup-test',
        SLACK_SIGNING_SECRET: signingSecret,
        SLACK_API_URL: slack.apiUrl,
        VIDEO_API_URL: emulator.baseUrl,
        VIDEO_API_KEY: creds.apiKey,
        VIDEO_API_SECRET: creds.apiSecret,
        VIDOPS_SECRET_KEY: secretKey.toString('hex'),
        VIDOPS_ADMINS: 'U1',
        DATABASE_URL: `sqlite:${dbPath}`,
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const loaded = await waitForLine(child, /using the stored secret of this project/, () => out);
      expect(JSON.parse(loaded)).toEqual(expect.objectContaining({ level: 'info', component: 'secrets', project: 'default', apiKey: creds.apiKey }));
      const running = await waitForLine(child, /vidops is running/, () => out);
      const port = (JSON.parse(running) as { port: number }).port;

      const sessionId = emulator.control.createSession(creds.apiKey, { mediaMode: 'routed' });
      const streamId = emulator.control.publish(creds.apiKey, sessionId, emulator.control.connect(creds.apiKey, sessionId), { name: 'A', videoType: 'camera' });
      const since = slack.mark();
      const signed = signedSlashCommand(signingSecret, {
        command: '/mute',
        text: `${streamId} ${sessionId}`,
        team_id: 'T1',
        user_id: 'U1',
        channel_id: 'C1',
        response_url: slack.newResponseUrl(),
        trigger_id: 't',
      });
      const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers: signed.headers, body: signed.body });
      expect(res.status).toBe(200);
      const notice = await slack.waitForCall('chat.postMessage', (c) => c.body.channel === 'C1', { since });
      expect(renderedText(notice.body)).toContain(`muted stream \`${streamId}\``);
      expect(emulator.control.getSession(creds.apiKey, sessionId).streams[0]!.muted).toBe(true);
      expect(out).not.toContain(fresh);
      expect(out).not.toContain(creds.apiSecret);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

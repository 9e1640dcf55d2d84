/** The process entry: exit 2 with what to set, or start, serve /healthz and commands, and stop on SIGTERM. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { signedSlashCommand } from '../harness/signing';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'main-test-signing-secret';

function run(env: Record<string, string>): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (d: Buffer) => {
      buffer += d.toString();
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        child.stdout!.off('data', onData);
        resolve(line);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before logging ${pattern}`)));
  });
}

describe('src/main.ts', () => {
  it('with no Slack variable, starts local mode: one URL line, the page answers, exit 0 on SIGTERM', async () => {
    const p = run({ PORT: '0', DATABASE_URL: 'sqlite::memory:' });
    const line = await waitForLine(p.child, /^vidops local mode: open /);
    const url = /^vidops local mode: open (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line)?.[1];
    expect(url).toBeDefined();
    expect(await (await fetch(new URL('/healthz', url))).json()).toEqual({ ok: true });
    const state = (await (await fetch(new URL('/local/state', url))).json()) as { emulator: { sessionIds: string[] } };
    expect(state.emulator.sessionIds).toHaveLength(1);
    const help = await fetch(new URL('/local/command', url), { method: 'POST', body: JSON.stringify({ channel: 'C0LOCAL01', text: '/video help' }) });
    expect(await help.json()).toEqual({ ok: true });
    // One line for people; log lines (warnings and worse by default) would be JSON.
    expect(p.stdout().trim().split('\n')).toEqual([line]);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('in local mode, names the port when it is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const p = run({ PORT: String(port), DATABASE_URL: 'sqlite::memory:' });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain(`vidops local mode: port ${port} is in use; set PORT to a free one`);
    await new Promise((resolve) => taken.close(resolve));
  });

  it('with some Slack variables but not all, exits with code 2 and says what to set', async () => {
    const p = run({ SLACK_BOT_TOKEN: 'xoxb-partial' });
    expect(await p.exited).toBe(2);
    expect(p.stderr()).toContain('SLACK_SIGNING_SECRET is missing');
    expect(p.stderr()).toContain('VIDEO_API_URL is missing');
    expect(p.stderr()).toContain('Create a Slack app from manifest.yml');
    expect(p.stdout()).not.toContain('local mode');
  });

  describe('with a configuration', () => {
    let slack: FakeSlack;
    let emulator: RunningEmulator;
    let env: Record<string, string>;
    beforeAll(async () => {
      slack = await startFakeSlack({ botToken: 'xoxb-main-test' });
      emulator = await startEmulator();
      const creds = emulator.control.createProject();
      env = {
        SLACK_BOT_TOKEN: 'xoxb-main-test',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        VIDEO_API_URL: emulator.baseUrl,
        VIDEO_API_KEY: creds.apiKey,
        VIDEO_API_SECRET: creds.apiSecret,
        DATABASE_URL: 'sqlite::memory:',
        PORT: '0',
      };
    });
    afterAll(async () => {
      await slack.close();
      await emulator.close();
    });

    it('refuses an invalid policy file with exit code 2, naming the file and the problem', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vidops-policy-'));
      const file = join(dir, 'policy.json');
      writeFileSync(file, JSON.stringify({ roles: { admin: { users: ['bob'] } } }));
      const p = run({ ...env, VIDOPS_POLICY_FILE: file });
      expect(await p.exited).toBe(2);
      expect(p.stderr()).toContain(`VIDOPS_POLICY_FILE (${file}): roles.admin.users[0]: a Slack user ID looks like U012ABCDEF`);
    });

    it('refuses a policy granting a role on a project that is not configured, with exit code 2', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vidops-policy-'));
      const file = join(dir, 'policy.json');
      writeFileSync(file, JSON.stringify({ projects: { prdo: { moderator: { users: ['U0RELEASE'] } } } }));
      const p = run({ ...env, VIDOPS_POLICY_FILE: file });
      expect(await p.exited).toBe(2);
      expect(p.stderr()).toContain(`VIDOPS_POLICY_FILE (${file}): projects.prdo: there is no configured project named “prdo” (the projects are default)`);
    });

    it('starts, answers /healthz and a signed command, and exits 0 on SIGTERM', async () => {
      const p = run(env);
      const line = await waitForLine(p.child, /vidops is running/);
      const port = (JSON.parse(line) as { port: number }).port;
      expect(port).toBeGreaterThan(0);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toEqual({ ok: true });
      const signed = signedSlashCommand(SECRET, {
        command: '/video',
        text: 'help',
        team_id: 'T1',
        user_id: 'U1',
        channel_id: 'C1',
        response_url: slack.newResponseUrl(),
        trigger_id: 't',
      });
      const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers: signed.headers, body: signed.body });
      expect(res.status).toBe(200);
      expect((await res.json()) as { response_type: string }).toEqual(expect.objectContaining({ response_type: 'ephemeral' }));
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.stdout()).toContain('shutting down');
    });
  });
});

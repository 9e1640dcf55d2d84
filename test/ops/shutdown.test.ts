/**
 * SIGTERM on the real process (src/main.ts in a child): a command whose video call is slowed
 * by the emulator is in flight when the signal comes; its follow-up still reaches Slack, a
 * request sent after the signal is not taken, and the process exits 0 well within 10 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { signedSlashCommand } from '../harness/signing';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'shutdown-test-signing-secret';
const BOT = 'xoxb-shutdown-test';
const ADMIN = 'U0ADMIN';
const VIDEO_LATENCY_MS = 2_000;

/** The child's stdout as JSON lines, and a way to wait for one that matches. */
function start(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const records = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitFor = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = records().find((record) => record.msg === msg);
        if (!found) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      void exited.then((code) => reject(new Error(`exited with ${code} before logging "${msg}"; stderr: ${err}`)));
      check();
    });
  return { child, exited, records, waitFor, stderr: () => err };
}

describe('SIGTERM', () => {
  let slack: FakeSlack;
  let emulator: RunningEmulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT });
    emulator = await startEmulator();
    const creds = emulator.control.createProject();
    env = {
      SLACK_BOT_TOKEN: BOT,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      VIDEO_API_URL: emulator.baseUrl,
      VIDEO_API_KEY: creds.apiKey,
      VIDEO_API_SECRET: creds.apiSecret,
      VIDOPS_ADMINS: ADMIN,
      DATABASE_URL: 'sqlite::memory:',
      PORT: '0',
    };
  });
  afterAll(async () => {
    await slack.close();
    await emulator.close();
  });

  function slash(port: number, text: string) {
    const responseUrl = slack.newResponseUrl();
    const signed = signedSlashCommand(SECRET, {
      command: '/session',
      text,
      team_id: 'T1',
      user_id: ADMIN,
      channel_id: 'C1',
      response_url: responseUrl,
      trigger_id: 't',
    });
    return { sent: postOnNewConnection(port, signed), responseId: responseUrl.slice(responseUrl.lastIndexOf('/') + 1) };
  }

  /** Each request on a connection of its own, so none rides on one the server is closing. */
  function postOnNewConnection(port: number, signed: { headers: Record<string, string>; body: string }): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/slack/events', method: 'POST', headers: signed.headers, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(signed.body);
    });
  }

  it('finishes the command in flight, takes no new one, and exits 0 within 10 s', async () => {
    const p = start(env);
    const running = await p.waitFor('vidops is running');
    const port = running.port as number;
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const createsBefore = emulator.control.requestLog().filter((r) => r.path === '/session/create').length;

    emulator.control.setLatency(VIDEO_LATENCY_MS);
    const first = slash(port, 'create');
    expect(await first.sent).toBe(200); // acked; the session is being created now
    const signalledAt = Date.now();
    p.child.kill('SIGTERM');

    const draining = await p.waitFor('draining');
    expect(draining.inFlight).toBe(1);
    const second = slash(port, 'create');
    const refused = await second.sent.catch((error: NodeJS.ErrnoException) => error.code);
    // Refused whichever way the race with the closing listener goes: a 503 while draining, or
    // the connection refused (listener closed) or reset (accepted as the server closed).
    expect([503, 'ECONNREFUSED', 'ECONNRESET']).toContain(refused);

    expect(await p.exited).toBe(0);
    const elapsed = Date.now() - signalledAt;
    expect(elapsed).toBeGreaterThanOrEqual(VIDEO_LATENCY_MS - 200);
    expect(elapsed).toBeLessThan(10_000);
    emulator.control.setLatency(0);

    // The first command's card reached Slack before the exit; the second never ran.
    const cards = slack.callsOf('chat.postMessage').filter((call) => JSON.stringify(call.body).includes('created'));
    expect(cards).toHaveLength(1);
    expect(emulator.control.requestLog().filter((r) => r.path === '/session/create')).toHaveLength(createsBefore + 1);
    expect(slack.responsesTo(second.responseId)).toEqual([]);
    const messages = p.records().map((r) => r.msg);
    expect(messages).toEqual(expect.arrayContaining(['shutting down', 'draining', 'poller stopped', 'stopped']));
    expect(messages.indexOf('poller stopped')).toBeLessThan(messages.indexOf('stopped'));
    expect(p.records().filter((r) => r.level === 'warn' || r.level === 'error')).toEqual([]);
  });
});

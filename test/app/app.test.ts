import { App } from '@slack/bolt';
import { createApp } from '../../src/app';
import { BOT_TOKEN, startTestApp, SIGNING_SECRET, type TestApp } from '../harness/app';
import { signBody, signedSlashCommand } from '../harness/signing';

describe('the Bolt app over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers GET /healthz with {"ok":true}', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('acks a signed slash command', async () => {
    const res = await t.slash('/video', 'help');
    expect(res.status).toBe(200);
    expect(res.ack?.response_type).toBe('ephemeral');
  });

  const fields = {
    command: '/video',
    text: 'help',
    team_id: 'T0TEST',
    user_id: 'U0MOD',
    channel_id: 'C0OPS',
    response_url: 'http://127.0.0.1:9/r',
    trigger_id: 't',
  };

  it('rejects a request signed with another secret (401)', async () => {
    const res = await t.post(signedSlashCommand('not-the-secret', fields));
    expect(res.status).toBe(401);
  });

  it('rejects a stale timestamp even when correctly signed (401)', async () => {
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    const res = await t.post(signedSlashCommand(SIGNING_SECRET, fields, sixMinutesAgo));
    expect(res.status).toBe(401);
  });

  it('rejects a body changed after signing (401)', async () => {
    const signed = signedSlashCommand(SIGNING_SECRET, fields);
    const res = await t.post({ ...signed, body: signed.body.replace('help', 'audit') });
    expect(res.status).toBe(401);
  });

  it('rejects a request without signature headers (401)', async () => {
    const signed = signBody(SIGNING_SECRET, 'command=%2Fvideo&text=help', 'application/x-www-form-urlencoded');
    const res = await t.post({ body: signed.body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(401);
  });

  it('answers 404 for unknown paths instead of hanging', async () => {
    const res = await fetch(`${t.url}/nope`);
    expect(res.status).toBe(404);
  });

  it('builds a Socket Mode app when an app-level token is configured (no HTTP receiver needed)', async () => {
    const since = t.slack.mark();
    const app = createApp(t.services, { botToken: BOT_TOKEN, appToken: 'xapp-1-A0-1-abc', apiUrl: t.slack.apiUrl, retryConfig: { retries: 0 } });
    expect(app).toBeInstanceOf(App);
    // Bolt checks the bot token (auth.test) as it builds the app: answered here, it cannot outlive
    // the fake Slack (and, retried for 30 minutes by default, keep jest's worker from exiting).
    await t.waitForSlackCall('auth.test', undefined, { since });
  });

  it('refuses HTTP mode without a signing secret', () => {
    expect(() => createApp(t.services, { botToken: BOT_TOKEN, apiUrl: t.slack.apiUrl })).toThrow(/signing secret/);
  });
});

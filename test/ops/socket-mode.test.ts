/**
 * Socket Mode: the running product connects over a WebSocket (test/ops/socket-slack.ts), acks
 * a slash command sent as an envelope, and serves /healthz, /readyz and /metrics on its side
 * port, where the command shows up; it stops cleanly.
 */
import { matchPath, startOpsServer } from '../../src/http/ops-server';
import { APP_TOKEN, BOT_TOKEN, CHANNEL, TEAM, ADMIN, type OpsApp, sample, startOpsApp } from './harness';

describe('Socket Mode', () => {
  let t: OpsApp;
  beforeAll(async () => {
    t = await startOpsApp({ socketMode: true, readiness: { cacheMs: 0 } });
    await t.socket!.connected();
  });
  afterAll(() => t.close());

  it('serves /healthz and /readyz on the side port', async () => {
    expect(await t.get('/healthz')).toEqual({ status: 200, body: '{"ok":true}' });
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ ok: true, checks: { store: { ok: true }, slack: { ok: true }, video: { ok: true } } });
    expect((await t.get('/slack/events')).status).toBe(404);
  });

  it('acks a command that came over the socket, and counts it in /metrics', async () => {
    const ack = await t.socket!.send('slash_commands', {
      command: '/video',
      text: 'help',
      team_id: TEAM,
      user_id: ADMIN,
      channel_id: CHANNEL,
      response_url: t.slack.newResponseUrl(),
      trigger_id: 'trigger-socket',
    });
    expect(ack).toMatchObject({ response_type: 'ephemeral', text: expect.any(String) });
    expect(await t.vidops.inFlight.idle(10_000)).toBe(true);
    const metrics = await t.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(sample(metrics.body, 'vidops_commands_total', { command: '/video', outcome: 'ok' })).toBe(1);
    expect(sample(metrics.body, 'vidops_ack_latency_seconds_count', { kind: 'command' })).toBe(1);
    expect(sample(metrics.body, 'vidops_slack_api_calls_total', { method: 'apps.connections.open', status: '200' })).toBe(1);
    expect(t.logText()).not.toContain(APP_TOKEN);
    expect(t.logText()).not.toContain(BOT_TOKEN);
  });
});

describe('the side server', () => {
  it('matches route parameters like Bolt custom routes', () => {
    expect(matchPath('/callbacks/video/:token', '/callbacks/video/abc%20d')).toEqual({ token: 'abc d' });
    expect(matchPath('/callbacks/video/:token', '/callbacks/video/')).toBeUndefined();
    expect(matchPath('/callbacks/video/:token', '/callbacks/video/a/b')).toBeUndefined();
    expect(matchPath('/healthz', '/healthz')).toEqual({});
    expect(matchPath('/healthz', '/readyz')).toBeUndefined();
  });

  it('serves routes by method and path, with params, and 404s the rest', async () => {
    const server = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      routes: [
        {
          path: '/callbacks/video/:token',
          method: ['POST'],
          handler: (req, res) => {
            res.writeHead(202);
            res.end((req as typeof req & { params: Record<string, string> }).params.token);
          },
        },
      ],
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const posted = await fetch(`${base}/callbacks/video/t0k3n`, { method: 'POST', body: '{}' });
      expect(posted.status).toBe(202);
      expect(await posted.text()).toBe('t0k3n');
      expect((await fetch(`${base}/callbacks/video/t0k3n`)).status).toBe(404);
      expect((await fetch(`${base}/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

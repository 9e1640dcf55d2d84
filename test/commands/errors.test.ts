/**
 * End to end: what people see when the video service or Slack fails — one sentence with a next
 * step, never a stack or raw JSON — and that failures are audited.
 */
import { VideoClient } from '../../src/api';
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { renderedText } from '../harness/text';

const AUDIT_CHANNEL = 'C0AUDIT';

describe('failures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      auditChannel: AUDIT_CHANNEL,
      extraProjects: [{ name: 'broken', apiKey: 'placeholder', apiSecret: 'placeholder' }, { name: 'suspended' }],
    });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  async function replyTo(command: string, text: string): Promise<string> {
    const res = await t.slash(command, text);
    const reply = await res.waitForResponse();
    const raw = JSON.stringify(reply.body);
    expect(raw).not.toMatch(/\/v2\/project|at .*\.ts:\d+|"code":\d+|Error:/);
    return renderedText(reply.body);
  }

  it('403: a project whose key or secret is wrong', async () => {
    // The "broken" project was configured with credentials the service does not know.
    const text = await replyTo('/unmute-all', '2_MX4anysession00000000 --project broken');
    expect(text).toMatch(
      /refused the credentials of project \*broken\* \(wrong API key or secret, or the project is suspended\); nothing was changed\. Ask an admin/,
    );
    const [audit] = await t.store.listAudit('T0TEST', 1);
    expect(audit).toEqual(expect.objectContaining({ outcome: 'error', projectName: 'broken', error: 'VideoAuthError 403' }));
  });

  it('403: a suspended project', async () => {
    const key = suspendedKeyOf(t);
    const session = t.seedSession({ streams: 1, apiKey: key });
    const account = new VideoClient({
      baseUrl: t.emulator.baseUrl,
      apiKey: t.project.apiKey,
      apiSecret: t.project.apiSecret,
      accountApiKey: t.emulator.control.account.key,
      accountApiSecret: t.emulator.control.account.secret,
    });
    await account.projects.setStatus(key, 'SUSPENDED');
    const text = await replyTo('/unmute-all', `${session.sessionId} --project suspended`);
    expect(text).toMatch(/refused the credentials of project \*suspended\*.*suspended/);
    expect(t.emulator.control.getSession(key, session.sessionId).mute.active).toBe(false);
  });

  it('409: the service’s conflict about a relayed session becomes the routed-session sentence', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({
      method: 'POST',
      path: '/mute',
      kind: 'status',
      status: 409,
      body: JSON.stringify({ code: 409, message: 'Session is not using the media router (media mode relayed)' }),
    });
    const text = await replyTo('/unmute-all', seeded.sessionId);
    expect(text).toContain('This session is relayed; recording, broadcast, SIP and audio need a routed session');
  });

  it('400 from the service: its message, escaped, and nothing changed', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({
      method: 'POST',
      path: '/mute',
      kind: 'status',
      status: 400,
      body: JSON.stringify({ code: 400, message: 'Invalid <options>' }),
    });
    const text = await replyTo('/unmute-all', seeded.sessionId);
    expect(text).toContain('The video service rejected the request as invalid: Invalid <options>; nothing was changed.');
  });

  it('500: the video service did not answer properly; try again', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({ method: 'POST', path: '/mute', kind: 'status', status: 500 });
    const text = await replyTo('/unmute-all', seeded.sessionId);
    expect(text).toContain('did not answer properly (error 500); nothing was changed. Try again in a moment.');
  });

  it('a listing that keeps failing (503, retried) is reported once', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({ method: 'GET', path: '/stream', kind: 'status', status: 503, count: 10 });
    const text = await replyTo('/streams', seeded.sessionId);
    expect(text).toContain('did not answer properly (error 503)');
    t.emulator.control.clearFaults();
  });

  it('mirrors audited actions to the audit channel', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    const line = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === AUDIT_CHANNEL, { since });
    expect(renderedText(line.body)).toMatch(/:white_check_mark: .*<@U0MOD> `\/mute` stream .* in <#C0OPS> · project \*prod\* \(ok\)/);
  });

  describe('Slack-side failures', () => {
    it('when the bot is not in the channel, the asker gets the notice privately with how to invite it', async () => {
      const seeded = t.seedSession({ streams: 1 });
      t.slack.setNotInChannel('C0PRIVATE');
      const res = await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`, { channel: 'C0PRIVATE' });
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain('muted stream');
      expect(text).toContain('Invite me with `/invite @vidops`');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);
    });

    it('retries chat.postMessage after a 429 (Retry-After) and a 500', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const inChannel = (body: Record<string, unknown>) => body.channel === CHANNEL;
      t.slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 0 }, 1, inChannel);
      t.slack.failNext('chat.postMessage', { status: 500 }, 1, inChannel);
      const since = t.slack.mark();
      await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
      const attempts = () => t.slack.callsOf('chat.postMessage', since).filter((c) => c.body.channel === CHANNEL);
      // The third attempt is the one that succeeds.
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && attempts().length === 3, { since });
      expect(attempts().map((c) => renderedText(c.body).includes('muted stream'))).toEqual([true, true, true]);
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);
    });
  });
});

/** The API key of the `suspended` project (created in the emulator by the harness). */
function suspendedKeyOf(t: TestApp): string {
  const client = t.services.projects.client('suspended') as unknown as { apiKey: string };
  return client.apiKey;
}

/**
 * Finding 4, "The signature guard reads the raw URL": `/slack/./events`, `/slack/%2e/events`,
 * `/slack/x/../events` and `/slack/events#f` took a request signed an hour in the future, and a
 * replay of it, because Bolt routes on the normalised path; the drain check had the same gap; a
 * resend carrying `X-Slack-Retry-Num` skipped the replay memory.
 *
 * Now the guard and the drain check judge the path Bolt routes on and refuse any other spelling
 * of Slack's, and a resend of the same signed bytes is a duplicate whatever its headers say.
 */
import { CHANNEL, SIGNING_SECRET, USERS, slashCommandFields, startTestApp, type TestApp } from '../harness/app';
import { signBody, type SignedRequest } from '../harness/signing';
import { rawPost, secondApp } from './support';

const FORM = 'application/x-www-form-urlencoded';
const SPELLINGS = ['/slack/./events', '/slack/%2e/events', '/slack/%2E/events', '/slack/x/../events', '/slack/events#f', '/slack/events/%2e%2e/events'];

describe('finding 4: the signature guard reads the raw URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  function mute(sessionId: string, streamId: string, timestamp?: number): SignedRequest {
    const fields = slashCommandFields({
      command: '/mute',
      text: `${streamId} ${sessionId}`,
      user: USERS.moderator,
      channel: CHANNEL,
      responseUrl: t.slack.newResponseUrl(),
      triggerId: `1.${Date.now()}.guard`,
    });
    return signBody(SIGNING_SECRET, new URLSearchParams(fields).toString(), FORM, timestamp);
  }
  const muted = (s: { sessionId: string; streams: string[] }) => t.emulator.control.getSession(t.project.apiKey, s.sessionId).streams[0]!.muted;

  it.each(SPELLINGS)('%s: a request signed an hour ahead, and its replay, do nothing', async (path) => {
    const seeded = t.seedSession({ streams: 1 });
    const future = mute(seeded.sessionId, seeded.streams[0]!, Math.floor(Date.now() / 1000) + 3600);
    const before = t.emulator.control.requestLog().length;
    const since = t.slack.mark();
    const first = await rawPost(t.url, path, future);
    const replay = await rawPost(t.url, path, future);
    expect([first.status, replay.status].every((status) => status >= 400)).toBe(true);
    expect(t.emulator.control.requestLog().length).toBe(before);
    expect(t.slack.calls.filter((c) => c.seq >= since && c.method !== 'auth.test')).toEqual([]);
    expect(muted(seeded)).toBe(false);
  });

  it.each(SPELLINGS)('%s: even a correctly signed, current request is refused (400), Slack never spells it so', async (path) => {
    const seeded = t.seedSession({ streams: 1 });
    expect((await rawPost(t.url, path, mute(seeded.sessionId, seeded.streams[0]!))).status).toBe(400);
    expect(muted(seeded)).toBe(false);
  });

  it('a resend of the same signed bytes with X-Slack-Retry-Num is a duplicate: the stream is muted once', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const signed = mute(seeded.sessionId, seeded.streams[0]!);
    const since = t.slack.mark();
    expect((await rawPost(t.url, '/slack/events', signed)).status).toBe(200);
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    const mutes = () => t.emulator.control.requestLog().filter((r) => r.path.endsWith('/mute')).length;
    const once = mutes();
    const retry = { body: signed.body, headers: { ...signed.headers, 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } };
    expect((await rawPost(t.url, '/slack/events', retry)).status).toBe(200);
    expect((await rawPost(t.url, '/slack/events', signed)).status).toBe(200);
    expect(mutes()).toBe(once);
    expect(t.slack.calls.filter((c) => c.seq >= since && c.method === 'chat.postMessage')).toHaveLength(1);
  });

  it('the legitimate path still works: /slack/events, signed now, mutes the stream', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    expect((await rawPost(t.url, '/slack/events?x=1', mute(seeded.sessionId, seeded.streams[0]!))).status).toBe(200);
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    expect(muted(seeded)).toBe(true);
  });

  it('while draining, every spelling of Slack’s path gets the 503 (none reaches Bolt)', async () => {
    const draining = await secondApp(t, { draining: () => true });
    try {
      for (const path of ['/slack/events', ...SPELLINGS.filter((p) => !p.includes('#'))]) {
        const seeded = t.seedSession({ streams: 1 });
        const answer = await rawPost(draining.url, path, mute(seeded.sessionId, seeded.streams[0]!));
        expect({ path, status: answer.status }).toEqual({ path, status: 503 });
        expect(muted(seeded)).toBe(false);
      }
    } finally {
      await draining.stop();
    }
  });
});

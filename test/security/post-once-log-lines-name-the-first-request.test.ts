/**
 * Finding 8: log lines of Slack calls made by the post-once client carried the user and channel
 * of whichever request first created that (shared) client.
 *
 * Now every log line names the user and channel of the request it belongs to.
 */
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { logCapture } from './support';

const OTHER_CHANNEL = 'C0ELSEWHERE';

describe('finding 8: post-once log lines carry the first request’s user and channel', () => {
  let t: TestApp;
  const logs = logCapture();

  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'debug', logStream: logs.stream });
  });
  afterAll(() => t.close());

  async function mute(user: string, channel: string): Promise<string> {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`, { user, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    const audit = logs.records.find((r) => r.msg === 'audit' && (r.audit as { target?: string }).target?.includes(seeded.sessionId));
    return String(audit?.requestId);
  }

  it('names the user and channel of each request in its own lines, the post-once client’s included', async () => {
    const first = await mute(USERS.moderator, CHANNEL);
    const second = await mute(USERS.admin, OTHER_CHANNEL);
    for (const [requestId, user, channel] of [
      [first, USERS.moderator, CHANNEL],
      [second, USERS.admin, OTHER_CHANNEL],
    ] as const) {
      const lines = logs.records.filter((r) => r.requestId === requestId);
      // The channel notice goes through the shared post-once client: its Web API lines are among them.
      expect(lines.filter((r) => String(r.msg).includes("apiCall('chat.postMessage')")).length).toBeGreaterThan(0);
      expect(lines.filter((r) => r.user !== user || r.channel !== channel).map((r) => `${r.msg} ${r.user} ${r.channel}`)).toEqual([]);
    }
  });
});

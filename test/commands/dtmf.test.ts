/** End to end: /dtmf to a whole session or to one connection, against the emulator. */
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { renderedText } from '../harness/text';

describe('/dtmf', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  async function replyTo(text: string, user: string = USERS.moderator): Promise<string> {
    const res = await t.slash('/dtmf', text, { user });
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.body)).not.toMatch(/\/v2\/project|"code":\d+|Error:/);
    return renderedText(reply.body);
  }

  it('plays the digits to every client and tells the channel how many tones, not which', async () => {
    const seeded = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    await t.slash('/dtmf', `1p987# ${seeded.sessionId}`);
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> sent 5 DTMF tones to everyone in session \`${seeded.sessionId}\`.`);
    expect(JSON.stringify(notice.body)).not.toContain('987');
    expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId).map((d) => [d.digits, d.target])).toEqual([['1p987#', 'all']]);
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/dtmf', outcome: 'ok', target: `5 tones to everyone in session ${seeded.sessionId}` }));
  });

  it('plays them to one connection with --to (a capital P is a pause too), using the channel’s session', async () => {
    const seeded = t.seedSession({ streams: 2 });
    await t.store.setChannelBinding({
      teamId: TEAM,
      channelId: 'C0DTMF',
      sessionId: seeded.sessionId,
      projectName: 'prod',
      updatedBy: USERS.admin,
      updatedAt: 0,
    });
    const since = t.slack.mark();
    await t.slash('/dtmf', `*9P0 --to ${seeded.connections[1]}`, { channel: 'C0DTMF' });
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0DTMF', { since });
    expect(renderedText(notice.body)).toContain(`sent 3 DTMF tones to connection \`${seeded.connections[1]}\` in session`);
    expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId, seeded.connections[1]).map((d) => d.digits)).toEqual(['*9p0']);
    expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId, seeded.connections[0])).toEqual([]);
  });

  it('explains a connection that is not connected (404): no tones were sent', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const text = await replyTo(`1 ${seeded.sessionId} --to e9f8c166-6c67-440d-994a-04fb6dfed007`);
    expect(text).toContain(
      `Connection \`e9f8c166-6c67-440d-994a-04fb6dfed007\` is not connected to session \`${seeded.sessionId}\` (the call may have ended); no tones were sent.`,
    );
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/dtmf', outcome: 'error', error: 'VideoNotFoundError 404' }));
  });

  it('explains an unknown session (404)', async () => {
    expect(await replyTo('1 2_MX4doesnotexist00000000')).toMatch(/Session `2_MX4doesnotexist00000000` was not found in project \*prod\*/);
  });

  it('answers usage errors in the ack, with an example', async () => {
    const missing = renderedText((await t.slash('/dtmf', '')).ack);
    expect(missing).toContain('<digits> is missing');
    expect(missing).toContain('/dtmf <digits> [session] [--to <connection-id>] [--project <name>]');
    expect(missing).toContain('/dtmf 1234#');
    expect(renderedText((await t.slash('/dtmf', '12a4')).ack)).toContain('<digits>: use only 0-9, *, # and p (a half-second pause), e.g. 1234# or 1p2p3');
    expect(renderedText((await t.slash('/dtmf', 'ppp')).ack)).toContain('<digits>: give at least one digit besides pauses');
    expect(renderedText((await t.slash('/dtmf', '1'.repeat(129))).ack)).toContain('send at most 128 digits at a time');
  });

  it('denies a viewer and plays nothing', async () => {
    const seeded = t.seedSession({ streams: 1 });
    expect(await replyTo(`1 ${seeded.sessionId}`, USERS.viewer)).toContain('`/dtmf` needs the moderator role; you are a viewer');
    expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId)).toEqual([]);
  });
});

/** End to end: /mute, /mute-all (+ confirm), /unmute-all, /kick (+ confirm) against the emulator. */
import { ACTION } from '../../src/views/ids';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedResponse } from '../harness/fake-slack';
import { buttonValue, findElements, renderedText } from '../harness/text';

describe('moderation commands', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  describe('/mute', () => {
    it('mutes the stream, posts who did it in the channel, and audits it', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const since = t.slack.mark();
      const res = await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
      expect(res.status).toBe(200);
      expect(res.ack).toBeUndefined();
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain(`<@${USERS.moderator}> muted stream \`${seeded.streams[0]}\``);
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.streams.map((s) => [s.streamId, s.muted])).toEqual([
        [seeded.streams[0], true],
        [seeded.streams[1], false],
      ]);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(
        expect.objectContaining({
          command: '/mute',
          outcome: 'ok',
          userId: USERS.moderator,
          channelId: CHANNEL,
          projectName: 'prod',
          target: `stream ${seeded.streams[0]} in session ${seeded.sessionId}`,
        }),
      );
    });

    it('explains an unknown stream (404) in one sentence, audits the error, changes nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/mute', `8b732909-0a06-46a2-8ea8-000000000000 ${seeded.sessionId}`);
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      expect(renderedText(reply.body)).toMatch(/Stream `8b732909-0a06-46a2-8ea8-000000000000` was not found in session `.+`; it may have stopped publishing/);
      expect(JSON.stringify(reply.body)).not.toMatch(/v2\/project|stack|"code"/);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/mute', outcome: 'error', error: 'VideoNotFoundError 404' }));
    });

    it('answers a usage error in the ack itself: problem, usage line, example', async () => {
      const res = await t.slash('/mute', '');
      expect(res.ack?.response_type).toBe('ephemeral');
      const text = renderedText(res.ack);
      expect(text).toContain('<who> is missing');
      expect(text).toContain('/mute <who> [session] [--project <name>]');
      expect(text).toContain('`/mute Bob`');
    });

    it('asks for a session when none is given and the channel has no default', async () => {
      const res = await t.slash('/mute', 'abc-def', { channel: 'C0NODEFAULT' });
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/Which session\?.*\/video use <session-id\|alias>/);
    });

    it('uses the channel default and an alias', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'daily', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
      await t.store.setChannelBinding({
        teamId: 'T0TEST',
        channelId: 'C0DAILY',
        sessionId: seeded.sessionId,
        projectName: 'prod',
        updatedBy: 'U1',
        updatedAt: 0,
      });
      const since = t.slack.mark();
      await t.slash('/mute', seeded.streams[0]!, { channel: 'C0DAILY' });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0DAILY', { since });
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);

      const other = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'other', projectName: 'prod', sessionId: other.sessionId, createdBy: 'U1', createdAt: 0 });
      const since2 = t.slack.mark();
      await t.slash('/mute', `${other.streams[0]} OTHER`, { channel: 'C0DAILY' });
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0DAILY', { since: since2 });
      expect(renderedText(post.body)).toContain('in session `other`');
      expect(t.emulator.control.getSession(t.project.apiKey, other.sessionId).streams[0]!.muted).toBe(true);
      const recent = await t.store.listRecentSessions('T0TEST', 2);
      expect(recent.map((r) => r.sessionId)).toEqual([other.sessionId, seeded.sessionId]);
    });

    it('names an unknown alias instead of sending it as a session ID', async () => {
      const res = await t.slash('/mute', 'abc nosuchalias');
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/There is no alias named `nosuchalias`/);
    });
  });

  describe('/mute-all', () => {
    it('mutes everyone but the excluded at once (no card, no dialog) and tells the channel with an Undo', async () => {
      const seeded = t.seedSession({ streams: 3 });
      const since = t.slack.mark();
      const res = await t.slash('/mute-all', `${seeded.sessionId} --except ${seeded.streams[2]}`);
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain(`<@${USERS.moderator}> muted everyone in session`);
      expect(findElements(post.body, ACTION.undoMuteAll)).toHaveLength(1);
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.mute).toEqual({ active: true, excludedStreamIds: [seeded.streams[2]] });
      expect(session.streams.map((s) => s.muted)).toEqual([true, true, false]);
      // Nothing asked the asker anything.
      expect(t.slack.responsesTo(res.responseId).filter((r) => findElements(r.body, ACTION.confirmMuteAll).length > 0)).toEqual([]);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/mute-all', outcome: 'ok', target: `session ${seeded.sessionId} except ${seeded.streams[2]}` }),
      );
    });

    it('a Mute everyone button on a card of an older version still mutes, after checking the role again', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const value = JSON.stringify({ p: 'prod', s: seeded.sessionId, x: [] });
      const denied = await t.click(ACTION.confirmMuteAll, value, { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(denied.responseId)).body)).toMatch(/moderator/);
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(false);
      const clicked = await t.click(ACTION.confirmMuteAll, value);
      const replaced = await t.slack.waitForResponse(clicked.responseId, (r: RecordedResponse) => r.body.replace_original === true);
      expect(renderedText(replaced.body)).toContain('is muted');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(true);
    });

    it('explains an unknown session (404) at once', async () => {
      const res = await t.slash('/mute-all', '2_MX4doesnotexist00000000');
      const error = await res.waitForResponse((r) => renderedText(r.body).includes('was not found'));
      expect(renderedText(error.body)).toMatch(/Session `2_MX4doesnotexist00000000` was not found in project \*prod\*/);
    });

    it('rejects too many exclusions as a usage error', async () => {
      const ids = Array.from({ length: 41 }, (_v, i) => `s${i}`).join(',');
      const res = await t.slash('/mute-all', `--except ${ids}`);
      expect(renderedText(res.ack)).toContain('--except: spare at most 40 streams');
    });
  });

  describe('/unmute-all', () => {
    it('turns the mute state off, keeps muted streams muted, and says so', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const muted = t.slack.mark();
      await t.slash('/mute-all', seeded.sessionId);
      await t.waitForSlackCall('chat.postMessage', (call) => renderedText(call.body).includes('muted everyone'), { since: muted });

      const since = t.slack.mark();
      await t.slash('/unmute-all', seeded.sessionId);
      const post = await t.waitForSlackCall('chat.postMessage', (call) => renderedText(call.body).includes('turned off mute-everyone'), { since });
      expect(renderedText(post.body)).toContain('Streams that are already muted stay muted');
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.mute.active).toBe(false);
      expect(session.streams.every((s) => s.muted)).toBe(true);
    });
  });

  describe('/kick', () => {
    it('asks for confirmation, then disconnects and tells the channel', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const res = await t.slash('/kick', `${seeded.connections[1]} ${seeded.sessionId}`);
      const card = await res.waitForResponse();
      expect(renderedText(card.body)).toContain(`Disconnect connection \`${seeded.connections[1]}\` from this session?`);
      const since = t.slack.mark();
      await t.click(ACTION.kickPerson, buttonValue(card.body, ACTION.kickPerson), { responseUrl: res.responseUrl });
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain(`disconnected \`${seeded.connections[1]}\``);
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.connections.find((c) => c.connectionId === seeded.connections[1])?.connected).toBe(false);
      expect(session.connections.find((c) => c.connectionId === seeded.connections[0])?.connected).toBe(true);
    });

    it('explains a connection that is not connected (404)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/kick', `e9f8c166-6c67-440d-994a-04fb6dfed007 ${seeded.sessionId}`);
      const card = await res.waitForResponse();
      await t.click(ACTION.kickPerson, buttonValue(card.body, ACTION.kickPerson), { responseUrl: res.responseUrl });
      const error = await res.waitForResponse((r) => renderedText(r.body).includes('not connected'));
      expect(renderedText(error.body)).toMatch(/Connection `e9f8c166-6c67-440d-994a-04fb6dfed007` is not connected to session .* \(it may have left already\)/);
    });
  });
});

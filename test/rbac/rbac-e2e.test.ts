/** End to end: roles from the policy (users, user groups, channels) and VIDOPS_ADMINS; denials explained and audited. */
import { ONCALL_GROUP, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, renderedText } from '../harness/text';
import { ACTION } from '../../src/views/ids';

describe('roles end to end', () => {
  describe('with the test policy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        policy: {
          roles: { admin: { users: [USERS.admin] }, moderator: { users: [USERS.moderator], groups: [ONCALL_GROUP] } },
          channels: { C0HOSTS: { moderator: { users: ['U0HOST'] } } },
        },
      });
      t.slack.setUsergroup(ONCALL_GROUP, [USERS.oncall]);
    });
    afterAll(async () => {
      expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
      await t.close();
    });

    it('denies a viewer a moderator command: explains, audits, calls nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const logBefore = t.emulator.control.requestLog().length;
      const res = await t.slash('/mute-all', seeded.sessionId, { user: USERS.viewer });
      expect(res.ack).toBeUndefined();
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      expect(renderedText(reply.body)).toContain(
        `:no_entry: \`/mute-all\` needs the moderator role; you are a viewer. Ask an admin (<@${USERS.admin}>) to give you the moderator role in the vidops policy.`,
      );
      expect(t.emulator.control.requestLog().slice(logBefore)).toEqual([]);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(
        expect.objectContaining({
          userId: USERS.viewer,
          command: '/mute-all',
          outcome: 'denied',
          error: 'needs moderator, has viewer',
          target: seeded.sessionId,
          projectName: 'prod',
        }),
      );
    });

    it('lets a viewer read (/streams)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/streams', seeded.sessionId, { user: USERS.viewer });
      expect(renderedText((await res.waitForResponse()).body)).toContain('1 participant');
    });

    it('grants the moderator role through a user group, looked up once and cached', async () => {
      const a = t.seedSession({ streams: 1 });
      t.services.authorizer.clearGroupCache();
      const since = t.slack.mark();
      for (let i = 0; i < 2; i++) {
        const mark = t.slack.mark();
        await t.slash('/unmute-all', a.sessionId, { user: USERS.oncall });
        await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes(`<@${USERS.oncall}> turned off`), { since: mark });
      }
      expect(t.slack.callsOf('usergroups.users.list', since).map((c) => c.body.usergroup)).toEqual([ONCALL_GROUP]);
    });

    it('grants channel roles only in that channel', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const elsewhere = await t.slash('/unmute-all', seeded.sessionId, { user: 'U0HOST', channel: 'C0OTHER' });
      expect(renderedText((await elsewhere.waitForResponse()).body)).toContain('needs the moderator role; you are a viewer');
      const since = t.slack.mark();
      await t.slash('/unmute-all', seeded.sessionId, { user: 'U0HOST', channel: 'C0HOSTS' });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0HOSTS', { since });
    });

    it('re-checks the role when a confirmation button is clicked', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/kick', `${seeded.connections[0]} ${seeded.sessionId}`);
      const card = await res.waitForResponse();
      const click = await t.click(ACTION.kickPerson, buttonValue(card.body, ACTION.kickPerson), { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('`/kick` needs the moderator role');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections[0]!.connected).toBe(true);
    });

    it('says when a user group could not be checked', async () => {
      t.slack.failNext('usergroups.users.list', { error: 'ratelimited' }, 1);
      t.services.authorizer.clearGroupCache();
      const res = await t.slash('/unmute-all', '2_MX4whatever000000000', { user: 'U0SOMEONE' });
      expect(renderedText((await res.waitForResponse()).body)).toContain('Some of your user groups could not be checked just now');
    });
  });

  describe('without a policy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ policy: null, admins: ['U0ENVADMIN'] });
    });
    afterAll(() => t.close());

    it('everyone is a viewer', async () => {
      const res = await t.slash('/mute-all', '', { user: USERS.moderator });
      expect(renderedText((await res.waitForResponse()).body)).toContain('needs the moderator role; you are a viewer. Ask an admin (<@U0ENVADMIN>)');
    });

    it('VIDOPS_ADMINS are admins', async () => {
      const res = await t.slash('/video', 'audit', { user: 'U0ENVADMIN' });
      expect(renderedText((await res.waitForResponse()).body)).toMatch(/audited actions/);
    });
  });
});

/** End to end: /video help|alias|unalias|aliases|use|audit, and every command's help. */
import { COMMANDS } from '../../src/commands';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { messageProblems, sentPayloadProblems } from '../harness/block-kit';
import { renderedText } from '../harness/text';

describe('/video', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ extraProjects: [{ name: 'staging', channels: ['C0STAGING'] }] });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  describe('help', () => {
    it('/video help lists every command, in the ack', async () => {
      const res = await t.slash('/video', 'help', { user: USERS.viewer });
      expect(res.ack?.response_type).toBe('ephemeral');
      expect(messageProblems(res.ack)).toEqual([]);
      const text = renderedText(res.ack);
      for (const command of COMMANDS) expect(text).toContain(`*${command.command}*`);
    });

    it.each(COMMANDS.filter((c) => c.command !== '/video').map((c) => [c.command]))('%s help explains the command', async (command) => {
      const res = await t.slash(command, 'help', { user: USERS.viewer });
      expect(messageProblems(res.ack)).toEqual([]);
      expect(renderedText(res.ack)).toContain(`${command} —`);
    });

    it('/video help mute shows /mute’s help, /video help video its own', async () => {
      const res = await t.slash('/video', 'help mute');
      expect(renderedText(res.ack)).toContain('/mute <who> [session]');
      const own = await t.slash('/video', 'help /video');
      expect(renderedText(own.ack)).toContain('/video — ');
    });

    it('an unknown subcommand suggests the right one', async () => {
      const res = await t.slash('/video', 'alais x y');
      expect(renderedText(res.ack)).toContain('“alais” is not a subcommand of /video; did you mean alias?');
    });
  });

  describe('aliases', () => {
    it('alias names a session for the team, announces it, audits it; aliases lists; unalias removes', async () => {
      const seeded = t.seedSession({ streams: 0 });
      const since = t.slack.mark();
      await t.slash('/video', `alias Weekly ${seeded.sessionId}`);
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain(`named session \`${seeded.sessionId}\` \`weekly\``);
      expect(await t.store.getAlias('T0TEST', 'weekly')).toEqual(expect.objectContaining({ sessionId: seeded.sessionId, projectName: 'prod' }));

      const list = await t.slash('/video', 'aliases', { user: USERS.viewer });
      expect(renderedText((await list.waitForResponse()).body)).toContain(`\`weekly\` → \`${seeded.sessionId}\``);

      const since2 = t.slack.mark();
      await t.slash('/video', 'unalias weekly');
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('removed the alias `weekly`'), { since: since2 });
      expect(await t.store.getAlias('T0TEST', 'weekly')).toBeUndefined();
      const audits = await t.store.listAudit('T0TEST', 2);
      expect(audits.map((a) => a.command)).toEqual(['/video unalias', '/video alias']);
    });

    it('refuses to alias something that is not a session ID', async () => {
      const res = await t.slash('/video', 'alias a b');
      expect(renderedText((await res.waitForResponse()).body)).toContain('`b` does not look like a session ID');
    });

    it('takes the project from --project, and rejects unknown projects', async () => {
      const seeded = t.seedSession({ streams: 0 });
      const since = t.slack.mark();
      await t.slash('/video', `alias st ${seeded.sessionId} --project staging`);
      await t.waitForSlackCall('chat.postMessage', () => true, { since });
      expect((await t.store.getAlias('T0TEST', 'st'))?.projectName).toBe('staging');
      const res = await t.slash('/video', `alias nope ${seeded.sessionId} --project nosuch`);
      expect(renderedText((await res.waitForResponse()).body)).toMatch(/There is no project named \*nosuch\*; the projects are \*prod\*, \*staging\*/);
    });
  });

  describe('use', () => {
    it('shows the channel’s defaults to a viewer: configured project, no session', async () => {
      const res = await t.slash('/video', 'use', { user: USERS.viewer, channel: 'C0STAGING' });
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toContain('Project: *staging* (from the vidops configuration)');
      expect(text).toContain('Session: none');
    });

    it('binds a session (by alias) and then a project; commands follow the binding', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'ops', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
      const since = t.slack.mark();
      await t.slash('/video', 'use ops', { channel: 'C0BIND' });
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0BIND', { since });
      expect(renderedText(post.body)).toContain(`made \`ops\` (\`${seeded.sessionId}\`) this channel’s default session`);
      expect(await t.store.getChannelBinding('T0TEST', 'C0BIND')).toEqual(expect.objectContaining({ sessionId: seeded.sessionId, projectName: 'prod' }));

      const show = await t.slash('/video', 'use', { channel: 'C0BIND', user: USERS.viewer });
      expect(renderedText((await show.waitForResponse()).body)).toContain(`Session: \`${seeded.sessionId}\``);

      const since2 = t.slack.mark();
      await t.slash('/video', 'use --project staging', { channel: 'C0BIND' });
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('made *staging* this channel’s project'), { since: since2 });
      const binding = await t.store.getChannelBinding('T0TEST', 'C0BIND');
      expect(binding?.projectName).toBe('staging');
      expect(binding?.sessionId).toBeUndefined();
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/video use', target: 'project staging', projectName: 'staging' }));
    });

    it('changing the defaults needs the moderator role', async () => {
      const res = await t.slash('/video', 'use --project staging', { user: USERS.viewer, channel: 'C0VIEWONLY' });
      expect(renderedText((await res.waitForResponse()).body)).toMatch(/`\/video use` needs the moderator role; you are a viewer/);
      expect(await t.store.getChannelBinding('T0TEST', 'C0VIEWONLY')).toBeUndefined();
    });
  });

  describe('audit', () => {
    it('shows the newest entries to admins', async () => {
      const denied = await t.slash('/video', 'audit --limit 3', { user: USERS.viewer });
      await denied.waitForResponse();
      const res = await t.slash('/video', 'audit --limit 3', { user: USERS.admin });
      const reply = await res.waitForResponse();
      const text = renderedText(reply.body);
      expect(text).toContain('Latest 3 audited actions');
      expect(text).toContain(`<@${USERS.viewer}> \`/video audit\``);
      expect(text).toContain('(denied — needs admin, has viewer)');
    });

    it('is denied to moderators, with an explanation naming whom to ask', async () => {
      const res = await t.slash('/video', 'audit', { user: USERS.moderator });
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toContain('`/video audit` needs the admin role; you are a moderator');
      expect(text).toContain(`<@${USERS.admin}>`);
    });
  });
});

/**
 * Finding 1, "A one-channel grant works everywhere": a moderator granted only in channel A ran
 * `/mute … --project prod` from A (prod is bound to channel B) and muted the stream; the "Mute
 * everyone" form took the role from the channel the user picked to tell.
 *
 * Now a channel grant holds only for the projects that channel may use (bound ones; the default
 * where none is bound), the acting channel is where the command was typed (never a form's
 * channel), and the policy can grant a role on a project wherever its holder acts.
 */
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';

const A = 'C0CHANA';
const B = 'C0CHANB';
const HOST = 'U0HOSTA';
const RELEASE = 'U0RELEASE';

const POLICY = {
  defaultRole: 'none',
  roles: { admin: { users: [USERS.admin] } },
  channels: { [A]: { moderator: { users: [HOST] } } },
  projects: { prod: { moderator: { users: [RELEASE] } } },
};

describe('finding 1: a one-channel grant works everywhere', () => {
  let t: TestApp;
  let stagingKey = '';

  beforeAll(async () => {
    // staging is configured for channel A; prod is bound to channel B with /video use.
    t = await startTestApp({ policy: POLICY, extraProjects: [{ name: 'staging', channels: [A] }] });
    stagingKey = t.services.projects.configured('staging')!.apiKey;
    const since = t.slack.mark();
    await t.slash('/video', 'use --project prod', { user: USERS.admin, channel: B });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === B, { since });
  });
  afterAll(() => t.close());

  const muted = (apiKey: string, sessionId: string, streamId: string) =>
    t.emulator.control.getSession(apiKey, sessionId).streams.find((s) => s.streamId === streamId)?.muted;

  it('refuses /mute --project prod from channel A to a moderator granted in A only, and audits the denial', async () => {
    const prod = t.seedSession({ streams: 1 });
    const before = t.emulator.control.requestLog().length;
    const res = await t.slash('/mute', `${prod.streams[0]} ${prod.sessionId} --project prod`, { user: HOST, channel: A });
    const reply = await res.waitForResponse();
    expect(renderedText(reply.body)).toContain('`/mute` needs the moderator role; you are not granted any role.');
    expect(t.emulator.control.requestLog().slice(before)).toEqual([]);
    expect(muted(t.project.apiKey, prod.sessionId, prod.streams[0]!)).toBe(false);
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ userId: HOST, channelId: A, projectName: 'prod', outcome: 'denied' }));
  });

  it('refuses the same through an alias of a prod session (the project comes from the alias)', async () => {
    const prod = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/video', `alias prodlive ${prod.sessionId} --project prod`, { user: USERS.admin, channel: B });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === B, { since });
    const res = await t.slash('/mute', `${prod.streams[0]} prodlive`, { user: HOST, channel: A });
    expect(renderedText((await res.waitForResponse()).body)).toContain('needs the moderator role');
    expect(muted(t.project.apiKey, prod.sessionId, prod.streams[0]!)).toBe(false);
  });

  it('refuses binding prod to channel A (which would stretch the grant to it)', async () => {
    const res = await t.slash('/video', 'use --project prod', { user: HOST, channel: A });
    expect(renderedText((await res.waitForResponse()).body)).toContain('needs the moderator role');
    expect((await t.store.getChannelBinding(TEAM, A))?.projectName).toBeUndefined();
  });

  it('still lets the channel-A moderator mute a session of staging, the project channel A uses', async () => {
    const staging = t.seedSession({ streams: 1, apiKey: stagingKey });
    const since = t.slack.mark();
    const res = await t.slash('/mute', `${staging.streams[0]} ${staging.sessionId}`, { user: HOST, channel: A });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === A && renderedText(c.body).includes('muted'), { since });
    expect(res.status).toBe(200);
    expect(muted(stagingKey, staging.sessionId, staging.streams[0]!)).toBe(true);
  });

  it('lets a moderator of prod (a project grant) mute prod from channel A', async () => {
    const prod = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/mute', `${prod.streams[0]} ${prod.sessionId} --project prod`, { user: RELEASE, channel: A });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === A && renderedText(c.body).includes('muted'), { since });
    expect(muted(t.project.apiKey, prod.sessionId, prod.streams[0]!)).toBe(true);
  });

  const submitMuteEveryone = (user: string, sessionId: string, projectName: string, viewId: string) =>
    t.submitView(
      {
        callbackId: CALLBACK.muteEveryoneModal,
        viewId,
        values: {
          [BLOCK.sessionPicker]: {
            [ACTION.sessionPicker]: {
              type: 'external_select',
              selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption(projectName, sessionId) },
            },
          },
          [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: A } },
        },
      },
      { user },
    );

  it('takes no authority from the "channel to tell" of the Mute everyone form', async () => {
    const prod = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    await submitMuteEveryone(HOST, prod.sessionId, 'prod', 'V0SECMUTE1');
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SECMUTE1' && renderedText(c.body).includes('needs the moderator role'), { since });
    expect(t.emulator.control.getSession(t.project.apiKey, prod.sessionId).mute.active).toBe(false);
    // Even for staging, the project channel A uses: a shortcut is taken in no channel.
    const staging = t.seedSession({ streams: 1, apiKey: stagingKey });
    await submitMuteEveryone(HOST, staging.sessionId, 'staging', 'V0SECMUTE2');
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SECMUTE2' && renderedText(c.body).includes('needs the moderator role'), { since });
    expect(t.emulator.control.getSession(stagingKey, staging.sessionId).mute.active).toBe(false);
  });

  it('lets a moderator of prod mute everyone in a prod session through the form, telling the channel picked', async () => {
    const prod = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    await submitMuteEveryone(RELEASE, prod.sessionId, 'prod', 'V0SECMUTE3');
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === A && renderedText(c.body).includes('muted everyone'), { since });
    expect(t.emulator.control.getSession(t.project.apiKey, prod.sessionId).mute.active).toBe(true);
  });
});

describe('finding 1, project administration: a channel admin grant reaches only the projects the channel uses', () => {
  let t: TestApp;
  const CHANNEL_ADMIN = 'U0CHANADMIN';

  beforeAll(async () => {
    t = await startTestApp({
      account: true,
      policy: { defaultRole: 'none', roles: { admin: { users: [USERS.admin] } }, channels: { [A]: { admin: { users: [CHANNEL_ADMIN] } } } },
      extraProjects: [{ name: 'staging', channels: [A] }],
    });
  });
  afterAll(() => t.close());

  const answer = async (text: string, user: string) => renderedText((await (await t.slash('/video-admin', text, { user, channel: A })).waitForResponse()).body);

  it('refuses account-wide administration and other projects to a channel admin, and audits it', async () => {
    expect(await answer('projects', CHANNEL_ADMIN)).toContain('`/video-admin projects` needs the admin role');
    expect(await answer('project prod', CHANNEL_ADMIN)).toContain('`/video-admin project` needs the admin role');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ userId: CHANNEL_ADMIN, command: '/video-admin project', projectName: 'prod', outcome: 'denied' }));
  });

  it('lets the channel admin administer staging, the project channel A uses, and a global admin everything', async () => {
    expect(await answer('project staging', CHANNEL_ADMIN)).not.toContain('needs the admin role');
    expect(await answer('projects', USERS.admin)).not.toContain('needs the admin role');
  });
});

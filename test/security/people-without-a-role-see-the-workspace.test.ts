/**
 * Finding 2, "People without a role see the workspace": with `defaultRole: none`, App Home showed
 * them every watch (private channels' included), every alias and recent session; the session
 * picker's option search returned them all; the shortcut opened its form with the latest session
 * filled in before it checked the role.
 *
 * Now App Home, option searches and the shortcut show nothing to someone without viewer rights;
 * viewers see the projects their grants allow, and a private channel's watches stay in it.
 */
import { ACTION, CALLBACK } from '../../src/views/ids';
import { TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import type { RecordedCall } from '../harness/fake-slack';
import { findElements, renderedText } from '../harness/text';

const PUBLIC = 'C0PUBLIC';
const PRIVATE = 'C0SECRET';
const NOBODY = 'U0NOBODY';
const PROD_VIEWER = 'U0PRODVIEW';

const POLICY = {
  defaultRole: 'none',
  roles: { admin: { users: [USERS.admin] }, moderator: { users: [USERS.moderator] } },
  projects: { prod: { viewer: { users: [PROD_VIEWER] } } },
};

describe('finding 2: people without a role see the workspace', () => {
  let t: TestApp;
  let prodSession = '';
  let stagingSession = '';

  async function asAdmin(text: string, channel: string): Promise<void> {
    const since = t.slack.mark();
    await t.slash('/video', text, { user: USERS.admin, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
  }

  async function home(user: string): Promise<RecordedCall> {
    const since = t.slack.mark();
    expect(await t.event({ type: 'app_home_opened', user, channel: 'D0HOME', tab: 'home', event_ts: `${Date.now() / 1000}` })).toBe(200);
    return t.waitForSlackCall('views.publish', (c) => c.body.user_id === user, { since });
  }

  async function shortcut(user: string): Promise<RecordedCall> {
    const since = t.slack.mark();
    const { triggerId } = await t.shortcut(CALLBACK.muteEveryoneShortcut, { user });
    return t.waitForSlackCall('views.open', (c) => c.body.trigger_id === triggerId, { since });
  }

  beforeAll(async () => {
    t = await startTestApp({ policy: POLICY, extraProjects: [{ name: 'staging' }] });
    t.slack.setPrivateChannel(PRIVATE);
    prodSession = t.seedSession({ streams: 1 }).sessionId;
    stagingSession = t.seedSession({ streams: 1, apiKey: t.services.projects.configured('staging')!.apiKey }).sessionId;
    await asAdmin(`alias prodroom ${prodSession}`, PUBLIC);
    await asAdmin(`alias stageroom ${stagingSession} --project staging`, PUBLIC);
    await asAdmin(`watch ${prodSession}`, PUBLIC);
    await asAdmin(`watch ${stagingSession} --project staging`, PRIVATE);
  });
  afterAll(() => t.close());

  it('App Home shows someone without a role no watch, alias or session', async () => {
    const text = renderedText((await home(NOBODY)).body.view);
    expect(text).toContain('You are not granted any role.');
    for (const hidden of [prodSession, stagingSession, 'prodroom', 'stageroom', PUBLIC, PRIVATE]) expect(text).not.toContain(hidden);
  });

  it('App Home shows a viewer of prod the prod alias and session, not staging’s', async () => {
    const text = renderedText((await home(PROD_VIEWER)).body.view);
    expect(text).toContain('prodroom');
    expect(text).toContain(prodSession);
    expect(text).toContain(`<#${PUBLIC}>`);
    for (const hidden of [stagingSession, 'stageroom', PRIVATE]) expect(text).not.toContain(hidden);
  });

  it('App Home shows an admin everything but the private channel’s watch, which stays in its channel', async () => {
    const text = renderedText((await home(USERS.admin)).body.view);
    for (const shown of ['prodroom', 'stageroom', prodSession, stagingSession, `<#${PUBLIC}>`]) expect(text).toContain(shown);
    expect(text).not.toContain(PRIVATE);
    const watches = await t.store.listWatches({ teamId: TEAM, channelId: PRIVATE });
    expect(watches).toHaveLength(1);
  });

  it('the session picker’s option search offers someone without a role nothing, a viewer of prod only prod', async () => {
    expect(await t.options(ACTION.sessionPicker, '', { user: NOBODY })).toEqual({ options: [] });
    expect(await t.options(ACTION.sessionPicker, 'room', { user: NOBODY })).toEqual({ options: [] });
    const viewer = JSON.stringify(await t.options(ACTION.sessionPicker, '', { user: PROD_VIEWER }));
    expect(viewer).toContain('prodroom');
    expect(viewer).not.toContain('stageroom');
    const admin = JSON.stringify(await t.options(ACTION.sessionPicker, '', { user: USERS.admin }));
    expect(admin).toContain('prodroom');
    expect(admin).toContain('stageroom');
  });

  it('the shortcut tells someone without the role so, before showing any session, and audits it', async () => {
    for (const user of [NOBODY, PROD_VIEWER]) {
      const opened = await shortcut(user);
      const text = renderedText(opened.body.view);
      expect(text).toContain('needs the moderator role');
      expect(findElements(opened.body.view, ACTION.sessionPicker)).toEqual([]);
      expect(JSON.stringify(opened.body.view)).not.toContain(prodSession);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ userId: user, command: '/mute-all', target: 'shortcut', outcome: 'denied' }));
    }
  });

  it('the shortcut opens its form, latest session filled in, for a moderator', async () => {
    const opened = await shortcut(USERS.moderator);
    const [picker] = findElements(opened.body.view, ACTION.sessionPicker);
    expect(picker).toEqual(expect.objectContaining({ type: 'external_select', initial_option: expect.anything() }));
  });
});

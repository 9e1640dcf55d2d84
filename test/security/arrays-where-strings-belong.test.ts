/**
 * Finding 9: payloads with arrays where strings belong (`text`, `user_id`) threw inside
 * listeners and were never acknowledged; an array `user_id` kept the denial out of the audit.
 *
 * Now such a payload is refused at the edge (400) without reaching a listener; the same request
 * with strings is served, and a denial is audited.
 */
import { CHANNEL, SIGNING_SECRET, TEAM, USERS, slashCommandFields, startTestApp, type TestApp } from '../harness/app';
import { signBody, signedInteraction } from '../harness/signing';
import { renderedText } from '../harness/text';
import { collectUnhandledRejections } from './support';

const FORM = 'application/x-www-form-urlencoded';

describe('finding 9: arrays where strings belong', () => {
  let t: TestApp;
  const rejections = collectUnhandledRejections();

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  function form(seeded: { sessionId: string }, user: string, extra = ''): string {
    const fields = slashCommandFields({
      command: '/mute-all',
      text: seeded.sessionId,
      user,
      channel: CHANNEL,
      responseUrl: t.slack.newResponseUrl(),
      triggerId: `1.${Date.now()}.arr`,
    });
    return `${new URLSearchParams(fields).toString()}${extra}`;
  }

  it.each([
    ['user_id twice', `&user_id=${USERS.admin}`],
    ['text twice', '&text=again'],
    ['channel_id twice', '&channel_id=C0OTHER'],
    ['command twice', '&command=%2Fkick'],
  ])('a slash command with %s is refused (400) and does nothing', async (_name, extra) => {
    const seeded = t.seedSession({ streams: 1 });
    const auditBefore = (await t.store.listAudit(TEAM, 100)).length;
    const since = t.slack.mark();
    expect((await t.post(signBody(SIGNING_SECRET, form(seeded, USERS.viewer, extra), FORM))).status).toBe(400);
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(false);
    expect(t.slack.calls.filter((c) => c.seq >= since && c.method !== 'auth.test')).toEqual([]);
    expect((await t.store.listAudit(TEAM, 100)).length).toBe(auditBefore);
    expect(rejections).toEqual([]);
  });

  it.each([
    ['user.id an array', { user: { id: [USERS.admin] } }],
    ['user.id missing', { user: {} }],
    ['actions[0].action_id an array', { actions: [{ action_id: ['x'], value: 'y' }] }],
    ['actions[0].value an array', { actions: [{ action_id: 'x', value: ['y'] }] }],
    ['actions not an array', { actions: 'x' }],
  ])('a block action with %s is refused (400)', async (_name, change) => {
    const payload = {
      type: 'block_actions',
      user: { id: USERS.viewer },
      team: { id: TEAM },
      channel: { id: CHANNEL },
      actions: [{ action_id: 'x', value: 'y' }],
      ...change,
    };
    expect((await t.post(signedInteraction(SIGNING_SECRET, payload))).status).toBe(400);
    expect(rejections).toEqual([]);
  });

  it('the legitimate path still works: the same command with strings is denied to a viewer and the denial audited', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const res = await t.slash('/mute-all', seeded.sessionId, { user: USERS.viewer });
    expect(renderedText((await res.waitForResponse()).body)).toContain('`/mute-all` needs the moderator role');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ userId: USERS.viewer, outcome: 'denied', command: '/mute-all' }));
  });
});

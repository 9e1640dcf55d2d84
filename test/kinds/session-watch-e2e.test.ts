/**
 * The session watch's card end to end: the real Bolt app over signed HTTP, the fake Slack, the
 * emulator and the poller on the emulator's clock. `/video watch <alias>` posts it, what starts in
 * the session shows up on it and in its thread, and `/video unwatch` or its Stop watching button
 * redraws it at once: stopped by whom, no Stop.
 */
import { ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';
import { card, threadTexts, waitForWatch } from '../poller-e2e/helpers';

describe('the session watch card', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  async function watched(alias: string) {
    const seeded = t.seedSession({ streams: 1 });
    await t.store.putAlias({ teamId: TEAM, alias, projectName: 'prod', sessionId: seeded.sessionId, createdBy: USERS.admin, createdAt: 0 });
    await t.slash('/video', `watch ${alias} archives,broadcasts`, { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'session-discovery', sessionId: seeded.sessionId });
    await t.poller!.step(3_000); // the first poll learns what exists
    return { seeded, ts: watch.messageTs! };
  }

  const kept = (text: string, alias: string) => {
    expect(text).toContain(`session \`${alias}\``);
    expect(text).toContain('*Watching for*\nrecordings and broadcasts');
    expect(text).toContain(`*Set up by*\n<@${USERS.moderator}> in <#${CHANNEL}>`);
    expect(text).toContain('*Since*\n<!date^');
    expect(text).toContain('Project *prod* · session ID');
  };

  it('/video watch <alias>: a recording started in the session shows up; /video unwatch says who stopped it, no Stop', async () => {
    const { seeded, ts } = await watched('war-room');
    let text = renderedText(card(t, ts));
    kept(text, 'war-room');
    expect(text).toContain(`<@${USERS.moderator}> is watching session \`war-room\``);
    expect(findElements(card(t, ts), ACTION.stopWatching)).toHaveLength(1);

    const archive = await t.services.projects.client('prod').archives.start({ sessionId: seeded.sessionId, name: 'From the web app' });
    await t.poller!.step(3_000);
    const announced = `New recording started in this session: “From the web app” (\`${archive.id}\`)`;
    expect(threadTexts(t, ts)).toEqual([announced]);
    text = renderedText(card(t, ts));
    kept(text, 'war-room');
    expect(text).toContain(`*Found lately*\n${announced}`);
    expect(findElements(card(t, ts), ACTION.stopWatching)).toHaveLength(1);

    const since = t.slack.mark();
    await t.slash('/video', 'unwatch war-room', { user: USERS.admin });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && String(c.body.text).includes('stopped watching'), { since });
    // Redrawn at once by the command, not at a later poll.
    expect(t.slack.callsOf('chat.update', since).filter((c) => c.body.ts === ts)).toHaveLength(1);
    text = renderedText(card(t, ts));
    kept(text, 'war-room');
    expect(text).toContain(`*Status*\n:black_circle: stopped — unwatched by <@${USERS.admin}>`);
    expect(text).toContain(`Stopped watching by <@${USERS.admin}>`);
    expect(card(t, ts).text).toContain('Stopped watching session war-room');
    expect(findElements(card(t, ts), ACTION.stopWatching)).toEqual([]);
    expect(threadTexts(t, ts).at(-1)).toBe(`Stopped watching by <@${USERS.admin}>`);
    expect(await t.store.listWatches({ kind: 'session-discovery', sessionId: seeded.sessionId })).toEqual([]);
    // Nothing that the poller still holds draws over it.
    for (let i = 0; i < 3; i++) await t.poller!.step(3_000);
    expect(findElements(card(t, ts), ACTION.stopWatching)).toEqual([]);
  });

  it('Stop watching on the card does the same; a viewer may not', async () => {
    const { seeded, ts } = await watched('lobby');
    const value = buttonValue(card(t, ts), ACTION.stopWatching);

    const denied = await t.click(ACTION.stopWatching, value, { user: USERS.viewer, messageTs: ts });
    expect(renderedText((await t.slack.waitForResponse(denied.responseId)).body)).toMatch(/moderator/);
    expect(findElements(card(t, ts), ACTION.stopWatching)).toHaveLength(1);
    expect(await t.store.listWatches({ kind: 'session-discovery', sessionId: seeded.sessionId })).toHaveLength(1);

    const since = t.slack.mark();
    await t.click(ACTION.stopWatching, value, { user: USERS.moderator, messageTs: ts });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && String(c.body.text).includes('stopped watching'), { since });
    const text = renderedText(card(t, ts));
    kept(text, 'lobby');
    expect(text).toContain(`unwatched by <@${USERS.moderator}>`);
    expect(findElements(card(t, ts), ACTION.stopWatching)).toEqual([]);
    expect(await t.store.listWatches({ kind: 'session-discovery', sessionId: seeded.sessionId })).toEqual([]);
  });
});

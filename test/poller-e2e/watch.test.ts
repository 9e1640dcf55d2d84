/**
 * `/video watch|unwatch|watches`, the video service's callback route, and the App Home
 * dashboard, end to end through the real Bolt app.
 */
import { renderSnapshot } from '../../src/poller/snapshot';
import { CHANNEL, TEAM, USERS, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';
import { ACTION } from '../../src/views/ids';
import { card, duplicates, postedKeys, threadTexts, trackWithCard, waitForWatch } from './helpers';

describe('watching what starts elsewhere, callbacks and the Home dashboard', () => {
  let t: TestApp;
  const logs: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ poller: true, logLevel: 'debug', logStream: { write: (line: string) => logs.push(line) } });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });
  afterEach(() => {
    expect(duplicates(postedKeys(t))).toEqual([]);
  });

  const video = () => t.services.projects.client('prod');
  /** The channel's newest top-level message. */
  const lastCard = (channel = CHANNEL) =>
    t.slack
      .messages(channel)
      .filter((m) => !m.threadTs)
      .at(-1)!;

  it('/video watch <session> announces recordings started elsewhere in the card’s thread, then follows them', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    const res = await t.slash('/video', `watch ${seeded.sessionId} archives`);
    expect(res.ack).toBeUndefined();
    const watch = await waitForWatch(t, { kind: 'session-discovery', sessionId: seeded.sessionId });
    const watchCard = lastCard();
    expect(watch.messageTs).toBe(watchCard.ts);
    expect(t.slack.callsOf('chat.postMessage', since)).toHaveLength(1);
    expect(watchCard.text).toBe(`<@${USERS.moderator}> is watching session ${seeded.sessionId} for new recordings started outside this channel.`);

    await t.poller!.step(3_000);
    const archive = await video().archives.start({ sessionId: seeded.sessionId, name: 'Started by the web app' });
    await t.poller!.step(3_000);
    await video().archives.stop(archive.id);
    for (let i = 0; i < 4; i++) await t.poller!.step(3_000);

    const label = 'Started by the web app';
    expect(threadTexts(t, watchCard.ts)).toEqual([
      `New recording started in this session: “${label}” (\`${archive.id}\`)`,
      `${label} · Recording stopped on request`,
      expect.stringMatching(new RegExp(`^${label} · Recording available — `)),
    ]);
    // The watch card is redrawn with the news.
    expect(card(t, watchCard.ts).updates).toBe(1);
    expect(renderedText(card(t, watchCard.ts).blocks)).toContain('*Found lately*\nNew recording started in this session');

    // Broadcasts were not asked for.
    const broadcast = await video().broadcasts.start({ sessionId: seeded.sessionId, outputs: { hls: {} } });
    await t.poller!.step(60_000);
    expect(threadTexts(t, watchCard.ts)).toHaveLength(3);
    await video().broadcasts.stop(broadcast.id);
  });

  it('/video watch all renders names the session of what it announces; /video watches lists it; /video unwatch stops it', async () => {
    const res = await t.slash('/video', 'watch all renders');
    expect(res.ack).toBeUndefined();
    await waitForWatch(t, { kind: 'session-discovery', sessionId: '*' });
    const watchCard = lastCard();
    await t.poller!.step(3_000);

    const seeded = t.seedSession({ streams: 1 });
    const render = await video().render.start({ sessionId: seeded.sessionId, url: 'https://example.com/board', properties: { name: 'Board' } });
    await t.poller!.step(3_000);
    expect(threadTexts(t, watchCard.ts)[0]).toBe(`New composer started in session \`${seeded.sessionId}\`: “Board” (\`${render.id}\`)`);

    const list = await t.slash('/video', 'watches', { user: USERS.viewer });
    const listed = renderedText((await list.waitForResponse()).body);
    expect(listed).toContain('This channel is watching');
    expect(listed).toContain(':eyes: every session of *prod* · watching · new composers');
    expect(listed).toContain('*Composers* (1)\n:red_circle: “Board” · started');

    const denied = await t.slash('/video', 'unwatch all', { user: USERS.viewer });
    expect(renderedText((await denied.waitForResponse()).body)).toMatch(/moderator/);

    const since = t.slack.mark();
    await t.slash('/video', 'unwatch all');
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && String(c.body.text).includes('stopped watching'), {
      since,
    });
    expect(renderedText(notice.body)).toContain('stopped following the 1 resource it had announced');
    expect(await t.store.listWatches({ kind: 'session-discovery', sessionId: '*' })).toEqual([]);
    expect(await t.store.listWatches({ resourceId: render.id })).toEqual([]);

    const again = await t.slash('/video', 'unwatch all');
    expect(renderedText((await again.waitForResponse()).body)).toContain('does not watch every session');
  });

  it('refuses /video watch to viewers and explains unknown kinds', async () => {
    const seeded = t.seedSession({ streams: 0 });
    const denied = await t.slash('/video', `watch ${seeded.sessionId}`, { user: USERS.viewer });
    expect(renderedText((await denied.waitForResponse()).body)).toMatch(/moderator/);
    const wrong = await t.slash('/video', `watch ${seeded.sessionId} archives,streams`);
    expect(renderedText((await wrong.waitForResponse()).body)).toContain('“archives,streams” is not a list of archives, broadcasts, renders');
    await t.slash('/video', 'watch all');
    await waitForWatch(t, { kind: 'session-discovery', sessionId: '*' });
    const again = await t.slash('/video', 'watch all');
    expect(renderedText((await again.waitForResponse()).body)).toContain('already watches every session');
    const since = t.slack.mark();
    await t.slash('/video', 'unwatch all');
    await t.waitForSlackCall('chat.postMessage', (c) => String(c.body.text).includes('stopped watching'), { since });
  });

  describe('POST /callbacks/video/<token>', () => {
    it('answers 404 to a wrong token (and to GET) without logging the token', async () => {
      const wrong = await fetch(`${t.url}/callbacks/video/not-the-token-0123456789abcdef`, { method: 'POST', body: '{}' });
      expect(wrong.status).toBe(404);
      const get = await fetch(`${t.url}/callbacks/video/${t.poller!.callbackToken}`);
      expect(get.status).toBe(404);
      const right = await fetch(`${t.url}/callbacks/video/${t.poller!.callbackToken}`, { method: 'POST', body: 'not json' });
      expect(right.status).toBe(202);
      expect(logs.join('\n')).not.toContain(t.poller!.callbackToken);
      expect(logs.join('\n')).not.toContain('not-the-token-0123456789abcdef');
    });

    it('polls the composer it names at once instead of at its next turn', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const render = await video().render.start({ sessionId: seeded.sessionId, url: 'https://example.com/slides' });
      const ts = await trackWithCard(t, { kind: 'render', resourceId: render.id, sessionId: seeded.sessionId, initialState: renderSnapshot(render) });
      for (let i = 0; i < 6; i++) await t.poller!.step(10_000);
      expect(threadTexts(t, ts)).toEqual(['Composer started']);
      // Nothing has changed for a minute: the next regular poll is up to a minute away.
      await video().render.stop(render.id);
      const { matched } = await (async () => {
        const answer = await fetch(`${t.url}/callbacks/video/${t.poller!.callbackToken}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: render.id, sessionId: seeded.sessionId, status: 'stopped', reason: 'Stop Requested' }),
        });
        expect(answer.status).toBe(202);
        return { matched: ((await answer.json()) as { expedited: number }).expedited };
      })();
      expect(matched).toBeGreaterThanOrEqual(1);
      await t.poller!.step(0);
      expect(threadTexts(t, ts)).toEqual(['Composer started', 'Composer stopped: stop requested']);
    });
  });

  describe('App Home', () => {
    it('shows what the workspace watches when opened, and refreshes after deliveries', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const archive = await video().archives.start({ sessionId: seeded.sessionId, name: 'Town hall' });
      await trackWithCard(t, {
        kind: 'archive',
        resourceId: archive.id,
        sessionId: seeded.sessionId,
        initialState: { status: 'started', createdAt: archive.createdAt, durationS: 0, sizeBytes: 0, name: 'Town hall' },
      });
      const render = await video().render.start({ sessionId: seeded.sessionId, url: 'https://example.com/agenda', properties: { name: 'Agenda' } });
      await trackWithCard(t, { kind: 'render', resourceId: render.id, sessionId: seeded.sessionId, initialState: renderSnapshot(render) });

      const since = t.slack.mark();
      expect(await t.event({ type: 'app_home_opened', user: USERS.viewer, channel: 'D0HOME', tab: 'home', event_ts: '1.2' })).toBe(200);
      const published = await t.waitForSlackCall('views.publish', (c) => c.body.user_id === USERS.viewer, { since });
      const home = renderedText(published.body.view);
      expect(home).toContain('Watching now');
      expect(home).toMatch(/\*Recordings\* \(\d+\)/);
      expect(home).toContain('“Town hall” · started');
      // The composer's own Stop button, with the value its listener reads.
      const [stop] = findElements(published.body.view, ACTION.stopRender);
      expect(JSON.parse(String(stop?.value))).toEqual({ p: 'prod', s: seeded.sessionId, i: render.id });

      const refreshSince = t.slack.mark();
      await video().archives.stop(archive.id);
      await t.poller!.step(3_000);
      const refreshed = await t.waitForSlackCall('views.publish', (c) => c.body.user_id === USERS.viewer, { since: refreshSince });
      expect(renderedText(refreshed.body.view)).toContain('“Town hall” · stopped');
      expect(refreshed.body.view).toMatchObject({ type: 'home' });
      expect(TEAM).toBe('T0TEST');
    });
  });
});

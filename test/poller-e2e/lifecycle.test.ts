/**
 * End to end with the real Bolt app, the fake Slack and the emulator: something is started the
 * way the commands start it (a card, then `services.track`), the emulator's clock moves, poll
 * cycles and delivery rounds run by hand, and each change reaches the card's thread once while
 * the card itself is redrawn (chat.update) to the newest state.
 */
import { broadcastSnapshot, captionsSnapshot, renderSnapshot } from '../../src/poller/snapshot';
import { ACTION, RECORD_ACTION } from '../../src/views/ids';
import { CHANNEL, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { card, duplicates, postedKeys, threadTexts, trackWithCard, waitForWatch } from './helpers';

describe('poller end to end: one reply per change, the card kept up to date', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });
  afterEach(() => {
    expect(duplicates(postedKeys(t))).toEqual([]);
  });

  const video = () => t.services.projects.client('prod');
  const updatesOf = (ts: string) => t.slack.callsOf('chat.update').filter((c) => c.body.ts === ts);

  it('follows a recording started with /record start: paused → started → stopped → available', async () => {
    const seeded = t.seedSession({ streams: 1 });
    await t.slash('/record', `start ${seeded.sessionId} "Board <review>"`);
    const watch = await waitForWatch(t, { kind: 'archive', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    const started = { id: watch.resourceId };
    expect(card(t, ts).text).toMatch(/^Recording Board &lt;review&gt; of session .*: Recording$/);
    const poller = t.poller!;

    await poller.step(3_000);
    expect(threadTexts(t, ts)).toEqual([]);
    expect(updatesOf(ts)).toHaveLength(0);

    // Polls come 3 s after a change, then further apart while nothing changes.
    t.emulator.control.unpublish(t.project.apiKey, seeded.sessionId, seeded.streams[0]!);
    await poller.step(3_000);
    expect(threadTexts(t, ts)).toEqual([':warning: Recording paused: nobody is publishing']);
    // The recording's own card, redrawn from the newest state: still with its Stop button.
    expect(card(t, ts).text).toMatch(/^Recording Board &lt;review&gt; of session .*: Paused/);
    expect(JSON.stringify(card(t, ts).blocks)).toContain(RECORD_ACTION.stop);

    t.emulator.control.publish(t.project.apiKey, seeded.sessionId, seeded.connections[0]!, { videoType: 'camera' });
    await poller.step(3_000);
    await video().archives.stop(started.id);
    await poller.step(3_000);
    // Nothing new until processing ends (5 s); cycles in between repeat nothing.
    await poller.step(1_000);
    await poller.step(3_000);
    await poller.step(3_000);

    expect(threadTexts(t, ts)).toEqual([
      ':warning: Recording paused: nobody is publishing',
      'Recording resumed',
      'Recording stopped on request',
      expect.stringMatching(/^Recording available — \d+ s, [\d.]+ kB$/),
    ]);
    expect(updatesOf(ts)).toHaveLength(4);
    expect(card(t, ts).text).toMatch(/: Available to download$/);
    expect(JSON.stringify(card(t, ts).blocks)).not.toContain(RECORD_ACTION.stop);
    expect(JSON.stringify(card(t, ts).blocks)).toContain(RECORD_ACTION.download);
    expect(await t.store.listWatches({ resourceId: started.id })).toEqual([]);

    const since = t.slack.mark();
    await poller.run(3, 60_000);
    expect(t.slack.callsOf('chat.postMessage', since)).toHaveLength(0);
  });

  it('follows a broadcast through its HLS and RTMP statuses until it stops', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const started = await video().broadcasts.start({
      sessionId: seeded.sessionId,
      outputs: { hls: {}, rtmp: [{ id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: 'stream-key-SECRET' }] },
    });
    const ts = await trackWithCard(t, {
      kind: 'broadcast',
      resourceId: started.id,
      sessionId: seeded.sessionId,
      initialState: broadcastSnapshot(started, t.emulator.control.now()),
    });
    const poller = t.poller!;
    for (let i = 0; i < 8; i++) await poller.step(3_000);
    // Each status holds for longer than the polling interval has grown to (up to 2× the time since the last change).
    t.emulator.control.setBroadcastOutputStatus(t.project.apiKey, started.id, { rtmp: { yt: 'offline' } });
    for (let i = 0; i < 4; i++) await poller.step(3_000);
    t.emulator.control.setBroadcastOutputStatus(t.project.apiKey, started.id, { rtmp: { yt: 'live' } });
    for (let i = 0; i < 4; i++) await poller.step(3_000);
    await video().broadcasts.stop(started.id);
    for (let i = 0; i < 4; i++) await poller.step(3_000);

    expect(threadTexts(t, ts)).toEqual([
      // The live line tells how HLS stands; no second reply says it again.
      'Broadcast live on RTMP; HLS ready',
      'Broadcast live on HLS and RTMP',
      expect.stringMatching(/^:warning: RTMP output 'yt' offline: server unreachable/),
      'Broadcast live on HLS and RTMP',
      'Broadcast stopped',
    ]);
    // The broadcast's own card, redrawn from the snapshot: statuses, no Stop button once stopped.
    expect(card(t, ts).text).toBe(`The broadcast of session ${seeded.sessionId} has stopped`);
    expect(JSON.stringify(card(t, ts).blocks)).not.toContain(ACTION.broadcastStop);
    // One redraw per poll that saw changes: the first saw RTMP live and HLS ready together.
    expect(updatesOf(ts)).toHaveLength(5);
    // Stream keys and server URLs never reach Slack.
    expect(JSON.stringify(t.slack.calls)).not.toMatch(/SECRET|rtmps:/);
  });

  it('follows a composer until it fails', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const started = await video().render.start({ sessionId: seeded.sessionId, url: 'https://example.com/whiteboard', properties: { name: 'Whiteboard' } });
    const ts = await trackWithCard(t, { kind: 'render', resourceId: started.id, sessionId: seeded.sessionId, initialState: renderSnapshot(started) });
    const poller = t.poller!;
    await poller.step(1_000);
    await poller.step(3_000);
    // While it runs, the redrawn card keeps the composer's Stop button.
    expect(JSON.stringify(card(t, ts).blocks)).toContain(ACTION.stopRender);
    t.emulator.control.failRender(t.project.apiKey, started.id, 'page crashed');
    await poller.step(3_000);
    await poller.step(3_000);
    expect(threadTexts(t, ts)).toEqual(['Composer started', ':x: Composer failed: page crashed']);
    expect(card(t, ts).text).toBe(`Composer “Whiteboard” in session ${seeded.sessionId}: failed`);
    expect(JSON.stringify(card(t, ts).blocks)).not.toContain(ACTION.stopRender);
  });

  it('ends live captions at their maximum duration', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const started = await video().captions.start({ sessionId: seeded.sessionId, maxDuration: 300 });
    const ts = await trackWithCard(t, {
      kind: 'captions',
      resourceId: started.captionsId,
      sessionId: seeded.sessionId,
      initialState: captionsSnapshot(t.emulator.control.now(), 300),
    });
    const poller = t.poller!;
    await poller.step(1_000);
    await poller.step(200_000);
    expect(threadTexts(t, ts)).toEqual([]);
    await poller.step(100_000);
    await poller.step(60_000);
    expect(threadTexts(t, ts)).toEqual(['Live captions ended: maximum duration reached (5 min)']);
    expect(card(t, ts).text).toBe(`Live captions in session ${seeded.sessionId} — ended.`);
    expect(JSON.stringify(card(t, ts).blocks)).not.toContain(ACTION.stopCaptions);
    expect(t.slack.messages(CHANNEL).find((m) => m.ts === ts)?.updates).toBe(1);
  });
});

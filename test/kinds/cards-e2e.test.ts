/**
 * Live cards end to end: the real Bolt app over signed HTTP, the fake Slack, the emulator and the
 * poller driven on the emulator's clock. Each card is redrawn from the model stored with its
 * watch — first post, poll, click, a command typed elsewhere — and keeps every field it had.
 */
import { findElements, buttonValue, renderedText } from '../harness/text';
import { ACTION, RECORD_ACTION } from '../../src/views/ids';
import { keyActionId } from '../../src/views/sip';
import { TEAM, USERS, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { card, threadTexts, waitForWatch } from '../poller-e2e/helpers';

describe('live cards keep what they were started with', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  const updatesOf = (ts: string) => t.slack.callsOf('chat.update').filter((c) => c.body.ts === ts);

  async function aliased(alias: string, streams = 1) {
    const seeded = t.seedSession({ streams });
    await t.store.putAlias({ teamId: TEAM, alias, projectName: 'prod', sessionId: seeded.sessionId, createdBy: USERS.admin, createdAt: 0 });
    return seeded;
  }

  it('a recording started by command, stopped by someone else, available, then deleted by command', async () => {
    const seeded = await aliased('board-room');
    await t.slash('/record', 'start board-room "Q4 review" --resolution 1280x720 --tag q4', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'archive', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    const kept = (text: string) => {
      expect(text).toContain(`<@${USERS.moderator}> started recording session \`board-room\``);
      expect(text).toContain(`*Started by*\n<@${USERS.moderator}>`);
      expect(text).toContain('*Output*\nComposed, 1280x720');
      expect(text).toContain('*Tag*\n`q4`');
      expect(text).toContain('*Name*\nQ4 review');
      expect(text).toContain(`Session \`board-room\` (\`${seeded.sessionId}\`)`);
    };
    kept(renderedText(card(t, ts)));
    expect(card(t, ts).text).toBe('Recording Q4 review of session board-room: Recording');

    // Someone else clicks Stop on the card: redrawn at once, not at the next poll.
    const since = t.slack.mark();
    await t.click(RECORD_ACTION.stop, buttonValue(card(t, ts), RECORD_ACTION.stop), { user: USERS.admin, messageTs: ts });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since });
    let text = renderedText(card(t, ts));
    kept(text);
    expect(text).toContain('Stopped — the file is being processed');
    expect(text).toContain(`Stopped by <@${USERS.admin}>`);
    expect(findElements(card(t, ts), RECORD_ACTION.stop)).toEqual([]);
    expect(threadTexts(t, ts)).toEqual([`Stopped by <@${USERS.admin}>`]);

    // The poller takes it to available: redrawn from the same model, every field still there.
    for (let i = 0; i < 4; i++) await t.poller!.step(3_000);
    text = renderedText(card(t, ts));
    kept(text);
    expect(text).toContain('Available to download');
    expect(text).toContain(`Stopped by <@${USERS.admin}>`);
    expect(findElements(card(t, ts), RECORD_ACTION.download)).toHaveLength(1);
    expect(threadTexts(t, ts)).toEqual([`Stopped by <@${USERS.admin}>`, expect.stringMatching(/^Recording available — /)]);

    // `/record delete` typed elsewhere, with its confirmation: the card says deleted, offers nothing.
    const res = await t.slash('/record', `delete ${watch.resourceId}`, { user: USERS.admin });
    const confirm = await res.waitForResponse();
    const before = t.slack.mark();
    await t.click(RECORD_ACTION.delete, buttonValue(confirm.body, RECORD_ACTION.delete), { user: USERS.admin, responseUrl: res.responseUrl });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since: before });
    text = renderedText(card(t, ts));
    kept(text);
    expect(text).toContain(':wastebasket:');
    expect(text).toContain('*Status*\n:wastebasket: Deleted');
    expect(text).toContain(`Deleted by <@${USERS.admin}>`);
    expect(findElements(card(t, ts), RECORD_ACTION.download)).toEqual([]);
    expect(findElements(card(t, ts), RECORD_ACTION.delete)).toEqual([]);
    expect(card(t, ts).text).toBe('Recording Q4 review of session board-room: Deleted');
    expect(threadTexts(t, ts).at(-1)).toBe(`Deleted by <@${USERS.admin}>`);

    // Later polls change nothing.
    const calm = updatesOf(ts).length;
    await t.poller!.run(3, 60_000);
    expect(updatesOf(ts)).toHaveLength(calm);
  });

  it('a broadcast with HLS and RTMP shows the HLS URL once live and, after it stops, no output live, ready or connecting', async () => {
    const seeded = await aliased('town-hall');
    await t.slash('/broadcast', 'start town-hall --hls --rtmp yt=rtmps://a.rtmp.youtube.com:443/live2/SECRET-KEY-1', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'broadcast', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    const hlsUrl = (await t.services.projects.client('prod').broadcasts.get(watch.resourceId)).broadcastUrls?.hls;
    expect(hlsUrl).toMatch(/^https?:\/\//);

    for (let i = 0; i < 10; i++) await t.poller!.step(3_000);
    let text = renderedText(card(t, ts));
    expect(text).toContain('*HLS* :large_green_circle: live');
    expect(text).toContain(hlsUrl!);
    expect(text).toContain('`yt` a.rtmp.youtube.com — :large_green_circle: live');
    expect(text).toContain(`<@${USERS.moderator}> started a live broadcast of session \`town-hall\``);

    // Stopped from a command typed elsewhere (the confirmation card's button).
    const res = await t.slash('/broadcast', `stop ${watch.resourceId}`, { user: USERS.admin });
    const confirm = await res.waitForResponse();
    const since = t.slack.mark();
    await t.click(ACTION.broadcastStop, buttonValue(confirm.body, ACTION.broadcastStop), { user: USERS.admin, responseUrl: res.responseUrl });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since });
    for (let i = 0; i < 3; i++) await t.poller!.step(3_000);
    text = renderedText(card(t, ts));
    expect(text).not.toMatch(/:large_green_circle: live|ready, waiting|connecting/);
    expect(text).toContain('*HLS* :black_circle: closed (the broadcast stopped)');
    expect(text).toContain('`yt` a.rtmp.youtube.com — :black_circle: closed (the broadcast stopped)');
    expect(text).toContain(hlsUrl!);
    expect(text).toContain(`stopped by <@${USERS.admin}>`);
    expect(text).toContain(`by <@${USERS.moderator}>`);
    expect(findElements(card(t, ts), ACTION.broadcastStop)).toEqual([]);
    expect(card(t, ts).text).toBe('The broadcast of session town-hall has stopped');
    expect(threadTexts(t, ts)).toContain(`Stopped by <@${USERS.admin}>`);
    expect(JSON.stringify(t.slack.calls)).not.toContain('SECRET-KEY-1');
  });

  it('a composer card keeps its URL, resolution and name through every redraw, and loses Stop once stopped', async () => {
    const seeded = await aliased('board');
    await t.slash('/render', 'start https://meet.example.com/board/42 board --name Whiteboard --resolution 1920x1080', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'render', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    const kept = () => {
      const text = renderedText(card(t, ts));
      expect(text).toContain(`<@${USERS.moderator}> started publishing a web page into session \`board\``);
      expect(text).toContain('https://meet.example.com/board/42');
      expect(text).toContain('*Resolution*\n1920x1080');
      expect(text).toContain('*Stream name*\nWhiteboard');
      return text;
    };
    kept();
    for (let i = 0; i < 4; i++) await t.poller!.step(3_000);
    expect(updatesOf(ts).length).toBeGreaterThan(0);
    expect(kept()).toContain(':large_green_circle: live');
    expect(findElements(card(t, ts), ACTION.stopRender)).toHaveLength(1);

    const since = t.slack.mark();
    await t.click(ACTION.stopRender, buttonValue(card(t, ts), ACTION.stopRender), { user: USERS.admin, messageTs: ts });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since });
    expect(kept()).toContain(`Stopped by <@${USERS.admin}>`);
    expect(findElements(card(t, ts), ACTION.stopRender)).toEqual([]);
    for (let i = 0; i < 3; i++) await t.poller!.step(3_000);
    expect(kept()).toContain(':white_circle: stopped');
    expect(findElements(card(t, ts), ACTION.stopRender)).toEqual([]);
  });

  it('a call card keeps the number, the keypad and Hang up through every redraw until someone hangs up', async () => {
    const seeded = await aliased('hotline');
    await t.slash('/dial', 'sip:+15551234567@sip.example.com hotline', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'sip', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    const kept = () => {
      const text = renderedText(card(t, ts));
      expect(text).toContain(`<@${USERS.moderator}> dialed \`sip:+15551234567@sip.example.com\` into session \`hotline\``);
      expect(text).toContain('*Connection*');
      return text;
    };
    kept();
    for (let i = 0; i < 4; i++) await t.poller!.step(3_000);
    expect(updatesOf(ts).length).toBeGreaterThan(0);
    expect(kept()).toContain(':large_green_circle: connected');
    expect(findElements(card(t, ts), ACTION.sipHangUp)).toHaveLength(1);
    expect(findElements(card(t, ts), keyActionId('5'))).toHaveLength(1);

    const since = t.slack.mark();
    await t.click(ACTION.sipHangUp, buttonValue(card(t, ts), ACTION.sipHangUp), { user: USERS.admin, messageTs: ts });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since });
    expect(kept()).toContain(`:black_circle: ended — hung up by <@${USERS.admin}>`);
    expect(findElements(card(t, ts), ACTION.sipHangUp)).toEqual([]);
    expect(findElements(card(t, ts), keyActionId('5'))).toEqual([]);
    for (let i = 0; i < 3; i++) await t.poller!.step(3_000);
    expect(kept()).toContain(`Hung up by <@${USERS.admin}>`);
  });

  it('/captions stop typed in the channel removes Stop from the captions card', async () => {
    const seeded = await aliased('standup-captions');
    await t.slash('/captions', 'start standup-captions --lang fr-FR', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'captions', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    expect(findElements(card(t, ts), ACTION.stopCaptions)).toHaveLength(1);
    const typed = await t.slash('/captions', 'stop --session standup-captions', { user: USERS.admin });
    const question = await typed.waitForResponse();
    const since = t.slack.mark();
    await t.click(ACTION.confirmCaptionsStop, buttonValue(question.body, ACTION.confirmCaptionsStop), { user: USERS.admin, responseUrl: typed.responseUrl });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since });
    const text = renderedText(card(t, ts));
    expect(findElements(card(t, ts), ACTION.stopCaptions)).toEqual([]);
    expect(text).toContain(`:black_circle: ended — stopped by <@${USERS.admin}>`);
    expect(text).toContain(`<@${USERS.moderator}> started live captions in session \`standup-captions\``);
    expect(text).toContain('French (France)');
    expect(threadTexts(t, ts)).toEqual([`Stopped by <@${USERS.admin}>`]);
  });

  it('a failure in the thread mentions the person who started it', async () => {
    const seeded = await aliased('fragile');
    await t.slash('/record', 'start fragile', { user: USERS.moderator });
    const watch = await waitForWatch(t, { kind: 'archive', sessionId: seeded.sessionId });
    t.emulator.control.setArchiveStatus(t.project.apiKey, watch.resourceId, 'failed');
    for (let i = 0; i < 3; i++) await t.poller!.step(3_000);
    expect(threadTexts(t, watch.messageTs!)).toContain(`:x: Recording failed · started by <@${USERS.moderator}>`);
    expect(renderedText(card(t, watch.messageTs!))).toContain(`*Started by*\n<@${USERS.moderator}>`);
  });
});

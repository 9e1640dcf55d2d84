/** End to end: /render start, stop (+ confirmation), list, show and the Stop buttons against the emulator. */
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';

const PAGE = 'https://meet.example.com/board/42';

describe('/render', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ extraProjects: [{ name: 'suspended' }] });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  /** Starts a composer in a fresh session; returns the session, the card and the composer ID. */
  async function started(text = '', channel = CHANNEL) {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    const tracked = nextTrack(t);
    await t.slash('/render', `start ${PAGE} ${seeded.sessionId} ${text}`, { channel });
    const card = await t.waitForSlackCall(
      'chat.postMessage',
      (c) => c.body.channel === channel && renderedText(c.body).includes('started publishing a web page'),
      { since },
    );
    await tracked;
    const renderId = JSON.parse(buttonValue(card.body, ACTION.stopRender)).i as string;
    return { seeded, card, renderId };
  }

  async function replyTo(text: string, user: string = USERS.moderator, channel = CHANNEL): Promise<{ text: string; body: Record<string, unknown> }> {
    const res = await t.slash('/render', text, { user, channel });
    const reply = await res.waitForResponse();
    expect(JSON.stringify(reply.body)).not.toMatch(/\/v2\/project|"code":\d+|Error:/);
    return { text: renderedText(reply.body), body: reply.body };
  }

  describe('start', () => {
    it('publishes the page with the options given, posts the card with Stop, and watches the composer', async () => {
      const { seeded, card, renderId } = await started('--name Whiteboard --resolution 1920x1080 --max-duration 1h');
      expect(t.emulator.control.getRender(t.project.apiKey, renderId)).toEqual(
        expect.objectContaining({ sessionId: seeded.sessionId, url: PAGE, resolution: '1920x1080', maxDuration: 3600, name: 'Whiteboard', status: 'starting' }),
      );
      const text = renderedText(card.body);
      expect(text).toContain(`<@${USERS.moderator}> started publishing a web page into session \`${seeded.sessionId}\``);
      expect(text).toContain(PAGE);
      expect(text).toContain('Whiteboard');
      expect(text).toContain('1920x1080');
      expect(text).toContain('starting');
      expect(text).toContain('after 1 h');
      const [stop] = findElements(card.body, ACTION.stopRender);
      expect(stop).toEqual(
        expect.objectContaining({ style: 'danger', confirm: expect.objectContaining({ title: expect.objectContaining({ text: 'Stop this composer?' }) }) }),
      );

      const watches = await t.services.store.listWatches({ kind: 'render', resourceId: renderId });
      expect(watches).toEqual([
        expect.objectContaining({
          sessionId: seeded.sessionId,
          channelId: CHANNEL,
          projectName: 'prod',
          messageTs: expect.any(String),
          lastState: { status: 'starting', createdAt: expect.any(Number), name: 'Whiteboard' },
        }),
      ]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/render start', outcome: 'ok', target: `${PAGE} in session ${seeded.sessionId}` }));

      // The emulator's clock brings it to `started`, publishing the page as a stream.
      t.emulator.control.advanceTime(t.emulator.control.transitions().renderStartMs);
      const render = t.emulator.control.getRender(t.project.apiKey, renderId);
      expect(render.status).toBe('started');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams.map((s) => s.streamId)).toContain(render.streamId);
    });

    it('uses the channel’s session and the defaults; accepts a link as Slack wraps it', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.setChannelBinding({
        teamId: TEAM,
        channelId: 'C0RENDERDEF',
        sessionId: seeded.sessionId,
        projectName: 'prod',
        updatedBy: USERS.admin,
        updatedAt: 0,
      });
      const since = t.slack.mark();
      await t.slash('/render', `start <${PAGE}|meet.example.com/board/42>`, { channel: 'C0RENDERDEF' });
      const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0RENDERDEF', { since });
      const renderId = JSON.parse(buttonValue(card.body, ACTION.stopRender)).i as string;
      expect(t.emulator.control.getRender(t.project.apiKey, renderId)).toEqual(
        expect.objectContaining({ sessionId: seeded.sessionId, url: PAGE, resolution: '1280x720', maxDuration: 7200 }),
      );
      expect(renderedText(card.body)).toContain('after 2 h');
    });

    it('explains an unknown session (400, code 50008) in words', async () => {
      const { text } = await replyTo(`start ${PAGE} 2_MX4doesnotexist00000000`);
      expect(text).toContain(':warning: Session `2_MX4doesnotexist00000000` is not a session of project *prod*; check the ID or alias');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/render start', outcome: 'error', error: 'VideoApiError 400' }));
    });

    it.each([
      [400, 50001, 'the page address is not a valid URL; give the full address'],
      [400, 50002, 'the video service could not reach the page; it must be public (no login, no VPN)'],
      [400, 50005, 'the maximum duration must be 60 to 36000 seconds'],
      [400, 50006, 'the resolution must be one of 640x480, 480x640, 1280x720'],
      [400, 50007, 'the stream name must be 1 to 200 characters'],
      [403, 10001, 'refused the participant token vidops made for the page (malformed or wrongly signed)'],
      [403, 10002, 'refused the participant token vidops made for the page (not allowed to publish)'],
      [403, 10007, 'refused the participant token vidops made for the page (made for another session)'],
      [403, 10012, 'refused the participant token vidops made for the page (expired)'],
      [403, 10004, 'refused the credentials of project *prod*'],
    ])('explains the composer’s %i code %i in words', async (status, code, words) => {
      const seeded = t.seedSession({ streams: 1 });
      t.emulator.control.injectFault({ method: 'POST', path: '/render', kind: 'status', status, body: JSON.stringify({ code, message: 'composer error' }) });
      const { text } = await replyTo(`start ${PAGE} ${seeded.sessionId}`);
      expect(text).toContain(words);
      expect(text).toMatch(/nothing was (started|changed)|\.$/);
    });

    it('explains a suspended project and starts nothing', async () => {
      const key = t.services.projects.client('suspended').apiKey;
      const seeded = t.seedSession({ streams: 1, apiKey: key });
      await suspend(t, key);
      const { text } = await replyTo(`start ${PAGE} ${seeded.sessionId} --project suspended`);
      expect(text).toMatch(/refused the credentials of project \*suspended\* \(wrong API key or secret, or the project is suspended\)/);
      expect(await t.services.store.listWatches({ kind: 'render', sessionId: seeded.sessionId })).toEqual([]);
    });

    it('answers usage errors in the ack, with an example', async () => {
      const noUrl = renderedText((await t.slash('/render', 'start')).ack);
      expect(noUrl).toContain('<url> is missing');
      expect(noUrl).toContain('/render start https://meet.example.com/board/42');
      expect(renderedText((await t.slash('/render', 'start ftp://files.example.com/board')).ack)).toContain(
        '<url>: give the full address of a public web page, starting with https://',
      );
      expect(renderedText((await t.slash('/render', 'start https://a.io')).ack)).toContain('the address must be 15 to 2048 characters long');
      expect(renderedText((await t.slash('/render', `start ${PAGE} --resolution 4k`)).ack)).toContain(
        '--resolution: “4k” is not a resolution; use one of 640x480',
      );
      expect(renderedText((await t.slash('/render', `start ${PAGE} --max-duration 30`)).ack)).toContain('--max-duration: must be 60 to 36000 seconds');
      expect(renderedText((await t.slash('/render', 'show')).ack)).toContain('<id> is missing');
      expect(renderedText((await t.slash('/render', 'pause')).ack)).toContain('“pause” is not a subcommand of /render');
    });

    it('denies a viewer', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { text } = await replyTo(`start ${PAGE} ${seeded.sessionId}`, USERS.viewer);
      expect(text).toContain('`/render start` needs the moderator role; you are a viewer');
      expect(await t.services.store.listWatches({ kind: 'render', sessionId: seeded.sessionId })).toEqual([]);
    });
  });

  describe('show and list (viewers may read)', () => {
    it('shows one composer with its status, page and a Stop button while it runs', async () => {
      const { renderId } = await started('--name Slides');
      t.emulator.control.advanceTime(t.emulator.control.transitions().renderStartMs);
      const { text, body } = await replyTo(`show ${renderId}`, USERS.viewer);
      expect(body.response_type).toBe('ephemeral');
      expect(text).toContain('Composer Slides');
      expect(text).toContain(':large_green_circle: live');
      expect(text).toContain(PAGE);
      expect(text).toContain(t.emulator.control.getRender(t.project.apiKey, renderId).streamId);
      expect(findElements(body, ACTION.stopRender)).toHaveLength(1);
    });

    it('explains an unknown composer (404)', async () => {
      const { text } = await replyTo('show 80abaf0d-25a3-4efc-968f-000000000000');
      expect(text).toContain('Composer `80abaf0d-25a3-4efc-968f-000000000000` was not found in project *prod*; `/render list` shows the composers.');
    });

    it('lists the project’s composers, running ones first with Stop, and one session’s', async () => {
      const first = await started('--name First');
      const second = await started('--name Second');
      await t.click(ACTION.stopRender, buttonValue(first.card.body, ACTION.stopRender));
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes(`stopped composer \`${first.renderId}\``));

      const all = await replyTo('list', USERS.viewer);
      expect(all.text).toContain('Composers');
      const secondAt = all.text.indexOf('Second');
      const firstAt = all.text.indexOf('First');
      expect(secondAt).toBeGreaterThan(-1);
      expect(firstAt).toBeGreaterThan(secondAt);
      expect(all.text).toContain(':white_circle: stopped (stop requested)');
      const stopValues = findElements(all.body, ACTION.stopRender).map((b) => JSON.parse(String(b.value)).i);
      expect(stopValues).toContain(second.renderId);
      expect(stopValues).not.toContain(first.renderId);

      const one = await replyTo(`list ${second.seeded.sessionId}`, USERS.viewer);
      expect(one.text).toContain('1 running · 1 composer in session');
      expect(one.text).not.toContain('First');
    });

    it('says so when a session has no composers', async () => {
      const seeded = t.seedSession({ streams: 0 });
      const { text } = await replyTo(`list ${seeded.sessionId}`);
      expect(text).toContain(`No composers in session \`${seeded.sessionId}\`. Start one with \`/render start <url>\`.`);
    });
  });

  describe('stop', () => {
    it('asks for confirmation; the confirmed button stops it, tells the channel and replaces the card', async () => {
      const { seeded, renderId } = await started();
      const res = await t.slash('/render', `stop ${renderId}`);
      const confirm = await res.waitForResponse();
      expect(confirm.body.response_type).toBe('ephemeral');
      expect(renderedText(confirm.body)).toContain(`Stop composer \`${renderId}\``);
      expect(t.emulator.control.getRender(t.project.apiKey, renderId).status).toBe('starting');

      const since = t.slack.mark();
      await t.click(ACTION.confirmRenderStop, buttonValue(confirm.body, ACTION.confirmRenderStop), { responseUrl: res.responseUrl });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && !c.body.thread_ts, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> stopped composer \`${renderId}\` in session \`${seeded.sessionId}\``);
      expect(t.emulator.control.getRender(t.project.apiKey, renderId)).toEqual(expect.objectContaining({ status: 'stopped', reason: 'Stop Requested' }));
      const replaced = await res.waitForResponse((r) => r.body.replace_original === true);
      expect(renderedText(replaced.body)).toContain(`Composer \`${renderId}\` was stopped.`);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/render stop', outcome: 'ok', target: `composer ${renderId} in session ${seeded.sessionId}` }));
    });

    it('without an ID confirms the one running in the channel’s session', async () => {
      const { seeded, renderId } = await started('', 'C0RENDERSTOP');
      await t.store.setChannelBinding({
        teamId: TEAM,
        channelId: 'C0RENDERSTOP',
        sessionId: seeded.sessionId,
        projectName: 'prod',
        updatedBy: USERS.admin,
        updatedAt: 0,
      });
      const { body } = await replyTo('stop', USERS.moderator, 'C0RENDERSTOP');
      expect(JSON.parse(buttonValue(body, ACTION.confirmRenderStop)).i).toBe(renderId);
    });

    it('without an ID offers a choice when several run, and says so when none does', async () => {
      const { seeded } = await started();
      const since = t.slack.mark();
      await t.slash('/render', `start ${PAGE}/two ${seeded.sessionId}`);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const several = await replyTo(`stop --session ${seeded.sessionId}`);
      expect(findElements(several.body, ACTION.stopRender)).toHaveLength(2);
      const idle = t.seedSession({ streams: 0 });
      const none = await replyTo(`stop --session ${idle.sessionId}`);
      expect(none.text).toContain(`No composer is running in session \`${idle.sessionId}\``);
    });

    it('the card’s Stop button stops it', async () => {
      const { card, renderId } = await started();
      const since = t.slack.mark();
      await t.click(ACTION.stopRender, buttonValue(card.body, ACTION.stopRender));
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes(`stopped composer \`${renderId}\``), { since });
      expect(t.emulator.control.getRender(t.project.apiKey, renderId).status).toBe('stopped');
    });

    it('says a stopped composer has nothing to stop, and explains a second stop (404)', async () => {
      const { card, renderId } = await started('--max-duration 60');
      t.emulator.control.advanceTime(60_000);
      expect(t.emulator.control.getRender(t.project.apiKey, renderId)).toEqual(expect.objectContaining({ status: 'stopped', reason: 'Max Duration Exceeded' }));
      const { text } = await replyTo(`stop ${renderId}`);
      expect(text).toContain(`Composer \`${renderId}\` has already stopped; there is nothing to stop.`);
      const click = await t.click(ACTION.stopRender, buttonValue(card.body, ACTION.stopRender));
      const error = await t.slack.waitForResponse(click.responseId);
      expect(renderedText(error.body)).toContain(`Composer \`${renderId}\` was not found in project *prod* or has already stopped`);
    });

    it('denies a viewer the command and the buttons', async () => {
      const { card, renderId } = await started();
      const { text } = await replyTo(`stop ${renderId}`, USERS.viewer);
      expect(text).toContain('`/render stop` needs the moderator role; you are a viewer');
      const click = await t.click(ACTION.stopRender, buttonValue(card.body, ACTION.stopRender), { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('`/render stop` needs the moderator role');
      const confirmClick = await t.click(ACTION.confirmRenderStop, buttonValue(card.body, ACTION.stopRender), { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(confirmClick.responseId)).body)).toContain('needs the moderator role');
      expect(t.emulator.control.getRender(t.project.apiKey, renderId).status).toBe('starting');
    });
  });
});

/** Resolves once the app has handed the next started resource to the poller (that comes after its card). */
function nextTrack(t: TestApp): Promise<TrackRequest> {
  const original = t.services.track;
  return new Promise((resolve) => {
    t.services.track = async (request) => {
      t.services.track = original;
      await original(request);
      resolve(request);
    };
  });
}

async function suspend(t: TestApp, apiKey: string): Promise<void> {
  const account = new VideoClient({
    baseUrl: t.emulator.baseUrl,
    apiKey: t.project.apiKey,
    apiSecret: t.project.apiSecret,
    accountApiKey: t.emulator.control.account.key,
    accountApiSecret: t.emulator.control.account.secret,
  });
  await account.projects.setStatus(apiKey, 'SUSPENDED');
}

/** End to end: /captions start and stop (+ the card's Stop button) against the emulator. */
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';

describe('/captions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ extraProjects: [{ name: 'suspended' }] });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  /** Starts captions in a fresh session; returns the session, the card and the captions ID. */
  async function started(text = '', channel = CHANNEL) {
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    const tracked = nextTrack(t);
    await t.slash('/captions', `start ${seeded.sessionId} ${text}`, { channel });
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel && renderedText(c.body).includes('started live captions'), {
      since,
    });
    await tracked;
    const captionsId = JSON.parse(buttonValue(card.body, ACTION.stopCaptions)).i as string;
    return { seeded, card, captionsId };
  }

  async function bindChannel(channelId: string, sessionId: string): Promise<void> {
    await t.store.setChannelBinding({ teamId: TEAM, channelId, sessionId, projectName: 'prod', updatedBy: USERS.admin, updatedAt: 0 });
  }

  describe('start', () => {
    it('starts captions with the options given, posts the card and watches them', async () => {
      const { seeded, card, captionsId } = await started('--lang fr-fr --max-duration 2h --no-partial');
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId)).toEqual(
        expect.objectContaining({ sessionId: seeded.sessionId, status: 'started', languageCode: 'fr-FR', maxDuration: 7200, partialCaptions: false }),
      );
      const text = renderedText(card.body);
      expect(text).toContain(`<@${USERS.moderator}> started live captions in session \`${seeded.sessionId}\``);
      expect(text).toMatch(/French \(France\) \(`fr-FR`\)/);
      expect(text).toContain('after 2 h');
      expect(text).toContain('off (final captions only)');
      expect(text).toContain(captionsId);

      const watches = await t.services.store.listWatches({ kind: 'captions', resourceId: captionsId });
      expect(watches).toEqual([
        expect.objectContaining({
          kind: 'captions',
          sessionId: seeded.sessionId,
          teamId: TEAM,
          channelId: CHANNEL,
          projectName: 'prod',
          messageTs: expect.any(String),
          lastState: { status: 'active', startedAt: expect.any(Number), maxDurationS: 7200 },
        }),
      ]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/captions start', outcome: 'ok', target: `session ${seeded.sessionId} (fr-FR)` }));
    });

    it('uses the channel’s session and the service defaults (en-US, 4 h, partial captions)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await bindChannel('C0CAPDEFAULT', seeded.sessionId);
      const since = t.slack.mark();
      const tracked = nextTrack(t);
      await t.slash('/captions', 'start', { channel: 'C0CAPDEFAULT' });
      const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CAPDEFAULT', { since });
      await tracked;
      const captionsId = JSON.parse(buttonValue(card.body, ACTION.stopCaptions)).i as string;
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId)).toEqual(
        expect.objectContaining({ sessionId: seeded.sessionId, languageCode: 'en-US', maxDuration: 14_400, partialCaptions: true }),
      );
      expect(renderedText(card.body)).toContain('after 4 h');
      const [watch] = await t.services.store.listWatches({ kind: 'captions', resourceId: captionsId });
      expect(watch?.lastState).toEqual(expect.objectContaining({ maxDurationS: 14_400 }));
    });

    it('explains that captions already run (409): one per session, stop them first', async () => {
      const { seeded } = await started();
      const res = await t.slash('/captions', `start ${seeded.sessionId}`);
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      expect(renderedText(reply.body)).toContain(
        `:warning: Captions are already running for session \`${seeded.sessionId}\` (one per session); stop them with \`/captions stop\`.`,
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/captions start', outcome: 'error', error: 'VideoConflictError 409' }));
    });

    it('explains an unknown session (404)', async () => {
      const res = await t.slash('/captions', 'start 2_MX4doesnotexist00000000');
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(/Session `2_MX4doesnotexist00000000` was not found in project \*prod\*; check the ID or alias/);
    });

    it('explains a suspended project (403) and starts nothing', async () => {
      const key = t.services.projects.client('suspended').apiKey;
      const seeded = t.seedSession({ streams: 1, apiKey: key });
      await suspend(t, key);
      const res = await t.slash('/captions', `start ${seeded.sessionId} --project suspended`);
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toMatch(
        /refused the credentials of project \*suspended\* \(wrong API key or secret, or the project is suspended\).*Ask an admin/,
      );
      expect(await t.services.store.listWatches({ kind: 'captions', sessionId: seeded.sessionId })).toEqual([]);
    });

    it('answers usage errors in the ack, with an example', async () => {
      const lang = renderedText((await t.slash('/captions', 'start --lang xx-YY')).ack);
      expect(lang).toContain('--lang: “xx-YY” is not a captions language; use one of en-US, en-AU');
      expect(lang).toContain('/captions start [session] [--lang <language>] [--max-duration <seconds>] [--no-partial] [--project <name>]');
      expect(lang).toContain('Example');
      const short = renderedText((await t.slash('/captions', 'start --max-duration 100')).ack);
      expect(short).toContain('--max-duration: must be 300 to 14400 seconds (e.g. 3600); 100 is out of range');
      const nonsense = renderedText((await t.slash('/captions', 'start --max-duration soon')).ack);
      expect(nonsense).toContain('“soon” is not a duration');
      const nothing = renderedText((await t.slash('/captions', '')).ack);
      expect(nothing).toContain('Say what to do: start, stop');
    });

    it('denies a viewer, audits the denial and starts nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/captions', `start ${seeded.sessionId}`, { user: USERS.viewer });
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toContain('`/captions start` needs the moderator role; you are a viewer');
      expect(await t.services.store.listWatches({ kind: 'captions', sessionId: seeded.sessionId })).toEqual([]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ userId: USERS.viewer, command: '/captions start', outcome: 'denied' }));
    });
  });

  describe('stop', () => {
    /** `/captions stop …` answers with one card (the question); its button stops them. */
    async function stopTyped(text: string, actor: { channel?: string } = {}) {
      const res = await t.slash('/captions', text, actor);
      const question = await res.waitForResponse();
      const [button] = findElements(question.body, ACTION.confirmCaptionsStop);
      expect(button).toEqual(expect.objectContaining({ style: 'danger' }));
      expect(button).not.toHaveProperty('confirm');
      const since = t.slack.mark();
      await t.click(ACTION.confirmCaptionsStop, buttonValue(question.body, ACTION.confirmCaptionsStop), { responseUrl: res.responseUrl, ...actor });
      return { res, question, since };
    }

    it('without an ID stops the captions running in the channel’s session, found through their watch', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await bindChannel('C0CAPSTOP', seeded.sessionId);
      let since = t.slack.mark();
      let tracked = nextTrack(t);
      await t.slash('/captions', 'start', { channel: 'C0CAPSTOP' });
      const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CAPSTOP' && !c.body.thread_ts, { since });
      await tracked;
      const captionsId = JSON.parse(buttonValue(card.body, ACTION.stopCaptions)).i as string;

      const typed = await stopTyped('stop', { channel: 'C0CAPSTOP' });
      expect(renderedText(typed.question.body)).toContain(`Stop live captions in session \`${seeded.sessionId}\`?`);
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CAPSTOP' && !c.body.thread_ts, { since: typed.since });
      expect(renderedText((await typed.res.waitForResponse((r) => r.body.replace_original === true)).body)).toContain('were stopped');
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> stopped live captions in session \`${seeded.sessionId}\` (\`${captionsId}\`)`);
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId)).toEqual(expect.objectContaining({ status: 'stopped', reason: 'Stop Requested' }));
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/captions stop', outcome: 'ok', target: `captions ${captionsId} in session ${seeded.sessionId}` }),
      );
      // Their watch ended with them, so it will not announce a maximum duration later.
      expect(await t.services.store.listWatches({ kind: 'captions', resourceId: captionsId })).toEqual([]);
      const [ended] = await t.services.store.listWatches({ kind: 'captions', resourceId: captionsId }, { includeEnded: true });
      expect(ended?.endedAt).toEqual(expect.any(Number));

      // They can start again once stopped.
      since = t.slack.mark();
      tracked = nextTrack(t);
      await t.slash('/captions', 'start', { channel: 'C0CAPSTOP' });
      const again = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CAPSTOP' && !c.body.thread_ts, { since });
      await tracked;
      const secondId = JSON.parse(buttonValue(again.body, ACTION.stopCaptions)).i as string;
      expect(secondId).not.toBe(captionsId);
      // And `stop` now means the newest captions.
      const again2 = await stopTyped('stop', { channel: 'C0CAPSTOP' });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CAPSTOP' && !c.body.thread_ts, { since: again2.since });
      expect(t.emulator.control.getCaptions(t.project.apiKey, secondId).status).toBe('stopped');
    });

    it('without an ID says so when no captions started from Slack run in the session', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/captions', `stop --session ${seeded.sessionId}`);
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toContain(
        `:warning: No captions started from Slack are running in session \`${seeded.sessionId}\`. To stop captions started elsewhere, give their ID: \`/captions stop <captions-id>\`.`,
      );
    });

    it('with an ID stops them from any channel, naming the session the watch knows', async () => {
      const { seeded, captionsId } = await started();
      const { since } = await stopTyped(`stop ${captionsId}`, { channel: 'C0ELSEWHERE' });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0ELSEWHERE', { since });
      expect(renderedText(notice.body)).toContain(`stopped live captions in session \`${seeded.sessionId}\``);
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId).status).toBe('stopped');
    });

    it('explains captions that already ended by themselves (404), driven by the emulator clock', async () => {
      const { captionsId } = await started('--max-duration 300');
      t.emulator.control.advanceTime(300_000);
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId)).toEqual(
        expect.objectContaining({ status: 'stopped', reason: 'Max Duration Exceeded' }),
      );
      // The spec has no captions read, so the card cannot know; its button says so.
      const { res } = await stopTyped(`stop ${captionsId}`);
      const reply = await res.waitForResponse((r) => renderedText(r.body).includes('are not running'));
      expect(renderedText(reply.body)).toContain(
        `:warning: Captions \`${captionsId}\` are not running (they ended already, or the ID is wrong); nothing was stopped. \`/captions start\` starts them again.`,
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/captions stop', outcome: 'error', error: 'VideoNotFoundError 404' }));
    });

    it('the card’s Stop button stops them and tells the channel', async () => {
      const { seeded, card, captionsId } = await started();
      const since = t.slack.mark();
      await t.click(ACTION.stopCaptions, buttonValue(card.body, ACTION.stopCaptions), { channel: CHANNEL });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('stopped live captions'), {
        since,
      });
      expect(renderedText(notice.body)).toContain(`session \`${seeded.sessionId}\``);
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId).status).toBe('stopped');
    });

    it('denies a viewer the Stop button, and the captions keep running', async () => {
      const { card, captionsId } = await started();
      const click = await t.click(ACTION.stopCaptions, buttonValue(card.body, ACTION.stopCaptions), { user: USERS.viewer });
      const denied = await t.slack.waitForResponse(click.responseId);
      expect(renderedText(denied.body)).toContain('`/captions stop` needs the moderator role; you are a viewer');
      expect(t.emulator.control.getCaptions(t.project.apiKey, captionsId).status).toBe('started');
    });

    it('denies a viewer the command', async () => {
      const res = await t.slash('/captions', 'stop 7c0680fc-6274-4de5-a66f-d0648e8d3ac2', { user: USERS.viewer });
      expect(renderedText((await res.waitForResponse()).body)).toContain('`/captions stop` needs the moderator role');
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

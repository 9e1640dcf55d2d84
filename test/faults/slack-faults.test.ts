/**
 * Slack failing under the app, after its Web API client's own retries: chat.postMessage (the
 * in-channel card of a change), views.open (forms, within the trigger's 3 s), views.update and
 * files upload (the usage chart) answering 429 with Retry-After, 500, or nothing at all. The
 * asker always hears what happened — through the response_url, which does not go through the
 * failing Web API — a change is made once and announced at most once (a card whose answer was
 * lost is looked for before it is posted again), and the app goes on.
 */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedResponse } from '../harness/fake-slack';
import { renderedText } from '../harness/text';

const inChannel = (body: Record<string, unknown>) => body.channel === CHANNEL;

describe('Slack faults', () => {
  let t: TestApp;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    t = await startTestApp({ useEmulatorClock: true });
  });

  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });

  const archiveStarts = () => t.emulator.control.requestLog().filter((e) => e.method === 'POST' && /\/archive$/.test(e.path)).length;
  const cardsFor = (sessionId: string) =>
    t.slack.messages(CHANNEL).filter((m) => renderedText(m.blocks).includes('started recording') && renderedText(m.blocks).includes(sessionId));

  /** Waits until a later command was fully served (its answer came), so earlier work is done. */
  async function settleCommand(): Promise<void> {
    const res = await t.slash('/video', 'aliases');
    await res.waitForResponse();
  }

  /** The one section sentence of an answer. */
  const sentence = (r: RecordedResponse) => renderedText((r.body.blocks as unknown[])[0]);

  describe('chat.postMessage of a change’s card', () => {
    it('429 with Retry-After: waits, then posts the card once; the recording started once', async () => {
      const { sessionId } = t.seedSession({ streams: 1 });
      const before = archiveStarts();
      t.slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, 1, inChannel);
      const since = t.slack.mark();
      const res = await t.slash('/record', `start ${sessionId}`);
      await t.waitForSlackCall(
        'chat.postMessage',
        (c) => inChannel(c.body) && t.slack.callsOf('chat.postMessage', since).filter((x) => inChannel(x.body)).length === 2,
        { since },
      );
      await t.services.ackGate.idle();
      expect(cardsFor(sessionId)).toHaveLength(1);
      expect(archiveStarts() - before).toBe(1);
      expect(t.slack.responsesTo(res.responseId)).toEqual([]);
    });

    it('500 on every attempt: the recording started once, the asker gets the card privately with why the channel did not', async () => {
      const { sessionId } = t.seedSession({ streams: 1 });
      const before = archiveStarts();
      t.slack.failNext('chat.postMessage', { status: 500 }, 3, inChannel);
      const since = t.slack.mark();
      const res = await t.slash('/record', `start ${sessionId}`);
      const answer = await res.waitForResponse();
      expect(answer.body.response_type).toBe('ephemeral');
      const text = renderedText(answer.body);
      expect(text).toContain('started recording');
      expect(text).toContain(
        'Only you can see this: the channel did not get this notice (Slack answered with error 500). Tell the channel if they need to know.',
      );
      expect(JSON.stringify(answer.body)).not.toMatch(/WebAPI|slack_webapi|at .*\.(ts|js):\d+|xoxb-/);
      // Three attempts (each after looking for a lost one) and no more; nothing reached the channel.
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => inChannel(c.body))).toHaveLength(3);
      expect(cardsFor(sessionId)).toEqual([]);
      expect(archiveStarts() - before).toBe(1);
      expect(t.emulator.control.getSession(t.project.apiKey, sessionId)).toBeDefined();
    });

    it('500 after Slack posted it (the answer was lost): the card is found in the channel, not posted again', async () => {
      const { sessionId } = t.seedSession({ streams: 1 });
      const before = archiveStarts();
      t.slack.failNext('chat.postMessage', { status: 500, applied: true }, 1, inChannel);
      const since = t.slack.mark();
      const res = await t.slash('/record', `start ${sessionId}`);
      await t.waitForSlackCall('conversations.history', (c) => inChannel(c.body), { since });
      await t.services.ackGate.idle();
      await settleCommand();
      expect(cardsFor(sessionId)).toHaveLength(1);
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => inChannel(c.body))).toHaveLength(1);
      expect(archiveStarts() - before).toBe(1);
      // Nothing to apologise for: the card is there.
      expect(t.slack.responsesTo(res.responseId)).toEqual([]);
    });

    it('after the failures, the next change posts its card as usual', async () => {
      const { sessionId } = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.slash('/record', `start ${sessionId}`);
      await t.waitForSlackCall('chat.postMessage', (c) => inChannel(c.body) && renderedText(c.body).includes(sessionId), { since });
      expect(cardsFor(sessionId)).toHaveLength(1);
    });
  });

  describe('views.open of a form', () => {
    it('500 on every attempt: the asker hears the form did not open, within the trigger’s 3 s', async () => {
      t.slack.failNext('views.open', { status: 500 }, 3);
      const started = performance.now();
      const res = await t.slash('/record', 'start');
      const answer = await res.waitForResponse();
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(sentence(answer)).toBe(':warning: The form did not open (Slack answered with error 500); nothing was changed. Try again in a moment.');
    });

    it('no answer at all: the asker hears it when the trigger’s life is over, not later', async () => {
      t.slack.failNext('views.open', { hang: true }, 1);
      const started = performance.now();
      const res = await t.slash('/record', 'start');
      const answer = await res.waitForResponse();
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(2_400);
      expect(elapsed).toBeLessThan(3_500);
      expect(sentence(answer)).toBe(
        ':warning: The form did not open (Slack did not answer within the 3 s it gives a form to open); nothing was changed. Try again in a moment.',
      );
    });

    it('the next /record start opens its form', async () => {
      const since = t.slack.mark();
      const res = await t.slash('/record', 'start');
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      expect((opened.body.view as { callback_id?: string }).callback_id).toBeDefined();
      await t.services.ackGate.idle();
      expect(t.slack.responsesTo(res.responseId)).toEqual([]);
    });

    it('the Mute everyone shortcut (no response_url): a direct message says the form did not open', async () => {
      t.slack.failNext('views.open', { status: 500 }, 3);
      const since = t.slack.mark();
      await t.shortcut(CALLBACK.muteEveryoneShortcut, { user: USERS.oncall });
      const dm = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === USERS.oncall, { since });
      expect(renderedText(dm.body)).toContain('The form did not open (Slack answered with error 500); nothing was changed. Try again in a moment.');
    });
  });

  describe('views.update of a submitted form', () => {
    it('500 on every attempt: everyone is muted once and the channel is told once', async () => {
      const seeded = t.seedSession({ streams: 2 });
      t.slack.failNext('views.update', { status: 500 }, 3, (body) => body.view_id === 'V0FAULTMUTE');
      const since = t.slack.mark();
      const ack = await t.submitView({
        callbackId: CALLBACK.muteEveryoneModal,
        viewId: 'V0FAULTMUTE',
        values: {
          [BLOCK.sessionPicker]: {
            [ACTION.sessionPicker]: {
              type: 'external_select',
              selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
            },
          },
          [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: CHANNEL } },
        },
      });
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      await t.waitForSlackCall('chat.postMessage', (c) => inChannel(c.body) && renderedText(c.body).includes('muted everyone'), { since });
      await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0FAULTMUTE' && t.slack.callsOf('views.update', since).length === 3, { since });
      await t.services.ackGate.idle();
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(true);
      expect(t.emulator.control.requestLog().filter((e) => e.method === 'POST' && e.path.endsWith(`${seeded.sessionId}/mute`))).toHaveLength(1);
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => inChannel(c.body) && renderedText(c.body).includes('muted everyone'))).toHaveLength(1);
    });
  });

  describe('files upload of the usage chart', () => {
    it('500 on every attempt: the asker hears /usage could not finish; nothing half-posted', async () => {
      t.slack.failNext('files.getUploadURLExternal', { status: 500 }, 3);
      const since = t.slack.mark();
      const res = await t.slash('/usage', 'last week');
      const answer = await res.waitForResponse(undefined, { timeoutMs: 15_000 });
      expect(sentence(answer)).toBe(':warning: `/usage` could not finish (Slack answered with error 500). Try again in a moment.');
      expect(t.slack.callsOf('files.completeUploadExternal', since)).toEqual([]);
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => inChannel(c.body))).toEqual([]);
    });

    it('the next /usage posts its report with the chart', async () => {
      const since = t.slack.mark();
      await t.slash('/usage', 'last week');
      await t.waitForSlackCall('files.completeUploadExternal', () => true, { since, timeoutMs: 15_000 });
    });
  });
});

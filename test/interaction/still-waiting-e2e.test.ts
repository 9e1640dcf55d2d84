/**
 * Never silent while the video service hangs, end to end: signed requests to the real Bolt app,
 * the fake Slack recording every response_url post in order, and the emulator holding requests
 * with a `hang` fault until the test releases them (no sleeping: every wait is on a recorded
 * post, a log line or a held request). The timings are short (still waiting after 150 ms, the
 * bound after 1.5 s where a test reaches it, a minute where the answer must come first); the
 * 2 s / 20 s defaults are the unit test's (still-waiting.test.ts).
 */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK, RECORD_ACTION } from '../../src/views/ids';
import { TEAM, TEST_POLICY, USERS, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall, RecordedResponse } from '../harness/fake-slack';
import { buttonValue, findElements, visibleText } from '../harness/text';
import { collectUnhandledRejections } from '../security/support';

const STILL_WAITING = 'Still waiting for the video service…';

/** Log lines as they are written, and a wait for the first one containing a phrase. */
function logLines() {
  const lines: string[] = [];
  const waiting: { phrase: string; resolve: () => void }[] = [];
  return {
    lines,
    stream: {
      write(line: string) {
        lines.push(line);
        for (const w of waiting.filter((w) => line.includes(w.phrase))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      },
    },
    waitFor(phrase: string): Promise<void> {
      if (lines.some((line) => line.includes(phrase))) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ phrase, resolve }));
    },
  };
}

const texts = (responses: readonly RecordedResponse[]) => responses.map((r) => visibleText(r.body));
const has = (phrase: string) => (r: RecordedResponse) => visibleText(r.body).includes(phrase);

describe('never silent while the video service hangs', () => {
  const rejections = collectUnhandledRejections();
  const logs = logLines();
  let t: TestApp;
  /** Default timings: a fast answer must not bring any waiting line. */
  let fast: TestApp;
  /**
   * The waiting line as soon, the bound far off: for the answers that replace the waiting line,
   * which would otherwise race `t`'s 1.5 s bound on a loaded machine.
   */
  let patient: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      patience: { stillWaitingMs: 150, boundMs: 1_500 },
      // Nobody has a role unless given one: a click by a stranger is refused.
      policy: { defaultRole: 'none', roles: { ...TEST_POLICY.roles, viewer: { users: [USERS.viewer] } } },
      logLevel: 'info',
      logStream: logs.stream,
    });
    fast = await startTestApp();
    patient = await startTestApp({ patience: { stillWaitingMs: 150, boundMs: 60_000 } });
  });
  afterEach(() => {
    for (const app of [t, patient]) {
      app.emulator.control.clearFaults();
      app.emulator.control.releaseHangs();
    }
  });
  afterAll(async () => {
    for (const app of [t, patient]) expect(sentPayloadProblems(app.slack.calls, app.slack.responses)).toEqual([]);
    await Promise.all([t.close(), fast.close(), patient.close()]);
    expect(rejections).toEqual([]);
  });

  const muteNotices = (streamId: string, app: TestApp = t) => app.slack.callsOf('chat.postMessage').filter((c) => JSON.stringify(c.body).includes(streamId));

  it('fast answers bring no "Still waiting": /mute and /streams answer once', async () => {
    const seeded = fast.seedSession({ streams: 2 });
    const mute = await fast.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
    await fast.waitForSlackCall('chat.postMessage', (c) => JSON.stringify(c.body).includes(seeded.streams[0]!));
    const streams = await fast.slash('/streams', seeded.sessionId);
    await streams.waitForResponse();
    // No waiting line; that none comes later either (the timers end with the request) is the unit test's.
    expect(fast.slack.responsesTo(mute.responseId)).toEqual([]);
    expect(texts(fast.slack.responsesTo(streams.responseId))).toEqual([expect.stringContaining('Session console')]);
    expect(fast.slack.responses.some(has(STILL_WAITING))).toBe(false);
  });

  it('/mute while the service hangs: "Still waiting" first, then the answer replaces it', async () => {
    const seeded = patient.seedSession({ streams: 2 });
    const streamId = seeded.streams[0]!;
    patient.emulator.control.injectFault({ method: 'POST', path: `/stream/${streamId}/mute`, kind: 'hang' });
    const res = await patient.slash('/mute', `${streamId} ${seeded.sessionId}`);
    const waiting = await res.waitForResponse(has(STILL_WAITING));
    expect(waiting.body).toMatchObject({ response_type: 'ephemeral' });
    // Nothing has changed yet, and nobody was told it did.
    expect(patient.emulator.control.getSession(patient.project.apiKey, seeded.sessionId).streams.find((s) => s.streamId === streamId)?.muted).toBe(false);
    expect(muteNotices(streamId, patient)).toEqual([]);

    expect(patient.emulator.control.releaseHangs()).toBe(1);
    await patient.waitForSlackCall('chat.postMessage', (c) => JSON.stringify(c.body).includes(streamId));
    // The notice went to the channel; the waiting line is replaced by a pointer to it.
    const replaced = await res.waitForResponse(has('The video service answered'), { since: waiting.seq + 1 });
    expect(replaced.body).toMatchObject({ replace_original: true });
    expect(texts(patient.slack.responsesTo(res.responseId))).toEqual([
      expect.stringContaining(STILL_WAITING),
      expect.stringContaining('The video service answered; the result is in the channel.'),
    ]);
    expect(patient.emulator.control.getSession(patient.project.apiKey, seeded.sessionId).streams.find((s) => s.streamId === streamId)?.muted).toBe(true);
  });

  it('a failure after the wait replaces "Still waiting" with its sentence', async () => {
    const seeded = patient.seedSession({ streams: 1 });
    const missing = '0b1c2d3e-0000-4000-8000-000000000000';
    patient.emulator.control.injectFault({ method: 'POST', path: `/stream/${missing}/mute`, kind: 'hang' });
    const res = await patient.slash('/mute', `${missing} ${seeded.sessionId}`);
    const waiting = await res.waitForResponse(has(STILL_WAITING));
    patient.emulator.control.releaseHangs();
    const answer = await res.waitForResponse(has('was not found'), { since: waiting.seq + 1 });
    expect(answer.body).toMatchObject({ replace_original: true, response_type: 'ephemeral' });
    expect(patient.slack.responsesTo(res.responseId)).toHaveLength(2);
  });

  it('/streams while the service hangs: "Still waiting", then the list in its place', async () => {
    const seeded = patient.seedSession({ streams: 2, names: ['Alice', 'Bob'] });
    patient.emulator.control.injectFault({ method: 'GET', path: `/session/${seeded.sessionId}/stream/$`, kind: 'hang' });
    const res = await patient.slash('/streams', seeded.sessionId);
    const waiting = await res.waitForResponse(has(STILL_WAITING));
    patient.emulator.control.releaseHangs();
    const list = await res.waitForResponse(has('Session console'), { since: waiting.seq + 1 });
    expect(list.body).toMatchObject({ replace_original: true });
    expect(visibleText(list.body)).toContain('Alice');
    expect(patient.slack.responsesTo(res.responseId)).toHaveLength(2);
  });

  it('/record stop hanging past the bound: "may or may not have taken effect" with Check; the late answer is dropped; Check reads the real state', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const archive = await t.services.projects.client('prod').archives.start({ sessionId: seeded.sessionId });
    t.emulator.control.injectFault({ method: 'POST', path: `/archive/${archive.id}/stop`, kind: 'hang' });
    const res = await t.slash('/record', `stop ${archive.id}`);
    // Stopping is irreversible: the command's card is the one question, and its button stops.
    const question = await res.waitForResponse((r) => findElements(r.body, RECORD_ACTION.stop).length > 0);
    await t.click(RECORD_ACTION.stop, buttonValue(question.body, RECORD_ACTION.stop), { responseUrl: res.responseUrl });
    const waiting = await res.waitForResponse(has(STILL_WAITING), { since: question.seq + 1 });
    const bound = await res.waitForResponse(has('may or may not have taken effect'), { since: waiting.seq + 1 });
    expect(visibleText(bound.body)).toContain('The video service did not answer within 2 s: the `/record stop` may or may not have taken effect.');
    expect(bound.body).toMatchObject({ replace_original: true, response_type: 'ephemeral' });
    expect(findElements(bound.body, ACTION.checkVideo)).toHaveLength(1);
    // The audit says the outcome is unknown.
    const [row] = await t.store.listAudit(TEAM, 1);
    expect(row).toMatchObject({ command: '/record stop', outcome: 'error', error: expect.stringMatching(/^timeout: no answer within 2 s, outcome unknown/) });

    // Check while the stop is still held: the recording is still going.
    const check = buttonValue(bound.body, ACTION.checkVideo);
    const before = t.slack.mark();
    await t.click(ACTION.checkVideo, check, { responseUrl: res.responseUrl });
    const stillGoing = await res.waitForResponse(() => true, { since: before });
    expect(visibleText(stillGoing.body)).toContain(`Recording \`${archive.id}\`: *Recording*`);
    expect(stillGoing.body).toMatchObject({ replace_original: true });

    // The service finally acts and answers: the app drops the answer (the asker was told it is unknown).
    t.emulator.control.releaseHangs();
    await logs.waitFor('a late answer of the video service was dropped');
    expect(t.emulator.control.getArchive(t.project.apiKey, archive.id).status).toBe('stopped');
    expect(t.slack.callsOf('chat.postMessage').filter((c) => JSON.stringify(c.body).includes(archive.id))).toEqual([]);

    // Check again: the real state now.
    const again = t.slack.mark();
    await t.click(ACTION.checkVideo, check, { responseUrl: res.responseUrl });
    const stopped = await res.waitForResponse(() => true, { since: again });
    expect(visibleText(stopped.body)).toContain('Stopped — the file is being processed');
    // The question, the waiting line, the bound and two checks: each replaced the one before.
    expect(texts(t.slack.responsesTo(res.responseId))).toHaveLength(5);
  });

  it('/mute hanging past the bound, then Check after the fault is cleared: what can be known of the stream', async () => {
    const seeded = t.seedSession({ streams: 1, names: ['Chidi'] });
    const streamId = seeded.streams[0]!;
    t.emulator.control.injectFault({ method: 'POST', path: `/stream/${streamId}/mute`, kind: 'hang' });
    const res = await t.slash('/mute', `${streamId} ${seeded.sessionId}`);
    const bound = await res.waitForResponse(has('may or may not have taken effect'));
    expect(visibleText(bound.body)).toContain('the `/mute` may or may not have taken effect');
    t.emulator.control.clearFaults();
    t.emulator.control.releaseHangs();
    await logs.waitFor('a late answer of the video service was dropped');
    expect(muteNotices(streamId)).toEqual([]);

    const since = t.slack.mark();
    await t.click(ACTION.checkVideo, buttonValue(bound.body, ACTION.checkVideo), { responseUrl: res.responseUrl });
    const checked = await res.waitForResponse(() => true, { since });
    expect(visibleText(checked.body)).toContain(`Stream \`${streamId}\` (Chidi, camera) is publishing in session \`${seeded.sessionId}\`.`);
    expect(visibleText(checked.body)).toContain('muting again does no harm');
  });

  it('an answer lost before the bound (the connection dropped) also says "may or may not" and offers Check', async () => {
    const seeded = t.seedSession({ streams: 1, names: ['Eve'] });
    const streamId = seeded.streams[0]!;
    t.emulator.control.injectFault({ method: 'POST', path: `/stream/${streamId}/mute`, kind: 'reset' });
    const res = await t.slash('/mute', `${streamId} ${seeded.sessionId}`);
    const failed = await res.waitForResponse(has('may or may not have been made'));
    const since = t.slack.mark();
    await t.click(ACTION.checkVideo, buttonValue(failed.body, ACTION.checkVideo), { responseUrl: res.responseUrl });
    const checked = await res.waitForResponse(() => true, { since });
    expect(visibleText(checked.body)).toContain(`Stream \`${streamId}\` (Eve, camera) is publishing`);
  });

  it('/record start whose answer was lost: Check lists the session’s recordings', async () => {
    const seeded = t.seedSession({ streams: 1 });
    t.emulator.control.injectFault({ method: 'POST', path: '/archive$', kind: 'reset' });
    const res = await t.slash('/record', `start ${seeded.sessionId}`);
    const failed = await res.waitForResponse(has('may or may not have been made'));
    let since = t.slack.mark();
    await t.click(ACTION.checkVideo, buttonValue(failed.body, ACTION.checkVideo), { responseUrl: res.responseUrl });
    const none = await res.waitForResponse(() => true, { since });
    expect(visibleText(none.body)).toContain(`Session \`${seeded.sessionId}\` has no recordings: nothing was started.`);
    const archive = await t.services.projects.client('prod').archives.start({ sessionId: seeded.sessionId });
    since = t.slack.mark();
    await t.click(ACTION.checkVideo, buttonValue(failed.body, ACTION.checkVideo), { responseUrl: res.responseUrl });
    const one = await res.waitForResponse(() => true, { since });
    expect(visibleText(one.body)).toContain(`${archive.id}: Recording`);
  });

  it('Check is re-authorized on click: a viewer may check, someone without a role may not', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const streamId = seeded.streams[0]!;
    t.emulator.control.injectFault({ method: 'POST', path: `/stream/${streamId}/mute`, kind: 'hang' });
    const res = await t.slash('/mute', `${streamId} ${seeded.sessionId}`);
    const bound = await res.waitForResponse(has('may or may not have taken effect'));
    const value = buttonValue(bound.body, ACTION.checkVideo);
    const viewer = await t.click(ACTION.checkVideo, value, { user: USERS.viewer });
    const seen = await t.slack.waitForResponse(viewer.responseId);
    expect(visibleText(seen.body)).toContain('is publishing');
    const stranger = await t.click(ACTION.checkVideo, value, { user: 'U0NOBODY' });
    const denied = await t.slack.waitForResponse(stranger.responseId);
    expect(visibleText(denied.body)).not.toContain('is publishing');
    expect(visibleText(denied.body)).toMatch(/viewer/);
  });

  it('/streams hanging past the bound: nothing to show yet, with Check; Check types it again and the list replaces the message', async () => {
    const seeded = t.seedSession({ streams: 1, names: ['Dana'] });
    t.emulator.control.injectFault({ method: 'GET', path: `/session/${seeded.sessionId}/stream/$`, kind: 'hang' });
    const res = await t.slash('/streams', seeded.sessionId);
    const bound = await res.waitForResponse(has('did not answer within 2 s, so there is nothing to show yet'));
    expect(bound.body).toMatchObject({ replace_original: true });
    // The held read answers late: dropped, the bound's answer stands.
    t.emulator.control.releaseHangs();
    await logs.waitFor('an answer after the bound was dropped');
    expect(t.slack.responsesTo(res.responseId).filter(has('Session console'))).toEqual([]);

    const since = t.slack.mark();
    await t.click(ACTION.checkVideo, buttonValue(bound.body, ACTION.checkVideo), { responseUrl: res.responseUrl });
    const list = await res.waitForResponse(() => true, { since });
    expect(visibleText(list.body)).toContain('Session console');
    expect(visibleText(list.body)).toContain('Dana');
    expect(list.body).toMatchObject({ replace_original: true });
  });

  it('Check only reads: a button naming a change command changes nothing', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const streamId = seeded.streams[0]!;
    const clicked = await t.click(ACTION.checkVideo, JSON.stringify({ k: 'rerun', c: '/mute', t: `${streamId} ${seeded.sessionId}` }));
    const answer = await t.slack.waitForResponse(clicked.responseId);
    expect(visibleText(answer.body)).toContain('Check only reads; type `/mute` again to run it.');
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams.find((s) => s.streamId === streamId)?.muted).toBe(false);
    expect(muteNotices(streamId)).toEqual([]);
  });

  it('the Stop button on a channel card: the waiting line is a message of its own, the card is never replaced', async () => {
    const seeded = patient.seedSession({ streams: 1 });
    const archive = await patient.services.projects.client('prod').archives.start({ sessionId: seeded.sessionId });
    patient.emulator.control.injectFault({ method: 'POST', path: `/archive/${archive.id}/stop`, kind: 'hang' });
    const value = JSON.stringify({ p: 'prod', r: archive.id, s: seeded.sessionId });
    const clicked = await patient.click(RECORD_ACTION.stop, value, { messageTs: '1700000001.000100' });
    const waiting = await patient.slack.waitForResponse(clicked.responseId, has(STILL_WAITING));
    expect(waiting.body).toMatchObject({ replace_original: false });
    patient.emulator.control.releaseHangs();
    await patient.waitForSlackCall('chat.postMessage', (c) => JSON.stringify(c.body).includes(archive.id));
    expect(patient.slack.responsesTo(clicked.responseId).every((r) => r.body.replace_original !== true)).toBe(true);
  });

  it('a form ("Mute everyone") while the service hangs: the modal says "Still waiting", then the result replaces it', async () => {
    const seeded = patient.seedSession({ streams: 2 });
    patient.emulator.control.injectFault({ method: 'POST', path: `/session/${seeded.sessionId}/mute$`, kind: 'hang' });
    const since = patient.slack.mark();
    await patient.submitView({
      callbackId: CALLBACK.muteEveryoneModal,
      viewId: 'V0SLOWMUTE',
      values: {
        [BLOCK.sessionPicker]: {
          [ACTION.sessionPicker]: {
            type: 'external_select',
            selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
          },
        },
        [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: 'C0ONCALL' } },
      },
    });
    const inModal = (c: RecordedCall) => c.body.view_id === 'V0SLOWMUTE';
    const waiting = await patient.waitForSlackCall('views.update', (c) => inModal(c) && visibleText(c.body).includes(STILL_WAITING), { since });
    expect(patient.emulator.control.getSession(patient.project.apiKey, seeded.sessionId).mute.active).toBe(false);
    patient.emulator.control.releaseHangs();
    const result = await patient.waitForSlackCall('views.update', (c) => inModal(c) && !visibleText(c.body).includes(STILL_WAITING), {
      since: waiting.seq + 1,
    });
    expect(visibleText(result.body)).toContain('is muted');
    expect(
      patient.slack
        .callsOf('views.update', since)
        .filter(inModal)
        .map((c) => c.seq),
    ).toEqual([waiting.seq, result.seq]);
  });
});

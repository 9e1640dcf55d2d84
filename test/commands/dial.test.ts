/**
 * End to end: /dial (and its --auth credentials form), the call card's Hang up and DTMF keypad,
 * against the emulator — and proof that a SIP password reaches the video service only: never a
 * recorded Slack call or response, an audit record, a watch, or a log line (logged at trace).
 */
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { keyActionId } from '../../src/views/sip';
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';

const URI = 'sip:+15551234567@sip.example.com;transport=tls';
const PASSWORD = 'Pa55-w0rd-never-shown-7f3a';

describe('/dial', () => {
  let t: TestApp;
  const logged: string[] = [];
  let stderr: jest.SpyInstance;
  beforeAll(async () => {
    // Everything the app logs, at the most verbose level, is kept to be searched for the password.
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    t = await startTestApp({ extraProjects: [{ name: 'suspended' }], logLevel: 'trace' });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
    stderr.mockRestore();
  });

  /** Dials into a fresh session; returns the session, the card and the call. */
  async function dialed(text = '', options: { mediaMode?: 'routed' | 'relayed' } = {}) {
    const seeded = t.seedSession({ streams: 1, ...options });
    const since = t.slack.mark();
    const tracked = nextTrack(t);
    await t.slash('/dial', `${URI} ${seeded.sessionId} ${text}`);
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes(' dialed '), { since });
    const request = await tracked;
    return { seeded, card, callId: request.resourceId, connectionId: JSON.parse(buttonValue(card.body, ACTION.sipHangUp)).c as string };
  }

  async function replyTo(text: string, user: string = USERS.moderator): Promise<string> {
    const res = await t.slash('/dial', text, { user });
    const reply = await res.waitForResponse();
    expect(JSON.stringify(reply.body)).not.toMatch(/\/v2\/project|"code":\d+|Error:/);
    return renderedText(reply.body);
  }

  describe('dialing', () => {
    it('dials with the options given, posts the call card (Hang up, keypad) and watches the call', async () => {
      const { seeded, card, callId, connectionId } = await dialed(
        '--from +15557654321@example.com --secure --video --observe-mute --header X-Meeting=standup --header X-Room=4',
      );
      const call = t.emulator.control.getSipCall(t.project.apiKey, callId);
      expect(call).toEqual(
        expect.objectContaining({
          sessionId: seeded.sessionId,
          connectionId,
          status: 'started',
          sip: expect.objectContaining({
            uri: URI,
            from: '+15557654321@example.com',
            secure: true,
            video: true,
            observeForceMute: true,
            headers: { 'X-Meeting': 'standup', 'X-Room': '4' },
          }),
        }),
      );
      expect(call.sip.auth).toBeUndefined();
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.connections.find((c) => c.connectionId === connectionId)).toEqual(expect.objectContaining({ kind: 'sip', connected: true }));
      expect(session.streams.map((s) => s.streamId)).toContain(call.streamId);

      const text = renderedText(card.body);
      expect(text).toContain(`<@${USERS.moderator}> dialed \`${URI}\` into session \`${seeded.sessionId}\``);
      expect(text).toContain('encrypted media · with video · caller can toggle mute with *6 · headers `X-Meeting`, `X-Room`');
      expect(text).not.toContain('standup');
      expect(findElements(card.body, ACTION.sipHangUp)).toEqual([expect.objectContaining({ style: 'danger', confirm: expect.any(Object) })]);
      const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];
      expect(keys.flatMap((key) => findElements(card.body, keyActionId(key)).map((b) => (b.text as { text: string }).text))).toEqual(keys);

      const watches = await t.services.store.listWatches({ kind: 'sip', resourceId: callId });
      expect(watches).toEqual([
        expect.objectContaining({
          sessionId: seeded.sessionId,
          channelId: CHANNEL,
          messageTs: expect.any(String),
          lastState: { status: 'dialing', streamId: call.streamId, dialedAt: expect.any(Number), connectionId: call.connectionId },
        }),
      ]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/dial', outcome: 'ok', target: `${URI} in session ${seeded.sessionId}` }));
    });

    it('explains a relayed session (409): SIP needs a routed session', async () => {
      const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
      const text = await replyTo(`${URI} ${seeded.sessionId}`);
      expect(text).toContain(
        ':warning: This session is relayed; recording, broadcast, SIP and audio need a routed session (create one with `/session create` without `--relayed`).',
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/dial', outcome: 'error', error: 'VideoConflictError 409' }));
    });

    it('explains an unknown session (404)', async () => {
      expect(await replyTo(`${URI} 2_MX4doesnotexist00000000`)).toMatch(/Session `2_MX4doesnotexist00000000` was not found in project \*prod\*/);
    });

    it('explains a suspended project (403)', async () => {
      const key = t.services.projects.client('suspended').apiKey;
      const seeded = t.seedSession({ streams: 1, apiKey: key });
      await suspend(t, key);
      expect(await replyTo(`${URI} ${seeded.sessionId} --project suspended`)).toMatch(
        /refused the credentials of project \*suspended\* \(wrong API key or secret, or the project is suspended\)/,
      );
      expect(t.emulator.control.getSession(key, seeded.sessionId).connections.some((c) => c.kind === 'sip')).toBe(false);
    });

    it('answers usage errors in the ack, with an example', async () => {
      const missing = renderedText((await t.slash('/dial', '')).ack);
      expect(missing).toContain('<sip-uri> is missing');
      expect(missing).toContain('/dial sip:+15551234567@sip.example.com;transport=tls');
      expect(renderedText((await t.slash('/dial', 'tel:+15551234567')).ack)).toContain('<sip-uri>: give a SIP address starting with sip: or sips:');
      expect(renderedText((await t.slash('/dial', `${URI} --from 5551234`)).ack)).toContain('--from: the caller ID is name@domain');
      expect(renderedText((await t.slash('/dial', `${URI} --header nonsense`)).ack)).toContain('--header: “nonsense” is not a SIP header; write name=value');
      const inline = (await t.slash('/dial', 'sip:alice:hunter2secret@pbx.example.com')).ack;
      expect(renderedText(inline)).toContain('leave the password out of the address; add --auth');
      expect(JSON.stringify(inline)).not.toContain('hunter2secret');
    });

    it('denies a viewer and dials nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      expect(await replyTo(`${URI} ${seeded.sessionId}`, USERS.viewer)).toContain('`/dial` needs the moderator role; you are a viewer');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.some((c) => c.kind === 'sip')).toBe(false);
    });
  });

  describe('the call card', () => {
    it('Hang up force-disconnects the call, tells the channel; a second click says the call has ended', async () => {
      const { seeded, card, callId, connectionId } = await dialed();
      const since = t.slack.mark();
      await t.click(ACTION.sipHangUp, buttonValue(card.body, ACTION.sipHangUp));
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('hung up'), { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> hung up the call \`${connectionId}\` in session \`${seeded.sessionId}\``);
      expect(t.emulator.control.getSipCall(t.project.apiKey, callId).status).toBe('ended');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.find((c) => c.connectionId === connectionId)?.connected).toBe(false);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/dial hang up', outcome: 'ok', target: `call connection ${connectionId} in session ${seeded.sessionId}` }),
      );

      const again = await t.click(ACTION.sipHangUp, buttonValue(card.body, ACTION.sipHangUp));
      const ended = await t.slack.waitForResponse(again.responseId);
      expect(renderedText(ended.body)).toContain(`The call (connection \`${connectionId}\`) has already ended; there is nothing to hang up.`);
    });

    it('each keypad key plays its tone to the call’s connection only, confirmed to the presser', async () => {
      const { seeded, card, connectionId } = await dialed();
      for (const key of ['4', '*', '#']) {
        const click = await t.click(keyActionId(key), buttonValue(card.body, keyActionId(key)));
        const reply = await t.slack.waitForResponse(click.responseId);
        expect(reply.body.response_type).toBe('ephemeral');
        expect(renderedText(reply.body)).toContain(`Sent \`${key}\` to the call.`);
      }
      expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId, connectionId).map((d) => [d.digits, d.target])).toEqual([
        ['4', connectionId],
        ['*', connectionId],
        ['#', connectionId],
      ]);
      const other = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.find((c) => c.connectionId !== connectionId)!;
      expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId, other.connectionId)).toEqual([]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/dtmf', outcome: 'ok', target: `keypad tone to connection ${connectionId} in session ${seeded.sessionId}` }),
      );
    });

    it('a key pressed after the call ended explains it (404)', async () => {
      const { card, connectionId } = await dialed();
      await t.click(ACTION.sipHangUp, buttonValue(card.body, ACTION.sipHangUp));
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes(`hung up the call \`${connectionId}\``));
      const click = await t.click(keyActionId('1'), buttonValue(card.body, keyActionId('1')));
      const reply = await t.slack.waitForResponse(click.responseId);
      expect(renderedText(reply.body)).toContain(`Connection \`${connectionId}\` is not connected to session`);
      expect(renderedText(reply.body)).toContain('no tones were sent');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/dtmf', outcome: 'error', error: 'VideoNotFoundError 404' }));
    });

    it('denies a viewer Hang up and the keypad', async () => {
      const { seeded, card, callId, connectionId } = await dialed();
      const hangUp = await t.click(ACTION.sipHangUp, buttonValue(card.body, ACTION.sipHangUp), { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(hangUp.responseId)).body)).toContain('`Hang up` needs the moderator role; you are a viewer');
      const key = await t.click(keyActionId('5'), buttonValue(card.body, keyActionId('5')), { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(key.responseId)).body)).toContain('`The call keypad` needs the moderator role');
      expect(t.emulator.control.getSipCall(t.project.apiKey, callId).status).toBe('started');
      expect(t.emulator.control.dtmfReceived(t.project.apiKey, seeded.sessionId, connectionId)).toEqual([]);
    });
  });

  describe('--auth: digest credentials in a form', () => {
    async function openForm(text: string, user: string = USERS.moderator) {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.slash('/dial', `${URI} ${seeded.sessionId} --auth ${text}`, { user });
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      return { seeded, opened, view: opened.body.view as { callback_id: string; private_metadata: string; blocks: unknown[] } };
    }

    function submit(view: { private_metadata: string }, username: string | null, password: string | null, user: string = USERS.moderator) {
      return t.submitView(
        {
          callbackId: CALLBACK.sipAuthModal,
          viewId: `V0SIPAUTH${user}`,
          privateMetadata: view.private_metadata,
          values: {
            [BLOCK.sipAuthUsername]: { [ACTION.sipAuthUsername]: { type: 'plain_text_input', value: username } },
            [BLOCK.sipAuthPassword]: { [ACTION.sipAuthPassword]: { type: 'plain_text_input', value: password } },
          },
        },
        { user },
      );
    }

    it('opens the form instead of dialing; submitting dials with the credentials and posts the card', async () => {
      const { seeded, view } = await openForm('--from support_line@example.com');
      expect(view.callback_id).toBe(CALLBACK.sipAuthModal);
      expect(findElements(view, ACTION.sipAuthUsername)).toHaveLength(1);
      expect(findElements(view, ACTION.sipAuthPassword)).toHaveLength(1);
      expect(renderedText(view)).toContain(`Dial \`${URI}\` into session \`${seeded.sessionId}\``);
      // Nothing dialed yet.
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.some((c) => c.kind === 'sip')).toBe(false);

      const since = t.slack.mark();
      const tracked = nextTrack(t);
      const ack = await submit(view, 'vidops', PASSWORD);
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes(' dialed '), { since });
      const { resourceId: callId } = await tracked;
      expect(renderedText(card.body)).toContain('digest credentials');
      expect(t.emulator.control.getSipCall(t.project.apiKey, callId).sip).toEqual(
        expect.objectContaining({ uri: URI, from: 'support_line@example.com', auth: { username: 'vidops', password: PASSWORD } }),
      );
      const result = await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SIPAUTHU0MOD' && renderedText(c.body).includes('Dialed'), { since });
      expect(renderedText(result.body)).toContain(`Dialed \`${URI}\` with your credentials. The call card is in <#${CHANNEL}>.`);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/dial', outcome: 'ok', target: `${URI} in session ${seeded.sessionId}` }));
    });

    it('asks for both fields in the form', async () => {
      const { view } = await openForm('');
      const ack = await submit(view, '  ', null);
      expect(ack.body).toEqual({
        response_action: 'errors',
        errors: { [BLOCK.sipAuthUsername]: 'Enter the username the SIP endpoint expects.', [BLOCK.sipAuthPassword]: 'Enter the password of that user.' },
      });
    });

    it('shows a failed dial in the form (409, relayed session)', async () => {
      const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
      const since = t.slack.mark();
      await t.slash('/dial', `${URI} ${seeded.sessionId} --auth`);
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      await submit(opened.body.view as { private_metadata: string }, 'vidops', PASSWORD);
      const shown = await t.waitForSlackCall('views.update', (c) => renderedText(c.body).includes('relayed'), { since });
      expect(renderedText(shown.body)).toContain('This session is relayed; recording, broadcast, SIP and audio need a routed session');
    });

    it('checks the options before opening the form', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      const res = await t.slash('/dial', `${URI} ${seeded.sessionId} --auth --header ${'X-Long=' + 'v'.repeat(3000)}`);
      expect(renderedText((await res.waitForResponse()).body)).toContain('too long to carry through the credentials form');
      expect(t.slack.callsOf('views.open', since)).toEqual([]);
    });

    it('re-checks the role on submission: a viewer sees the denial in the form, nothing is dialed', async () => {
      const { seeded, view } = await openForm('');
      const since = t.slack.mark();
      await submit(view, 'vidops', PASSWORD, USERS.viewer);
      const denied = await t.waitForSlackCall('views.update', (c) => renderedText(c.body).includes('needs the moderator role'), { since });
      expect(renderedText(denied.body)).toContain('you are a viewer');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.some((c) => c.kind === 'sip')).toBe(false);
    });

    it('a viewer cannot even open the form', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      expect(await replyTo(`${URI} ${seeded.sessionId} --auth`, USERS.viewer)).toContain('`/dial` needs the moderator role');
      expect(t.slack.callsOf('views.open', since)).toEqual([]);
    });

    it('the password never reaches Slack, the audit log, the watches or the logs', async () => {
      // Runs last: every form above was submitted with PASSWORD.
      const log = logged.join('\n');
      // The logs did capture the credentialed dials (their audit lines name the address).
      expect(log).toContain(`"command":"/dial","target":"${URI} in session`);
      expect(log).not.toContain(PASSWORD);
      expect(JSON.stringify(t.slack.calls)).not.toContain(PASSWORD);
      expect(JSON.stringify(t.slack.responses)).not.toContain(PASSWORD);
      expect(JSON.stringify(await t.store.listAudit(TEAM, 1000))).not.toContain(PASSWORD);
      expect(JSON.stringify(await t.services.store.listWatches({ kind: 'sip' }, { includeEnded: true }))).not.toContain(PASSWORD);
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

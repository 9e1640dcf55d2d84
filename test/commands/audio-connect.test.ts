/** End to end: /audio-connect and its card's Stop button, against the emulator. */
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';

const WSS = 'wss://transcriber.example.com/audio';

describe('/audio-connect', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ extraProjects: [{ name: 'suspended' }] });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  async function connected(text = '') {
    const seeded = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    const tracked = nextTrack(t);
    await t.slash('/audio-connect', `${WSS} ${seeded.sessionId} ${text}`);
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('is sending the audio'), {
      since,
    });
    const request = await tracked;
    const target = JSON.parse(buttonValue(card.body, ACTION.stopAudio)) as { c: string; i: string };
    return { seeded, card, id: request.resourceId, connectionId: target.c, target };
  }

  async function replyTo(text: string, user: string = USERS.moderator): Promise<string> {
    const res = await t.slash('/audio-connect', text, { user });
    const reply = await res.waitForResponse();
    expect(JSON.stringify(reply.body)).not.toMatch(/\/v2\/project|"code":\d+|Error:/);
    return renderedText(reply.body);
  }

  it('connects with the options given, posts the card with Stop, and watches the connection', async () => {
    const seeded = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    const tracked = nextTrack(t);
    await t.slash(
      '/audio-connect',
      `${WSS} ${seeded.sessionId} --streams ${seeded.streams[0]} --rate 8000 --header X-Meeting=standup --header Authorization=Bearer-s3cr3t`,
    );
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    const { resourceId: id } = await tracked;
    const audio = t.emulator.control.getAudioConnection(t.project.apiKey, id);
    expect(audio).toEqual(
      expect.objectContaining({
        sessionId: seeded.sessionId,
        status: 'connected',
        uri: WSS,
        streams: [seeded.streams[0]],
        audioRate: 8000,
        headers: { 'X-Meeting': 'standup', Authorization: 'Bearer-s3cr3t' },
      }),
    );
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.find((c) => c.connectionId === audio.connectionId)).toEqual(
      expect.objectContaining({ kind: 'audio', connected: true }),
    );
    const text = renderedText(card.body);
    expect(text).toContain(`<@${USERS.moderator}> is sending the audio of session \`${seeded.sessionId}\` to \`${WSS}\``);
    expect(text).toContain(`\`${seeded.streams[0]}\``);
    expect(text).toContain('8 kHz');
    expect(text).toContain('`X-Meeting`, `Authorization`');
    // Header values may be credentials of the receiving end: never shown.
    expect(JSON.stringify(t.slack.calls)).not.toContain('Bearer-s3cr3t');
    expect(findElements(card.body, ACTION.stopAudio)).toEqual([expect.objectContaining({ style: 'danger', confirm: expect.any(Object) })]);

    expect(await t.services.store.listWatches({ kind: 'audio', resourceId: id })).toEqual([
      expect.objectContaining({
        sessionId: seeded.sessionId,
        channelId: CHANNEL,
        messageTs: expect.any(String),
        lastState: {
          status: 'waiting',
          streamIds: [seeded.streams[0]],
          connectionId: t.emulator.control.getAudioConnection(t.project.apiKey, id).connectionId,
        },
      }),
    ]);
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/audio-connect', outcome: 'ok', target: `${WSS} in session ${seeded.sessionId}` }));
  });

  it('defaults to every stream at 16 kHz', async () => {
    const { id, card } = await connected();
    const audio = t.emulator.control.getAudioConnection(t.project.apiKey, id);
    expect(audio.audioRate).toBe(16000);
    expect(audio.streams).toBeUndefined();
    expect(renderedText(card.body)).toContain('all streams');
    const [watch] = await t.services.store.listWatches({ kind: 'audio', resourceId: id });
    expect(watch?.lastState).toEqual({ status: 'waiting', connectionId: audio.connectionId });
  });

  it('Stop disconnects the connector and tells the channel; a second Stop says it has ended', async () => {
    const { seeded, card, id, connectionId } = await connected();
    const since = t.slack.mark();
    await t.click(ACTION.stopAudio, buttonValue(card.body, ACTION.stopAudio));
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('stopped sending the audio'), { since });
    expect(renderedText(notice.body)).toContain(
      `<@${USERS.moderator}> stopped sending the audio of session \`${seeded.sessionId}\` (connection \`${connectionId}\`)`,
    );
    expect(t.emulator.control.getAudioConnection(t.project.apiKey, id).status).toBe('disconnected');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/audio-connect stop', outcome: 'ok' }));

    const again = await t.click(ACTION.stopAudio, buttonValue(card.body, ACTION.stopAudio));
    expect(renderedText((await t.slack.waitForResponse(again.responseId)).body)).toContain(`The audio connection \`${id}\` has already ended`);
  });

  it('explains a relayed session (409)', async () => {
    const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
    expect(await replyTo(`${WSS} ${seeded.sessionId}`)).toContain('This session is relayed; recording, broadcast, SIP and audio need a routed session');
  });

  it('explains an unknown session (404)', async () => {
    expect(await replyTo(`${WSS} 2_MX4doesnotexist00000000`)).toMatch(/Session `2_MX4doesnotexist00000000` was not found in project \*prod\*/);
  });

  it('explains a suspended project (403) and connects nothing', async () => {
    const key = t.services.projects.client('suspended').apiKey;
    const seeded = t.seedSession({ streams: 1, apiKey: key });
    const account = new VideoClient({
      baseUrl: t.emulator.baseUrl,
      apiKey: t.project.apiKey,
      apiSecret: t.project.apiSecret,
      accountApiKey: t.emulator.control.account.key,
      accountApiSecret: t.emulator.control.account.secret,
    });
    await account.projects.setStatus(key, 'SUSPENDED');
    expect(await replyTo(`${WSS} ${seeded.sessionId} --project suspended`)).toMatch(
      /refused the credentials of project \*suspended\* \(wrong API key or secret, or the project is suspended\)/,
    );
    expect(t.emulator.control.getSession(key, seeded.sessionId).connections.some((c) => c.kind === 'audio')).toBe(false);
  });

  it('answers usage errors in the ack, with an example', async () => {
    const missing = renderedText((await t.slash('/audio-connect', '')).ack);
    expect(missing).toContain('<wss-uri> is missing');
    expect(missing).toContain('/audio-connect wss://transcriber.example.com/audio');
    expect(renderedText((await t.slash('/audio-connect', 'https://transcriber.example.com/audio')).ack)).toContain(
      '<wss-uri>: give a WebSocket address starting with wss://',
    );
    expect(renderedText((await t.slash('/audio-connect', `${WSS} --rate 44100`)).ack)).toContain('--rate: the sample rate is 8000 or 16000 (Hz), not “44100”');
    expect(renderedText((await t.slash('/audio-connect', `${WSS} --header X-Big=${'x'.repeat(520)}`)).ack)).toContain(
      '--header: the headers may take at most 512 bytes in all',
    );
    expect(renderedText((await t.slash('/audio-connect', `${WSS} --header A=1 --header a=2`)).ack)).toContain('the header a is given twice');
  });

  it('denies a viewer the command and the Stop button', async () => {
    const seeded = t.seedSession({ streams: 1 });
    expect(await replyTo(`${WSS} ${seeded.sessionId}`, USERS.viewer)).toContain('`/audio-connect` needs the moderator role; you are a viewer');
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).connections.some((c) => c.kind === 'audio')).toBe(false);

    const { card, id } = await connected();
    const click = await t.click(ACTION.stopAudio, buttonValue(card.body, ACTION.stopAudio), { user: USERS.viewer });
    expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('`Stop the audio connection` needs the moderator role');
    expect(t.emulator.control.getAudioConnection(t.project.apiKey, id).status).toBe('connected');
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

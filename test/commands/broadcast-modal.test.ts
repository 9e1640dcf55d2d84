/**
 * End to end: the broadcast start form — opened by `/broadcast start`, a row added with
 * views.update, per-field errors on submit (form checks and quick service refusals), the card
 * posted in the channel from `private_metadata`, and denials. No stream key leaves the app.
 */
import { EventEmitter } from 'node:events';
import type { TrackRequest } from '../../src/poller/track';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BROADCAST_BLOCK, CALLBACK } from '../../src/views/ids';
import { SIGNING_SECRET, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { signedInteraction } from '../harness/signing';
import { findElements, renderedText } from '../harness/text';

const SECRET = 'SECRETKEY';
const KEY = `form_${SECRET}_7731`;

type Values = Record<string, Record<string, unknown>>;
const text = (value: string) => ({ [ACTION.broadcastInput]: { type: 'plain_text_input', value } });
const number = (value: string) => ({ [ACTION.broadcastInput]: { type: 'number_input', value } });
const radio = (value: string) => ({
  [ACTION.broadcastInput]: { type: 'radio_buttons', selected_option: { text: { type: 'plain_text', text: value }, value } },
});
const select = (value: string) => ({
  [ACTION.broadcastInput]: { type: 'static_select', selected_option: { text: { type: 'plain_text', text: value }, value } },
});
const session = (sessionId: string, projectName = 'prod') => ({
  [BROADCAST_BLOCK.session]: {
    [ACTION.sessionPicker]: {
      type: 'external_select',
      selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption(projectName, sessionId) },
    },
  },
});
const rtmp = (n: number, url: string, key: string, id = '') => ({
  [`${BROADCAST_BLOCK.rtmpUrlPrefix}${n}`]: text(url),
  [`${BROADCAST_BLOCK.rtmpKeyPrefix}${n}`]: text(key),
  [`${BROADCAST_BLOCK.rtmpIdPrefix}${n}`]: text(id),
});

describe('/broadcast start form', () => {
  let t: TestApp;
  const logLines: string[] = [];
  const tracked = new EventEmitter();
  const logged = new EventEmitter();
  /** Resolves with the next log line matching `predicate` (event-driven, no polling). */
  const nextLogLine = (predicate: (line: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      const listener = (line: string) => {
        if (!predicate(line)) return;
        logged.off('line', listener);
        resolve(line);
      };
      logged.on('line', listener);
    });

  beforeAll(async () => {
    t = await startTestApp({
      logLevel: 'debug',
      logStream: {
        write: (line: string) => {
          logLines.push(line);
          logged.emit('line', line);
        },
      },
    });
    const track = t.services.track;
    t.services.track = async (request: TrackRequest) => {
      await track(request);
      tracked.emit('tracked', request);
    };
  });

  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    const leaks = [
      ...t.slack.calls.filter((c) => JSON.stringify(c.body).includes(SECRET)).map((c) => `slack ${c.method}`),
      ...t.slack.responses.filter((r) => JSON.stringify(r.body).includes(SECRET)).map(() => 'response_url'),
      ...logLines.filter((line) => line.includes(SECRET)).map((line) => `log ${line.slice(0, 200)}`),
      ...(await t.store.listAudit(TEAM, 500)).filter((a) => JSON.stringify(a).includes(SECRET)).map((a) => `audit ${a.command}`),
    ];
    expect(leaks).toEqual([]);
    await t.close();
  });

  function submit(values: Values, options: { channel?: string; rows?: number; user?: string; viewId?: string } = {}) {
    return t.submitView(
      {
        callbackId: CALLBACK.broadcastStartModal,
        viewId: options.viewId ?? 'V0BROADCAST',
        privateMetadata: JSON.stringify({ c: options.channel ?? 'C0FORM', r: options.rows ?? 1 }),
        values,
      },
      { user: options.user ?? USERS.moderator },
    );
  }

  const broadcastRequests = () => t.emulator.control.requestLog().filter((r) => r.method === 'POST' && r.path.endsWith('/broadcast'));

  it('`/broadcast start` alone opens the form with the channel’s session picked and one RTMP row', async () => {
    const seeded = t.seedSession({ streams: 1 });
    await t.store.putAlias({ teamId: TEAM, alias: 'keynote', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
    await t.store.setChannelBinding({ teamId: TEAM, channelId: 'C0FORM', sessionId: 'keynote', projectName: 'prod', updatedBy: 'U1', updatedAt: 0 });
    const since = t.slack.mark();
    const res = await t.slash('/broadcast', 'start', { channel: 'C0FORM' });
    expect(res.ack).toBeUndefined();
    const opened = await t.waitForSlackCall('views.open', () => true, { since });
    const view = opened.body.view as { callback_id: string; private_metadata: string; blocks: { block_id?: string }[] };
    expect(view.callback_id).toBe(CALLBACK.broadcastStartModal);
    expect(JSON.parse(view.private_metadata)).toEqual({ c: 'C0FORM', r: 1 });
    const [picker] = findElements(view, ACTION.sessionPicker);
    expect(picker).toEqual(
      expect.objectContaining({ type: 'external_select', initial_option: expect.objectContaining({ value: encodeSessionOption('prod', seeded.sessionId) }) }),
    );
    expect(view.blocks.filter((b) => b.block_id?.startsWith(BROADCAST_BLOCK.rtmpUrlPrefix))).toHaveLength(1);
    expect(findElements(view, ACTION.broadcastAddOutput)).toHaveLength(1);
    expect(renderedText(view)).toContain('usable about 20 s after the start');
  });

  it('"Add an RTMP output" redraws the form with one more row, same ids (what was typed stays)', async () => {
    const since = t.slack.mark();
    const payload = {
      type: 'block_actions',
      user: { id: USERS.moderator, username: 'u0mod', name: 'u0mod', team_id: TEAM },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      container: { type: 'view', view_id: 'V0ADDROW' },
      trigger_id: '1.2.trigger-add',
      team: { id: TEAM, domain: 'vidops-test' },
      enterprise: null,
      is_enterprise_install: false,
      view: {
        id: 'V0ADDROW',
        team_id: TEAM,
        type: 'modal',
        blocks: [],
        private_metadata: JSON.stringify({ c: 'C0FORM', r: 2 }),
        callback_id: CALLBACK.broadcastStartModal,
        state: { values: {} },
        hash: '1700000000.hash',
        title: { type: 'plain_text', text: 'Start a broadcast' },
        root_view_id: 'V0ADDROW',
        app_id: 'A0VIDOPS',
        bot_id: 'B0BOT',
      },
      actions: [
        {
          action_id: ACTION.broadcastAddOutput,
          block_id: 'broadcast.add_output',
          text: { type: 'plain_text', text: 'Add' },
          value: '3',
          type: 'button',
          action_ts: '1700000000.2',
        },
      ],
    };
    expect((await t.post(signedInteraction(SIGNING_SECRET, payload))).status).toBe(200);
    const update = await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0ADDROW', { since });
    expect(update.body.hash).toBe('1700000000.hash');
    const view = update.body.view as { private_metadata: string; blocks: { block_id?: string }[] };
    expect(JSON.parse(view.private_metadata)).toEqual({ c: 'C0FORM', r: 3 });
    expect(view.blocks.filter((b) => b.block_id?.startsWith(BROADCAST_BLOCK.rtmpKeyPrefix)).map((b) => b.block_id)).toEqual([
      `${BROADCAST_BLOCK.rtmpKeyPrefix}1`,
      `${BROADCAST_BLOCK.rtmpKeyPrefix}2`,
      `${BROADCAST_BLOCK.rtmpKeyPrefix}3`,
    ]);
  });

  it('an RTMP URL without a port is an error on that field; nothing is sent', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const before = broadcastRequests().length;
    const ack = await submit({ ...session(seeded.sessionId), [BROADCAST_BLOCK.hls]: radio('off'), ...rtmp(1, 'rtmp://live.example.com/app', KEY, 'yt') });
    expect(ack.body).toEqual({
      response_action: 'errors',
      errors: { [`${BROADCAST_BLOCK.rtmpUrlPrefix}1`]: 'rtmp://live.example.com/app needs a port, e.g. rtmps://live.example.com:443/app.' },
    });
    expect(broadcastRequests()).toHaveLength(before);
  });

  it('other form problems land on their fields too', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const ack = await submit(
      {
        ...session(seeded.sessionId),
        [BROADCAST_BLOCK.hls]: radio('standard'),
        ...rtmp(1, 'rtmps://live.example.com:443/app', ''),
        ...rtmp(2, 'https://example.com/app', KEY),
        [BROADCAST_BLOCK.layout]: select('custom'),
        [BROADCAST_BLOCK.maxDuration]: number('900'),
      },
      { rows: 2 },
    );
    expect(ack.body).toEqual({
      response_action: 'errors',
      errors: {
        [`${BROADCAST_BLOCK.rtmpKeyPrefix}1`]: 'Enter the stream key of this output.',
        [`${BROADCAST_BLOCK.rtmpUrlPrefix}2`]: 'That is not an rtmp:// or rtmps:// server URL; it looks like rtmps://live.example.com:443/app.',
        [BROADCAST_BLOCK.stylesheet]: 'The custom layout needs a stylesheet.',
        [BROADCAST_BLOCK.maxDuration]: 'Enter 1 to 600 minutes.',
      },
    });
  });

  it('submitting starts the broadcast, shows the result in the form and posts the card in the channel it was opened from', async () => {
    const seeded = t.seedSession({ streams: 2 });
    const since = t.slack.mark();
    const trackedNow = new Promise<TrackRequest>((resolve) => tracked.once('tracked', resolve));
    const ack = await submit(
      {
        ...session(seeded.sessionId),
        [BROADCAST_BLOCK.hls]: radio('dvr'),
        ...rtmp(1, 'rtmps://live.example.com:443/app', KEY, 'yt'),
        ...rtmp(2, 'rtmp://ingest.example.org:1935/live', `${KEY}-2`),
        [BROADCAST_BLOCK.resolution]: select('1920x1080'),
        [BROADCAST_BLOCK.maxDuration]: number('30'),
        [BROADCAST_BLOCK.maxBitrate]: number('3000'),
        [BROADCAST_BLOCK.streamMode]: radio('auto'),
        [BROADCAST_BLOCK.tag]: text('stage'),
        [BROADCAST_BLOCK.media]: { [ACTION.broadcastInput]: { type: 'checkboxes', selected_options: [{ value: 'audio' }, { value: 'video' }] } },
      },
      { channel: 'C0STAGE', rows: 2, viewId: 'V0STARTOK' },
    );
    expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0STAGE', { since });
    const track = await trackedNow;
    const b = t.emulator.control.getBroadcast(t.project.apiKey, track.resourceId);
    expect(b).toMatchObject({
      status: 'started',
      sessionId: seeded.sessionId,
      resolution: '1920x1080',
      maxDuration: 1800,
      maxBitrate: 3_000_000,
      multiBroadcastTag: 'stage',
      hls: { dvr: true, lowLatency: false },
      rtmp: [
        { id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: KEY },
        { serverUrl: 'rtmp://ingest.example.org:1935/live', streamName: `${KEY}-2` },
      ],
    });
    const cardText = renderedText(card.body);
    expect(cardText).toContain(`<@${USERS.moderator}> started a live broadcast of session \`${seeded.sessionId}\``);
    expect(cardText).toContain('`yt` live.example.com');
    expect(cardText).toContain('_key hidden_');
    expect(cardText).toContain('DVR');
    expect(track.target).toMatchObject({ channelId: 'C0STAGE', projectName: 'prod' });
    const watches = await t.services.store.listWatches({ kind: 'broadcast', resourceId: b.id });
    expect(watches).toEqual([expect.objectContaining({ channelId: 'C0STAGE', messageTs: track.target.messageTs })]);
    const result = await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0STARTOK' && renderedText(c.body).includes('started'), { since });
    expect(renderedText(result.body)).toContain(`Broadcast \`${b.id}\` started. The card is in <#C0STAGE>.`);
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(
      expect.objectContaining({
        command: '/broadcast start',
        outcome: 'ok',
        channelId: 'C0STAGE',
        target: `session ${seeded.sessionId} tag stage: HLS (DVR), RTMP yt → live.example.com, RTMP #2 → ingest.example.org`,
      }),
    );
  });

  it('quick refusals of the service become field errors: already broadcasting (tag), relayed session (session)', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const first = await submit({ ...session(seeded.sessionId), [BROADCAST_BLOCK.hls]: radio('standard') }, { viewId: 'V0FIRST' });
    expect(first.body).toEqual(expect.objectContaining({ response_action: 'update' }));
    await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0FIRST' && renderedText(c.body).includes('started'));

    const audited = nextLogLine((line) => line.includes('"msg":"audit"') && line.includes('"outcome":"error"'));
    const second = await submit({ ...session(seeded.sessionId), [BROADCAST_BLOCK.hls]: radio('off'), ...rtmp(1, 'rtmps://live.example.com:443/app', KEY) });
    expect(second.body).toEqual({
      response_action: 'errors',
      errors: { [BROADCAST_BLOCK.tag]: 'This session is already broadcasting. To run a second broadcast at the same time, give this one a tag.' },
    });
    // The refusal is audited after the ack.
    expect(await audited).toContain('VideoConflictError 409');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/broadcast start', outcome: 'error', error: 'VideoConflictError 409' }));

    const relayed = t.seedSession({ streams: 1, mediaMode: 'relayed' });
    const third = await submit({ ...session(relayed.sessionId), [BROADCAST_BLOCK.hls]: radio('standard') });
    expect(third.body).toEqual({
      response_action: 'errors',
      errors: { [BROADCAST_BLOCK.session]: 'This session is relayed; broadcasting needs a routed session.' },
    });

    const empty = t.seedSession({ streams: 0 });
    const fourth = await submit({ ...session(empty.sessionId), [BROADCAST_BLOCK.hls]: radio('standard') });
    expect(fourth.body).toEqual({
      response_action: 'errors',
      errors: { [BROADCAST_BLOCK.session]: 'Nobody is connected to this session; a broadcast needs at least one connected client.' },
    });
  });

  it('a viewer: the command does not open the form, and a submission is denied in the form', async () => {
    const since = t.slack.mark();
    const res = await t.slash('/broadcast', 'start', { user: USERS.viewer, channel: 'C0FORM' });
    const reply = await res.waitForResponse();
    expect(renderedText(reply.body)).toContain('`/broadcast start` needs the moderator role; you are a viewer.');
    expect(t.slack.callsOf('views.open', since)).toEqual([]);

    const seeded = t.seedSession({ streams: 1 });
    const before = broadcastRequests().length;
    const ack = await submit({ ...session(seeded.sessionId), [BROADCAST_BLOCK.hls]: radio('standard') }, { user: USERS.viewer, viewId: 'V0VIEWER' });
    expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
    const denied = await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0VIEWER', { since });
    expect(renderedText(denied.body)).toContain('needs the moderator role; you are a viewer');
    expect(broadcastRequests()).toHaveLength(before);
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/broadcast start', outcome: 'denied', userId: USERS.viewer }));
  });

  it('a session from an unknown project, or none, is asked for again', async () => {
    const ack = await submit({ ...session('2_MX4whatever', 'nosuchproject'), [BROADCAST_BLOCK.hls]: radio('standard') });
    expect(ack.body).toEqual({ response_action: 'errors', errors: { [BROADCAST_BLOCK.session]: 'Pick a session from the list.' } });
  });
});

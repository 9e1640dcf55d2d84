/**
 * End to end: `/broadcast` start (typed), stop (confirmed, from the card, by choice), list, show,
 * layout, add, remove — signed Slack requests → the real app → the emulator. Every recorded Slack
 * call, response, audit record, watch and log line is checked for stream keys at the end.
 */
import { EventEmitter } from 'node:events';
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { BroadcastTargetSchema } from '../../src/kinds/broadcast';
import { ACTION } from '../../src/views/ids';
import { decodeValue } from '../../src/views/values';
import { CHANNEL, SIGNING_SECRET, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall } from '../harness/fake-slack';
import { signedInteraction } from '../harness/signing';
import { buttonValue, findElements, renderedText } from '../harness/text';

/** Every stream key used here contains this marker; none may ever leave the app. */
const SECRET = 'SECRETKEY';
const KEY = `live_8f3c2a_${SECRET}_91`;

describe('/broadcast', () => {
  let t: TestApp;
  const logLines: string[] = [];
  const tracked = new EventEmitter();

  beforeAll(async () => {
    // Every line the app and Bolt log, at the most talkative level, is kept for the leak check.
    t = await startTestApp({
      auditChannel: 'C0AUDIT',
      extraProjects: [{ name: 'suspended' }],
      logLevel: 'debug',
      logStream: { write: (line: string) => logLines.push(line) },
    });
    const track = t.services.track;
    t.services.track = async (request: TrackRequest) => {
      await track(request);
      tracked.emit('tracked', request);
    };
  });

  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    const audits = await t.store.listAudit(TEAM, 500);
    const watches = await t.services.store.listWatches({}, { includeEnded: true });
    const leaks = [
      ...t.slack.calls.filter((c) => JSON.stringify(c.body).includes(SECRET)).map((c) => `slack ${c.method}`),
      ...t.slack.responses.filter((r) => JSON.stringify(r.body).includes(SECRET)).map(() => 'response_url'),
      ...logLines.filter((line) => line.includes(SECRET)).map((line) => `log ${line.slice(0, 200)}`),
      ...audits.filter((a) => JSON.stringify(a).includes(SECRET)).map((a) => `audit ${a.command}`),
      ...watches.filter((w) => JSON.stringify(w).includes(SECRET)).map((w) => `watch ${w.id}`),
    ];
    expect(leaks).toEqual([]);
    // The logs were really captured (audits, Bolt's request bodies), so the check above means something.
    expect(logLines.some((line) => line.includes('"msg":"audit"'))).toBe(true);
    expect(logLines.some((line) => line.includes('http request body') && line.includes('Live broadcast'))).toBe(true);
    await t.close();
  });

  const nextTracked = (): Promise<TrackRequest> => new Promise((resolve) => tracked.once('tracked', resolve));

  async function startTyped(
    text: string,
    actor: { channel?: string; user?: string } = {},
  ): Promise<{ card: RecordedCall; broadcastId: string; track: TrackRequest }> {
    const since = t.slack.mark();
    const trackedNow = nextTracked();
    const res = await t.slash('/broadcast', text, actor);
    expect(res.ack).toBeUndefined();
    const card = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('Live broadcast'), { since });
    const target = decodeValue(BroadcastTargetSchema, buttonValue(card.body, ACTION.broadcastStop))!;
    return { card, broadcastId: target.b, track: await trackedNow };
  }

  async function replyTo(
    text: string,
    actor: { channel?: string; user?: string } = {},
  ): Promise<{ text: string; body: Record<string, unknown>; responseUrl: string }> {
    const res = await t.slash('/broadcast', text, actor);
    expect(res.ack).toBeUndefined();
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.body)).not.toMatch(/\/v2\/project|at .*\.ts:\d+|"code":\d+|Error:/);
    return { text: renderedText(reply.body), body: reply.body, responseUrl: res.responseUrl };
  }

  /** A click on the in-channel card (not ephemeral), as Slack sends it; returns the click's response_url id. */
  async function clickCard(card: RecordedCall, ts: string, user: string = USERS.moderator): Promise<string> {
    const responseUrl = t.slack.newResponseUrl();
    const payload = {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: ts, channel_id: card.body.channel, is_ephemeral: false },
      trigger_id: '1.2.trigger-card',
      team: { id: TEAM, domain: 'vidops-test' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: card.body.channel, name: 'ops' },
      message: { type: 'message', ts, text: card.body.text, blocks: card.body.blocks },
      state: { values: {} },
      response_url: responseUrl,
      actions: [
        {
          action_id: ACTION.broadcastStop,
          block_id: 'b1',
          text: { type: 'plain_text', text: 'Stop broadcast' },
          value: buttonValue(card.body, ACTION.broadcastStop),
          type: 'button',
          action_ts: '1700000000.1',
        },
      ],
    };
    expect((await t.post(signedInteraction(SIGNING_SECRET, payload))).status).toBe(200);
    return responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
  }

  /** The sentence a one-section answer shows (its first block). */
  function firstBlock(body: Record<string, unknown>): string {
    return renderedText((body.blocks as unknown[])[0]);
  }

  describe('start (typed)', () => {
    it('starts HLS and RTMP outputs, posts the card with keys hidden, audits, and hands the broadcast to the poller', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const { card, broadcastId, track } = await startTyped(
        `start ${seeded.sessionId} --rtmp yt=rtmps://live.example.com:443/app/${KEY} --rtmp rtmp://ingest.example.org:1935/live/${KEY}2 --hls --dvr --resolution 1280x720 --max-duration 2h --max-bitrate 2500k --tag main`,
      );
      const b = t.emulator.control.getBroadcast(t.project.apiKey, broadcastId);
      expect(b).toMatchObject({
        status: 'started',
        sessionId: seeded.sessionId,
        resolution: '1280x720',
        maxDuration: 7200,
        maxBitrate: 2_500_000,
        multiBroadcastTag: 'main',
        streamMode: 'auto',
        hls: { status: 'connecting', dvr: true, lowLatency: false },
        rtmp: [
          { id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: KEY, status: 'connecting' },
          { serverUrl: 'rtmp://ingest.example.org:1935/live', streamName: `${KEY}2`, status: 'connecting' },
        ],
      });
      expect(card.body.channel).toBe(CHANNEL);
      const text = renderedText(card.body);
      expect(text).toContain(`<@${USERS.moderator}> started a live broadcast of session \`${seeded.sessionId}\``);
      expect(text).toContain(b.hls!.url);
      expect(text).toContain('Usable about 20 s after start');
      expect(text).toContain('`yt` live.example.com — :hourglass_flowing_sand: connecting · _key hidden_');
      expect(text).toContain(`\`${b.rtmp[1]!.id}\` ingest.example.org`);
      expect(text).toMatch(/Max duration\*\n2 h/);

      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({
          command: '/broadcast start',
          outcome: 'ok',
          userId: USERS.moderator,
          target: `session ${seeded.sessionId} tag main: HLS (DVR), RTMP yt → live.example.com, RTMP #2 → ingest.example.org`,
        }),
      );
      expect(t.slack.callsOf('chat.postMessage').some((c) => c.body.channel === 'C0AUDIT' && renderedText(c.body).includes('/broadcast start'))).toBe(true);

      expect(track).toMatchObject({
        kind: 'broadcast',
        resourceId: broadcastId,
        sessionId: seeded.sessionId,
        target: { teamId: TEAM, channelId: CHANNEL, projectName: 'prod' },
      });
      const watches = await t.services.store.listWatches({ kind: 'broadcast', resourceId: broadcastId });
      expect(watches).toHaveLength(1);
      expect(watches[0]).toMatchObject({
        channelId: CHANNEL,
        projectName: 'prod',
        sessionId: seeded.sessionId,
        messageTs: track.target.messageTs,
        lastState: { status: 'started', hls: 'connecting', rtmp: { yt: 'connecting', [b.rtmp[1]!.id]: 'connecting' } },
      });
      expect(watches[0]!.messageTs).toMatch(/^\d+\.\d+$/);
    });

    it('HLS goes ready then live on the emulator clock, and show says so', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { broadcastId } = await startTyped(`start ${seeded.sessionId} --hls --low-latency --rtmp rtmps://live.example.com:443/app/${KEY}`);
      const timings = t.emulator.control.transitions();
      t.emulator.control.advanceTime(timings.hlsReadyMs);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).hls?.status).toBe('ready');
      t.emulator.control.advanceTime(Math.max(timings.hlsLiveMs, timings.rtmpLiveMs));
      const live = t.emulator.control.getBroadcast(t.project.apiKey, broadcastId);
      expect(live.hls?.status).toBe('live');
      expect(live.rtmp[0]!.status).toBe('live');

      const { text } = await replyTo(`show ${broadcastId}`, { user: USERS.viewer });
      expect(text).toMatch(/\*HLS\* :large_green_circle: live · low latency/);
      expect(text).toContain('live.example.com — :large_green_circle: live · _key hidden_');
      expect(text).not.toContain('Usable about 20 s');
      expect(text).toContain('Only you can see this.');
    });

    it('uses the channel’s session and the alias it is known by', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: TEAM, alias: 'townhall', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
      await t.store.setChannelBinding({ teamId: TEAM, channelId: 'C0TOWN', sessionId: 'townhall', projectName: 'prod', updatedBy: 'U1', updatedAt: 0 });
      const { card, broadcastId } = await startTyped('start --hls', { channel: 'C0TOWN' });
      expect(card.body.channel).toBe('C0TOWN');
      expect(renderedText(card.body)).toContain('live broadcast of session `townhall`');
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).sessionId).toBe(seeded.sessionId);
    });
  });

  describe('start where the bot is not a member', () => {
    it('gives the card to the asker only, with how to invite the bot, and does not track it', async () => {
      const seeded = t.seedSession({ streams: 1 });
      t.slack.setNotInChannel('C0PRIVATE');
      const res = await t.slash('/broadcast', `start ${seeded.sessionId} --hls`, { channel: 'C0PRIVATE' });
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain('Live broadcast');
      expect(text).toContain('Invite me with `/invite @vidops`');
      const target = decodeValue(BroadcastTargetSchema, buttonValue(reply.body, ACTION.broadcastStop))!;
      expect(t.emulator.control.getBroadcast(t.project.apiKey, target.b).status).toBe('started');
      expect(await t.services.store.listWatches({ kind: 'broadcast', resourceId: target.b })).toEqual([]);
    });
  });

  describe('start: what people get wrong', () => {
    it('more than five RTMP outputs: refused in the ack, nothing sent, no key quoted', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const before = t.emulator.control.requestLog().length;
      const outputs = Array.from({ length: 6 }, (_v, i) => `--rtmp o${i}=rtmps://h${i}.example.com:443/app/${KEY}${i}`).join(' ');
      const res = await t.slash('/broadcast', `start ${seeded.sessionId} ${outputs}`);
      expect(res.ack?.response_type).toBe('ephemeral');
      const text = renderedText(res.ack);
      expect(text).toContain('--rtmp: a broadcast has at most 5 RTMP outputs (6 were given)');
      expect(text).toContain('/broadcast start [session] [--rtmp');
      expect(JSON.stringify(res.ack)).not.toContain(SECRET);
      expect(
        t.emulator.control
          .requestLog()
          .slice(before)
          .filter((r) => r.path.includes('/broadcast')),
      ).toEqual([]);
    });

    it('an RTMP URL without a port: refused in the ack with an example', async () => {
      const res = await t.slash('/broadcast', `start --rtmp rtmp://live.example.com/app/${KEY}`);
      expect(renderedText(res.ack)).toContain('--rtmp: rtmp://live.example.com/app needs a port, e.g. rtmps://live.example.com:443/app');
      expect(JSON.stringify(res.ack)).not.toContain(SECRET);
    });

    it('a relayed session (409)', async () => {
      const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
      const { text } = await replyTo(`start ${seeded.sessionId} --hls`);
      expect(text).toContain(
        `:warning: Session \`${seeded.sessionId}\` is relayed; broadcasting needs a routed session (create one with \`/session create\` without \`--relayed\`). Nothing was started.`,
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/broadcast start', outcome: 'error', error: 'VideoConflictError 409' }));
    });

    it('nobody connected', async () => {
      const seeded = t.seedSession({ streams: 0 });
      const { text } = await replyTo(`start ${seeded.sessionId} --rtmp rtmps://live.example.com:443/app/${KEY}`);
      expect(text).toContain(
        `:warning: Nobody is connected to session \`${seeded.sessionId}\`; a broadcast needs at least one connected client. Start it once someone has joined.`,
      );
    });

    it('already broadcasting without a tag (409) suggests --tag; a tag makes the second one start', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await startTyped(`start ${seeded.sessionId} --hls`);
      const { text } = await replyTo(`start ${seeded.sessionId} --rtmp rtmps://live.example.com:443/app/${KEY}`);
      expect(text).toContain(
        `Session \`${seeded.sessionId}\` is already broadcasting. To run a second broadcast at the same time, give it a tag of its own (\`--tag <name>\`)`,
      );
      const second = await startTyped(`start ${seeded.sessionId} --rtmp rtmps://live.example.com:443/app/${KEY} --tag backup`);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, second.broadcastId).multiBroadcastTag).toBe('backup');
      const again = await replyTo(`start ${seeded.sessionId} --hls --tag backup`);
      expect(again.text).toContain('A broadcast tagged `backup` is already running');
    });

    it('a suspended project (403)', async () => {
      const client = t.services.projects.client('suspended') as unknown as { apiKey: string };
      const key = client.apiKey;
      const seeded = t.seedSession({ streams: 1, apiKey: key });
      const account = new VideoClient({
        baseUrl: t.emulator.baseUrl,
        apiKey: t.project.apiKey,
        apiSecret: t.project.apiSecret,
        accountApiKey: t.emulator.control.account.key,
        accountApiSecret: t.emulator.control.account.secret,
      });
      await account.projects.setStatus(key, 'SUSPENDED');
      const { text } = await replyTo(`start ${seeded.sessionId} --hls --project suspended`);
      expect(text).toContain(
        ":warning: The video service refused project *suspended* (it may be suspended, or its API key or secret is wrong); nothing was started. Ask an admin to check the project's status and credentials.",
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ outcome: 'error', projectName: 'suspended', error: 'VideoAuthError 403' }));
    });

    it('a viewer may not start one (denied, audited, nothing sent)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const before = t.emulator.control.requestLog().length;
      const { text } = await replyTo(`start ${seeded.sessionId} --rtmp rtmps://live.example.com:443/app/${KEY}`, { user: USERS.viewer });
      expect(text).toContain('`/broadcast start` needs the moderator role; you are a viewer.');
      expect(
        t.emulator.control
          .requestLog()
          .slice(before)
          .filter((r) => r.path.includes('/broadcast')),
      ).toEqual([]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/broadcast start', outcome: 'denied', userId: USERS.viewer, target: seeded.sessionId }));
    });
  });

  describe('stop', () => {
    it('by ID: asks once (a card whose button has no dialog), then the button stops it and tells the channel', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { broadcastId } = await startTyped(`start ${seeded.sessionId} --hls --rtmp yt=rtmps://live.example.com:443/app/${KEY}`);
      const confirm = await replyTo(`stop ${broadcastId}`);
      expect(confirm.text).toContain(`Stop broadcast \`${broadcastId}\`* of session \`${seeded.sessionId}\`? HLS connecting · 1 RTMP (1 connecting)`);
      expect(findElements(confirm.body, ACTION.broadcastStop)[0]).toEqual(expect.objectContaining({ style: 'danger' }));
      expect(findElements(confirm.body, ACTION.broadcastStop)[0]).not.toHaveProperty('confirm');
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).status).toBe('started');

      const since = t.slack.mark();
      await t.click(ACTION.broadcastStop, buttonValue(confirm.body, ACTION.broadcastStop), { responseUrl: confirm.responseUrl });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('stopped broadcast'), {
        since,
      });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> stopped broadcast \`${broadcastId}\` of session \`${seeded.sessionId}\`.`);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).status).toBe('stopped');
      const replaced = await t.slack.waitForResponse(
        confirm.responseUrl.slice(confirm.responseUrl.lastIndexOf('/') + 1),
        (r) => r.body.replace_original === true,
      );
      expect(renderedText(replaced.body)).toContain(`Broadcast \`${broadcastId}\` stopped.`);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/broadcast stop', outcome: 'ok', target: `broadcast ${broadcastId} in session ${seeded.sessionId}` }),
      );

      // The same button again: the broadcast is gone (404).
      await t.click(ACTION.broadcastStop, buttonValue(confirm.body, ACTION.broadcastStop), { responseUrl: confirm.responseUrl });
      const already = await t.slack.waitForResponse(confirm.responseUrl.slice(confirm.responseUrl.lastIndexOf('/') + 1), (r) =>
        renderedText(r.body).includes('already stopped'),
      );
      expect(firstBlock(already.body)).toBe(
        `:warning: Broadcast \`${broadcastId}\` has already stopped (or the ID is wrong); there is nothing to stop. \`/broadcast list\` shows the running ones.`,
      );
      const [error] = await t.store.listAudit(TEAM, 1);
      expect(error).toEqual(expect.objectContaining({ command: '/broadcast stop', outcome: 'error', error: 'VideoNotFoundError 404' }));
      // And typed again.
      const typed = await replyTo(`stop ${broadcastId}`);
      expect(typed.text).toContain(`:warning: Broadcast \`${broadcastId}\` has already stopped; there is nothing to stop.`);
    });

    it('an unknown ID', async () => {
      const { text } = await replyTo('stop 6706b658-2eba-42cc-b4d2-000000000000');
      expect(text).toContain('Broadcast `6706b658-2eba-42cc-b4d2-000000000000` has already stopped (or the ID is wrong)');
    });

    it('from the card: stops it and redraws the card in place, naming who started and who stopped it', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { card, broadcastId, track } = await startTyped(`start ${seeded.sessionId} --rtmp yt=rtmps://live.example.com:443/app/${KEY}`);
      const since = t.slack.mark();
      await clickCard(card, track.target.messageTs!);
      const update = await t.waitForSlackCall('chat.update', () => true, { since });
      expect(update.body).toMatchObject({ channel: CHANNEL, ts: track.target.messageTs });
      const text = renderedText(update.body);
      expect(text).toContain('Broadcast stopped');
      expect(text).toContain(`stopped by <@${USERS.moderator}>`);
      expect(text).toContain(`by <@${USERS.moderator}>`);
      expect(findElements(update.body, ACTION.broadcastStop)).toEqual([]);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).status).toBe('stopped');
    });

    it('without an ID: the channel session’s broadcast, or a choice when it runs several', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.setChannelBinding({ teamId: TEAM, channelId: 'C0STOP', sessionId: seeded.sessionId, projectName: 'prod', updatedBy: 'U1', updatedAt: 0 });
      const none = await replyTo('stop', { channel: 'C0STOP' });
      expect(none.text).toContain(`:warning: No broadcast is running in session \`${seeded.sessionId}\`; there is nothing to stop.`);

      const first = await startTyped('start --hls', { channel: 'C0STOP' });
      const one = await replyTo('stop', { channel: 'C0STOP' });
      expect(findElements(one.body, ACTION.broadcastStop).map((b) => decodeValue(BroadcastTargetSchema, b.value as string)?.b)).toEqual([first.broadcastId]);

      const second = await startTyped(`start --rtmp rtmps://live.example.com:443/app/${KEY} --tag second`, { channel: 'C0STOP' });
      const choice = await replyTo('stop', { channel: 'C0STOP' });
      expect(choice.text).toContain('runs 2 broadcasts. Which one should stop?');
      expect(
        findElements(choice.body, ACTION.broadcastStop)
          .map((b) => decodeValue(BroadcastTargetSchema, b.value as string)?.b)
          .sort(),
      ).toEqual([first.broadcastId, second.broadcastId].sort());

      const noSession = await replyTo('stop', { channel: 'C0NOWHERE' });
      expect(noSession.text).toContain('Which broadcast? Give its ID');
    });

    it('a viewer’s click is denied and changes nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { card, broadcastId, track } = await startTyped(`start ${seeded.sessionId} --hls`);
      const responseId = await clickCard(card, track.target.messageTs!, USERS.viewer);
      const denied = await t.slack.waitForResponse(responseId);
      expect(denied.body.response_type).toBe('ephemeral');
      expect(renderedText(denied.body)).toContain('needs the moderator role; you are a viewer');
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).status).toBe('started');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/broadcast stop', outcome: 'denied', userId: USERS.viewer }));
      const typed = await replyTo(`stop ${broadcastId}`, { user: USERS.viewer });
      expect(typed.text).toContain('`/broadcast stop` needs the moderator role');
    });
  });

  describe('list and show', () => {
    it('a viewer lists the running broadcasts (ephemeral), with aliases, keys hidden', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: TEAM, alias: 'listme', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
      const { broadcastId } = await startTyped(`start ${seeded.sessionId} --rtmp rtmps://live.example.com:443/app/${KEY} --hls`);
      const all = await replyTo('list', { user: USERS.viewer });
      expect(all.text).toContain(`\`${broadcastId}\`\nSession \`listme\``);
      expect(all.text).toContain('HLS connecting · 1 RTMP (1 connecting)');
      const running = (await t.services.projects.client('prod').broadcasts.list({})).count;
      expect(all.text).toContain(`${running === 1 ? '1 broadcast' : `${running} broadcasts`} running in project *prod*`);

      const one = await replyTo('list listme', { user: USERS.viewer });
      expect(one.text).toContain('1 broadcast running in session `listme`');
      expect(findElements(one.body, ACTION.broadcastStop)).toHaveLength(1);

      const empty = t.seedSession({ streams: 1 });
      const none = await replyTo(`list ${empty.sessionId}`, { user: USERS.viewer });
      expect(none.text).toContain(`No broadcast is running in session \`${empty.sessionId}\``);
    });

    it('show of an unknown broadcast', async () => {
      const { text } = await replyTo('show 6706b658-2eba-42cc-b4d2-000000000001', { user: USERS.viewer });
      expect(text).toContain(
        ':warning: There is no broadcast `6706b658-2eba-42cc-b4d2-000000000001` in project *prod*; `/broadcast list` shows the running ones.',
      );
    });
  });

  describe('layout, add, remove', () => {
    it('changes the layout and tells the channel; refuses a layout the streams have no classes for', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const { broadcastId } = await startTyped(`start ${seeded.sessionId} --hls`);
      const since = t.slack.mark();
      const res = await t.slash('/broadcast', `layout ${broadcastId} bestfit --screenshare vertical`);
      expect(res.ack).toBeUndefined();
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('changed the layout'), {
        since,
      });
      expect(renderedText(notice.body)).toContain(
        `changed the layout of broadcast \`${broadcastId}\` to *bestFit* (while someone shares a screen: *verticalPresentation*)`,
      );
      expect(renderedText(notice.body)).toContain(`To undo it, set the layout it had with \`/broadcast layout ${broadcastId} <layout>\``);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).layout).toEqual({ type: 'bestFit', screenshareType: 'verticalPresentation' });

      const { text } = await replyTo(`layout ${broadcastId} pip`);
      expect(text).toContain('That layout needs layout classes on the streams');
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).layout).toEqual({ type: 'bestFit', screenshareType: 'verticalPresentation' });
      const denied = await replyTo(`layout ${broadcastId} bestFit`, { user: USERS.viewer });
      expect(denied.text).toContain('`/broadcast layout` needs the moderator role');
    });

    it('adds and removes streams of a manual broadcast', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const { broadcastId, card } = await startTyped(`start ${seeded.sessionId} --hls --manual`);
      expect(renderedText(card.body)).toContain('chosen by hand (0 selected)');
      const since = t.slack.mark();
      await t.slash('/broadcast', `add ${broadcastId} ${seeded.streams[0]} --audio-only`);
      const added = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('added stream'), { since });
      expect(renderedText(added.body)).toContain(`<@${USERS.moderator}> added stream \`${seeded.streams[0]}\` to broadcast \`${broadcastId}\` (audio only).`);
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).selectedStreams).toEqual([
        { streamId: seeded.streams[0], hasAudio: true, hasVideo: false },
      ]);

      const since2 = t.slack.mark();
      await t.slash('/broadcast', `remove ${broadcastId} ${seeded.streams[0]}`);
      await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('removed stream'), { since: since2 });
      expect(t.emulator.control.getBroadcast(t.project.apiKey, broadcastId).selectedStreams).toEqual([]);

      const unknown = await replyTo(`add ${broadcastId} 8b732909-0a06-46a2-8ea8-000000000000`);
      expect(unknown.text).toContain('or stream `8b732909-0a06-46a2-8ea8-000000000000` was not found');
      const denied = await replyTo(`remove ${broadcastId} ${seeded.streams[1]}`, { user: USERS.viewer });
      expect(denied.text).toContain('`/broadcast remove` needs the moderator role');
    });

    it('refuses stream selection on an automatic broadcast', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { broadcastId } = await startTyped(`start ${seeded.sessionId} --hls`);
      const { text } = await replyTo(`add ${broadcastId} ${seeded.streams[0]}`);
      expect(text).toContain(
        `:warning: Broadcast \`${broadcastId}\` takes every stream by itself (stream mode auto); only broadcasts started with \`--manual\` let you add or remove streams.`,
      );
    });
  });

  it('help lists every subcommand with its role', async () => {
    const res = await t.slash('/broadcast', 'help');
    const text = renderedText(res.ack);
    for (const form of [
      'start [session]',
      'stop [broadcast-id]',
      'list [session]',
      'show <broadcast-id>',
      'layout <broadcast-id> <type>',
      'add <broadcast-id> <stream-id>',
      'remove <broadcast-id> <stream-id>',
    ]) {
      expect(text).toContain(`/broadcast ${form}`);
    }
    expect(text).toContain('_(moderator)_');
    expect(text).toContain('_(viewer)_');
  });
});

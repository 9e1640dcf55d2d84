/**
 * End to end: /record start, stop, list, show, delete, layout, add, remove and the card's
 * buttons (Stop, Download, Delete, More) against the emulator, with the watch handed to the
 * poller, the errors people meet, and the roles.
 */
import { EventEmitter } from 'node:events';
import { VideoClient } from '../../src/api';
import type { TrackRequest } from '../../src/poller/track';
import { ACTION, RECORD_ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall } from '../harness/fake-slack';
import { buttonValue, findElements, renderedText } from '../harness/text';

describe('/record', () => {
  let t: TestApp;
  const tracked = new EventEmitter();

  beforeAll(async () => {
    t = await startTestApp({ extraProjects: [{ name: 'suspended' }, { name: 'paged' }] });
    const track = t.services.track;
    t.services.track = async (request: TrackRequest) => {
      await track(request);
      tracked.emit('tracked', request);
    };
  });

  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  const nextTracked = (): Promise<TrackRequest> => new Promise((resolve) => tracked.once('tracked', resolve));
  const archive = (id: string) => t.emulator.control.getArchive(t.project.apiKey, id);
  const archivePosts = () => t.emulator.control.requestLog().filter((e) => e.method === 'POST' && /\/archive$/.test(e.path)).length;

  /** `/record start <text>`; waits for the card and the watch. */
  async function startTyped(
    text: string,
    actor: { channel?: string; user?: string } = {},
  ): Promise<{ card: RecordedCall; archiveId: string; track: TrackRequest }> {
    const channel = actor.channel ?? CHANNEL;
    const since = t.slack.mark();
    const trackedNow = nextTracked();
    await t.slash('/record', `start ${text}`, actor);
    const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel && renderedText(c.body).includes('started recording'), {
      since,
    });
    const track = await trackedNow;
    return { card, archiveId: track.resourceId, track };
  }

  /** A reply to the command (ephemeral, through its response_url). */
  async function reply(text: string, user: string = USERS.moderator, channel = CHANNEL): Promise<string> {
    const res = await t.slash('/record', text, { user, channel });
    expect(res.ack).toBeUndefined();
    const answer = await res.waitForResponse();
    expect(answer.body.response_type).toBe('ephemeral');
    const raw = JSON.stringify(answer.body);
    expect(raw).not.toMatch(/\/v2\/project|at .*\.ts:\d+|"code":\d+|Error:/);
    return renderedText(answer.body);
  }

  /** A usage error is the ack itself; nothing reaches the video service. */
  async function usage(text: string): Promise<string> {
    const before = t.emulator.control.requestLog().length;
    const res = await t.slash('/record', text);
    expect(res.ack?.response_type).toBe('ephemeral');
    expect(t.emulator.control.requestLog().length).toBe(before);
    return renderedText(res.ack);
  }

  async function bindChannel(channelId: string, sessionId: string): Promise<void> {
    await t.store.setChannelBinding({ teamId: TEAM, channelId, sessionId, projectName: 'prod', updatedBy: USERS.admin, updatedAt: 0 });
  }

  /** Stops and lets the emulator finish processing: the recording becomes available. */
  async function available(archiveId: string): Promise<void> {
    t.emulator.control.advanceTime(10_000);
    await t.services.projects.client('prod').archives.stop(archiveId);
    t.emulator.control.advanceTime(10_000);
    expect(archive(archiveId).status).toBe('available');
  }

  describe('start', () => {
    it('starts a composed recording with name, resolution and layout, posts the card and hands it to the poller', async () => {
      const seeded = t.seedSession({ streams: 2 });
      await t.services.projects.client('prod').streams.setLayoutClasses(seeded.sessionId, [{ id: seeded.streams[0]!, layoutClassList: ['focus'] }]);
      const { card, archiveId, track } = await startTyped(`${seeded.sessionId} "Weekly <review> & co" --resolution 1280x720 --layout pip`);
      expect(archive(archiveId)).toEqual(
        expect.objectContaining({
          sessionId: seeded.sessionId,
          status: 'started',
          name: 'Weekly <review> & co',
          resolution: '1280x720',
          outputMode: 'composed',
          streamMode: 'auto',
          layout: { type: 'pip' },
        }),
      );
      const text = renderedText(card.body);
      expect(text).toContain(`<@${USERS.moderator}> started recording session \`${seeded.sessionId}\``);
      expect(text).toContain('*Status*\n:red_circle: Recording');
      expect(text).toContain('*Name*\nWeekly <review> & co');
      expect(text).toContain('*Output*\nComposed, 1280x720');
      expect(text).toContain('*Streams*\nAll streams (auto)');
      expect(text).toContain(`*Started by*\n<@${USERS.moderator}>`);
      expect(JSON.stringify(card.body)).toContain('Weekly &lt;review&gt; &amp; co');
      expect(findElements(card.body, RECORD_ACTION.stop)).toHaveLength(1);
      expect(findElements(card.body, RECORD_ACTION.download)).toHaveLength(0);
      // The watch: the card's channel and ts, the start response as its first state.
      expect(track).toEqual(
        expect.objectContaining({
          kind: 'archive',
          resourceId: archiveId,
          sessionId: seeded.sessionId,
          initialState: expect.objectContaining({ status: 'started', name: 'Weekly <review> & co' }),
        }),
      );
      const [watch] = await t.services.store.listWatches({ kind: 'archive', resourceId: archiveId });
      expect(watch).toEqual(
        expect.objectContaining({
          teamId: TEAM,
          channelId: CHANNEL,
          projectName: 'prod',
          messageTs: expect.stringMatching(/^\d+\.\d+$/),
          sessionId: seeded.sessionId,
        }),
      );
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/record start', outcome: 'ok', target: `session ${seeded.sessionId}`, userId: USERS.moderator }),
      );
    });

    it('records the channel’s session under a quoted name given alone', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await bindChannel('C0RECDEFAULT', seeded.sessionId);
      const { archiveId } = await startTyped('"Town hall"', { channel: 'C0RECDEFAULT' });
      expect(archive(archiveId)).toEqual(expect.objectContaining({ sessionId: seeded.sessionId, name: 'Town hall' }));
    });

    it('starts an individual, manual, audio-only recording with a tag', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId, card } = await startTyped(`${seeded.sessionId} --individual --manual --audio-only --tag speakers`);
      const started = archive(archiveId);
      expect(started).toEqual(
        expect.objectContaining({ outputMode: 'individual', streamMode: 'manual', hasAudio: true, hasVideo: false, multiArchiveTag: 'speakers' }),
      );
      expect(started.resolution).toBeUndefined();
      const text = renderedText(card.body);
      expect(text).toContain('*Output*\nOne file per stream');
      expect(text).toContain('*Streams*\nChosen streams (manual) · audio only');
      expect(text).toContain('*Tag*\n`speakers`');
    });

    it.each([
      ['--individual --resolution 1280x720', '--resolution: applies only to composed recordings; drop --individual or --resolution'],
      ['--individual --layout pip', '--layout: applies only to composed recordings'],
      ['--layout custom', '--layout: custom needs --stylesheet "<css>"'],
      ['--layout pip --screenshare verticalPresentation', '--screenshare: goes only with --layout bestFit (the layout is pip)'],
      ['--stylesheet "stream {}" --layout pip', '--stylesheet: goes only with --layout custom (the layout is pip)'],
      ['--screenshare custom', '--screenshare: use one of bestFit, horizontalPresentation, pip, verticalPresentation'],
      ['--audio-only --video-only', 'cannot be combined with --video-only'],
      ['--resolution 1024x768', '--resolution: use one of 640x480, 1280x720'],
      ['--layout mosaic', '--layout: use one of bestFit, custom'],
      [`s1 ${'n'.repeat(256)}`, '<name>: a recording name has at most 255 characters'],
      ['--tag "two words"', '--tag: a tag is one word'],
    ])('usage error for `start %s`, answered in the ack; nothing is sent', async (args, problem) => {
      const before = archivePosts();
      const text = await usage(`start ${args}`);
      expect(text).toContain(problem);
      expect(text).toContain('/record start [session] [name]');
      expect(archivePosts()).toBe(before);
    });

    it('reads --screenshare alone as best fit with that screen-share layout, and layout names loosely', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} --screenshare Vertical`);
      expect(archive(archiveId).layout).toEqual({ type: 'bestFit', screenshareType: 'verticalPresentation' });
    });

    it('409 on a relayed session: says recording needs a routed session and how to make one', async () => {
      const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
      const text = await reply(`start ${seeded.sessionId}`);
      expect(text).toContain('This session is relayed; recording needs a routed session — create one with `/session create --use`');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/record start', outcome: 'error', error: 'VideoConflictError 409' }));
      expect(await t.services.store.listWatches({ kind: 'archive', sessionId: seeded.sessionId })).toEqual([]);
    });

    it('409 without a message on a session nobody records: the relayed sentence (read from the session’s recordings)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      t.emulator.control.injectFault({ method: 'POST', path: '/archive', kind: 'status', status: 409, body: '' });
      const text = await reply(`start ${seeded.sessionId}`);
      expect(text).toContain('This session is relayed; recording needs a routed session');
    });

    it('404 when nobody is connected: nothing to record yet', async () => {
      const seeded = t.seedSession({ streams: 0 });
      const text = await reply(`start ${seeded.sessionId}`);
      expect(text).toMatch(
        /Nobody is connected to session `.+` \(or it does not exist in project \*prod\*\), so there is nothing to record; start the recording once someone has joined\./,
      );
    });

    it('409 when already recorded without a tag: suggests --tag; with a tag in use: pick another', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await startTyped(`${seeded.sessionId} --tag main`);
      const untagged = await reply(`start ${seeded.sessionId}`);
      expect(untagged).toContain(
        `Session \`${seeded.sessionId}\` is already being recorded. To record it a second time in parallel, give this recording its own tag: \`/record start ${seeded.sessionId} --tag second\``,
      );
      const duplicate = await reply(`start ${seeded.sessionId} --tag main`);
      expect(duplicate).toContain(`Another recording of session \`${seeded.sessionId}\` already uses the tag \`main\`; pick a different \`--tag\`.`);
      // A second tag records in parallel.
      const { archiveId } = await startTyped(`${seeded.sessionId} --tag second`);
      expect(archive(archiveId).multiArchiveTag).toBe('second');
    });

    it('403 for a suspended project', async () => {
      const key = (t.services.projects.client('suspended') as unknown as { apiKey: string }).apiKey;
      const seeded = t.seedSession({ streams: 1, apiKey: key });
      const account = new VideoClient({
        baseUrl: t.emulator.baseUrl,
        apiKey: t.project.apiKey,
        apiSecret: t.project.apiSecret,
        accountApiKey: t.emulator.control.account.key,
        accountApiSecret: t.emulator.control.account.secret,
      });
      await account.projects.setStatus(key, 'SUSPENDED');
      const text = await reply(`start ${seeded.sessionId} --project suspended`);
      expect(text).toMatch(
        /refused the credentials of project \*suspended\* \(wrong API key or secret, or the project is suspended\); nothing was changed\. Ask an admin/,
      );
    });

    it('denies a viewer, audits it and records nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const before = archivePosts();
      const text = await reply(`start ${seeded.sessionId}`, USERS.viewer);
      expect(text).toContain('`/record start` needs the moderator role; you are a viewer');
      expect(archivePosts()).toBe(before);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/record start', outcome: 'denied', userId: USERS.viewer }));
    });

    it('where the bot is not in the channel, the card comes privately with how to invite it, and no watch is made', async () => {
      const seeded = t.seedSession({ streams: 1 });
      t.slack.setNotInChannel('C0RECPRIVATE');
      const res = await t.slash('/record', `start ${seeded.sessionId}`, { channel: 'C0RECPRIVATE' });
      const answer = await res.waitForResponse();
      const text = renderedText(answer.body);
      expect(text).toContain('started recording session');
      expect(text).toContain('Invite me with `/invite @vidops`');
      const id = JSON.parse(buttonValue(answer.body, RECORD_ACTION.stop)).r as string;
      expect(archive(id).status).toBe('started');
      expect(await t.services.store.listWatches({ kind: 'archive', resourceId: id })).toEqual([]);
    });
  });

  describe('stop', () => {
    it('with an ID, asks once (a card whose Stop has no dialog); its Stop stops it, tells the channel and keeps watching in its thread', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} Retro`, { channel: 'C0RECSTOP' });
      const res = await t.slash('/record', `stop ${archiveId}`);
      const question = await res.waitForResponse();
      expect(renderedText(question.body)).toContain(`Stop the recording of session \`${seeded.sessionId}\`?`);
      const [stop] = findElements(question.body, RECORD_ACTION.stop);
      expect(stop).toEqual(expect.objectContaining({ style: 'danger' }));
      expect(stop!.confirm).toBeUndefined();
      expect(archive(archiveId).status).toBe('started');
      const since = t.slack.mark();
      const trackedNow = nextTracked();
      await t.click(RECORD_ACTION.stop, buttonValue(question.body, RECORD_ACTION.stop), { responseUrl: res.responseUrl });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && !c.body.thread_ts, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> stopped recording *Retro* (\`${archiveId}\`) of session \`${seeded.sessionId}\``);
      expect(archive(archiveId)).toEqual(expect.objectContaining({ status: 'stopped', reason: 'user initiated' }));
      const track = await trackedNow;
      expect(track.target).toEqual(expect.objectContaining({ channelId: CHANNEL, threadTs: expect.stringMatching(/^\d+\.\d+$/) }));
      expect(track.target.messageTs).toBeUndefined();
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/record stop', outcome: 'ok', target: `recording ${archiveId}` }));
    });

    it('without an ID, offers the running recording; the card is the question, so its Stop button acts', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await bindChannel('C0RECCHOICE', seeded.sessionId);
      const { archiveId } = await startTyped(seeded.sessionId, { channel: 'C0RECCHOICE' });
      const res = await t.slash('/record', 'stop', { channel: 'C0RECCHOICE' });
      const choice = await res.waitForResponse();
      expect(renderedText(choice.body)).toContain(`Stop the recording of session \`${seeded.sessionId}\`?`);
      const [stop] = findElements(choice.body, RECORD_ACTION.stop);
      expect(stop).toEqual(expect.objectContaining({ style: 'danger' }));
      expect(stop!.confirm).toBeUndefined();
      expect(archive(archiveId).status).toBe('started');
      await t.click(RECORD_ACTION.stop, buttonValue(choice.body, RECORD_ACTION.stop), { responseUrl: res.responseUrl, channel: 'C0RECCHOICE' });
      const resolved = await res.waitForResponse((r) => r.body.replace_original === true);
      expect(renderedText(resolved.body)).toContain('was stopped');
      expect(archive(archiveId).status).toBe('stopped');
    });

    it('without an ID and several running, offers each; with none running, says so', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await startTyped(`${seeded.sessionId} --tag one`);
      await startTyped(`${seeded.sessionId} --tag two`);
      const text = await reply(`stop --session ${seeded.sessionId}`);
      expect(text).toContain('2 recordings of session');
      expect(text).toContain('tag `one`');
      expect(text).toContain('tag `two`');
      const idle = t.seedSession({ streams: 1 });
      expect(await reply(`stop --session ${idle.sessionId}`)).toContain(`Nothing is being recorded in session \`${idle.sessionId}\` right now`);
    });

    it('409 on a stopped recording names its status; a paused one says why it cannot stop now', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(seeded.sessionId);
      await t.services.projects.client('prod').archives.stop(archiveId);
      expect(await reply(`stop ${archiveId}`)).toContain(
        `Recording \`${archiveId}\` is not being recorded (it is *stopped* (stopped — the file is being processed)), so there is nothing to stop.`,
      );

      const other = t.seedSession({ streams: 1 });
      const paused = await startTyped(other.sessionId);
      t.emulator.control.unpublish(t.project.apiKey, other.sessionId, other.streams[0]!);
      expect(archive(paused.archiveId).status).toBe('paused');
      expect(await reply(`stop ${paused.archiveId}`)).toContain('is *paused* (nobody is publishing), so the service will not stop it now');
    });

    it('an unknown recording ID', async () => {
      expect(await reply('stop 0b6f1f4e-0000-4000-8000-000000000000')).toContain(
        'There is no recording `0b6f1f4e-0000-4000-8000-000000000000` in project *prod*',
      );
    });

    it('the card’s Stop button stops it and redraws the card in place; a viewer is denied', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { card, archiveId } = await startTyped(`${seeded.sessionId} Standup`);
      const value = buttonValue(card.body, RECORD_ACTION.stop);
      const denied = await t.click(RECORD_ACTION.stop, value, { user: USERS.viewer });
      expect(renderedText((await t.slack.waitForResponse(denied.responseId)).body)).toContain('`/record stop` needs the moderator role; you are a viewer');
      expect(archive(archiveId).status).toBe('started');

      const click = await t.click(RECORD_ACTION.stop, value);
      const redrawn = await t.slack.waitForResponse(click.responseId, (r) => r.body.replace_original === true);
      const text = renderedText(redrawn.body);
      expect(text).toContain('Stopped — the file is being processed');
      expect(text).toContain(`*Started by*\n<@${USERS.moderator}>`);
      expect(findElements(redrawn.body, RECORD_ACTION.stop)).toHaveLength(0);
      expect(archive(archiveId).status).toBe('stopped');
    });

    it('usage: an ID and --session together', async () => {
      expect(await usage('stop 0b6f1f4e-0000-4000-8000-000000000000 --session s1')).toContain('--session: give a recording ID or --session, not both');
    });
  });

  describe('list, show and Download', () => {
    it('lists the session’s recordings, newest first, with Stop and Download where they apply', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const first = await startTyped(`${seeded.sessionId} First --tag a`);
      await available(first.archiveId);
      const second = await startTyped(`${seeded.sessionId} Second --tag b`);
      const res = await t.slash('/record', `list ${seeded.sessionId}`, { user: USERS.viewer });
      const page = await res.waitForResponse();
      const text = renderedText(page.body);
      expect(text).toContain(`Recordings of session \`${seeded.sessionId}\` — 1–2 of 2, newest first`);
      expect(text.indexOf('*Second*')).toBeLessThan(text.indexOf('*First*'));
      expect(JSON.parse(buttonValue(page.body, RECORD_ACTION.stop)).r).toBe(second.archiveId);
      expect(JSON.parse(buttonValue(page.body, RECORD_ACTION.download)).r).toBe(first.archiveId);
      expect(findElements(page.body, RECORD_ACTION.more)).toHaveLength(0);
    });

    it('--all pages the project’s recordings 20 at a time with a More button', async () => {
      // A project of its own, so the count is known: 23 recordings.
      const project = 'paged';
      const local = t.services.projects.client(project);
      const apiKey = (local as unknown as { apiKey: string }).apiKey;
      const session = t.emulator.control.createSession(apiKey, { mediaMode: 'routed' });
      t.emulator.control.publish(apiKey, session, t.emulator.control.connect(apiKey, session), { name: 'p' });
      for (let i = 0; i < 23; i++) {
        const started = await local.archives.start({ sessionId: session, name: `Rec ${i}` });
        await local.archives.stop(started.id);
        t.emulator.control.advanceTime(1_000);
      }
      const res = await t.slash('/record', `list --all --project ${project}`, { user: USERS.viewer });
      const page = await res.waitForResponse();
      const text = renderedText(page.body);
      expect(text).toContain('Recordings in project *paged* — 1–20 of 23, newest first');
      expect(text).toContain('*Rec 22*');
      expect(text).not.toContain('*Rec 2*\n');
      const more = buttonValue(page.body, RECORD_ACTION.more);
      expect(JSON.parse(more)).toEqual({ p: project, o: 20 });
      const click = await t.click(RECORD_ACTION.more, more, { user: USERS.viewer });
      const next = renderedText((await t.slack.waitForResponse(click.responseId)).body);
      expect(next).toContain('21–23 of 23');
      expect(next).toContain('*Rec 0*');
      expect(next).not.toContain('More');
    });

    it('usage: a session with --all', async () => {
      expect(await usage('list s1 --all')).toContain('--all: lists every recording of the project; leave out the session, or drop --all');
    });

    it('show: the card of one recording, ephemeral, with its buttons; an unknown ID is explained', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} Shown`);
      await available(archiveId);
      const res = await t.slash('/record', `show ${archiveId}`, { user: USERS.viewer });
      const card = await res.waitForResponse();
      expect(card.body.response_type).toBe('ephemeral');
      const text = renderedText(card.body);
      expect(text).toContain('*Status*\n:white_check_mark: Available to download');
      expect(text).toMatch(/\*Size\*\n\d+(\.\d)? (kB|MB)/);
      expect(text).toContain('*Duration*\n10 s');
      expect(findElements(card.body, RECORD_ACTION.download)).toHaveLength(1);
      expect(findElements(card.body, RECORD_ACTION.delete)).toHaveLength(1);
      expect(JSON.stringify(card.body)).not.toContain('archive-files');
      expect(await reply('show 0b6f1f4e-0000-4000-8000-000000000001', USERS.viewer)).toContain(
        'There is no recording `0b6f1f4e-0000-4000-8000-000000000001` in project *prod*',
      );
    });

    it('Download answers privately with a fresh URL on every click (URLs expire after 10 minutes)', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} Downloadable`);
      await available(archiveId);
      const res = await t.slash('/record', `show ${archiveId}`);
      const card = await res.waitForResponse();
      const value = buttonValue(card.body, RECORD_ACTION.download);
      const urlIn = (body: Record<string, unknown>) => /<(http[^|>]+)\|Download Downloadable>/.exec(JSON.stringify(body).replace(/&amp;/g, '&'))?.[1];

      const first = await t.click(RECORD_ACTION.download, value, { user: USERS.viewer });
      const answer = await t.slack.waitForResponse(first.responseId);
      expect(answer.body.response_type).toBe('ephemeral');
      expect(renderedText(answer.body)).toContain('The link works for 10 minutes');
      const url1 = urlIn(answer.body)!;
      expect(url1).toContain(`/archive-files/${t.project.apiKey}/${archiveId}/archive.mp4?Expires=`);
      expect(url1).toBe(archive(archiveId).url);
      expect((await fetch(url1)).status).toBe(200);

      t.emulator.control.advanceTime(11 * 60_000);
      expect((await fetch(url1)).status).toBe(403);
      const second = await t.click(RECORD_ACTION.download, value, { user: USERS.viewer });
      const url2 = urlIn((await t.slack.waitForResponse(second.responseId)).body)!;
      expect(url2).not.toBe(url1);
      expect((await fetch(url2)).status).toBe(200);
    });

    it('Download of a recording that is not available says why', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} Uploaded`);
      await available(archiveId);
      const res = await t.slash('/record', `show ${archiveId}`);
      const value = buttonValue((await res.waitForResponse()).body, RECORD_ACTION.download);
      t.emulator.control.setArchiveStatus(t.project.apiKey, archiveId, 'expired');
      const click = await t.click(RECORD_ACTION.download, value);
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('has expired: the video service no longer keeps its file');
    });
  });

  describe('delete', () => {
    it('asks once: the card is the question and its Delete (no dialog) deletes, tells the channel and audits', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(`${seeded.sessionId} Old`);
      await available(archiveId);
      const res = await t.slash('/record', `delete ${archiveId}`, { user: USERS.admin });
      const confirm = await res.waitForResponse();
      expect(renderedText(confirm.body)).toContain(`Delete this recording?* *Old* (\`${archiveId}\`, available to download, `);
      const [button] = findElements(confirm.body, RECORD_ACTION.delete);
      expect(button).toEqual(expect.objectContaining({ style: 'danger' }));
      expect(button!.confirm).toBeUndefined();
      expect(findElements(confirm.body, ACTION.cancel)).toHaveLength(1);
      expect(archive(archiveId).status).toBe('available');

      const since = t.slack.mark();
      await t.click(RECORD_ACTION.delete, buttonValue(confirm.body, RECORD_ACTION.delete), { user: USERS.admin, responseUrl: res.responseUrl });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && !c.body.thread_ts, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> deleted recording *Old* (\`${archiveId}\`)`);
      expect(archive(archiveId).status).toBe('deleted');
      expect(renderedText((await res.waitForResponse((r) => r.body.replace_original === true)).body)).toContain('was deleted');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/record delete', outcome: 'ok', userId: USERS.admin }));
    });

    it('explains at once when the status forbids it, and offers nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(seeded.sessionId);
      const res = await t.slash('/record', `delete ${archiveId}`, { user: USERS.admin });
      const answer = await res.waitForResponse();
      expect(renderedText(answer.body)).toContain(
        `Recording \`${archiveId}\` cannot be deleted while it is *started* (recording): only *available* or *uploaded* recordings can be deleted — stop it first, then delete it once it is available.`,
      );
      expect(findElements(answer.body, RECORD_ACTION.delete)).toHaveLength(0);
    });

    it('a 409 from the service (the status changed meanwhile) becomes a sentence naming the status', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(seeded.sessionId);
      await available(archiveId);
      const res = await t.slash('/record', `delete ${archiveId}`, { user: USERS.admin });
      const confirm = await res.waitForResponse();
      t.emulator.control.injectFault({ method: 'DELETE', path: `/archive/${archiveId}`, kind: 'status', status: 409, body: '' });
      const click = await t.click(RECORD_ACTION.delete, buttonValue(confirm.body, RECORD_ACTION.delete), { user: USERS.admin });
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('cannot be deleted while it is *available*');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/record delete', outcome: 'error', error: 'VideoConflictError 409' }));
    });

    it('is for admins: a moderator is denied at the command and at the button', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId, card } = await startTyped(seeded.sessionId);
      await available(archiveId);
      expect(await reply(`delete ${archiveId}`)).toContain('`/record delete` needs the admin role; you are a moderator');
      const value = JSON.stringify({ ...JSON.parse(buttonValue(card.body, RECORD_ACTION.stop)), o: undefined });
      const click = await t.click(RECORD_ACTION.delete, value);
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('needs the admin role');
      expect(archive(archiveId).status).toBe('available');
    });
  });

  describe('layout, add, remove', () => {
    it('changes the layout of a composed recording in progress', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(seeded.sessionId);
      const since = t.slack.mark();
      await t.slash('/record', `layout ${archiveId} --layout bestfit --screenshare pip`);
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && !c.body.thread_ts, { since });
      expect(renderedText(notice.body)).toContain(`changed the layout of recording \`${archiveId}\` to \`bestFit\`, \`pip\` while a screen is shared`);
      // Reversible, so no question; no Undo either, since the layout before cannot be read: the notice says how.
      expect(renderedText(notice.body)).toContain(`To undo it, set the layout it had with \`/record layout ${archiveId} --layout <layout>\``);
      expect(archive(archiveId).layout).toEqual({ type: 'bestFit', screenshareType: 'pip' });
    });

    it('a layout that needs layout classes says how to set them; a stopped recording says it is not recording', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { archiveId } = await startTyped(seeded.sessionId);
      expect(await reply(`layout ${archiveId} --layout pip`)).toContain('That layout needs layout classes on the session’s streams');
      await t.services.projects.client('prod').archives.stop(archiveId);
      expect(await reply(`layout ${archiveId} --layout bestFit`)).toContain(`Recording \`${archiveId}\` is not being recorded (it is *stopped*`);
    });

    it('usage: layout needs a layout', async () => {
      expect(await usage('layout 0b6f1f4e-0000-4000-8000-000000000000')).toContain('--layout: is missing: say which layout');
    });

    it('adds and removes streams of a manual recording', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const { archiveId } = await startTyped(`${seeded.sessionId} --manual`);
      let since = t.slack.mark();
      await t.slash('/record', `add ${archiveId} ${seeded.streams[0]} --audio-only`);
      const added = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && !c.body.thread_ts, { since });
      expect(renderedText(added.body)).toContain(`added stream \`${seeded.streams[0]}\` (audio only) to recording \`${archiveId}\``);
      expect(archive(archiveId).selectedStreams).toEqual([{ streamId: seeded.streams[0], hasAudio: true, hasVideo: false }]);

      since = t.slack.mark();
      await t.slash('/record', `remove ${archiveId} ${seeded.streams[0]}`);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('removed stream'), { since });
      expect(archive(archiveId).selectedStreams).toEqual([]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/record remove', outcome: 'ok', target: `stream ${seeded.streams[0]} in recording ${archiveId}` }),
      );
    });

    it('stream selection on an auto recording, and removing a stream not in it, are explained', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const auto = await startTyped(seeded.sessionId);
      expect(await reply(`add ${auto.archiveId} ${seeded.streams[0]}`)).toContain(
        'records every stream (stream mode *auto*); choosing streams needs a recording started with `--manual`',
      );
      const other = t.seedSession({ streams: 1 });
      const manual = await startTyped(`${other.sessionId} --manual`);
      expect(await reply(`remove ${manual.archiveId} ${other.streams[0]}`)).toContain(
        `Stream \`${other.streams[0]}\` is not part of recording \`${manual.archiveId}\``,
      );
    });

    it('usage: --audio-only with --video-only; a viewer cannot add', async () => {
      expect(await usage('add 0b6f1f4e-0000-4000-8000-000000000000 s1 --audio-only --video-only')).toContain('cannot be combined with --video-only');
      expect(await reply('add 0b6f1f4e-0000-4000-8000-000000000000 s1', USERS.viewer)).toContain('`/record add` needs the moderator role');
    });
  });

  it('help documents that a typed ID answers with a card whose Stop acts', async () => {
    const res = await t.slash('/record', 'help stop');
    expect(renderedText(res.ack)).toContain('You get a card naming it, whose Stop button stops it');
  });
});

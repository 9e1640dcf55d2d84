/**
 * End to end: the `/record start` form (opened by the bare command, redrawn by output mode and
 * layout, per-field errors, the card in the channel from `private_metadata`, a refusal shown in
 * the form) and the upload-target form (`/record storage`: s3 and blobstore, field errors,
 * refusals, `storage clear`). No key or secret typed into the form reaches any Slack call,
 * response, audit record or log line — even though the service echoes them.
 */
import { EventEmitter } from 'node:events';
import { VideoValidationError } from '../../src/api';
import { checkStartForm, errorsFromValidation } from '../../src/actions/record-start';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import type { TrackRequest } from '../../src/poller/track';
import { EMPTY_START_FORM } from '../../src/views/archive-modal';
import { ACTION, BLOCK, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from '../../src/views/ids';
import { BOT_TOKEN, CHANNEL, SIGNING_SECRET, TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { modalProblems, sentPayloadProblems } from '../harness/block-kit';
import { signedInteraction } from '../harness/signing';
import { findElements, renderedText } from '../harness/text';

const SECRET = 'S3CRETVALUE';
const ACCESS_KEY = `AKIA${SECRET}ACCESS`;
const SECRET_KEY = `wJalr/${SECRET}/secret+key`;
const ACCOUNT_KEY = `blobkey==${SECRET}==`;

type Values = Record<string, Record<string, unknown>>;
type View = { callback_id: string; private_metadata: string; blocks: { type: string; block_id?: string; element?: Record<string, unknown> }[] };

const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
const field = (value: string) => ({ [RECORD_ACTION.field]: { type: 'plain_text_input', value } });
const pick = (value: string) => ({ [RECORD_ACTION.field]: { type: 'static_select', selected_option: option(value) } });
const radio = (value: string, action: string = RECORD_ACTION.field) => ({ [action]: { type: 'radio_buttons', selected_option: option(value) } });
const media = (...values: string[]) => ({ [RECORD_ACTION.field]: { type: 'checkboxes', selected_options: values.map(option) } });
const sessionValue = (sessionId: string) => ({
  [ACTION.sessionPicker]: {
    type: 'external_select',
    selected_option: { text: { type: 'plain_text', text: 'standup (prod)' }, value: encodeSessionOption('prod', sessionId) },
  },
});

/** A composed, auto, audio+video start form for this session; `extra` replaces or adds fields. */
function startValues(sessionId: string | undefined, extra: Values = {}): Values {
  return {
    ...(sessionId ? { [BLOCK.sessionPicker]: sessionValue(sessionId) } : {}),
    [RECORD_BLOCK.name]: field(''),
    [RECORD_BLOCK.outputMode]: radio('composed', RECORD_ACTION.outputMode),
    [RECORD_BLOCK.resolution]: { [RECORD_ACTION.field]: { type: 'static_select', selected_option: null } },
    [RECORD_BLOCK.layoutType]: { [RECORD_ACTION.layoutType]: { type: 'static_select', selected_option: null } },
    [RECORD_BLOCK.screenshare]: { [RECORD_ACTION.field]: { type: 'static_select', selected_option: null } },
    [RECORD_BLOCK.streamMode]: radio('auto'),
    [RECORD_BLOCK.media]: media('audio', 'video'),
    [RECORD_BLOCK.tag]: field(''),
    ...extra,
  };
}

describe('/record forms', () => {
  let t: TestApp;
  const logLines: string[] = [];
  const tracked = new EventEmitter();

  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'trace', logStream: { write: (line: string) => logLines.push(line) } });
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
      ...logLines.filter((line) => line.includes(SECRET)).map((line) => `log ${line.slice(0, 300)}`),
      ...audits.filter((a) => JSON.stringify(a).includes(SECRET)).map((a) => `audit ${a.command}`),
      ...watches.filter((w) => JSON.stringify(w).includes(SECRET)).map((w) => `watch ${w.id}`),
    ];
    expect(leaks).toEqual([]);
    // The logs were really captured (audits of the storage changes), so the check means something.
    expect(logLines.some((line) => line.includes('"msg":"audit"') && line.includes('/record storage'))).toBe(true);
    await t.close();
  });

  const nextTracked = (): Promise<TrackRequest> => new Promise((resolve) => tracked.once('tracked', resolve));
  const blockIds = (view: View) => view.blocks.map((b) => b.block_id).filter((id): id is string => id !== undefined);
  const archivePosts = () => t.emulator.control.requestLog().filter((e) => e.method === 'POST' && /\/archive$/.test(e.path)).length;

  /** Opens `view` in the fake Slack, as Slack would have, so later views.update calls find it. */
  async function openInSlack(view: unknown): Promise<string> {
    const res = await fetch(`${t.slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ trigger_id: 'test.trigger', view }),
    });
    return ((await res.json()) as { view: { id: string } }).view.id;
  }

  /** A block action inside a modal (dispatch_action), signed like Slack's. */
  async function dispatch(
    view: View,
    viewId: string,
    action: { actionId: string; blockId: string; type: string; value: string },
    values: Values,
  ): Promise<void> {
    const payload = {
      type: 'block_actions',
      user: { id: USERS.admin, username: 'u0admin', name: 'u0admin', team_id: TEAM },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      container: { type: 'view', view_id: viewId },
      trigger_id: '1.2.trigger-redraw',
      team: { id: TEAM, domain: 'vidops-test' },
      enterprise: null,
      is_enterprise_install: false,
      view: {
        id: viewId,
        team_id: TEAM,
        type: 'modal',
        blocks: view.blocks,
        private_metadata: view.private_metadata,
        callback_id: view.callback_id,
        state: { values },
        title: { type: 'plain_text', text: 'x' },
        root_view_id: viewId,
        app_id: 'A0VIDOPS',
        bot_id: 'B0BOT',
      },
      actions: [
        { action_id: action.actionId, block_id: action.blockId, type: action.type, selected_option: option(action.value), action_ts: `${Date.now() / 1000}` },
      ],
    };
    const res = await t.post(signedInteraction(SIGNING_SECRET, payload));
    expect(res.status).toBe(200);
  }

  async function redraw(view: View, viewId: string, action: { actionId: string; blockId: string; type: string; value: string }, values: Values): Promise<View> {
    const since = t.slack.mark();
    await dispatch(view, viewId, action, values);
    const updated = await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId, { since });
    return updated.body.view as View;
  }

  describe('the start form', () => {
    async function openStartForm(channel = CHANNEL, user: string = USERS.moderator): Promise<{ view: View; viewId: string }> {
      const since = t.slack.mark();
      const res = await t.slash('/record', 'start', { channel, user });
      expect(res.ack).toBeUndefined();
      const opened = await t.waitForSlackCall('views.open', (c) => c.body.trigger_id !== 'test.trigger', { since });
      const view = opened.body.view as View;
      expect(modalProblems(view)).toEqual([]);
      return { view, viewId: await openInSlack(view) };
    }

    function submit(viewId: string, view: View, values: Values, user: string = USERS.moderator) {
      return t.submitView({ callbackId: RECORD_CALLBACK.startModal, viewId, privateMetadata: view.private_metadata, blocks: view.blocks, values }, { user });
    }

    it('`/record start` alone opens the form with the channel’s session picked; composed fields first', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.putAlias({ teamId: TEAM, alias: 'standup', projectName: 'prod', sessionId: seeded.sessionId, createdBy: 'U1', createdAt: 0 });
      await t.store.setChannelBinding({ teamId: TEAM, channelId: 'C0FORM', sessionId: 'standup', projectName: 'prod', updatedBy: 'U1', updatedAt: 0 });
      const { view } = await openStartForm('C0FORM');
      expect(view.callback_id).toBe(RECORD_CALLBACK.startModal);
      expect(JSON.parse(view.private_metadata)).toEqual({ c: 'C0FORM' });
      const [picker] = findElements(view, ACTION.sessionPicker);
      expect(picker).toEqual(
        expect.objectContaining({ type: 'external_select', initial_option: expect.objectContaining({ value: encodeSessionOption('prod', seeded.sessionId) }) }),
      );
      expect(renderedText((picker as { initial_option: unknown }).initial_option)).toContain('standup (prod)');
      expect(blockIds(view)).toEqual([
        BLOCK.sessionPicker,
        RECORD_BLOCK.name,
        RECORD_BLOCK.outputMode,
        RECORD_BLOCK.resolution,
        RECORD_BLOCK.layoutType,
        RECORD_BLOCK.screenshare,
        RECORD_BLOCK.streamMode,
        RECORD_BLOCK.media,
        RECORD_BLOCK.tag,
      ]);
      expect(renderedText(view)).toContain("The recording's card is posted in <#C0FORM>");
    });

    it('a viewer gets a denial instead of the form', async () => {
      const since = t.slack.mark();
      const res = await t.slash('/record', 'start', { user: USERS.viewer });
      expect(renderedText((await res.waitForResponse()).body)).toContain('`/record start` needs the moderator role; you are a viewer');
      expect(t.slack.callsOf('views.open', since)).toHaveLength(0);
    });

    it('offers only valid combinations: individual hides resolution and layout; custom shows the stylesheet, pip neither', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { view, viewId } = await openStartForm();
      const individual = await redraw(
        view,
        viewId,
        { actionId: RECORD_ACTION.outputMode, blockId: RECORD_BLOCK.outputMode, type: 'radio_buttons', value: 'individual' },
        startValues(seeded.sessionId, { [RECORD_BLOCK.outputMode]: radio('individual', RECORD_ACTION.outputMode) }),
      );
      expect(blockIds(individual)).not.toContain(RECORD_BLOCK.resolution);
      expect(blockIds(individual)).not.toContain(RECORD_BLOCK.layoutType);
      expect(blockIds(individual)).not.toContain(RECORD_BLOCK.screenshare);
      // What was picked stays picked on the redraw.
      expect(findElements(individual, ACTION.sessionPicker)[0]).toEqual(
        expect.objectContaining({ initial_option: expect.objectContaining({ value: encodeSessionOption('prod', seeded.sessionId) }) }),
      );

      const custom = await redraw(
        view,
        viewId,
        { actionId: RECORD_ACTION.layoutType, blockId: RECORD_BLOCK.layoutType, type: 'static_select', value: 'custom' },
        startValues(seeded.sessionId, {
          [RECORD_BLOCK.layoutType]: { [RECORD_ACTION.layoutType]: { type: 'static_select', selected_option: option('custom') } },
        }),
      );
      expect(blockIds(custom)).toContain(RECORD_BLOCK.stylesheet);
      expect(blockIds(custom)).not.toContain(RECORD_BLOCK.screenshare);

      const pip = await redraw(
        view,
        viewId,
        { actionId: RECORD_ACTION.layoutType, blockId: RECORD_BLOCK.layoutType, type: 'static_select', value: 'pip' },
        startValues(seeded.sessionId, { [RECORD_BLOCK.layoutType]: { [RECORD_ACTION.layoutType]: { type: 'static_select', selected_option: option('pip') } } }),
      );
      expect(blockIds(pip)).not.toContain(RECORD_BLOCK.stylesheet);
      expect(blockIds(pip)).not.toContain(RECORD_BLOCK.screenshare);
      for (const v of [individual, custom, pip]) expect(modalProblems(v)).toEqual([]);
    });

    it('answers per field: no session, nothing to record, a tag with spaces, custom without its stylesheet; nothing is sent', async () => {
      const { view, viewId } = await openStartForm();
      const before = archivePosts();
      const withStylesheet = { ...view, blocks: [...view.blocks, { type: 'input', block_id: RECORD_BLOCK.stylesheet }] };
      const ack = await submit(
        viewId,
        withStylesheet,
        startValues(undefined, {
          [RECORD_BLOCK.media]: media(),
          [RECORD_BLOCK.tag]: field('two words'),
          [RECORD_BLOCK.layoutType]: { [RECORD_ACTION.layoutType]: { type: 'static_select', selected_option: option('custom') } },
          [RECORD_BLOCK.stylesheet]: field(''),
        }),
      );
      expect(ack.body).toEqual({
        response_action: 'errors',
        errors: {
          [BLOCK.sessionPicker]: 'Pick a session from the list.',
          [RECORD_BLOCK.media]: 'Record audio, video or both.',
          [RECORD_BLOCK.tag]: 'A tag is one word (no spaces)',
          [RECORD_BLOCK.stylesheet]: 'A custom layout needs its stylesheet.',
        },
      });
      expect(archivePosts()).toBe(before);
    });

    it('a screen-share layout left next to a non-best-fit layout, and a name over 255 characters, are flagged on their fields', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const { view, viewId } = await openStartForm();
      const ack = await submit(
        viewId,
        view,
        startValues(seeded.sessionId, {
          [RECORD_BLOCK.name]: field('n'.repeat(256)),
          [RECORD_BLOCK.layoutType]: { [RECORD_ACTION.layoutType]: { type: 'static_select', selected_option: option('pip') } },
          [RECORD_BLOCK.screenshare]: pick('verticalPresentation'),
        }),
      );
      expect(ack.body).toEqual({
        response_action: 'errors',
        errors: {
          [RECORD_BLOCK.name]: 'A recording name has at most 255 characters',
          [RECORD_BLOCK.screenshare]: 'A screen-share layout goes with best fit only: clear it, or choose Best fit.',
        },
      });
    });

    it('starts the recording, posts the card in the channel the form came from, watches it and says so in the form', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const { view, viewId } = await openStartForm('C0FORMCARD');
      const since = t.slack.mark();
      const trackedNow = nextTracked();
      const ack = await submit(
        viewId,
        view,
        startValues(seeded.sessionId, {
          [RECORD_BLOCK.name]: field('  Board meeting '),
          [RECORD_BLOCK.resolution]: pick('1920x1080'),
          [RECORD_BLOCK.screenshare]: pick('verticalPresentation'),
          [RECORD_BLOCK.streamMode]: radio('manual'),
          [RECORD_BLOCK.media]: media('video'),
          [RECORD_BLOCK.tag]: field('board'),
        }),
      );
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      const card = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0FORMCARD', { since });
      const track = await trackedNow;
      expect(t.emulator.control.getArchive(t.project.apiKey, track.resourceId)).toEqual(
        expect.objectContaining({
          sessionId: seeded.sessionId,
          name: 'Board meeting',
          resolution: '1920x1080',
          layout: { type: 'bestFit', screenshareType: 'verticalPresentation' },
          streamMode: 'manual',
          hasAudio: false,
          hasVideo: true,
          multiArchiveTag: 'board',
        }),
      );
      expect(renderedText(card.body)).toContain(`<@${USERS.moderator}> started recording session`);
      expect(track.target).toEqual(expect.objectContaining({ channelId: 'C0FORMCARD', messageTs: expect.any(String) }));
      const done = await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && renderedText(c.body).includes('has started'), { since });
      expect(renderedText(done.body)).toContain('Its card is in <#C0FORMCARD>');
    });

    it('a refusal from the service comes back in the form, filled in as it was, with the sentence on top', async () => {
      const seeded = t.seedSession({ streams: 1, mediaMode: 'relayed' });
      const { view, viewId } = await openStartForm();
      const since = t.slack.mark();
      await submit(viewId, view, startValues(seeded.sessionId, { [RECORD_BLOCK.name]: field('Relayed try'), [RECORD_BLOCK.resolution]: pick('1280x720') }));
      const again = await t.waitForSlackCall(
        'views.update',
        (c) => c.body.view_id === viewId && (c.body.view as View).callback_id === RECORD_CALLBACK.startModal,
        { since },
      );
      const form = again.body.view as View;
      expect(form.blocks[0]!.block_id).toBe(RECORD_BLOCK.problem);
      expect(renderedText(form)).toContain('This session is relayed; recording needs a routed session — create one with `/session create --use`');
      expect(form.blocks.find((b) => b.block_id === RECORD_BLOCK.name)?.element).toEqual(expect.objectContaining({ initial_value: 'Relayed try' }));
      expect(form.blocks.find((b) => b.block_id === RECORD_BLOCK.resolution)?.element).toEqual(
        expect.objectContaining({ initial_option: expect.objectContaining({ value: '1280x720' }) }),
      );
    });

    it('the submission checks the role again: a viewer sees the denial in the form', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const viewId = await openInSlack({ type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] });
      const since = t.slack.mark();
      const before = archivePosts();
      await t.submitView(
        { callbackId: RECORD_CALLBACK.startModal, viewId, privateMetadata: JSON.stringify({ c: CHANNEL }), values: startValues(seeded.sessionId) },
        { user: USERS.viewer },
      );
      await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && renderedText(c.body).includes('needs the moderator role'), { since });
      expect(archivePosts()).toBe(before);
    });

    it('problems the adapter finds land on the block of their field, or on the session when that block is absent', () => {
      const present = new Set([BLOCK.sessionPicker, RECORD_BLOCK.stylesheet]);
      expect(
        errorsFromValidation(
          new VideoValidationError('layout.stylesheet', 'is allowed only with type "custom" (type is "pip"). Example: { type: "custom" }'),
          { 'layout.stylesheet': RECORD_BLOCK.stylesheet },
          present,
          BLOCK.sessionPicker,
        ),
      ).toEqual({
        [RECORD_BLOCK.stylesheet]: 'Is allowed only with type "custom" (type is "pip").',
      });
      expect(
        errorsFromValidation(
          new VideoValidationError('resolution', 'must be one of "640x480" (got "1x1"). Example: "640x480"'),
          { resolution: RECORD_BLOCK.resolution },
          present,
          BLOCK.sessionPicker,
        ),
      ).toEqual({
        [BLOCK.sessionPicker]: 'Must be one of "640x480".',
      });
      const checked = checkStartForm(
        { ...EMPTY_START_FORM, session: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('nope', 's1') } },
        present,
        () => false,
      );
      expect(checked).toEqual({ ok: false, errors: { [BLOCK.sessionPicker]: 'Pick a session from the list.' } });
    });
  });

  describe('the upload-target form', () => {
    async function openStorageForm(user: string = USERS.admin, channel = CHANNEL): Promise<{ view: View; viewId: string }> {
      const since = t.slack.mark();
      await t.slash('/record', 'storage', { user, channel });
      const opened = await t.waitForSlackCall('views.open', (c) => c.body.trigger_id !== 'test.trigger', { since });
      const view = opened.body.view as View;
      expect(modalProblems(view)).toEqual([]);
      return { view, viewId: await openInSlack(view) };
    }

    function submit(viewId: string, view: View, values: Values, user: string = USERS.admin) {
      return t.submitView({ callbackId: RECORD_CALLBACK.storageModal, viewId, privateMetadata: view.private_metadata, blocks: view.blocks, values }, { user });
    }

    const s3Values = (extra: Values = {}): Values => ({
      [RECORD_BLOCK.storageType]: radio('s3', RECORD_ACTION.storageType),
      [RECORD_BLOCK.accessKey]: field(ACCESS_KEY),
      [RECORD_BLOCK.secretKey]: field(` ${SECRET_KEY} `),
      [RECORD_BLOCK.bucket]: field('meeting-recordings'),
      [RECORD_BLOCK.endpoint]: field('https://s3.eu-central-1.example.com'),
      [RECORD_BLOCK.fallback]: radio('service'),
      ...extra,
    });

    it('is for admins: a moderator is denied', async () => {
      const since = t.slack.mark();
      const res = await t.slash('/record', 'storage', { user: USERS.moderator });
      expect(renderedText((await res.waitForResponse()).body)).toContain('`/record storage` needs the admin role; you are a moderator');
      expect(t.slack.callsOf('views.open', since)).toHaveLength(0);
    });

    it('opens with the S3 fields; choosing blob store redraws with its fields and no value filled in', async () => {
      const { view, viewId } = await openStorageForm();
      expect(view.callback_id).toBe(RECORD_CALLBACK.storageModal);
      expect(JSON.parse(view.private_metadata)).toEqual({ p: 'prod', c: CHANNEL });
      expect(blockIds(view)).toEqual(
        expect.arrayContaining([RECORD_BLOCK.accessKey, RECORD_BLOCK.secretKey, RECORD_BLOCK.bucket, RECORD_BLOCK.endpoint, RECORD_BLOCK.fallback]),
      );
      expect(blockIds(view)).not.toContain(RECORD_BLOCK.accountKey);
      const blob = await redraw(
        view,
        viewId,
        { actionId: RECORD_ACTION.storageType, blockId: RECORD_BLOCK.storageType, type: 'radio_buttons', value: 'blobstore' },
        s3Values({ [RECORD_BLOCK.storageType]: radio('blobstore', RECORD_ACTION.storageType) }),
      );
      expect(blockIds(blob)).toEqual(expect.arrayContaining([RECORD_BLOCK.accountName, RECORD_BLOCK.accountKey, RECORD_BLOCK.container, RECORD_BLOCK.domain]));
      expect(blockIds(blob)).not.toContain(RECORD_BLOCK.accessKey);
      expect(JSON.stringify(blob)).not.toContain('initial_value');
      expect(modalProblems(blob)).toEqual([]);
    });

    it('saves an S3 target: the service gets the keys; the channel, the form and the audit see only where files go', async () => {
      const { view, viewId } = await openStorageForm();
      const since = t.slack.mark();
      const ack = await submit(viewId, view, s3Values());
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(
        `<@${USERS.admin}> set where recordings of project *prod* are uploaded: S3-compatible bucket \`meeting-recordings\` at \`https://s3.eu-central-1.example.com\`; failed uploads stay downloadable in the video service.`,
      );
      expect(t.emulator.control.uploadTarget(t.project.apiKey)).toEqual({
        type: 's3',
        config: { accessKey: ACCESS_KEY, secretKey: SECRET_KEY, bucket: 'meeting-recordings', endpoint: 'https://s3.eu-central-1.example.com' },
        fallback: 'service',
      });
      const saved = await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && renderedText(c.body).includes('Saved'), { since });
      expect(renderedText(saved.body)).toContain('The keys are not shown.');
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(
        expect.objectContaining({ command: '/record storage', outcome: 'ok', target: 'upload target s3 meeting-recordings fallback service' }),
      );
    });

    it('saves a blob store target', async () => {
      const { view, viewId } = await openStorageForm();
      const s3Blocks: string[] = [RECORD_BLOCK.accessKey, RECORD_BLOCK.secretKey, RECORD_BLOCK.bucket, RECORD_BLOCK.endpoint];
      const blobView = {
        ...view,
        blocks: view.blocks
          .filter((b) => !s3Blocks.includes(b.block_id ?? ''))
          .concat(
            [RECORD_BLOCK.accountName, RECORD_BLOCK.accountKey, RECORD_BLOCK.container, RECORD_BLOCK.domain].map((block_id) => ({ type: 'input', block_id })),
          ),
      };
      const since = t.slack.mark();
      await submit(viewId, blobView, {
        [RECORD_BLOCK.storageType]: radio('blobstore', RECORD_ACTION.storageType),
        [RECORD_BLOCK.accountName]: field('acmestorage'),
        [RECORD_BLOCK.accountKey]: field(ACCOUNT_KEY),
        [RECORD_BLOCK.container]: field('recordings'),
        [RECORD_BLOCK.domain]: field(''),
        [RECORD_BLOCK.fallback]: radio('none'),
      });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain('Blob store container `recordings`; failed uploads are not kept.');
      expect(t.emulator.control.uploadTarget(t.project.apiKey)).toEqual({
        type: 'blobstore',
        config: { accountName: 'acmestorage', accountKey: ACCOUNT_KEY, container: 'recordings' },
        fallback: 'none',
      });
    });

    it('a bad endpoint is answered on its field, without echoing what was typed; nothing is sent', async () => {
      const { view, viewId } = await openStorageForm();
      const before = t.emulator.control.requestLog().length;
      const ack = await submit(viewId, view, s3Values({ [RECORD_BLOCK.endpoint]: field(`ftp://${SECRET}@example.com`) }));
      expect(ack.body).toEqual({
        response_action: 'errors',
        errors: { [RECORD_BLOCK.endpoint]: 'Give the base URL with http:// or https://, e.g. https://s3.eu-central-1.example.com' },
      });
      expect(t.emulator.control.requestLog().length).toBe(before);
    });

    it('a refusal from the service comes back in the form: where files go filled in again, keys to be typed again', async () => {
      const { view, viewId } = await openStorageForm();
      t.emulator.control.injectFault({
        method: 'PUT',
        path: '/archive/storage',
        kind: 'status',
        status: 400,
        body: JSON.stringify({ code: 400, message: 'Unsupported configuration' }),
      });
      const since = t.slack.mark();
      await submit(viewId, view, s3Values());
      const again = await t.waitForSlackCall(
        'views.update',
        (c) => c.body.view_id === viewId && (c.body.view as View).callback_id === RECORD_CALLBACK.storageModal,
        { since },
      );
      const form = again.body.view as View;
      expect(renderedText(form)).toContain(
        'The video service rejected the request as invalid: Unsupported configuration; nothing was changed. Type the keys again to retry.',
      );
      expect(form.blocks.find((b) => b.block_id === RECORD_BLOCK.bucket)?.element).toEqual(expect.objectContaining({ initial_value: 'meeting-recordings' }));
      expect(form.blocks.find((b) => b.block_id === RECORD_BLOCK.accessKey)?.element?.initial_value).toBeUndefined();
    });

    it('`storage clear` asks first, then removes the target; clearing again says there is none', async () => {
      const res = await t.slash('/record', 'storage clear', { user: USERS.admin });
      const confirm = await res.waitForResponse();
      expect(renderedText(confirm.body)).toContain('Remove the recording upload target of project *prod*?');
      const since = t.slack.mark();
      await t.click(RECORD_ACTION.clearStorage, JSON.stringify({ p: 'prod' }), { user: USERS.admin, responseUrl: res.responseUrl });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> removed the recording upload target of project *prod*.`);
      expect(t.emulator.control.uploadTarget(t.project.apiKey)).toBeNull();
      expect(renderedText((await res.waitForResponse((r) => r.body.replace_original === true)).body)).toContain('no longer uploads its recordings');

      const click = await t.click(RECORD_ACTION.clearStorage, JSON.stringify({ p: 'prod' }), { user: USERS.admin });
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('Project *prod* has no upload target; there is nothing to clear.');
    });

    it('a moderator’s click on the clear button is denied', async () => {
      const click = await t.click(RECORD_ACTION.clearStorage, JSON.stringify({ p: 'prod' }), { user: USERS.moderator });
      expect(renderedText((await t.slack.waitForResponse(click.responseId)).body)).toContain('`/record storage clear` needs the admin role');
    });
  });
});

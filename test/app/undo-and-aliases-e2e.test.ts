/**
 * Reversible actions act at once and say how to undo them; notices and questions name a session
 * by its alias, also when it came from the channel's default (issue #14, parts 3 and 4). The
 * real app over signed requests, the fake Slack and the emulator.
 */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK, RECORD_ACTION } from '../../src/views/ids';
import { layoutClassesModal } from '../../src/views/streams';
import { CHANNEL, TEAM, USERS, type Seeded, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText } from '../harness/text';
import { card } from '../poller-e2e/helpers';

type Element = { value?: unknown };
type Block = { type: string; text?: { text: string }; elements?: Element[]; accessory?: Element };

/** Where `raw` shows outside a context block (or in the notification text): none is allowed. */
function rawOutsideContext(message: { text?: unknown; blocks?: unknown }, raw: string): string[] {
  const found: string[] = [];
  if (typeof message.text === 'string' && message.text.includes(raw)) found.push('text');
  // Buttons carry the ID in their value, which nobody sees; their labels and dialogs are seen.
  const unseen = (e: Element) => ({ ...e, value: undefined });
  for (const block of (message.blocks ?? []) as Block[]) {
    if (block.type === 'context') continue;
    const shown = { ...block, elements: block.elements?.map(unseen), accessory: block.accessory && unseen(block.accessory) };
    if (JSON.stringify(shown).includes(raw)) found.push(block.type);
  }
  return found;
}

describe('Undo on reversible notices, aliases on every notice and question', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  const muteState = (s: Seeded) => t.emulator.control.getSession(t.project.apiKey, s.sessionId).mute;

  async function aliased(alias: string, channel?: string): Promise<Seeded> {
    const seeded = t.seedSession({ streams: 3 });
    await t.store.putAlias({ teamId: TEAM, alias, projectName: 'prod', sessionId: seeded.sessionId, createdBy: USERS.admin, createdAt: 0 });
    if (channel) {
      // The channel's default is stored as the raw ID (as `/video use <session-id>` leaves it).
      await t.store.setChannelBinding({
        teamId: TEAM,
        channelId: channel,
        projectName: 'prod',
        sessionId: seeded.sessionId,
        updatedBy: USERS.admin,
        updatedAt: 0,
      });
    }
    return seeded;
  }

  describe('/mute-all and its Undo', () => {
    it('mutes at once, the notice has Undo; Undo lifts the session’s mute state, says what that does and edits the notice', async () => {
      const s = await aliased('all-hands');
      t.emulator.control.unpublish(t.project.apiKey, s.sessionId, s.streams[2]!);
      let since = t.slack.mark();
      await t.slash('/mute-all', 'all-hands', { user: USERS.moderator });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && findElements(c.body, ACTION.undoMuteAll).length > 0, { since });
      expect(muteState(s).active).toBe(true);
      const notice = t.slack
        .messages(CHANNEL)
        .filter((m) => findElements(m, ACTION.undoMuteAll).length > 0 && JSON.stringify(m).includes(s.sessionId))
        .at(-1)!;
      expect(renderedText(notice)).toContain(`<@${USERS.moderator}> muted everyone in session \`all-hands\`.`);
      expect(renderedText(notice)).toContain('until someone clicks *Undo* or runs `/unmute-all`');
      const undo = buttonValue(notice, ACTION.undoMuteAll);

      // A viewer may not undo: the role is checked on the click, whatever the button carries.
      const denied = await t.click(ACTION.undoMuteAll, undo, { user: USERS.viewer, messageTs: notice.ts });
      expect(renderedText((await t.slack.waitForResponse(denied.responseId)).body)).toMatch(/moderator/);
      expect(muteState(s).active).toBe(true);

      since = t.slack.mark();
      await t.click(ACTION.undoMuteAll, undo, { user: USERS.admin, messageTs: notice.ts });
      await t.waitForSlackCall('chat.update', (c) => c.body.ts === notice.ts, { since });
      expect(muteState(s)).toEqual({ active: false, excludedStreamIds: [] });
      // Those already muted stay muted (the service has no unmute): the notice says so.
      expect(t.emulator.control.getSession(t.project.apiKey, s.sessionId).streams.every((st) => st.muted)).toBe(true);
      const edited = card(t, notice.ts);
      const text = renderedText(edited);
      expect(text).toContain(`Undone by <@${USERS.admin}>`);
      expect(text).toContain(
        'The session’s mute state is lifted: people who join are no longer muted. Those already muted stay muted until they unmute themselves.',
      );
      expect(findElements(edited, ACTION.undoMuteAll)).toEqual([]);
      const [audit] = await t.store.listAudit(TEAM, 1);
      expect(audit).toEqual(expect.objectContaining({ command: '/unmute-all', outcome: 'ok', userId: USERS.admin, target: `session ${s.sessionId}` }));

      // Someone who joins now is not muted.
      const joined = t.emulator.control.publish(t.project.apiKey, s.sessionId, t.emulator.control.connect(t.project.apiKey, s.sessionId));
      expect(t.emulator.control.getSession(t.project.apiKey, s.sessionId).streams.find((st) => st.streamId === joined)?.muted).toBe(false);
    });

    it('where the app may not post, the notice and its Undo reach the asker only; Undo replaces that notice', async () => {
      const s = await aliased('private-room');
      t.slack.setNotInChannel('C0PRIVATE');
      const res = await t.slash('/mute-all', 'private-room', { user: USERS.moderator, channel: 'C0PRIVATE' });
      const notice = await res.waitForResponse((r) => findElements(r.body, ACTION.undoMuteAll).length > 0);
      expect(notice.body.response_type).toBe('ephemeral');
      expect(muteState(s).active).toBe(true);
      const since = t.slack.mark();
      await t.click(ACTION.undoMuteAll, buttonValue(notice.body, ACTION.undoMuteAll), {
        user: USERS.moderator,
        channel: 'C0PRIVATE',
        responseUrl: res.responseUrl,
      });
      const replaced = await res.waitForResponse((r) => r.body.replace_original === true, { since });
      expect(renderedText(replaced.body)).toContain(`Undone by <@${USERS.moderator}>`);
      expect(findElements(replaced.body, ACTION.undoMuteAll)).toEqual([]);
      expect(muteState(s).active).toBe(false);
    });

    it('/mute of one stream acts at once and says that only the participant can undo it', async () => {
      const s = await aliased('one-stream');
      const since = t.slack.mark();
      await t.slash('/mute', `${s.streams[0]} one-stream`, { user: USERS.moderator });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && renderedText(c.body).includes('muted stream'), {
        since,
      });
      expect(renderedText(notice.body)).toContain('To undo it, the participant unmutes themselves: vidops cannot unmute a stream.');
      expect(JSON.stringify(notice.body)).not.toContain('"action_id"');
    });
  });

  describe('layout classes and their Undo', () => {
    it('the change acts at once; Undo puts back each stream’s classes from before and edits the notice', async () => {
      const s = await aliased('stage');
      const video = t.services.projects.client('prod');
      await video.streams.setLayoutClasses(s.sessionId, [{ id: s.streams[0]!, layoutClassList: ['focus'] }]);
      const streams = (await video.streams.list(s.sessionId)).items;
      const view = layoutClassesModal({ projectName: 'prod', sessionId: s.sessionId, alias: 'stage' }, streams, CHANNEL);
      const blocks = view.blocks as { type: string; block_id: string; element: { initial_value?: string } }[];
      const edits: Record<string, string> = { [s.streams[0]!]: 'sidebar', [s.streams[1]!]: 'full' };
      const values: Record<string, Record<string, unknown>> = {};
      for (const block of blocks.filter((b) => b.type === 'input')) {
        const streamId = block.block_id.slice(BLOCK.layoutStreamPrefix.length);
        values[block.block_id] = { [ACTION.layoutClassesInput]: { type: 'plain_text_input', value: edits[streamId] ?? block.element.initial_value ?? null } };
      }
      const classes = () => t.emulator.control.getSession(t.project.apiKey, s.sessionId).streams.map((st) => st.layoutClassList);
      let since = t.slack.mark();
      await t.submitView(
        { callbackId: CALLBACK.layoutClassesModal, viewId: 'V0LAYOUT', privateMetadata: view.private_metadata!, blocks: view.blocks, values },
        { user: USERS.moderator },
      );
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && findElements(c.body, ACTION.undoLayoutClasses).length > 0, { since });
      expect(classes()).toEqual([['sidebar'], ['full'], []]);
      const notice = t.slack
        .messages(CHANNEL)
        .filter((m) => findElements(m, ACTION.undoLayoutClasses).length > 0 && JSON.stringify(m).includes(s.sessionId))
        .at(-1)!;
      expect(renderedText(notice)).toContain(`<@${USERS.moderator}> changed the layout classes of 2 streams in session \`stage\`.`);

      since = t.slack.mark();
      await t.click(ACTION.undoLayoutClasses, buttonValue(notice, ACTION.undoLayoutClasses), { user: USERS.moderator, messageTs: notice.ts });
      await t.waitForSlackCall('chat.update', (c) => c.body.ts === notice.ts, { since });
      expect(classes()).toEqual([['focus'], [], []]);
      const edited = card(t, notice.ts);
      expect(renderedText(edited)).toContain(`Undone by <@${USERS.moderator}>`);
      expect(findElements(edited, ACTION.undoLayoutClasses)).toEqual([]);
    });
  });

  describe('the “Mute everyone” shortcut’s notice', () => {
    async function submit(s: Seeded, channel: string | undefined, viewId: string) {
      await t.submitView(
        {
          callbackId: CALLBACK.muteEveryoneModal,
          viewId,
          values: {
            [BLOCK.sessionPicker]: {
              [ACTION.sessionPicker]: {
                type: 'external_select',
                selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', s.sessionId) },
              },
            },
            [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: channel ?? null } },
          },
        },
        { user: USERS.moderator },
      );
    }

    it('the form offers the channel it is used from; the notice, named by alias and with Undo, lands there', async () => {
      const since = t.slack.mark();
      await t.shortcut(CALLBACK.muteEveryoneShortcut, { user: USERS.moderator });
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      const [picker] = findElements(opened.body.view, ACTION.noticeChannel);
      expect(picker).toEqual(expect.objectContaining({ type: 'conversations_select', default_to_current_conversation: true }));

      const s = await aliased('war-room', 'C0WARROOM');
      // Slack fills in the channel the shortcut was used from: #on-call here, not the session's.
      await submit(s, 'C0ONCALL', 'V0SHORTCUT1');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0ONCALL', { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> muted everyone in session \`war-room\`.`);
      expect(findElements(notice.body, ACTION.undoMuteAll)).toHaveLength(1);
      expect(rawOutsideContext(notice.body, s.sessionId)).toEqual([]);
      const done = await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0SHORTCUT1' && renderedText(c.body).includes('is muted'), { since });
      expect(renderedText(done.body)).toContain('Everyone in session `war-room` is muted. The notice, with *Undo*, is in <#C0ONCALL>.');
      expect(t.slack.callsOf('chat.postMessage', since).filter((c) => c.body.channel === USERS.moderator)).toEqual([]);
    });

    it('with no channel picked, the notice goes to the session’s channel (its default there), not a direct message', async () => {
      const s = await aliased('standup-room', 'C0STANDUP');
      const since = t.slack.mark();
      await submit(s, undefined, 'V0SHORTCUT2');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('muted everyone'), { since });
      expect(notice.body.channel).toBe('C0STANDUP');
      expect(muteState(s).active).toBe(true);
    });

    it('with no channel picked and no channel of its own, a session whose cards are in a channel is told there', async () => {
      const s = t.seedSession({ streams: 1 });
      await t.slash('/record', `start ${s.sessionId}`, { user: USERS.moderator, channel: 'C0CARDS' });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0CARDS' && findElements(c.body, RECORD_ACTION.stop).length > 0);
      const watched = async () => (await t.store.listWatches({ sessionId: s.sessionId })).length > 0;
      for (let i = 0; i < 1000 && !(await watched()); i++) await new Promise((resolve) => setImmediate(resolve));
      const since = t.slack.mark();
      await submit(s, undefined, 'V0SHORTCUT3');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => renderedText(c.body).includes('muted everyone'), { since });
      expect(notice.body.channel).toBe('C0CARDS');
    });
  });

  describe('a session named by the channel’s default keeps its alias', () => {
    const CH = 'C0DEFAULT';
    let s: Seeded;
    beforeAll(async () => {
      s = await aliased('design-review', CH);
    });

    it('/mute-all: the notice names the alias; the raw ID only in its context line', async () => {
      const since = t.slack.mark();
      await t.slash('/mute-all', '', { user: USERS.moderator, channel: CH });
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CH && renderedText(c.body).includes('muted everyone'), { since });
      expect(renderedText(notice.body)).toContain('muted everyone in session `design-review`.');
      expect(rawOutsideContext(notice.body, s.sessionId)).toEqual([]);
      expect(JSON.stringify((notice.body.blocks as Block[]).filter((b) => b.type === 'context'))).toContain(s.sessionId);
    });

    it('/kick and /record stop: the question names the alias; the raw ID only in its context line', async () => {
      const kick = await t.slash('/kick', s.connections[0]!, { user: USERS.moderator, channel: CH });
      const question = (await kick.waitForResponse()).body;
      expect(renderedText(question)).toContain('from `design-review`?');
      expect(rawOutsideContext(question, s.sessionId)).toEqual([]);

      const since = t.slack.mark();
      await t.slash('/record', 'start "Design review"', { user: USERS.moderator, channel: CH });
      const started = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CH && findElements(c.body, RECORD_ACTION.stop).length > 0, {
        since,
      });
      const archiveId = (JSON.parse(buttonValue(started.body, RECORD_ACTION.stop)) as { r: string }).r;
      const stop = await t.slash('/record', `stop ${archiveId}`, { user: USERS.moderator, channel: CH });
      const asked = (await stop.waitForResponse()).body;
      expect(renderedText(asked)).toContain('Stop the recording of session `design-review`?');
      expect(rawOutsideContext(asked, s.sessionId)).toEqual([]);
    });

    it('/broadcast stop: the question names the alias; the live card’s Stop asks with its dialog, naming it too', async () => {
      const since = t.slack.mark();
      await t.slash('/broadcast', 'start --hls', { user: USERS.moderator, channel: CH });
      const live = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CH && findElements(c.body, ACTION.broadcastStop).length > 0, {
        since,
      });
      const [stop] = findElements(live.body, ACTION.broadcastStop) as { confirm?: { text: { text: string } } }[];
      expect(stop!.confirm?.text.text).toContain('of session `design-review`');
      const typed = await t.slash('/broadcast', 'stop', { user: USERS.moderator, channel: CH });
      const question = (await typed.waitForResponse()).body;
      expect(renderedText(question)).toContain('of session `design-review`?');
      expect(findElements(question, ACTION.broadcastStop)[0]).not.toHaveProperty('confirm');
      expect(rawOutsideContext(question, s.sessionId)).toEqual([]);
    });

    it('/captions stop: the question names the alias', async () => {
      const since = t.slack.mark();
      await t.slash('/captions', 'start', { user: USERS.moderator, channel: CH });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CH && findElements(c.body, ACTION.stopCaptions).length > 0, { since });
      const typed = await t.slash('/captions', 'stop', { user: USERS.moderator, channel: CH });
      const question = (await typed.waitForResponse()).body;
      expect(renderedText(question)).toContain('Stop live captions in session `design-review`?');
      expect(rawOutsideContext(question, s.sessionId)).toEqual([]);
    });
  });
});

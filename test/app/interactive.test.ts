/** End to end: the "Mute everyone" global shortcut and its modal, the session picker's options, App Home. */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { USERS, startTestApp, type TestApp } from '../harness/app';
import { optionsProblems, sentPayloadProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

describe('interactive surfaces', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  describe('Mute everyone shortcut', () => {
    it('opens the modal within the trigger window with the latest session pre-selected', async () => {
      const seeded = t.seedSession({ streams: 1 });
      await t.store.touchRecentSession({
        teamId: 'T0TEST',
        projectName: 'prod',
        sessionId: seeded.sessionId,
        usedBy: USERS.moderator,
        usedAt: Date.now() + 10_000,
      });
      const since = t.slack.mark();
      const { status, triggerId } = await t.shortcut(CALLBACK.muteEveryoneShortcut);
      expect(status).toBe(200);
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      expect(opened.body.trigger_id).toBe(triggerId);
      const [picker] = findElements(opened.body.view, ACTION.sessionPicker);
      expect(picker).toEqual(
        expect.objectContaining({ type: 'external_select', initial_option: expect.objectContaining({ value: encodeSessionOption('prod', seeded.sessionId) }) }),
      );
    });

    it('submitting mutes everyone, shows the result in the modal and tells the chosen channel', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const since = t.slack.mark();
      const ack = await t.submitView({
        callbackId: CALLBACK.muteEveryoneModal,
        viewId: 'V0MUTEALL',
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
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === 'C0ONCALL', { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> muted everyone in session`);
      await t.waitForSlackCall('views.update', (c) => c.body.view_id === 'V0MUTEALL' && renderedText(c.body).includes('is muted'), { since });
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.mute.active).toBe(true);
      expect(session.streams.every((s) => s.muted)).toBe(true);
      const [audit] = await t.store.listAudit('T0TEST', 1);
      // The audit keeps where the person acted: a shortcut is taken in no channel (the one picked is only told).
      expect(audit).toEqual(expect.objectContaining({ command: '/mute-all', outcome: 'ok', channelId: '' }));
    });

    it('without a channel, the notice comes as a direct message', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.submitView({
        callbackId: CALLBACK.muteEveryoneModal,
        viewId: 'V0MUTEALL2',
        values: {
          [BLOCK.sessionPicker]: {
            [ACTION.sessionPicker]: {
              type: 'external_select',
              selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
            },
          },
          [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: null } },
        },
      });
      const dm = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === USERS.moderator, { since });
      expect(renderedText(dm.body)).toContain('muted everyone');
    });

    it('asks for a session when none was picked', async () => {
      const ack = await t.submitView({
        callbackId: CALLBACK.muteEveryoneModal,
        viewId: 'V0X',
        values: { [BLOCK.sessionPicker]: { [ACTION.sessionPicker]: { type: 'external_select', selected_option: null } } },
      });
      expect(ack.body).toEqual({ response_action: 'errors', errors: { [BLOCK.sessionPicker]: 'Pick a session from the list.' } });
    });

    it('shows a viewer the denial inside the modal, and mutes nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const since = t.slack.mark();
      await t.submitView(
        {
          callbackId: CALLBACK.muteEveryoneModal,
          viewId: 'V0DENIED',
          values: {
            [BLOCK.sessionPicker]: {
              [ACTION.sessionPicker]: {
                type: 'external_select',
                selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', seeded.sessionId) },
              },
            },
          },
        },
        { user: USERS.viewer },
      );
      const denied = await t.waitForSlackCall(
        'views.update',
        (c) => c.body.view_id === 'V0DENIED' && renderedText(c.body).includes('needs the moderator role'),
        { since },
      );
      expect(renderedText(denied.body)).toContain('you are a viewer');
      expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).mute.active).toBe(false);
    });
  });

  describe('session picker options', () => {
    it('offers aliases and recent sessions, filtered by what was typed', async () => {
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'standup', projectName: 'prod', sessionId: '2_MX4standup00000000', createdBy: 'U1', createdAt: 0 });
      await t.store.putAlias({ teamId: 'T0TEST', alias: 'townhall', projectName: 'prod', sessionId: '2_MX4townhall0000000', createdBy: 'U1', createdAt: 0 });
      const all = (await t.options(ACTION.sessionPicker, '')) as { option_groups: { label: { text: string }; options: { text: { text: string } }[] }[] };
      expect(optionsProblems(all)).toEqual([]);
      expect(all.option_groups[0]!.options.map((o) => o.text.text)).toEqual(['standup (prod)', 'townhall (prod)']);
      expect(all.option_groups[1]!.label.text).toBe('Used lately');
      const filtered = (await t.options(ACTION.sessionPicker, 'town')) as { option_groups: { options: { text: { text: string } }[] }[] };
      expect(filtered.option_groups.flatMap((g) => g.options.map((o) => o.text.text))).toEqual(['townhall (prod)']);
      const none = await t.options(ACTION.sessionPicker, 'zzz-nothing');
      expect(none).toEqual({ options: [] });
    });
  });

  describe('App Home', () => {
    it('publishes the Home tab with the user’s role and the commands', async () => {
      const since = t.slack.mark();
      expect(await t.event({ type: 'app_home_opened', user: USERS.admin, channel: 'D0HOME', tab: 'home', event_ts: '1700000000.000100' })).toBe(200);
      const published = await t.waitForSlackCall('views.publish', () => true, { since });
      expect(published.body.user_id).toBe(USERS.admin);
      const text = renderedText(published.body);
      expect(text).toContain('You are an admin.');
      expect(text).toContain('/mute-all [session]');
      expect(text).toContain('`standup` → `2_MX4standup00000000`');
    });

    it('ignores the Messages tab', async () => {
      const since = t.slack.mark();
      await t.event({ type: 'app_home_opened', user: USERS.admin, channel: 'D0HOME', tab: 'messages', event_ts: '1700000000.000200' });
      const check = t.slack.mark();
      await t.slash('/video', 'help');
      expect(t.slack.callsOf('views.publish', since).filter((c) => c.seq < check)).toEqual([]);
    });
  });
});

/** End to end: /streams (the session console), its Mute button, and the layout-classes modal (one setLayoutClasses call). */
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall } from '../harness/fake-slack';
import { buttonValue, findElements, renderedText } from '../harness/text';

interface InputBlock {
  type: string;
  block_id: string;
  element: { action_id: string; initial_value?: string };
}

describe('/streams', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  it('shows the console privately: names as people see them, escaped, video type, Mute and Kick per row, one Edit layout classes', async () => {
    const seeded = t.seedSession({ streams: 2, names: ['Ana <!channel>', 'Bo & Co'] });
    const res = await t.slash('/streams', seeded.sessionId, { user: USERS.viewer });
    expect(res.ack).toBeUndefined();
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    const text = renderedText(reply.body);
    expect(text).toContain('2 participants');
    expect(text).toContain('*Ana <!channel>* · :movie_camera: camera');
    expect(text).toContain('*Bo & Co*');
    // In mrkdwn the name is escaped (no ping); plain texts (the Kick dialog's title) show it as typed, which Slack never parses.
    const mrkdwnTexts = JSON.stringify(reply.body).match(/"type":"mrkdwn","text":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(mrkdwnTexts.length).toBeGreaterThan(0);
    expect(mrkdwnTexts.filter((m) => m.includes('<!channel>'))).toEqual([]);
    expect(findElements(reply.body, ACTION.muteStream)).toHaveLength(2);
    expect(findElements(reply.body, ACTION.consoleKick)).toHaveLength(2);
    expect(findElements(reply.body, ACTION.editLayoutClasses)).toHaveLength(1);
  });

  it('says nobody is publishing in a session without streams', async () => {
    const seeded = t.seedSession({ streams: 0 });
    const res = await t.slash('/streams', seeded.sessionId);
    const reply = await res.waitForResponse();
    expect(renderedText(reply.body)).toContain('Nobody is publishing in this session right now.');
  });

  it('Mute button mutes that stream and tells the channel', async () => {
    const seeded = t.seedSession({ streams: 2, names: ['Ana', 'Bo'] });
    const res = await t.slash('/streams', seeded.sessionId);
    const card = await res.waitForResponse();
    const value = findElements(card.body, ACTION.muteStream).map((e) => e.value as string)[1]!;
    const since = t.slack.mark();
    await t.click(ACTION.muteStream, value, { responseUrl: res.responseUrl });
    const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    expect(renderedText(post.body)).toContain(`muted stream \`${seeded.streams[1]}\` (*Bo*)`);
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams.map((s) => s.muted)).toEqual([false, true]);
  });

  it('Mute button re-checks the role: a viewer clicking a moderator’s card is denied and audited', async () => {
    const seeded = t.seedSession({ streams: 1 });
    const res = await t.slash('/streams', seeded.sessionId);
    const card = await res.waitForResponse();
    const click = await t.click(ACTION.muteStream, buttonValue(card.body, ACTION.muteStream), { user: USERS.viewer });
    const denial = await t.slack.waitForResponse(click.responseId);
    expect(renderedText(denial.body)).toMatch(/`\/mute` needs the moderator role; you are a viewer/);
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(false);
    const [audit] = await t.store.listAudit('T0TEST', 1);
    expect(audit).toEqual(expect.objectContaining({ userId: USERS.viewer, outcome: 'denied', command: '/mute' }));
  });

  describe('Edit layout classes', () => {
    async function openModal(seeded: { sessionId: string }): Promise<{ view: Record<string, unknown>; viewId: string }> {
      const res = await t.slash('/streams', seeded.sessionId);
      const card = await res.waitForResponse();
      const value = buttonValue(card.body, ACTION.editLayoutClasses);
      const since = t.slack.mark();
      const click = await t.click(ACTION.editLayoutClasses, value, { responseUrl: res.responseUrl, triggerId: 'trigger-layout' });
      expect(click.status).toBe(200);
      const opened = await t.waitForSlackCall('views.open', () => true, { since });
      expect(opened.body.trigger_id).toBe('trigger-layout');
      const updated = await t.waitForSlackCall(
        'views.update',
        (c: RecordedCall) => (c.body.view as { callback_id?: string }).callback_id === CALLBACK.layoutClassesModal,
        { since },
      );
      return { view: updated.body.view as Record<string, unknown>, viewId: updated.body.view_id as string };
    }

    function submit(opened: { view: Record<string, unknown>; viewId: string }, edits: Record<string, string>, user: string = USERS.moderator) {
      const blocks = opened.view.blocks as InputBlock[];
      const values: Record<string, Record<string, unknown>> = {};
      for (const block of blocks.filter((b) => b.type === 'input')) {
        const streamId = block.block_id.slice(BLOCK.layoutStreamPrefix.length);
        const value = streamId in edits ? edits[streamId] : (block.element.initial_value ?? null);
        values[block.block_id] = { [ACTION.layoutClassesInput]: { type: 'plain_text_input', value } };
      }
      return t.submitView(
        { callbackId: CALLBACK.layoutClassesModal, viewId: opened.viewId, privateMetadata: opened.view.private_metadata as string, blocks, values },
        { user },
      );
    }

    it('opens a loading modal at once, then the form with every stream of the session', async () => {
      const seeded = t.seedSession({ streams: 3 });
      const opened = await openModal(seeded);
      const inputs = (opened.view.blocks as InputBlock[]).filter((b) => b.type === 'input');
      expect(inputs.map((b) => b.block_id)).toEqual(seeded.streams.map((id) => `${BLOCK.layoutStreamPrefix}${id}`));
    });

    it('sends only the changed streams, in one setLayoutClasses call, and reports in the modal and the channel', async () => {
      const seeded = t.seedSession({ streams: 3 });
      const opened = await openModal(seeded);
      const logBefore = t.emulator.control.requestLog().length;
      const since = t.slack.mark();
      const ack = await submit(opened, { [seeded.streams[0]!]: 'focus  full', [seeded.streams[2]!]: 'sidebar,small' });
      expect(ack.body).toEqual(expect.objectContaining({ response_action: 'update' }));
      const result = await t.waitForSlackCall('views.update', (c) => renderedText(c.body).includes('Saved the layout classes of 2 streams'), { since });
      expect(result.body.view_id).toBe(opened.viewId);
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain('changed the layout classes of 2 streams');
      const session = t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);
      expect(session.streams.map((s) => s.layoutClassList)).toEqual([['focus', 'full'], [], ['sidebar', 'small']]);
      const puts = t.emulator.control
        .requestLog()
        .slice(logBefore)
        .filter((e) => e.method === 'PUT');
      expect(puts).toHaveLength(1);
    });

    it('points at the field with a bad class name and sends nothing', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const opened = await openModal(seeded);
      const logBefore = t.emulator.control.requestLog().length;
      const ack = await submit(opened, { [seeded.streams[0]!]: 'ok bad<class>' });
      expect(ack.body).toEqual({
        response_action: 'errors',
        errors: { [`${BLOCK.layoutStreamPrefix}${seeded.streams[0]}`]: expect.stringMatching(/is not a class name/) },
      });
      expect(
        t.emulator.control
          .requestLog()
          .slice(logBefore)
          .filter((e) => e.method === 'PUT'),
      ).toHaveLength(0);
    });

    it('closes without a call when nothing changed', async () => {
      const seeded = t.seedSession({ streams: 2 });
      const opened = await openModal(seeded);
      const ack = await submit(opened, {});
      expect(ack.status).toBe(200);
      expect(ack.body).toBeUndefined();
    });

    it('shows a denial inside the modal for a viewer', async () => {
      const seeded = t.seedSession({ streams: 1 });
      const res = await t.slash('/streams', seeded.sessionId, { user: USERS.viewer });
      const card = await res.waitForResponse();
      const since = t.slack.mark();
      await t.click(ACTION.editLayoutClasses, buttonValue(card.body, ACTION.editLayoutClasses), { user: USERS.viewer });
      const denied = await t.waitForSlackCall('views.update', (c) => renderedText(c.body).includes('needs the moderator role'), { since });
      expect(renderedText(denied.body)).toContain('you are a viewer');
    });
  });
});

/**
 * The one confirmation policy (issue #14), as a person meets it: every action vidops offers that
 * changes something × every way to reach it (typed, clicked on a card, the shortcut) → how many
 * times vidops asks before the change is made. Driven through the real app (signed requests, the
 * fake Slack, the emulator): an ephemeral card that must be answered counts 1, a confirm dialog
 * on a button clicked counts 1; the change must then have happened (emulator or store state).
 *
 * The expected numbers come from the rule, not from the app's table: irreversible
 * actions — kick, delete, stopping a recording, broadcast, composer, captions, call or audio
 * connection, removing an upload target, creating, suspending or deleting a project, rotating
 * a secret — ask exactly once; reversible ones — mute one, mute everyone and its undo, layout,
 * watch and unwatch, activating a project — not at all.
 */
import { randomBytes } from 'node:crypto';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK, RECORD_ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, type Seeded, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { findElements } from '../harness/text';

type Way = 'typed' | 'clicked' | 'shortcut';
type Probe = () => boolean | Promise<boolean>;
type Button = { action_id: string; value?: string; confirm?: unknown; style?: string };

const IRREVERSIBLE = new Set([
  'kick',
  'record stop',
  'record delete',
  'broadcast stop',
  'composer stop',
  'captions stop',
  'call hang-up',
  'audio stop',
  'upload target removal',
  'project create',
  'project suspend',
  'project delete',
  'secret rotation',
]);

describe('one confirmation policy: how often vidops asks, per action and way', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ account: true, secretKey: randomBytes(32) });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  const MOD = { user: USERS.moderator };
  const ADMIN = { user: USERS.admin };
  const apiKey = () => t.project.apiKey;

  /** Polls `probe` on each event-loop turn (no sleeping) until it yields something. */
  async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A question: an answer to this request with a Cancel button beside the one that acts. */
  function question(responseId: string, since: number): Button | undefined {
    for (const r of t.slack.responsesTo(responseId)) {
      if (r.seq < since || findElements(r.body, ACTION.cancel).length === 0) continue;
      const acting = (r.body.blocks as { type: string; elements?: Button[]; accessory?: Button }[])
        .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
        .find((e) => e.action_id !== ACTION.cancel && e.value !== undefined);
      if (acting) return acting;
    }
    return undefined;
  }

  /** Answers every question until the change is made; each card counts 1, each dialog on its button 1 more. */
  async function answerQuestions(responseId: string, responseUrl: string, changed: Probe, actor: { user: string }): Promise<number> {
    let asked = 0;
    let since = 0;
    for (let round = 0; round < 3; round++) {
      const next = await until('change or question', async () => ((await changed()) ? 'changed' : question(responseId, since)));
      if (next === 'changed') return asked;
      asked += 1 + (next.confirm ? 1 : 0);
      since = t.slack.mark();
      await t.click(next.action_id, next.value, { ...actor, responseUrl });
    }
    throw new Error('still asking after three answers');
  }

  async function typed(command: string, text: string, changed: Probe, actor: { user: string } = MOD): Promise<number> {
    expect(await changed()).toBe(false);
    const res = await t.slash(command, text, actor);
    expect(res.ack).toBeUndefined();
    return answerQuestions(res.responseId, res.responseUrl, changed, actor);
  }

  /** Clicks the button `actionId` of `message` (a card): its dialog counts 1, and any question its click brings. */
  async function clicked(message: unknown, actionId: string, changed: Probe, actor: { user: string } = MOD): Promise<number> {
    const [button] = findElements(message, actionId) as Button[];
    expect(button).toBeDefined();
    expect(await changed()).toBe(false);
    const responseUrl = t.slack.newResponseUrl();
    const click = await t.click(actionId, button!.value, { ...actor, responseUrl });
    return (button!.confirm ? 1 : 0) + (await answerQuestions(click.responseId, responseUrl, changed, actor));
  }

  /** The card (or notice) the command posted in the channel about `sessionId`, the one with a button `actionId`. */
  async function posted(command: string, text: string, actionId: string, sessionId: string, actor: { user: string } = MOD): Promise<Record<string, unknown>> {
    const since = t.slack.mark();
    await t.slash(command, text, actor);
    const call = await t.waitForSlackCall(
      'chat.postMessage',
      (c) => c.body.channel === CHANNEL && findElements(c.body, actionId).length > 0 && JSON.stringify(c.body).includes(sessionId),
      { since },
    );
    return call.body;
  }

  /** The ephemeral answer to a command (a list, a show). */
  async function answer(command: string, text: string, actor: { user: string } = MOD): Promise<Record<string, unknown>> {
    const res = await t.slash(command, text, actor);
    return (await res.waitForResponse()).body;
  }

  const session = (streams = 2): Seeded => t.seedSession({ streams });
  const valueOf = (message: unknown, actionId: string) => JSON.parse((findElements(message, actionId)[0] as Button).value!) as Record<string, string>;
  const connected = (s: Seeded, connectionId: string) =>
    t.emulator.control.getSession(apiKey(), s.sessionId).connections.find((c) => c.connectionId === connectionId)?.connected;
  const requested = (method: string, path: RegExp, since: number) =>
    t.emulator.control.requestLog().some((e, i) => i >= since && e.method === method && path.test(e.path));

  async function recordingOf(s: Seeded): Promise<{ card: Record<string, unknown>; id: string }> {
    const card = await posted('/record', `start ${s.sessionId}`, RECORD_ACTION.stop, s.sessionId);
    return { card, id: valueOf(card, RECORD_ACTION.stop).r! };
  }
  async function available(s: Seeded): Promise<string> {
    const { id } = await recordingOf(s);
    await t.services.projects.client('prod').archives.stop(id);
    t.emulator.control.setArchiveStatus(apiKey(), id, 'available');
    return id;
  }
  async function broadcastOf(s: Seeded) {
    const card = await posted('/broadcast', `start ${s.sessionId} --hls`, ACTION.broadcastStop, s.sessionId);
    return { card, id: valueOf(card, ACTION.broadcastStop).b! };
  }
  async function composerOf(s: Seeded) {
    const card = await posted('/render', `start https://meet.example.com/board/42 ${s.sessionId}`, ACTION.stopRender, s.sessionId);
    return { card, id: valueOf(card, ACTION.stopRender).i! };
  }
  async function captionsOf(s: Seeded) {
    const card = await posted('/captions', `start ${s.sessionId}`, ACTION.stopCaptions, s.sessionId);
    return { card, id: valueOf(card, ACTION.stopCaptions).i! };
  }
  async function uploadTarget(): Promise<void> {
    await t.services.projects
      .client('prod')
      .archives.setUploadTarget({ type: 's3', config: { accessKey: 'AKIAEXAMPLEKEY', secretKey: 'wJalrXUtnFEMIK7MDENG', bucket: 'recordings' } });
  }
  const newProject = (name: string) => t.emulator.control.createProject({ name }).apiKey;
  const projectStatus = (key: string) => t.emulator.control.getProject(key).status;
  const watching = async (s: Seeded) => (await t.store.listWatches({ kind: 'session-discovery', teamId: TEAM, sessionId: s.sessionId })).length > 0;

  const rows: [string, Way, () => Promise<number>][] = [
    [
      'kick',
      'typed',
      async () => {
        const s = session();
        return typed('/kick', `${s.connections[1]} ${s.sessionId}`, () => connected(s, s.connections[1]!) === false);
      },
    ],
    [
      'kick',
      'clicked',
      async () => {
        const s = session();
        // Advanced Insights names who publishes a stream, about 5 minutes after it starts.
        t.emulator.control.setAdvancedInsights(apiKey(), true);
        t.emulator.control.advanceTime(6 * 60_000);
        const console = await answer('/streams', s.sessionId);
        return clicked(console, ACTION.consoleKick, () => s.connections.some((c) => connected(s, c) === false));
      },
    ],
    [
      'record stop',
      'typed',
      async () => {
        const s = session();
        const { id } = await recordingOf(s);
        return typed('/record', `stop ${id}`, () => t.emulator.control.getArchive(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'record stop',
      'clicked',
      async () => {
        const s = session();
        const { card, id } = await recordingOf(s);
        return clicked(card, RECORD_ACTION.stop, () => t.emulator.control.getArchive(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'record delete',
      'typed',
      async () => {
        const id = await available(session());
        return typed('/record', `delete ${id}`, () => t.emulator.control.getArchive(apiKey(), id).status === 'deleted', ADMIN);
      },
    ],
    [
      'record delete',
      'clicked',
      async () => {
        const id = await available(session());
        const shown = await answer('/record', `show ${id}`, ADMIN);
        return clicked(shown, RECORD_ACTION.delete, () => t.emulator.control.getArchive(apiKey(), id).status === 'deleted', ADMIN);
      },
    ],
    [
      'broadcast stop',
      'typed',
      async () => {
        const { id } = await broadcastOf(session());
        return typed('/broadcast', `stop ${id}`, () => t.emulator.control.getBroadcast(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'broadcast stop',
      'clicked',
      async () => {
        const { card, id } = await broadcastOf(session());
        return clicked(card, ACTION.broadcastStop, () => t.emulator.control.getBroadcast(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'composer stop',
      'typed',
      async () => {
        const { id } = await composerOf(session());
        return typed('/render', `stop ${id}`, () => t.emulator.control.getRender(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'composer stop',
      'clicked',
      async () => {
        const { card, id } = await composerOf(session());
        return clicked(card, ACTION.stopRender, () => t.emulator.control.getRender(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'captions stop',
      'typed',
      async () => {
        const { id } = await captionsOf(session());
        return typed('/captions', `stop ${id}`, () => t.emulator.control.getCaptions(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'captions stop',
      'clicked',
      async () => {
        const { card, id } = await captionsOf(session());
        return clicked(card, ACTION.stopCaptions, () => t.emulator.control.getCaptions(apiKey(), id).status === 'stopped');
      },
    ],
    [
      'call hang-up',
      'clicked',
      async () => {
        const s = session();
        const card = await posted('/dial', `sip:+15551234567@sip.example.com ${s.sessionId}`, ACTION.sipHangUp, s.sessionId);
        const call = valueOf(card, ACTION.sipHangUp).c!;
        return clicked(card, ACTION.sipHangUp, () => connected(s, call) === false);
      },
    ],
    [
      'audio stop',
      'clicked',
      async () => {
        const s = session();
        const card = await posted('/audio-connect', `wss://transcriber.example.com/audio ${s.sessionId}`, ACTION.stopAudio, s.sessionId);
        const connection = valueOf(card, ACTION.stopAudio).c!;
        return clicked(card, ACTION.stopAudio, () => connected(s, connection) === false);
      },
    ],
    [
      'upload target removal',
      'typed',
      async () => {
        await uploadTarget();
        return typed('/record', 'storage clear', () => t.emulator.control.uploadTarget(apiKey()) === null, ADMIN);
      },
    ],
    [
      'project create',
      'typed',
      async () => {
        const since = t.emulator.control.requestLog().length;
        return typed('/video-admin', 'create "Policy table"', () => requested('POST', /^\/v2\/project$/, since), ADMIN);
      },
    ],
    [
      'project suspend',
      'typed',
      async () => {
        const key = newProject('Suspend typed');
        return typed('/video-admin', `suspend ${key}`, () => projectStatus(key) === 'SUSPENDED', ADMIN);
      },
    ],
    [
      'project suspend',
      'clicked',
      async () => {
        const key = newProject('Suspend clicked');
        const card = await answer('/video-admin', `project ${key}`, ADMIN);
        return clicked(card, ACTION.adminSuspendProject, () => projectStatus(key) === 'SUSPENDED', ADMIN);
      },
    ],
    [
      'project activate',
      'typed',
      async () => {
        const key = newProject('Activate typed');
        await t.services.projects.admin().setStatus(key, 'SUSPENDED');
        return typed('/video-admin', `activate ${key}`, () => projectStatus(key) === 'ACTIVE', ADMIN);
      },
    ],
    [
      'project activate',
      'clicked',
      async () => {
        const key = newProject('Activate clicked');
        await t.services.projects.admin().setStatus(key, 'SUSPENDED');
        const card = await answer('/video-admin', `project ${key}`, ADMIN);
        return clicked(card, ACTION.adminActivateProject, () => projectStatus(key) === 'ACTIVE', ADMIN);
      },
    ],
    [
      'project delete',
      'typed',
      async () => {
        const since = t.emulator.control.requestLog().length;
        const key = newProject('Delete typed');
        return typed('/video-admin', `delete ${key}`, () => requested('DELETE', new RegExp(`^/v2/project/${key}$`), since), ADMIN);
      },
    ],
    [
      'project delete',
      'clicked',
      async () => {
        const since = t.emulator.control.requestLog().length;
        const key = newProject('Delete clicked');
        const card = await answer('/video-admin', `project ${key}`, ADMIN);
        return clicked(card, ACTION.adminDeleteProject, () => requested('DELETE', new RegExp(`^/v2/project/${key}$`), since), ADMIN);
      },
    ],
    [
      'secret rotation',
      'typed',
      async () => {
        const since = t.emulator.control.requestLog().length;
        const key = newProject('Rotate typed');
        return typed('/video-admin', `rotate-secret ${key}`, () => requested('POST', /refreshSecret$/, since), ADMIN);
      },
    ],
    [
      'secret rotation',
      'clicked',
      async () => {
        const since = t.emulator.control.requestLog().length;
        const key = newProject('Rotate clicked');
        const card = await answer('/video-admin', `project ${key}`, ADMIN);
        return clicked(card, ACTION.adminRotateSecret, () => requested('POST', /refreshSecret$/, since), ADMIN);
      },
    ],
    [
      'mute one',
      'typed',
      async () => {
        const s = session();
        return typed('/mute', `${s.streams[0]} ${s.sessionId}`, () => t.emulator.control.getSession(apiKey(), s.sessionId).streams[0]!.muted);
      },
    ],
    [
      'mute one',
      'clicked',
      async () => {
        const s = session(1);
        const list = await answer('/streams', s.sessionId);
        return clicked(list, ACTION.muteStream, () => t.emulator.control.getSession(apiKey(), s.sessionId).streams[0]!.muted);
      },
    ],
    [
      'mute everyone',
      'typed',
      async () => {
        const s = session();
        return typed('/mute-all', s.sessionId, () => t.emulator.control.getSession(apiKey(), s.sessionId).mute.active);
      },
    ],
    [
      'mute everyone',
      'shortcut',
      async () => {
        const s = session();
        expect(t.emulator.control.getSession(apiKey(), s.sessionId).mute.active).toBe(false);
        const since = t.slack.mark();
        await t.shortcut(CALLBACK.muteEveryoneShortcut, MOD);
        await t.waitForSlackCall('views.open', () => true, { since });
        const ack = await t.submitView(
          {
            callbackId: CALLBACK.muteEveryoneModal,
            viewId: 'V0POLICY',
            values: {
              [BLOCK.sessionPicker]: {
                [ACTION.sessionPicker]: {
                  type: 'external_select',
                  selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption('prod', s.sessionId) },
                },
              },
              [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: CHANNEL } },
            },
          },
          MOD,
        );
        // The form only picks the session: its submit acts, nothing more is asked.
        expect(ack.status).toBe(200);
        await until('mute', () => (t.emulator.control.getSession(apiKey(), s.sessionId).mute.active ? true : undefined));
        return 0;
      },
    ],
    [
      'undo mute everyone',
      'clicked',
      async () => {
        const s = session();
        const notice = await posted('/mute-all', s.sessionId, ACTION.undoMuteAll, s.sessionId);
        return clicked(notice, ACTION.undoMuteAll, () => !t.emulator.control.getSession(apiKey(), s.sessionId).mute.active);
      },
    ],
    [
      'unmute everyone',
      'typed',
      async () => {
        const s = session();
        await t.services.projects.client('prod').moderation.muteAll(s.sessionId, { active: true });
        return typed('/unmute-all', s.sessionId, () => !t.emulator.control.getSession(apiKey(), s.sessionId).mute.active);
      },
    ],
    [
      'layout',
      'typed',
      async () => {
        const { id } = await recordingOf(session());
        const since = t.emulator.control.requestLog().length;
        return typed('/record', `layout ${id} --layout bestfit`, () => requested('PUT', new RegExp(`^/v2/project/[^/]+/archive/${id}/layout$`), since));
      },
    ],
    [
      'watch',
      'typed',
      async () => {
        const s = session();
        return typed('/video', `watch ${s.sessionId}`, () => watching(s));
      },
    ],
    [
      'unwatch',
      'typed',
      async () => {
        const s = session();
        await posted('/video', `watch ${s.sessionId}`, ACTION.stopWatching, s.sessionId);
        await until('the watch', async () => ((await watching(s)) ? true : undefined));
        return typed('/video', `unwatch ${s.sessionId}`, async () => !(await watching(s)));
      },
    ],
    [
      'unwatch',
      'clicked',
      async () => {
        const s = session();
        const card = await posted('/video', `watch ${s.sessionId}`, ACTION.stopWatching, s.sessionId);
        await until('the watch', async () => ((await watching(s)) ? true : undefined));
        return clicked(card, ACTION.stopWatching, async () => !(await watching(s)));
      },
    ],
  ];

  it.each(rows)('%s, %s', async (action, _way, run) => {
    expect(await run()).toBe(IRREVERSIBLE.has(action) ? 1 : 0);
  });

  it('covers every action the issue names, each in every way it is offered', () => {
    const covered = new Set(rows.map(([action]) => action));
    for (const action of IRREVERSIBLE) expect(covered).toContain(action);
    const ways = (action: string) => rows.filter(([a]) => a === action).map(([, way]) => way);
    expect(ways('mute everyone')).toEqual(['typed', 'shortcut']);
    expect(ways('record stop')).toEqual(['typed', 'clicked']);
  });
});

/**
 * Local mode end to end over real HTTP on 127.0.0.1: the real app (src/runtime.ts), the embedded
 * emulator and the Slack stand-in, driven the way the page drives them (`/local/*`). Every click
 * reaches the app as a signed request through its production receiver; what the app answers
 * shows up in `/local/state`.
 */
import { LOCAL_USER } from '../../src/local/identities';
import { signForm } from '../../src/local/signing';
import type { Message, View } from '../../src/local/slack-standin/types';
import { type RunningLocal, DEMO_ALIAS, startLocal } from '../../src/local/start';
import { RECORD_ACTION } from '../../src/views/ids';
import { PageClient } from './page-client';

const CHANNEL = 'C0LOCAL01';

describe('local mode', () => {
  let local: RunningLocal;
  let page: PageClient;
  const logLines: string[] = [];
  beforeAll(async () => {
    local = await startLocal({
      env: { DATABASE_URL: 'sqlite::memory:' },
      port: 0,
      logLevel: 'debug',
      logStream: { write: (line: string) => logLines.push(line) },
    });
    page = new PageClient(local.url);
  });
  afterAll(async () => {
    // After every test below: no generated or emulator secret in a log line or in what the page sees.
    try {
      const apiKey = local.vidops.services.projects.configured('local')!.apiKey;
      const secrets = [
        local.slack.botToken,
        local.slack.signingSecret,
        local.emulator!.control.getProject(apiKey).secret,
        local.emulator!.control.account.secret,
      ];
      const seen = [logLines.join('\n'), JSON.stringify(await page.state())];
      expect(logLines.length).toBeGreaterThan(20);
      for (const secret of secrets) for (const text of seen) expect(text.includes(secret)).toBe(false);
    } finally {
      await local.stop();
    }
  });

  const topView = (callbackId: string) => page.waitFor((s) => s.views.find((v) => v.callback_id === callbackId), `modal ${callbackId}`);
  const repliesTo = (card: Message) => (s: { messages: Message[] }) => s.messages.filter((m) => m.thread_ts === card.ts && m.ts !== card.ts).map((m) => m.text);

  it('starts on its own URL with a seeded session that is #video-ops’ default', async () => {
    expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(new URL('/healthz', local.url))).json()).toEqual({ ok: true });
    const state = await page.state();
    expect(state.user).toEqual({ id: LOCAL_USER.id, name: 'you' });
    expect(state.channels.map((c) => c.name)).toEqual(['video-ops', 'town-hall', 'vidops (direct messages)']);
    expect(state.emulator.sessionIds).toEqual([local.sessionId]);
    expect(state.emulator.sessions[0]!.participants.map((p) => p.name)).toEqual(['Alice', 'Bob', 'Chidi']);

    expect(await page.command('/video use')).toEqual({ ok: true });
    const defaults = await page.waitForMessage(local.sessionId!);
    expect(defaults.ephemeral).toBe(true);
  });

  it('serves the page and its files, and nothing outside src/local/web', async () => {
    const index = await fetch(local.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toMatch(/<html/i);
    expect((await fetch(new URL('/web/%2e%2e%2f%2e%2e%2fpackage.json', local.url))).status).toBe(404);
    expect((await fetch(new URL('/web/%2e%2e%2fstart.ts', local.url))).status).toBe(404);
    expect((await fetch(new URL('/nothing-here', local.url))).status).toBe(404);
  });

  it('answers /video help with an ephemeral message, and refuses commands vidops does not have', async () => {
    expect(await page.command('/video help')).toEqual({ ok: true });
    const help = await page.waitForMessage('/record');
    expect(help).toEqual(expect.objectContaining({ channel: CHANNEL, ephemeral: true }));

    expect(await page.command('/giphy cats')).toEqual({ ok: false, error: '/giphy is not a command of vidops; try /video help' });
    expect(await page.command('hello')).toEqual({ ok: false, error: 'type a slash command, such as /video help' });
    expect(await page.command('/video help', 'C0NOWHERE')).toEqual({ ok: false, error: 'there is no channel C0NOWHERE' });

    const malformed = await fetch(new URL('/local/action', local.url), {
      method: 'POST',
      body: JSON.stringify({ container: { type: 'message', channel: CHANNEL } }),
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ ok: false, error: expect.stringMatching(/container\.ts: .*; actionId: /) });
  });

  it('/record start: a modal, field errors kept in it, a card on submit, and the poller’s replies after the emulator’s clock moves', async () => {
    const before = (await page.state()).messages.length;
    expect(await page.command('/record start')).toEqual({ ok: true });
    const form = await topView('vidops.record.start_modal');
    // The channel's default session is preselected.
    expect(JSON.stringify(form.state.values.session)).toContain(local.sessionId!);

    // Neither audio nor video: the app answers response_action errors, the modal stays.
    const media = form.state.values.record_media!;
    const [mediaAction] = Object.keys(media);
    const noMedia = { ...form.state.values, record_media: { [mediaAction!]: { type: 'checkboxes', selected_options: [] } } };
    const refused = await page.post('/local/submit', { viewId: form.id, values: noMedia });
    expect(refused).toEqual({ ok: true, errors: { record_media: 'Record audio, video or both.' } });
    expect((await page.state()).views.map((v) => [v.id, v.errors])).toEqual([[form.id, { record_media: 'Record audio, video or both.' }]]);

    expect(await page.post('/local/submit', { viewId: form.id, values: form.state.values })).toEqual({ ok: true });
    const card = await page.waitFor((s) => s.messages.slice(before).find((m) => !m.ephemeral && !m.thread_ts && /: Recording$/.test(m.text)), 'recording card');
    expect(card.channel).toBe(CHANNEL);
    // The side panel learns of the new recording by itself (the stand-in streams an emulator change), with no REST listing.
    const listed = await page.waitFor((s) => (s.emulator.archives.length > 0 ? s.emulator.archives : undefined), 'the recording in the panel');
    expect(listed).toEqual([expect.objectContaining({ sessionId: local.sessionId, status: 'started' })]);

    // Stop from the card's button (the page confirms first), then let processing take an hour of emulator time.
    local.emulator!.control.setTransitions({ archiveProcessingMs: 3_600_000 });
    const stop = findButton(card, RECORD_ACTION.stop);
    expect(
      await page.post('/local/action', { container: { type: 'message', channel: CHANNEL, ts: card.ts }, actionId: RECORD_ACTION.stop, blockId: stop.blockId }),
    ).toEqual({ ok: true });
    // The click redraws the card at once and says who stopped it in the thread; the poller does not repeat it.
    const stoppedBy = `Stopped by <@${LOCAL_USER.id}>`;
    await page.waitFor((s) => (repliesTo(card)(s).includes(stoppedBy) ? true : undefined), 'stopped reply');

    expect(await page.post('/local/emulator/advance', { seconds: 3_600 })).toEqual(expect.objectContaining({ ok: true }));
    const replies = await page.waitFor(
      (s) => (repliesTo(card)(s).some((t) => t.startsWith('Recording available')) ? repliesTo(card)(s) : undefined),
      'available reply',
    );
    expect(replies).toEqual([stoppedBy, expect.stringMatching(/^Recording available — /)]);
    const redrawn = await page.waitFor((s) => s.messages.find((m) => m.ts === card.ts && /Available to download$/.test(m.text)), 'redrawn card');
    expect(redrawn.edited).toBe(true);
  });

  it('gives blocks Slack-style block ids, so the second of several same buttons acts on its own stream; response URLs replace the original', async () => {
    const before = (await page.state()).messages.length;
    expect(await page.command('/streams demo')).toEqual({ ok: true });
    const list = await page.waitFor((s) => s.messages.slice(before).find((m) => /participants in demo/.test(m.text)), '/streams answer');
    const blocks = list.blocks as Array<{
      block_id?: string;
      elements?: Array<{ action_id?: string; value?: string }>;
      accessory?: { action_id?: string; value?: string };
    }>;
    expect(blocks.every((b) => typeof b.block_id === 'string' && b.block_id.length > 0)).toBe(true);
    const muteBlocks = blocks.filter((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])].some((e) => e.action_id === 'vidops.stream.mute'));
    expect(muteBlocks.length).toBeGreaterThan(1);
    const bobStream = local
      .emulator!.control.getSession(local.vidops.services.projects.configured('local')!.apiKey, local.sessionId!)
      .streams.find((st) => st.name === 'Bob')!;
    const bobBlock = muteBlocks.find((b) => JSON.stringify(b).includes(bobStream.streamId))!;
    expect(bobBlock).not.toBe(muteBlocks[0]);
    expect(
      await page.post('/local/action', {
        container: { type: 'message', channel: CHANNEL, ts: list.ts },
        actionId: 'vidops.stream.mute',
        blockId: bobBlock.block_id,
      }),
    ).toEqual({ ok: true });
    await page.waitForMessage(`muted stream ${bobStream.streamId}`);
    const apiKey = local.vidops.services.projects.configured('local')!.apiKey;
    const streams = local.emulator!.control.getSession(apiKey, local.sessionId!).streams;
    expect(streams.filter((st) => st.muted).map((st) => st.name)).toEqual(['Bob']);

    // /mute-all acts at once; the Undo on its notice lifts the mute state and edits the notice in place.
    expect(await page.command('/mute-all demo')).toEqual({ ok: true });
    const notice = await page.waitFor((s) => s.messages.find((m) => !m.ephemeral && m.text.includes('muted everyone in session demo')), 'mute-all notice');
    expect(local.emulator!.control.getSession(apiKey, local.sessionId!).mute.active).toBe(true);
    const undo = (notice.blocks as Array<{ block_id: string; elements?: Array<{ action_id?: string }> }>).find((b) =>
      b.elements?.some((e) => e.action_id === 'vidops.mute_all.undo'),
    )!;
    expect(
      await page.post('/local/action', {
        container: { type: 'message', channel: CHANNEL, ts: notice.ts },
        actionId: 'vidops.mute_all.undo',
        blockId: undo.block_id,
      }),
    ).toEqual({ ok: true });
    const undone = await page.waitFor((s) => s.messages.find((m) => m.ts === notice.ts && m.edited), 'edited notice');
    expect(undone.text).toContain('Undone by');
    expect(local.emulator!.control.getSession(apiKey, local.sessionId!).mute.active).toBe(false);

    // /kick asks once; its button's answer replaces the question in place.
    const chidi = local.emulator!.control.getSession(apiKey, local.sessionId!).streams.find((st) => st.name === 'Chidi')!;
    expect(await page.command(`/kick ${chidi.connectionId} demo`)).toEqual({ ok: true });
    const question = await page.waitFor((s) => s.messages.find((m) => m.ephemeral && m.text.startsWith('Disconnect')), 'kick question');
    const confirm = (question.blocks as Array<{ block_id: string; elements?: Array<{ action_id?: string }> }>).find((b) =>
      b.elements?.some((e) => e.action_id === 'vidops.people.kick'),
    )!;
    expect(
      await page.post('/local/action', {
        container: { type: 'message', channel: CHANNEL, ts: question.ts },
        actionId: 'vidops.people.kick',
        blockId: confirm.block_id,
      }),
    ).toEqual({ ok: true });
    const replaced = await page.waitFor((s) => s.messages.find((m) => m.ts === question.ts && m.edited), 'replaced question');
    expect(replaced.ephemeral).toBe(true);
    const connection = local.emulator!.control.getSession(apiKey, local.sessionId!).connections.find((c) => c.connectionId === chidi.connectionId);
    expect(connection?.connected).toBe(false);
  });

  it('keeps message metadata for the app to read back (only when asked), and answers unknown trigger ids and strangers’ ephemerals with Slack’s errors', async () => {
    const client = local.vidops.app.client;
    const card = (await page.state()).messages.find((m) => m.channel === CHANNEL && /Available to download$/.test(m.text))!;
    const history = await client.conversations.history({ channel: CHANNEL, include_all_metadata: true, limit: 50 });
    expect(history.messages!.map((m) => m.ts)).toContain(card.ts);
    const thread = await client.conversations.replies({ channel: CHANNEL, ts: card.ts, include_all_metadata: true });
    const replies = thread.messages!.slice(1) as Array<{ metadata?: { event_type?: string } }>;
    expect(replies.length).toBe(2);
    // The first is the click's own "Stopped by"; the poller's notification carries its metadata.
    expect(typeof replies[1]?.metadata?.event_type).toBe('string');
    const withoutMetadata = await client.conversations.replies({ channel: CHANNEL, ts: card.ts });
    expect(withoutMetadata.messages!.some((m) => 'metadata' in m)).toBe(false);
    await expect(client.views.open({ trigger_id: 'made-up', view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] } })).rejects.toThrow(
      /invalid_trigger_id/,
    );
    expect((await client.chat.postEphemeral({ channel: CHANNEL, user: 'U0SOMEONE', text: 'hi' }).catch((e: { data: { error: string } }) => e.data)).error).toBe(
      'user_not_in_channel',
    );
  });

  it('streams each change to the page as Server-Sent Events', async () => {
    const types = (changes: Array<Record<string, unknown>>) => changes.map((c) => c.type);
    const help = await page.changesDuring(
      () => page.command('/video help'),
      (c) => types(c).includes('message'),
    );
    expect(help.find((c) => c.type === 'message')).toEqual({
      type: 'message',
      message: expect.objectContaining({ channel: CHANNEL, ephemeral: true, text: 'vidops commands' }),
    });

    let viewId = '';
    const opened = await page.changesDuring(
      () => page.command('/record start'),
      (c) => c.some((x) => x.type === 'views' && (x.views as View[]).length === 1),
    );
    viewId = (opened.find((c) => c.type === 'views')!.views as View[])[0]!.id;
    const closed = await page.changesDuring(
      () => page.post('/local/close', { viewId }),
      (c) => c.some((x) => x.type === 'views' && (x.views as View[]).length === 0),
    );
    expect(types(closed)).toContain('views');

    const before = Date.parse((await page.state()).emulator.now);
    const moved = await page.changesDuring(
      () => page.post('/local/emulator/advance', { seconds: 600 }),
      (c) => types(c).includes('emulator'),
    );
    const now = Date.parse(String(moved.find((c) => c.type === 'emulator')!.now));
    // Ten minutes ahead, plus the little wall-clock time the emulator's real clock also ran.
    expect(now - before).toBeGreaterThanOrEqual(600_000);
    expect(now - before).toBeLessThan(610_000);
  });

  it('signs every request: the app accepts the stand-in’s and refuses a tampered or stale one', async () => {
    const fields = {
      command: '/video',
      text: 'help',
      team_id: 'T0LOCAL01',
      user_id: LOCAL_USER.id,
      channel_id: CHANNEL,
      response_url: `${local.url}response/x`,
      trigger_id: 't',
    };
    const wrongSecret = signForm('not-the-signing-secret', fields);
    const tampered = await fetch(`${local.appUrl}/slack/events`, { method: 'POST', headers: wrongSecret.headers, body: wrongSecret.body });
    expect(tampered.status).toBe(401);

    const stale = signForm('not-the-signing-secret', fields);
    stale.headers['x-slack-request-timestamp'] = String(Math.floor(Date.now() / 1000) - 600);
    expect((await fetch(`${local.appUrl}/slack/events`, { method: 'POST', headers: stale.headers, body: stale.body })).status).toBe(401);

    expect(await page.command('/video help')).toEqual({ ok: true });
  });

  it('keeps one clock: after the panel moves the emulator a day ahead, the app’s clock and Slack’s message timestamps move with it', async () => {
    const before = local.emulator!.control.now();
    expect(await page.post('/local/emulator/advance', { seconds: 86_400 })).toEqual(expect.objectContaining({ ok: true }));
    const moved = local.emulator!.control.now();
    expect(moved - before).toBeGreaterThanOrEqual(86_400_000);
    expect(Math.abs(local.vidops.services.clock() - local.emulator!.control.now())).toBeLessThan(1_000);
    expect(await page.command('/video help')).toEqual({ ok: true });
    await page.waitFor(
      (s) => s.messages.find((m) => m.text === 'vidops commands' && Number(m.ts) * 1000 >= moved - 1_000),
      'help stamped on the emulator’s clock',
    );
  });

  it('/usage posts the report with a fallback text and the daily chart as an uploaded PNG the stand-in serves back', async () => {
    expect(await page.command('/usage')).toEqual({ ok: true });
    type ImageBlock = { type: string; slack_file?: { id: string }; alt_text?: string };
    const chartOf = (blocks: unknown[] | undefined) => (blocks as ImageBlock[] | undefined)?.find((b) => b.type === 'image' && b.slack_file);
    const posted = await page.waitFor((s) => s.messages.find((m) => chartOf(m.blocks)), 'usage chart');
    expect(posted.text).toMatch(/^Video usage for local, last week \(.+\): [\d,]+ participant minutes/);
    expect(posted.files ?? []).toEqual([]);
    const image = chartOf(posted.blocks)!;
    expect(image.alt_text).toContain('minutes per day');
    const res = await fetch(new URL(`/files/${image.slack_file!.id}/`, local.url));
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(posted.blocks!.length).toBeGreaterThan(1);
  });

  it('sends the global shortcut: “Mute everyone” opens its form', async () => {
    expect(await page.post('/local/shortcut', { callbackId: 'vidops_mute_everyone' })).toEqual({ ok: true });
    const form = await topView('vidops.mute_everyone.modal');
    expect(await page.post('/local/close', { viewId: form.id })).toEqual({ ok: true });
  });

  it('publishes App Home when the tab opens, and loads a picker’s options from the app', async () => {
    expect(await page.post('/local/home')).toEqual({ ok: true });
    const home = await page.waitFor((s) => s.home ?? undefined, 'home view');
    expect(home.type).toBe('home');

    expect(await page.command('/record start')).toEqual({ ok: true });
    const form: View = await topView('vidops.record.start_modal');
    const options = await page.post('/local/options', { viewId: form.id, actionId: 'vidops.session.pick', blockId: 'session', value: DEMO_ALIAS });
    expect(options.ok).toBe(true);
    expect(JSON.stringify(options.options ?? options.option_groups)).toContain(local.sessionId!);
    expect(await page.post('/local/close', { viewId: form.id })).toEqual({ ok: true });
    expect((await page.state()).views).toEqual([]);
  });

  it('drives the emulator from the side panel: participants, streams, archive status, faults', async () => {
    const sessionId = local.sessionId!;
    const joined = await page.post('/local/emulator/add-participant', { sessionId, name: 'Dana' });
    expect(joined).toEqual(expect.objectContaining({ ok: true, connectionId: expect.any(String), streamId: expect.any(String) }));
    const screen = await page.post('/local/emulator/add-stream', { sessionId, connectionId: joined.connectionId });
    expect(screen.ok).toBe(true);
    let session = (await page.state()).emulator.sessions[0]!;
    expect(session.participants.find((p) => p.name === 'Dana')!.streams.map((s) => s.videoType)).toEqual(['camera', 'screen']);

    expect((await page.post('/local/emulator/remove-stream', { sessionId, streamId: screen.streamId })).ok).toBe(true);
    expect((await page.post('/local/emulator/remove-participant', { sessionId, connectionId: joined.connectionId })).ok).toBe(true);
    session = (await page.state()).emulator.sessions[0]!;
    expect(session.participants.map((p) => p.name)).not.toContain('Dana');

    const archive = (await page.state()).emulator.archives[0]!;
    expect((await page.post('/local/emulator/archive-state', { archiveId: archive.id, status: 'expired' })).ok).toBe(true);
    expect((await page.state()).emulator.archives.find((a) => a.id === archive.id)!.status).toBe('expired');

    const before = (await page.state()).messages.length;
    expect(await page.post('/local/emulator/fault', { path: '/stream', status: 503, count: 20 })).toEqual(expect.objectContaining({ ok: true }));
    expect(await page.command('/streams demo')).toEqual({ ok: true });
    const failed = await page.waitFor((s) => s.messages.slice(before).find((m) => m.ephemeral), 'answer to /streams');
    expect(failed.text).not.toMatch(/participants in demo/);
    expect((await page.post('/local/emulator/clear-faults')).ok).toBe(true);

    // A fault waits for the app: the page's own reads (state, archives) never use it up.
    const requestsBefore = local.emulator!.control.requestLog().length;
    expect((await page.post('/local/emulator/fault', { path: '/archive', method: 'GET', status: 503, count: 10 })).ok).toBe(true);
    for (let i = 0; i < 3; i++) expect((await page.state()).emulator.archives.length).toBeGreaterThan(0);
    // (The poller may poll meanwhile; what matters is that no listing of archives was asked for.)
    expect(
      local
        .emulator!.control.requestLog()
        .slice(requestsBefore)
        .filter((r) => /\/archive\/?$/.test(r.path)),
    ).toEqual([]);
    const listed = (await page.state()).messages.length;
    expect(await page.command('/record list demo')).toEqual({ ok: true });
    const refusal = await page.waitFor((s) => s.messages.slice(listed).find((m) => m.ephemeral), 'answer to /record list');
    expect(refusal.text).not.toMatch(/^Recordings? of/);
    expect(
      local
        .emulator!.control.requestLog()
        .slice(requestsBefore)
        .some((r) => r.status === 503),
    ).toBe(true);
    expect((await page.post('/local/emulator/clear-faults')).ok).toBe(true);

    expect(await page.post('/local/emulator/advance', { seconds: -1 })).toEqual({ ok: false, error: expect.stringContaining('seconds') });
    expect(await page.post('/local/emulator/teleport', {})).toEqual({ ok: false, error: expect.stringContaining('no emulator action') });
    expect((await page.post('/local/emulator/remove-participant', { sessionId, connectionId: 'nobody' })).ok).toBe(false);
  });
});

function findButton(message: Message, actionId: string): { blockId: string } {
  for (const block of (message.blocks ?? []) as Array<{ block_id?: string; elements?: Array<{ action_id?: string }>; accessory?: { action_id?: string } }>) {
    if (block.elements?.some((e) => e.action_id === actionId) || block.accessory?.action_id === actionId) return { blockId: block.block_id ?? '' };
  }
  throw new Error(`no ${actionId} button on the card: ${JSON.stringify(message.blocks)}`);
}

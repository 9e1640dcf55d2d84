/** The stand-in's pure parts: command lines, elements and actions, the workspace, Web API answers, response URLs. */
import { LOCAL_BOT, LOCAL_USER } from '../../src/local/identities';
import { actionFor, findElement, splitCommandLine } from '../../src/local/payloads';
import { RESPONSE_URL_MAX_USES, applyResponse } from '../../src/local/slack-standin/response-url';
import { answerWebApi, sniffMimetype } from '../../src/local/slack-standin/web-api';
import { MAX_MODAL_STACK, TRIGGER_LIFETIME_MS, Workspace, initialValues, withBlockIds } from '../../src/local/slack-standin/workspace';

const C = 'C0LOCAL01';

function setup(start = Date.parse('2026-11-22T12:00:00Z')) {
  let now = start;
  const workspace = new Workspace(() => now);
  // Loosely typed: each test reads the fields of the method it called.
  const call = (method: string, body: Record<string, unknown>): any => answerWebApi(method, body, { workspace, baseUrl: () => 'http://127.0.0.1:3000' });
  return { workspace, call, advance: (ms: number) => (now += ms) };
}

describe('splitCommandLine', () => {
  it.each([
    ['/record start', { command: '/record', text: 'start' }],
    ['  /VIDEO   help  ', { command: '/video', text: 'help' }],
    ['/usage', { command: '/usage', text: '' }],
    ['/record start --name "a b"\nmore', { command: '/record', text: 'start --name "a b"\nmore' }],
    ['record start', undefined],
    ['/', undefined],
  ])('%j', (line, expected) => {
    expect(splitCommandLine(line)).toEqual(expected);
  });
});

describe('findElement and actionFor', () => {
  const blocks = [
    { type: 'section', block_id: 'a', accessory: { type: 'button', action_id: 'mute', value: 'alice', text: { type: 'plain_text', text: 'Mute' } } },
    {
      type: 'actions',
      block_id: 'b',
      elements: [{ type: 'button', action_id: 'mute', value: 'bob', style: 'danger', text: { type: 'plain_text', text: 'Mute' } }],
    },
    { type: 'input', block_id: 'c', element: { type: 'static_select', action_id: 'pick' } },
    { type: 'actions', block_id: 'd', elements: [{ type: 'datepicker', action_id: 'day' }] },
  ];
  it('tells same-id buttons apart by block, else by value', () => {
    expect(findElement(blocks, 'mute', 'b')?.element.value).toBe('bob');
    expect(findElement(blocks, 'mute', undefined, 'bob')?.blockId).toBe('b');
    expect(findElement(blocks, 'mute')?.blockId).toBe('a');
    expect(findElement(blocks, 'nothing')).toBeUndefined();
  });
  it('shapes actions per element type, as Slack sends them', () => {
    expect(actionFor(findElement(blocks, 'mute', 'b'), { actionId: 'mute', blockId: 'b' }, 1_700_000_000_000)).toEqual({
      type: 'button',
      action_id: 'mute',
      block_id: 'b',
      value: 'bob',
      style: 'danger',
      text: { type: 'plain_text', text: 'Mute' },
      action_ts: '1700000000.000000',
    });
    const option = { text: { type: 'plain_text', text: 'One' }, value: '1' };
    expect(actionFor(findElement(blocks, 'pick'), { actionId: 'pick', selectedOption: option }, 0)).toEqual(
      expect.objectContaining({ type: 'static_select', block_id: 'c', selected_option: option }),
    );
    expect(actionFor(findElement(blocks, 'day'), { actionId: 'day', value: '2026-11-22' }, 0)).toEqual(
      expect.objectContaining({ type: 'datepicker', selected_date: '2026-11-22' }),
    );
  });
});

describe('Workspace', () => {
  it('gives blocks without one a block_id, and keeps the ones the app chose', () => {
    const [kept, given] = withBlockIds([{ type: 'divider', block_id: 'mine' }, { type: 'divider' }]) as Array<{ block_id: string }>;
    expect(kept!.block_id).toBe('mine');
    expect(given!.block_id).toMatch(/^[A-Za-z0-9]{5}$/);
  });

  it('fills state.values with each input’s initial value', () => {
    expect(
      initialValues([
        { type: 'input', block_id: 'name', element: { type: 'plain_text_input', action_id: 'v', initial_value: 'x' } },
        { type: 'input', block_id: 'mode', element: { type: 'radio_buttons', action_id: 'v', initial_option: { value: 'a' } } },
        { type: 'input', block_id: 'media', element: { type: 'checkboxes', action_id: 'v' } },
        { type: 'section', block_id: 's' },
      ]),
    ).toEqual({
      name: { v: { type: 'plain_text_input', value: 'x' } },
      mode: { v: { type: 'radio_buttons', selected_option: { value: 'a' } } },
      media: { v: { type: 'checkboxes', selected_options: [] } },
    });
  });

  it('lets a trigger id open one view, within 3 seconds', () => {
    const { workspace, call, advance } = setup();
    const view = { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] };
    const first = workspace.newTrigger();
    expect(call('views.open', { trigger_id: first, view }).ok).toBe(true);
    expect(call('views.open', { trigger_id: first, view })).toEqual({ ok: false, error: 'invalid_trigger_id' });
    const late = workspace.newTrigger();
    advance(TRIGGER_LIFETIME_MS + 1);
    expect(call('views.open', { trigger_id: late, view })).toEqual({ ok: false, error: 'expired_trigger_id' });
  });

  it('stacks at most three modals, and refuses a views.update with a stale hash', () => {
    const { workspace, call } = setup();
    const view = (text: string) => ({ type: 'modal', title: { type: 'plain_text', text }, blocks: [] });
    const opened = call('views.open', { trigger_id: workspace.newTrigger(), view: view('1') }).view as { id: string; hash: string };
    for (let i = 2; i <= MAX_MODAL_STACK; i++) expect(call('views.push', { trigger_id: workspace.newTrigger(), view: view(String(i)) }).ok).toBe(true);
    expect(call('views.push', { trigger_id: workspace.newTrigger(), view: view('4') })).toEqual({ ok: false, error: 'push_limit_reached' });
    expect(call('views.update', { view_id: opened.id, hash: opened.hash, view: view('1b') }).ok).toBe(true);
    expect(call('views.update', { view_id: opened.id, hash: opened.hash, view: view('1c') })).toEqual({ ok: false, error: 'hash_conflict' });
    expect(workspace.modals().map((v) => (v.title as { text: string }).text)).toEqual(['1b', '2', '3']);
  });

  it('keeps what was entered across views.update where block and action ids stay', () => {
    const { workspace, call } = setup();
    const input = (blockId: string, type = 'plain_text_input') => ({
      type: 'input',
      block_id: blockId,
      label: { type: 'plain_text', text: blockId },
      element: { type, action_id: 'v' },
    });
    const opened = call('views.open', {
      trigger_id: workspace.newTrigger(),
      view: { type: 'modal', blocks: [input('name'), input('tag'), input('mode')] },
    }).view;
    const view = workspace.findView(opened.id)!;
    workspace.setViewState(view, {
      name: { v: { type: 'plain_text_input', value: 'Board review' } },
      tag: { v: { type: 'plain_text_input', value: 't1' } },
      mode: { v: { type: 'plain_text_input', value: 'x' } },
    });
    call('views.update', { view_id: opened.id, view: { type: 'modal', blocks: [input('name'), input('mode', 'static_select'), input('extra')] } });
    expect(workspace.findView(opened.id)!.state.values).toEqual({
      name: { v: { type: 'plain_text_input', value: 'Board review' } },
      mode: { v: { type: 'static_select', selected_option: null } },
      extra: { v: { type: 'plain_text_input', value: null } },
    });
  });
});

describe('Web API answers', () => {
  it('reads history newest first, with oldest/inclusive, threads summarised and metadata only when asked', () => {
    const { call, advance } = setup();
    const post = (body: Record<string, unknown>) => {
      advance(1000);
      return call('chat.postMessage', { channel: C, ...body }) as { ts: string };
    };
    const first = post({ text: 'one' });
    const card = post({ text: 'card', metadata: { event_type: 'vidops_card', event_payload: { k: 1 } } });
    post({ text: 'reply', thread_ts: card.ts, metadata: { event_type: 'vidops_change', event_payload: { k: 2 } } });
    expect(call('chat.postMessage', { channel: C, text: 'x', thread_ts: '1.000001' })).toEqual({ ok: false, error: 'thread_not_found' });
    expect(call('chat.postMessage', { channel: 'C0NOWHERE', text: 'x' })).toEqual({ ok: false, error: 'channel_not_found' });

    const all = call('conversations.history', { channel: C }) as { messages: Array<Record<string, unknown>> };
    expect(all.messages.map((m) => m.text)).toEqual(['card', 'one']);
    expect(all.messages[0]).toEqual(expect.objectContaining({ reply_count: 1, thread_ts: card.ts, bot_id: LOCAL_BOT.botId }));
    expect(all.messages[0]).not.toHaveProperty('metadata');
    const since = call('conversations.history', { channel: C, oldest: first.ts, inclusive: 'false', include_all_metadata: 'true' }) as {
      messages: Array<Record<string, unknown>>;
    };
    expect(since.messages.map((m) => [m.text, m.metadata])).toEqual([['card', { event_type: 'vidops_card', event_payload: { k: 1 } }]]);
    const thread = call('conversations.replies', { channel: C, ts: card.ts, include_all_metadata: true }) as { messages: Array<Record<string, unknown>> };
    expect(thread.messages.map((m) => m.text)).toEqual(['card', 'reply']);
    expect(thread.messages[1]!.metadata).toEqual({ event_type: 'vidops_change', event_payload: { k: 2 } });
  });

  it('keeps ephemerals out of what the app reads back, and will not update them', () => {
    const { call } = setup();
    const ephemeral = call('chat.postEphemeral', { channel: C, user: LOCAL_USER.id, text: 'psst' }) as { message_ts: string };
    expect((call('conversations.history', { channel: C }) as { messages: unknown[] }).messages).toEqual([]);
    expect(call('chat.update', { channel: C, ts: ephemeral.message_ts, text: 'x' })).toEqual({ ok: false, error: 'message_not_found' });
  });

  it('posts to the user’s id land in the DM; unknown methods answer unknown_method', () => {
    const { call } = setup();
    expect(call('chat.postMessage', { channel: LOCAL_USER.id, text: 'hi' })).toEqual(expect.objectContaining({ ok: true, channel: 'D0LOCAL01' }));
    expect(call('chat.postMessage', { channel: '#town-hall', text: 'hi' })).toEqual(expect.objectContaining({ ok: true, channel: 'C0LOCAL02' }));
    expect(call('admin.users.invite', {})).toEqual({ ok: false, error: 'unknown_method' });
  });

  it('shares an upload only once its bytes arrived, typed from its bytes', () => {
    const { workspace, call } = setup();
    const url = call('files.getUploadURLExternal', { filename: 'chart.png', length: 10 }) as { file_id: string; upload_url: string };
    expect(url.upload_url).toBe(`http://127.0.0.1:3000/upload/${url.file_id}`);
    expect(call('files.completeUploadExternal', { files: [{ id: url.file_id }], channel_id: C })).toEqual({ ok: false, error: 'file_not_found' });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    workspace.file(url.file_id)!.bytes = png;
    expect(call('files.completeUploadExternal', { files: [{ id: url.file_id, title: 'Chart' }], channel_id: C }).ok).toBe(true);
    expect(workspace.visible(C)[0]!.files).toEqual([
      expect.objectContaining({ title: 'Chart', mimetype: 'image/png', url: expect.stringContaining(`/files/${url.file_id}/chart.png`) }),
    ]);
    expect(sniffMimetype('report.bin', png)).toBe('image/png');
    expect(sniffMimetype('data.csv')).toBe('text/csv');
  });
});

describe('response URLs', () => {
  it('post ephemeral by default, in the channel when asked, replace or delete the original, five times at most', () => {
    const { workspace } = setup();
    const target = () => workspace.responseTarget(workspace.newResponseTarget({ channel: C, followsLatest: true }))!;
    const command = target();
    expect(applyResponse(workspace, command, { text: 'working…' })).toEqual({ ok: true, message: expect.objectContaining({ ephemeral: true }) });
    const replaced = applyResponse(workspace, command, { text: 'done', replace_original: true });
    expect(replaced).toEqual({ ok: true, message: expect.objectContaining({ text: 'done', edited: true, ephemeral: true }) });
    expect(applyResponse(workspace, command, { text: 'for all', response_type: 'in_channel' })).toEqual({
      ok: true,
      message: expect.not.objectContaining({ ephemeral: true }),
    });
    expect(applyResponse(workspace, command, { delete_original: true })).toEqual({ ok: true });
    expect(workspace.allMessages().map((m) => m.text)).toEqual(['done']);
    expect(command.uses).toBe(4);
    expect(applyResponse(workspace, command, { text: 'five' }).ok).toBe(true);
    expect(applyResponse(workspace, command, { text: 'six' })).toEqual({ ok: false, status: 404, error: 'used_url' });
    expect(RESPONSE_URL_MAX_USES).toBe(5);
  });
});

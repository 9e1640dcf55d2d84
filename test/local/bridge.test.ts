/**
 * The bridge against a scripted app on 127.0.0.1: every request verifies with Bolt's own
 * `verifySlackRequest`, carries Slack's fields, and the app's answers are applied as Slack
 * applies them — including the `response_action`s and `view_closed` the real app does not use.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidSlackRequest } from '@slack/bolt';
import { AppBridge } from '../../src/local/bridge';
import { LOCAL_APP_ID, LOCAL_TEAM, LOCAL_USER } from '../../src/local/identities';
import { Workspace } from '../../src/local/slack-standin/workspace';
import { createLogger } from '../../src/log';

const SECRET = 'bridge-test-signing-secret';

interface Received {
  contentType: string;
  fields: URLSearchParams;
  json?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  valid: boolean;
}

describe('AppBridge', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  let answer: { status: number; body: string } = { status: 200, body: '' };
  const workspace = new Workspace();
  let bridge: AppBridge;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const contentType = String(req.headers['content-type']);
        const valid = isValidSlackRequest({
          signingSecret: SECRET,
          body,
          headers: {
            'x-slack-signature': String(req.headers['x-slack-signature']),
            'x-slack-request-timestamp': Number(req.headers['x-slack-request-timestamp']),
          },
        });
        const fields = new URLSearchParams(contentType.includes('json') ? '' : body);
        received.push({
          contentType,
          fields,
          valid,
          ...(contentType.includes('json') ? { json: JSON.parse(body) as Record<string, unknown> } : {}),
          ...(fields.has('payload') ? { payload: JSON.parse(fields.get('payload')!) as Record<string, unknown> } : {}),
        });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    bridge = new AppBridge({
      workspace,
      signingSecret: SECRET,
      appEventsUrl: () => `${url}/slack/events`,
      baseUrl: () => 'http://127.0.0.1:3999',
      commands: ['/video'],
      logger: createLogger({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    answer = { status: 200, body: '' };
  });

  const modal = (title: string, extra: Record<string, unknown> = {}) => ({
    type: 'modal',
    callback_id: `cb.${title}`,
    title: { type: 'plain_text', text: title },
    blocks: [{ type: 'input', block_id: 'name', label: { type: 'plain_text', text: 'Name' }, element: { type: 'plain_text_input', action_id: 'v' } }],
    ...extra,
  });

  it('posts a slash command as Slack’s signed form, and shows a plain-text answer as an ephemeral', async () => {
    answer = { status: 200, body: 'Working on it' };
    expect(await bridge.command({ channel: 'C0LOCAL02', text: '/video  use  demo' })).toEqual({ ok: true });
    const [request] = received;
    expect(request!.valid).toBe(true);
    expect(request!.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request!.fields)).toEqual(
      expect.objectContaining({
        command: '/video',
        text: 'use  demo',
        team_id: LOCAL_TEAM.id,
        user_id: LOCAL_USER.id,
        channel_id: 'C0LOCAL02',
        channel_name: 'town-hall',
        api_app_id: LOCAL_APP_ID,
      }),
    );
    expect(request!.fields.get('response_url')).toMatch(/^http:\/\/127\.0\.0\.1:3999\/response\/[0-9a-f]{24}$/);
    expect(workspace.allMessages().at(-1)).toEqual(expect.objectContaining({ channel: 'C0LOCAL02', text: 'Working on it', ephemeral: true }));
  });

  it('reports an app that refuses, without retrying', async () => {
    answer = { status: 401, body: '' };
    expect(await bridge.command({ channel: 'C0LOCAL01', text: '/video help' })).toEqual({ ok: false, error: 'the app answered HTTP 401' });
    expect(received).toHaveLength(1);
  });

  it('applies push, update, errors and clear answers to view submissions, each a signed view_submission', async () => {
    const first = workspace.openModal(modal('one'));
    answer = { status: 200, body: JSON.stringify({ response_action: 'push', view: modal('two') }) };
    const values = { name: { v: { type: 'plain_text_input', value: 'Ada' } } };
    expect(await bridge.submit({ viewId: first.id, values })).toEqual({ ok: true });
    expect(received[0]!.valid).toBe(true);
    expect(received[0]!.payload).toEqual(
      expect.objectContaining({
        type: 'view_submission',
        user: expect.objectContaining({ id: LOCAL_USER.id }),
        team: expect.objectContaining({ id: LOCAL_TEAM.id }),
        trigger_id: expect.any(String),
        view: expect.objectContaining({ id: first.id, callback_id: 'cb.one', state: { values }, hash: first.hash }),
      }),
    );
    const second = workspace.modals()[1]!;
    expect(workspace.modals().map((v) => v.callback_id)).toEqual(['cb.one', 'cb.two']);
    expect(second.previous_view_id).toBe(first.id);

    expect(await bridge.submit({ viewId: first.id, values })).toEqual({ ok: false, error: 'only the form on top can be submitted' });
    answer = { status: 200, body: JSON.stringify({ response_action: 'errors', errors: { name: 'Too short' } }) };
    expect(await bridge.submit({ viewId: second.id, values })).toEqual({ ok: true, errors: { name: 'Too short' } });
    answer = { status: 200, body: JSON.stringify({ response_action: 'update', view: modal('two-b') }) };
    expect(await bridge.submit({ viewId: second.id, values })).toEqual({ ok: true });
    expect(workspace.modals().map((v) => [v.id, v.callback_id, v.errors])).toEqual([
      [first.id, 'cb.one', undefined],
      [second.id, 'cb.two-b', undefined],
    ]);

    answer = { status: 200, body: '' };
    expect(await bridge.submit({ viewId: second.id, values })).toEqual({ ok: true });
    expect(workspace.modals().map((v) => v.id)).toEqual([first.id]);
    answer = { status: 200, body: JSON.stringify({ response_action: 'clear' }) };
    const third = workspace.pushModal(modal('three'))!;
    expect(await bridge.submit({ viewId: third.id, values })).toEqual({ ok: true });
    expect(workspace.modals()).toEqual([]);
  });

  it('sends view_closed only for views that asked for it', async () => {
    const quiet = workspace.openModal(modal('quiet'));
    expect(await bridge.close({ viewId: quiet.id })).toEqual({ ok: true });
    expect(received).toEqual([]);
    const notifying = workspace.openModal(modal('notify', { notify_on_close: true }));
    expect(await bridge.close({ viewId: notifying.id })).toEqual({ ok: true });
    expect(received.map((r) => [r.valid, r.payload?.type, (r.payload?.view as { id: string }).id, r.payload?.is_cleared])).toEqual([
      [true, 'view_closed', notifying.id, false],
    ]);
    expect(await bridge.close({ viewId: notifying.id })).toEqual({ ok: false, error: 'that form is closed' });
  });

  it('asks for options with block_suggestion and passes Slack’s answer through', async () => {
    const view = workspace.openModal(modal('picker'));
    answer = { status: 200, body: JSON.stringify({ options: [{ text: { type: 'plain_text', text: 'demo' }, value: 'd' }] }) };
    expect(await bridge.suggestions({ viewId: view.id, actionId: 'pick', blockId: 'session', value: 'de' })).toEqual({
      ok: true,
      options: [{ text: { type: 'plain_text', text: 'demo' }, value: 'd' }],
    });
    expect(received[0]!.payload).toEqual(
      expect.objectContaining({ type: 'block_suggestion', action_id: 'pick', block_id: 'session', value: 'de', container: { type: 'view', view_id: view.id } }),
    );
  });

  it('sends app_home_opened as a signed Events API callback', async () => {
    expect(await bridge.home()).toEqual({ ok: true });
    const [request] = received;
    expect(request!.valid).toBe(true);
    expect(request!.contentType).toBe('application/json');
    expect(request!.json).toEqual(
      expect.objectContaining({
        type: 'event_callback',
        team_id: LOCAL_TEAM.id,
        api_app_id: LOCAL_APP_ID,
        event: expect.objectContaining({ type: 'app_home_opened', user: LOCAL_USER.id, tab: 'home' }),
        authorizations: [expect.objectContaining({ team_id: LOCAL_TEAM.id, is_bot: true })],
      }),
    );
  });
});

/**
 * The Slack Web API methods the app calls, answered from the `Workspace` with the bodies Slack
 * returns (`ok`, the same fields, the same error codes). Anything else answers
 * `unknown_method`, as Slack does, so a method the app starts using shows up at once.
 */
import { LOCAL_APP_ID, LOCAL_BOT, LOCAL_CONVERSATIONS, LOCAL_DM, LOCAL_TEAM, LOCAL_USER, resolveConversation } from '../identities';
import { compareTs, type StoredFile, type Workspace } from './workspace';
import type { LocalFile, Message } from './types';

export type Body = Record<string, unknown>;
export type Answer = Record<string, unknown> & { ok: boolean };

export interface WebApiContext {
  workspace: Workspace;
  /** The stand-in's own base URL (upload URLs, file URLs, permalinks), without a trailing slash. */
  baseUrl: () => string;
}

const fail = (error: string): Answer => ({ ok: false, error });
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const truthy = (value: unknown): boolean => value === true || value === 'true' || value === '1' || value === 1;

export function fileUrl(baseUrl: string, file: Pick<StoredFile, 'id' | 'name'>): string {
  return `${baseUrl}/files/${file.id}/${encodeURIComponent(file.name)}`;
}

/** The mimetype Slack would give a file, from its first bytes, else its name. */
export function sniffMimetype(name: string, bytes?: Buffer): string {
  if (bytes && bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const extension = name.toLowerCase().split('.').pop();
  const byExtension: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    svg: 'image/svg+xml',
    csv: 'text/csv',
    json: 'application/json',
    txt: 'text/plain',
  };
  return byExtension[extension ?? ''] ?? 'application/octet-stream';
}

/** A message as the Web API reads it back (`conversations.history`/`replies`). */
function apiMessage(m: Message, all: Message[], withMetadata: boolean): Record<string, unknown> {
  const replies = all.filter((r) => r.thread_ts === m.ts && r.ts !== m.ts);
  return {
    type: 'message',
    ...(m.user ? { user: m.user } : {}),
    ...(m.bot_id ? { bot_id: m.bot_id, app_id: LOCAL_APP_ID } : {}),
    ts: m.ts,
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.files ? { files: m.files } : {}),
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    ...(replies.length > 0 ? { thread_ts: m.ts, reply_count: replies.length, latest_reply: replies.at(-1)!.ts } : {}),
    ...(m.edited ? { edited: { user: m.user ?? LOCAL_BOT.userId, ts: m.ts } } : {}),
    ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
  };
}

/** One page of `list` (cursor = offset), with Slack's `oldest`/`latest`/`inclusive` filters. */
function historyPage(list: Message[], all: Message[], body: Body): Answer {
  const inclusive = truthy(body.inclusive);
  const oldest = str(body.oldest);
  const latest = str(body.latest);
  const within = list.filter((m) => {
    if (oldest !== undefined && (inclusive ? compareTs(m.ts, oldest) < 0 : compareTs(m.ts, oldest) <= 0)) return false;
    return !(latest !== undefined && (inclusive ? compareTs(m.ts, latest) > 0 : compareTs(m.ts, latest) >= 0));
  });
  const limit = Math.min(1000, Math.max(1, Number(body.limit ?? 100) || 100));
  const offset = str(body.cursor) ? Number(body.cursor) || 0 : 0;
  const page = within.slice(offset, offset + limit);
  const more = offset + limit < within.length;
  return {
    ok: true,
    messages: page.map((m) => apiMessage(m, all, truthy(body.include_all_metadata))),
    has_more: more,
    response_metadata: { next_cursor: more ? String(offset + limit) : '' },
  };
}

function blocksOf(body: Body): unknown[] | undefined {
  return Array.isArray(body.blocks) ? body.blocks : undefined;
}

function metadataOf(body: Body): Message['metadata'] | undefined {
  const metadata = body.metadata;
  return metadata && typeof metadata === 'object' ? (metadata as Message['metadata']) : undefined;
}

function botMessageFields(body: Body): Omit<Message, 'channel' | 'ts'> {
  const blocks = blocksOf(body);
  const metadata = metadataOf(body);
  const threadTs = str(body.thread_ts);
  return {
    user: LOCAL_BOT.userId,
    bot_id: LOCAL_BOT.botId,
    text: typeof body.text === 'string' ? body.text : '',
    ...(blocks ? { blocks } : {}),
    ...(metadata ? { metadata } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  };
}

type Method = (body: Body, ctx: WebApiContext) => Answer;

const methods: Record<string, Method> = {
  'auth.test': (_body, ctx) => ({
    ok: true,
    url: `${ctx.baseUrl()}/`,
    team: LOCAL_TEAM.name,
    user: LOCAL_BOT.name,
    team_id: LOCAL_TEAM.id,
    user_id: LOCAL_BOT.userId,
    bot_id: LOCAL_BOT.botId,
    is_enterprise_install: false,
  }),

  'chat.postMessage': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    if (!conversation) return fail('channel_not_found');
    if (body.text === undefined && body.blocks === undefined && body.attachments === undefined) return fail('no_text');
    const threadTs = str(body.thread_ts);
    if (threadTs && !workspace.find(conversation.id, threadTs)) return fail('thread_not_found');
    const message = workspace.post(conversation.id, botMessageFields(body));
    return { ok: true, channel: conversation.id, ts: message.ts, message: apiMessage(message, [], false) };
  },

  'chat.postEphemeral': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    if (!conversation) return fail('channel_not_found');
    if (str(body.user) !== LOCAL_USER.id) return fail('user_not_in_channel');
    if (body.text === undefined && body.blocks === undefined && body.attachments === undefined) return fail('no_text');
    const message = workspace.post(conversation.id, { ...botMessageFields(body), ephemeral: true });
    return { ok: true, message_ts: message.ts };
  },

  'chat.update': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    const ts = str(body.ts);
    if (!conversation) return fail('channel_not_found');
    const existing = ts ? workspace.find(conversation.id, ts) : undefined;
    if (!existing || existing.ephemeral) return fail('message_not_found');
    if (existing.bot_id !== LOCAL_BOT.botId) return fail('cant_update_message');
    const blocks = blocksOf(body);
    const metadata = metadataOf(body);
    const updated = workspace.update(conversation.id, existing.ts, {
      text: typeof body.text === 'string' ? body.text : existing.text,
      ...(blocks ? { blocks } : {}),
      ...(metadata ? { metadata } : {}),
    })!;
    return { ok: true, channel: conversation.id, ts: updated.ts, text: updated.text, message: apiMessage(updated, [], false) };
  },

  'chat.delete': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    const ts = str(body.ts);
    if (!conversation) return fail('channel_not_found');
    const existing = ts ? workspace.find(conversation.id, ts) : undefined;
    if (!existing || existing.ephemeral) return fail('message_not_found');
    if (existing.bot_id !== LOCAL_BOT.botId) return fail('cant_delete_message');
    workspace.remove(conversation.id, existing.ts);
    return { ok: true, channel: conversation.id, ts: existing.ts };
  },

  'chat.getPermalink': (body, { workspace, baseUrl }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    const ts = str(body.message_ts);
    if (!conversation) return fail('channel_not_found');
    if (!ts || !workspace.find(conversation.id, ts)) return fail('message_not_found');
    return { ok: true, channel: conversation.id, permalink: `${baseUrl()}/#${conversation.id}/${ts}` };
  },

  'conversations.history': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    if (!conversation) return fail('channel_not_found');
    const all = workspace.visible(conversation.id);
    // Top-level messages only (a thread's parent included), newest first.
    const top = all.filter((m) => !m.thread_ts || m.thread_ts === m.ts).reverse();
    return historyPage(top, all, body);
  },

  'conversations.replies': (body, { workspace }) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    const ts = str(body.ts);
    if (!conversation) return fail('channel_not_found');
    if (!ts) return fail('invalid_arguments');
    const all = workspace.visible(conversation.id);
    const parent = all.find((m) => m.ts === ts);
    if (!parent) return fail('thread_not_found');
    // The parent first, then its replies, oldest first.
    return historyPage([parent, ...all.filter((m) => m.thread_ts === ts && m.ts !== ts)], all, body);
  },

  'conversations.info': (body) => {
    const conversation = resolveConversation(str(body.channel) ?? '');
    if (!conversation) return fail('channel_not_found');
    const im = conversation.id === LOCAL_DM.id;
    return {
      ok: true,
      channel: {
        id: conversation.id,
        name: im ? undefined : conversation.name,
        is_channel: !im,
        is_im: im,
        is_private: false,
        is_member: true,
        ...(im ? { user: LOCAL_USER.id } : {}),
      },
    };
  },

  'conversations.list': () => ({
    ok: true,
    channels: LOCAL_CONVERSATIONS.filter((c) => c.id !== LOCAL_DM.id).map((c) => ({ id: c.id, name: c.name, is_channel: true, is_member: true })),
    response_metadata: { next_cursor: '' },
  }),

  'users.info': (body) => {
    const user = str(body.user);
    if (user === LOCAL_USER.id) {
      return {
        ok: true,
        user: {
          id: user,
          team_id: LOCAL_TEAM.id,
          name: LOCAL_USER.name,
          real_name: 'You',
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
          is_bot: false,
          profile: { display_name: LOCAL_USER.name, real_name: 'You' },
        },
      };
    }
    if (user === LOCAL_BOT.userId) {
      return {
        ok: true,
        user: { id: user, team_id: LOCAL_TEAM.id, name: LOCAL_BOT.name, is_bot: true, profile: { display_name: LOCAL_BOT.name, bot_id: LOCAL_BOT.botId } },
      };
    }
    return fail('user_not_found');
  },

  'usergroups.list': () => ({ ok: true, usergroups: [] }),
  'usergroups.users.list': () => fail('no_such_subteam'),

  'views.open': (body, { workspace }) => {
    const triggerError = workspace.takeTrigger(body.trigger_id);
    if (triggerError) return fail(triggerError);
    if (!body.view || typeof body.view !== 'object') return fail('invalid_arguments');
    return { ok: true, view: workspace.openModal(body.view as Record<string, unknown>) };
  },

  'views.push': (body, { workspace }) => {
    const triggerError = workspace.takeTrigger(body.trigger_id);
    if (triggerError) return fail(triggerError);
    if (!body.view || typeof body.view !== 'object') return fail('invalid_arguments');
    const view = workspace.pushModal(body.view as Record<string, unknown>);
    return view ? { ok: true, view } : fail('push_limit_reached');
  },

  'views.update': (body, { workspace }) => {
    const viewId = str(body.view_id);
    const existing = viewId ? workspace.findView(viewId) : workspace.findViewByExternalId(str(body.external_id) ?? '');
    if (!existing) return fail('not_found');
    const hash = str(body.hash);
    if (hash && hash !== existing.hash) return fail('hash_conflict');
    if (!body.view || typeof body.view !== 'object') return fail('invalid_arguments');
    return { ok: true, view: workspace.replaceView(existing, body.view as Record<string, unknown>) };
  },

  'views.publish': (body, { workspace }) => {
    if (str(body.user_id) !== LOCAL_USER.id) return fail('user_not_found');
    if (!body.view || typeof body.view !== 'object') return fail('invalid_arguments');
    return { ok: true, view: workspace.publishHome(body.view as Record<string, unknown>) };
  },

  'files.getUploadURLExternal': (body, { workspace, baseUrl }) => {
    const filename = str(body.filename);
    const length = Number(body.length);
    if (!filename || !Number.isInteger(length) || length <= 0) return fail('invalid_arguments');
    const file = workspace.addFile({
      name: filename,
      length,
      mimetype: sniffMimetype(filename),
      ...(str(body.alt_text) ? { altText: str(body.alt_text)! } : {}),
    });
    return { ok: true, upload_url: `${baseUrl()}/upload/${file.id}`, file_id: file.id };
  },

  'files.completeUploadExternal': (body, { workspace, baseUrl }) => {
    const requested = Array.isArray(body.files) ? (body.files as Array<{ id?: string; title?: string }>) : [];
    const files = requested.map((f) => (f.id ? workspace.file(f.id) : undefined));
    if (requested.length === 0 || files.some((f) => !f?.bytes)) return fail('file_not_found');
    const channelId = str(body.channel_id) ?? str(body.channels);
    const conversation = channelId === undefined ? undefined : resolveConversation(channelId);
    if (channelId !== undefined && !conversation) return fail('channel_not_found');
    const shared: LocalFile[] = files.map((f, i) => {
      f!.title = requested[i]!.title ?? f!.name;
      return { id: f!.id, name: f!.name, title: f!.title, mimetype: f!.mimetype, url: fileUrl(baseUrl(), f!) };
    });
    if (conversation) {
      const threadTs = str(body.thread_ts);
      const blocks = blocksOf(body);
      workspace.post(conversation.id, {
        user: LOCAL_BOT.userId,
        bot_id: LOCAL_BOT.botId,
        text: typeof body.initial_comment === 'string' ? body.initial_comment : '',
        ...(blocks ? { blocks } : {}),
        files: shared,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
    }
    return { ok: true, files: shared.map((f, i) => ({ ...f, size: files[i]!.bytes!.length, url_private: f.url, permalink: f.url })) };
  },
};

export const WEB_API_METHODS: readonly string[] = Object.keys(methods);

/** Answers one Web API call (the token already checked). */
export function answerWebApi(method: string, body: Body, ctx: WebApiContext): Answer {
  const handler = methods[method];
  return handler ? handler(body, ctx) : fail('unknown_method');
}

/**
 * A fake Slack Web API on 127.0.0.1 for end-to-end tests (the app's WebClient points at it via
 * `slackApiUrl`). It implements the methods the app calls with realistic `ok` bodies, records
 * every call (method, parsed body, token), serves `response_url`s and records what was posted to
 * them, and has fault knobs (429 with Retry-After, 500, Slack errors such as `not_in_channel`, no
 * answer at all) and can hold a call until released.
 *
 * Waiting is event-driven: `waitForCall` resolves the moment a matching call is recorded.
 */
import { EventEmitter } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  /** Web API method, e.g. `chat.postMessage`. */
  method: string;
  /** Form fields or JSON body; JSON-valued form fields (blocks, view) are parsed. */
  body: Record<string, unknown>;
  token?: string;
  at: number;
  seq: number;
}

export interface RecordedResponse {
  /** The id in the response_url path. */
  id: string;
  body: Record<string, unknown>;
  at: number;
  seq: number;
}

/** A file uploaded through `files.uploadV2` (getUploadURLExternal → upload URL → completeUploadExternal). */
export interface RecordedUpload {
  fileId: string;
  filename: string;
  /** The length announced to files.getUploadURLExternal. */
  length: number;
  altText?: string;
  /** The bytes posted to the upload URL; undefined until they arrive. */
  bytes?: Buffer;
  /** Set by files.completeUploadExternal. */
  completed?: { channelId?: string; title?: string; initialComment?: string; blocks?: unknown; seq: number };
  /** Set by files.delete. */
  deleted?: boolean;
}

/**
 * `applied`: the call takes effect (a message is posted) but the answer is a 500, as when a reply
 * is lost. `hang`: no answer at all (the connection stays open until the caller gives up or the
 * fake closes).
 */
export type Fault = { status: 429; retryAfterSeconds: number } | { status: 500; applied?: boolean } | { error: string } | { hang: true };

/** A call held back by `holdNext`: it is recorded at once, answered (normally) only on release. */
export interface HeldCall {
  /** Resolves with the call once it arrived. */
  arrived: Promise<RecordedCall>;
  /** Lets it through: it takes effect and is answered. */
  release(): void;
}

/** A message as the fake keeps it (chat.postMessage, then chat.update). */
export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks?: unknown;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  /** How many times chat.update replaced it. */
  updates: number;
}

/**
 * One channel's messages in post order, found by ts and by thread without a walk through them: a
 * soak posts tens of thousands an hour to one channel, and a scan per `chat.update` grew the fake's
 * CPU with every message (bench/README.md).
 */
class ChannelMessages {
  readonly all: StoredMessage[] = [];
  readonly #byTs = new Map<string, StoredMessage>();
  readonly #replies = new Map<string, StoredMessage[]>();

  add(message: StoredMessage): void {
    this.all.push(message);
    this.#byTs.set(message.ts, message);
    if (message.threadTs === undefined || message.threadTs === message.ts) return;
    const replies = this.#replies.get(message.threadTs);
    if (replies) replies.push(message);
    else this.#replies.set(message.threadTs, [message]);
  }

  get(ts: string): StoredMessage | undefined {
    return this.#byTs.get(ts);
  }

  /** The replies in a thread, oldest first (not its parent). */
  replies(threadTs: string): readonly StoredMessage[] {
    return this.#replies.get(threadTs) ?? [];
  }
}

export interface FakeSlackOptions {
  botToken?: string;
  teamId?: string;
  botUserId?: string;
  /**
   * Message timestamps follow this clock (epoch ms) instead of a counter from 2023, so that
   * `oldest` filters line up with the app's own clock (the poller's duplicate check reads them).
   */
  clock?: () => number;
}

export interface FakeSlack {
  readonly url: string;
  /** The `slackApiUrl` for WebClient (ends with `/api/`). */
  readonly apiUrl: string;
  readonly calls: readonly RecordedCall[];
  readonly responses: readonly RecordedResponse[];
  /** Files uploaded with files.uploadV2, in the order their upload URLs were handed out. */
  readonly uploads: readonly RecordedUpload[];
  readonly teamId: string;
  readonly botUserId: string;
  /** A fresh response_url served by this fake. */
  newResponseUrl(): string;
  /** Makes `chat.postMessage` (and postEphemeral) answer `not_in_channel` for these channels. */
  setNotInChannel(channelId: string, notIn?: boolean): void;
  /** A private channel: `conversations.info` answers `missing_scope`, as Slack does to an app without `groups:read`. */
  setPrivateChannel(channelId: string): void;
  /** Members of a user group, for `usergroups.users.list`. */
  setUsergroup(groupId: string, users: string[]): void;
  /** The next `times` calls of `method` (those matching `when`, if given) answer with the fault instead. */
  failNext(method: string, fault: Fault, times?: number, when?: (body: Record<string, unknown>) => boolean): void;
  /** Holds the next call of `method` (matching `when`) until released, e.g. to act while it is in flight. */
  holdNext(method: string, when?: (body: Record<string, unknown>) => boolean): HeldCall;
  /** Messages posted in a channel (thread replies included), oldest first, as last updated; from the `from`th on. */
  messages(channelId: string, from?: number): StoredMessage[];
  /** The replies in a thread (without its parent), oldest first. */
  threadReplies(channelId: string, threadTs: string): StoredMessage[];
  /** Calls of `method` recorded after `since` (a sequence mark from `mark()`), oldest first. */
  callsOf(method: string, since?: number): RecordedCall[];
  /** The sequence number the next record will get; pass it as `since`. */
  mark(): number;
  waitForCall(method: string, predicate?: (call: RecordedCall) => boolean, options?: WaitOptions): Promise<RecordedCall>;
  waitForResponse(id: string, predicate?: (r: RecordedResponse) => boolean, options?: WaitOptions): Promise<RecordedResponse>;
  responsesTo(id: string): RecordedResponse[];
  /**
   * Forgets the calls and responses recorded before `mark` (a long soak keeps this process's heap,
   * and the cost of its collections, from growing with every body recorded); `callCounts` still
   * counts them. Messages stay.
   */
  forgetBefore(mark: number): void;
  /** Calls so far by method, forgotten ones included. */
  callCounts(): Record<string, number>;
  close(): Promise<void>;
}

export interface WaitOptions {
  /** Only records with seq >= since count. */
  since?: number;
  timeoutMs?: number;
}

interface ViewRecord {
  id: string;
  hash: string;
  view: Record<string, unknown>;
}

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'files']);

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? 'xoxb-test-token';
  const teamId = options.teamId ?? 'T0TEST';
  const botUserId = options.botUserId ?? 'U0BOT';
  const calls: RecordedCall[] = [];
  /** Calls by method that `forgetBefore` dropped. */
  const forgottenCalls = new Map<string, number>();
  const responses: RecordedResponse[] = [];
  const uploads: RecordedUpload[] = [];
  const notInChannel = new Set<string>();
  const privateChannels = new Set<string>();
  const usergroups = new Map<string, string[]>();
  const faults = new Map<string, { fault: Fault; remaining: number; when?: (body: Record<string, unknown>) => boolean }[]>();
  const views = new Map<string, ViewRecord>();
  const holds: { method: string; when?: (body: Record<string, unknown>) => boolean; arrived: (call: RecordedCall) => void; released: Promise<void> }[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let seq = 0;
  let tsCounter = 0;
  let idCounter = 0;
  let responseCounter = 0;

  const stored = new Map<string, ChannelMessages>();
  let lastClockTs: [number, number] = [0, 0];
  const nextTs = (): string => {
    tsCounter++;
    if (!options.clock) return `${1_700_000_000 + tsCounter}.${String(tsCounter).padStart(6, '0')}`;
    // Seconds from the clock; the fraction keeps ts unique and increasing when the clock stands still.
    const ms = options.clock();
    let seconds = Math.floor(ms / 1000);
    let micros = (ms % 1000) * 1000;
    if (seconds < lastClockTs[0] || (seconds === lastClockTs[0] && micros <= lastClockTs[1])) [seconds, micros] = [lastClockTs[0], lastClockTs[1] + 1];
    if (micros > 999_999) [seconds, micros] = [seconds + 1, 0];
    lastClockTs = [seconds, micros];
    return `${seconds}.${String(micros).padStart(6, '0')}`;
  };
  /** Compares Slack timestamps exactly (as numbers they lose the last digits). */
  const tsKey = (ts: string): bigint => {
    const [seconds = '0', fraction = ''] = ts.split('.');
    return BigInt(seconds) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6) || '0');
  };
  const truthy = (value: unknown): boolean => value === true || value === 'true' || value === '1' || value === 1;

  function storeMessage(channel: string, ts: string, body: Record<string, unknown>): void {
    let messages = stored.get(channel);
    if (!messages) stored.set(channel, (messages = new ChannelMessages()));
    const metadata = body.metadata as StoredMessage['metadata'] | undefined;
    messages.add({
      channel,
      ts,
      ...(typeof body.thread_ts === 'string' && body.thread_ts ? { threadTs: body.thread_ts } : {}),
      text: typeof body.text === 'string' ? body.text : '',
      ...(body.blocks !== undefined ? { blocks: body.blocks } : {}),
      ...(metadata && typeof metadata === 'object' ? { metadata } : {}),
      updates: 0,
    });
  }

  function asApiMessage(m: StoredMessage, withMetadata: boolean): Record<string, unknown> {
    return {
      type: 'message',
      user: botUserId,
      bot_id: 'B0BOT',
      ts: m.ts,
      text: m.text,
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
      ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
    };
  }

  /** One page of `list` (cursor = offset), with Slack's `oldest`/`latest`/`inclusive` filters. */
  function historyPage(list: StoredMessage[], body: Record<string, unknown>): Record<string, unknown> {
    const inclusive = truthy(body.inclusive);
    const oldest = typeof body.oldest === 'string' ? tsKey(body.oldest) : undefined;
    const latest = typeof body.latest === 'string' ? tsKey(body.latest) : undefined;
    const within = list.filter((m) => {
      const key = tsKey(m.ts);
      if (oldest !== undefined && (inclusive ? key < oldest : key <= oldest)) return false;
      return !(latest !== undefined && (inclusive ? key > latest : key >= latest));
    });
    const limit = Math.min(1000, Math.max(1, Number(body.limit ?? 100) || 100));
    const offset = typeof body.cursor === 'string' && body.cursor ? Number(body.cursor) : 0;
    const page = within.slice(offset, offset + limit);
    const more = offset + limit < within.length;
    return {
      ok: true,
      messages: page.map((m) => asApiMessage(m, truthy(body.include_all_metadata))),
      has_more: more,
      response_metadata: { next_cursor: more ? String(offset + limit) : '' },
    };
  }
  const nextId = (prefix: string): string => `${prefix}${String(++idCounter).padStart(8, '0')}`;

  function takeFault(method: string, body: Record<string, unknown>): Fault | undefined {
    const queue = faults.get(method) ?? [];
    const index = queue.findIndex((f) => !f.when || f.when(body));
    const armed = queue[index];
    if (!armed) return undefined;
    armed.remaining--;
    if (armed.remaining <= 0) queue.splice(index, 1);
    return armed.fault;
  }

  function answerMethod(method: string, body: Record<string, unknown>): Record<string, unknown> {
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://vidops-test.slack.com/',
          team: 'vidops test',
          user: 'vidops',
          team_id: teamId,
          user_id: botUserId,
          bot_id: 'B0BOT',
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        if (body.text === undefined && body.blocks === undefined && body.attachments === undefined) return { ok: false, error: 'no_text' };
        const badFile = invalidSlackFile(body.blocks);
        if (badFile) return { ok: false, error: 'invalid_blocks', errors: [`invalid slack file [json-pointer:${badFile}]`] };
        const ts = nextTs();
        const resolved = channel.startsWith('U') ? `D${channel.slice(1)}` : channel;
        storeMessage(resolved, ts, body);
        return {
          ok: true,
          channel: resolved,
          ts,
          message: { type: 'message', user: botUserId, bot_id: 'B0BOT', text: body.text ?? '', blocks: body.blocks, ts },
        };
      }
      case 'chat.postEphemeral':
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        return { ok: true, message_ts: nextTs() };
      case 'chat.update': {
        if (!channel || typeof body.ts !== 'string') return { ok: false, error: 'message_not_found' };
        const badUpdateFile = invalidSlackFile(body.blocks);
        if (badUpdateFile) return { ok: false, error: 'invalid_blocks', errors: [`invalid slack file [json-pointer:${badUpdateFile}]`] };
        const message = stored.get(channel)?.get(body.ts);
        if (message) {
          message.updates += 1;
          if (typeof body.text === 'string') message.text = body.text;
          if (body.blocks !== undefined) message.blocks = body.blocks;
        }
        return { ok: true, channel, ts: body.ts, text: body.text ?? '', message: { text: body.text ?? '', blocks: body.blocks } };
      }
      case 'conversations.history': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        // Top-level messages only, newest first.
        const top = (stored.get(channel)?.all ?? []).filter((m) => !m.threadTs || m.threadTs === m.ts).reverse();
        return historyPage(top, body);
      }
      case 'conversations.replies': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (typeof body.ts !== 'string') return { ok: false, error: 'invalid_arguments' };
        const messages = stored.get(channel);
        const parent = messages?.get(body.ts);
        if (!messages || !parent) return { ok: false, error: 'thread_not_found' };
        // The parent first, then its replies, oldest first.
        return historyPage([parent, ...messages.replies(body.ts)], body);
      }
      case 'views.open':
      case 'views.push': {
        if (typeof body.trigger_id !== 'string' || body.trigger_id.length === 0) return { ok: false, error: 'invalid_trigger_id' };
        return { ok: true, view: storeView(nextId('V'), body.view) };
      }
      case 'views.update': {
        const id = typeof body.view_id === 'string' ? body.view_id : undefined;
        const existing = id ? views.get(id) : [...views.values()].find((v) => v.view.external_id === body.external_id);
        if (!existing) return { ok: false, error: 'not_found' };
        if (typeof body.hash === 'string' && body.hash !== existing.hash) return { ok: false, error: 'hash_conflict' };
        return { ok: true, view: storeView(existing.id, body.view) };
      }
      case 'views.publish':
        if (typeof body.user_id !== 'string') return { ok: false, error: 'invalid_arguments' };
        return { ok: true, view: storeView(nextId('V'), body.view) };
      case 'usergroups.users.list': {
        const group = typeof body.usergroup === 'string' ? body.usergroup : '';
        const users = usergroups.get(group);
        if (!users) return { ok: false, error: 'no_such_subteam' };
        return { ok: true, users };
      }
      case 'users.info': {
        const user = typeof body.user === 'string' ? body.user : '';
        if (!/^[UW]/.test(user)) return { ok: false, error: 'user_not_found' };
        return {
          ok: true,
          user: {
            id: user,
            team_id: teamId,
            name: user.toLowerCase(),
            real_name: `User ${user}`,
            tz: 'Europe/Paris',
            profile: { display_name: user.toLowerCase() },
          },
        };
      }
      case 'files.getUploadURLExternal': {
        const length = Number(body.length);
        if (typeof body.filename !== 'string' || body.filename === '') return { ok: false, error: 'invalid_arguments' };
        if (!Number.isInteger(length) || length <= 0) return { ok: false, error: 'invalid_arguments' };
        const fileId = nextId('F');
        uploads.push({ fileId, filename: body.filename, length, ...(typeof body.alt_text === 'string' ? { altText: body.alt_text } : {}) });
        return { ok: true, upload_url: `${url}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal': {
        const files = Array.isArray(body.files) ? (body.files as { id?: string; title?: string }[]) : [];
        const found = files.map((f) => uploads.find((u) => u.fileId === f.id));
        if (files.length === 0 || found.some((u) => u === undefined || u.bytes === undefined)) return { ok: false, error: 'file_not_found' };
        const channelId = typeof body.channel_id === 'string' ? body.channel_id : undefined;
        if (channelId !== undefined && notInChannel.has(channelId)) return { ok: false, error: 'not_in_channel' };
        found.forEach((u, i) => {
          u!.completed = {
            channelId,
            title: files[i]!.title,
            ...(typeof body.initial_comment === 'string' ? { initialComment: body.initial_comment } : {}),
            ...(body.blocks !== undefined ? { blocks: body.blocks } : {}),
            seq,
          };
        });
        return { ok: true, files: found.map((u, i) => ({ id: u!.fileId, name: u!.filename, title: files[i]!.title ?? u!.filename, size: u!.bytes!.length })) };
      }
      case 'files.delete': {
        const upload = uploads.find((u) => u.fileId === body.file && !u.deleted);
        if (!upload) return { ok: false, error: 'file_not_found' };
        upload.deleted = true;
        return { ok: true };
      }
      case 'conversations.info': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (privateChannels.has(channel)) return { ok: false, error: 'missing_scope', needed: 'groups:read', provided: 'channels:read' };
        return { ok: true, channel: { id: channel, name: channel.toLowerCase(), is_channel: true, is_private: false, is_member: !notInChannel.has(channel) } };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** Where an image block names a file the bot cannot show (unknown, never completed, deleted):
   * Slack answers invalid_blocks. Undefined when every `slack_file` is fine. */
  function invalidSlackFile(blocks: unknown): string | undefined {
    if (!Array.isArray(blocks)) return undefined;
    for (const [i, block] of blocks.entries()) {
      const file = (block as { type?: unknown; slack_file?: { id?: unknown; url?: unknown } }).slack_file;
      if ((block as { type?: unknown }).type !== 'image' || file === undefined) continue;
      const upload = uploads.find((u) => u.fileId === file.id);
      if (typeof file.url === 'string' || !upload?.completed || upload.deleted) return `/blocks/${i}/slack_file`;
    }
    return undefined;
  }

  function storeView(id: string, view: unknown): Record<string, unknown> {
    const record: ViewRecord = { id, hash: `${Date.now()}.${nextId('h')}`, view: { ...(view as Record<string, unknown>), id } };
    views.set(id, record);
    return { ...record.view, hash: record.hash, team_id: teamId };
  }

  /** Where the records from `since` on begin (a list is in `seq` order): a long run's waits do not read it all. */
  function firstAtOrAfter(list: readonly { seq: number }[], since: number): number {
    let [low, high] = [0, list.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (list[middle]!.seq < since) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function record<T extends { seq: number }>(list: T[], item: T, event: string): void {
    list.push(item);
    events.emit(event, item);
  }

  async function readBytes(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** The upload URL receives the file as the multipart form field `file` (or raw bytes). */
  async function receiveUpload(fileId: string, bytes: Buffer, contentType: string): Promise<{ status: number; text: string }> {
    const upload = uploads.find((u) => u.fileId === fileId);
    if (!upload) return { status: 404, text: 'unknown upload' };
    let data = bytes;
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
      const part = [...form.values()].find((v): v is File => typeof v !== 'string');
      if (!part) return { status: 400, text: 'no file in the form' };
      data = Buffer.from(await part.arrayBuffer());
    }
    upload.bytes = data;
    return { status: 200, text: `OK - ${data.length}` };
  }

  function parseBody(raw: string, contentType: string): Record<string, unknown> {
    if (contentType.includes('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [key, value] of new URLSearchParams(raw)) {
      if (JSON_FIELDS.has(key)) {
        try {
          out[key] = JSON.parse(value);
          continue;
        } catch {
          // Slack would reject it; record it as sent.
        }
      }
      out[key] = value;
    }
    return out;
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const bytes = await readBytes(req);
      const contentType = String(req.headers['content-type'] ?? '');
      if (url.pathname.startsWith('/upload/')) {
        const answer = await receiveUpload(url.pathname.slice('/upload/'.length), bytes, contentType);
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        res.end(answer.text);
        return;
      }
      const raw = bytes.toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = parseBody(raw, contentType);
      } catch {
        send(res, 400, { ok: false, error: 'invalid_json' });
        return;
      }
      if (url.pathname.startsWith('/response/')) {
        const id = url.pathname.slice('/response/'.length);
        record(responses, { id, body, at: Date.now(), seq: seq++ }, 'response');
        send(res, 200, { ok: true });
        return;
      }
      if (!url.pathname.startsWith('/api/')) {
        send(res, 404, { ok: false, error: 'not_found' });
        return;
      }
      const method = url.pathname.slice('/api/'.length);
      const auth = String(req.headers.authorization ?? '');
      const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : typeof body.token === 'string' ? body.token : undefined;
      const call: RecordedCall = { method, body, token, at: Date.now(), seq: seq++ };
      record(calls, call, 'call');
      const fault = takeFault(method, body);
      if (fault && 'hang' in fault) return;
      const held = holds.findIndex((h) => h.method === method && (!h.when || h.when(body)));
      if (held >= 0) {
        const [hold] = holds.splice(held, 1);
        hold!.arrived(call);
        await hold!.released;
      }
      if (fault) {
        if ('status' in fault && fault.status === 500 && fault.applied) answerMethod(method, body);
        if ('error' in fault) send(res, 200, { ok: false, error: fault.error });
        else if (fault.status === 429) send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(fault.retryAfterSeconds) });
        else send(res, 500, { ok: false, error: 'internal_error' });
        return;
      }
      if (token === undefined) {
        send(res, 200, { ok: false, error: 'not_authed' });
        return;
      }
      if (token !== botToken) {
        send(res, 200, { ok: false, error: 'invalid_auth' });
        return;
      }
      send(res, 200, answerMethod(method, body));
    })().catch((err: unknown) => {
      send(res, 500, { ok: false, error: 'fake_slack_failure', detail: String(err) });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  function waitFor<T extends { seq: number }>(
    list: T[],
    event: string,
    matches: (item: T) => boolean,
    describe: string,
    options: WaitOptions = {},
  ): Promise<T> {
    const since = options.since ?? 0;
    const timeoutMs = options.timeoutMs ?? 5_000;
    const test = (item: T): boolean => item.seq >= since && matches(item);
    for (let i = firstAtOrAfter(list, since); i < list.length; i++) if (matches(list[i]!)) return Promise.resolve(list[i]!);
    return new Promise<T>((resolve, reject) => {
      const onItem = (item: T): void => {
        if (!test(item)) return;
        clearTimeout(timer);
        events.off(event, onItem);
        resolve(item);
      };
      const timer = setTimeout(() => {
        events.off(event, onItem);
        reject(
          new Error(
            `fake Slack: no ${describe} within ${timeoutMs} ms (recorded: ${list.map((i) => ('method' in i ? String(i.method) : 'response')).join(', ') || 'nothing'})`,
          ),
        );
      }, timeoutMs);
      events.on(event, onItem);
    });
  }

  return {
    url,
    apiUrl: `${url}/api/`,
    calls,
    responses,
    uploads,
    teamId,
    botUserId,
    newResponseUrl: () => `${url}/response/R${String(++responseCounter).padStart(6, '0')}`,
    setNotInChannel(channelId, notIn = true) {
      if (notIn) notInChannel.add(channelId);
      else notInChannel.delete(channelId);
    },
    setPrivateChannel(channelId) {
      privateChannels.add(channelId);
    },
    setUsergroup(groupId, users) {
      usergroups.set(groupId, [...users]);
    },
    failNext(method, fault, times = 1, when) {
      const queue = faults.get(method) ?? [];
      queue.push({ fault, remaining: times, when });
      faults.set(method, queue);
    },
    holdNext(method, when) {
      let arrived!: (call: RecordedCall) => void;
      let release!: () => void;
      const arrivedPromise = new Promise<RecordedCall>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ method, ...(when && { when }), arrived, released });
      return { arrived: arrivedPromise, release };
    },
    messages: (channelId, from = 0) => (stored.get(channelId)?.all ?? []).slice(from),
    threadReplies: (channelId, threadTs) => [...(stored.get(channelId)?.replies(threadTs) ?? [])],
    callsOf: (method, since = 0) => calls.filter((c) => c.method === method && c.seq >= since),
    mark: () => seq,
    waitForCall: (method, predicate = () => true, options) =>
      waitFor(calls, 'call', (c) => c.method === method && predicate(c), `${method} call matching`, options),
    waitForResponse: (id, predicate = () => true, options) => waitFor(responses, 'response', (r) => r.id === id && predicate(r), `response to ${id}`, options),
    responsesTo: (id) => responses.filter((r) => r.id === id),
    forgetBefore(mark) {
      const dropped = calls.splice(0, firstAtOrAfter(calls, mark));
      for (const call of dropped) forgottenCalls.set(call.method, (forgottenCalls.get(call.method) ?? 0) + 1);
      responses.splice(0, firstAtOrAfter(responses, mark));
    },
    callCounts() {
      const counts = Object.fromEntries(forgottenCalls);
      for (const call of calls) counts[call.method] = (counts[call.method] ?? 0) + 1;
      return counts;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

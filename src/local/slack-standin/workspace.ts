/**
 * The stand-in's memory of the workspace: messages per conversation (thread replies and
 * ephemerals included), the user's modal stack and App Home, uploaded files, trigger ids and
 * response URLs. Every change is emitted as a `Change` (PROTOCOL.md) for the page's event stream.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { LOCAL_APP_ID, LOCAL_BOT, LOCAL_TEAM } from '../identities';
import type { Change, LocalFile, Message, View, ViewState } from './types';

/** Slack lets a trigger id open a view for 3 seconds, once. */
export const TRIGGER_LIFETIME_MS = 3_000;
/** Slack's modal stack holds at most three views. */
export const MAX_MODAL_STACK = 3;

/** Where a response_url's posts go: the conversation, and the message an action came from. */
export interface ResponseTarget {
  channel: string;
  threadTs?: string;
  /** The message `replace_original` / `delete_original` act on (the clicked message, or the last reply). */
  originalTs?: string;
  /** A slash command's URL: each reply becomes the original the next one may replace. */
  followsLatest?: boolean;
}

export interface StoredFile {
  id: string;
  name: string;
  length: number;
  title?: string;
  altText?: string;
  bytes?: Buffer;
  mimetype: string;
  /** Set by files.completeUploadExternal: only then may a message show it. */
  completed?: boolean;
}

export type ViewFields = Record<string, unknown>;

export class Workspace {
  private readonly conversations = new Map<string, Message[]>();
  private modalStack: View[] = [];
  private home: View | null = null;
  private readonly files = new Map<string, StoredFile>();
  private readonly triggers = new Map<string, number>();
  private readonly responseTargets = new Map<string, ResponseTarget & { uses: number }>();
  private readonly emitter = new EventEmitter();
  private lastTs: [number, number] = [0, 0];
  private counter = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.emitter.setMaxListeners(0);
  }

  onChange(listener: (change: Change) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  emit(change: Change): void {
    this.emitter.emit('change', change);
  }

  nextId(prefix: string): string {
    return `${prefix}0${String(++this.counter).padStart(8, '0')}${randomBytes(2).toString('hex').toUpperCase()}`;
  }

  /** Wall-clock seconds with a microsecond fraction that keeps every ts unique and increasing. */
  private nextTs(): string {
    const ms = this.now();
    let seconds = Math.floor(ms / 1000);
    let micros = (ms % 1000) * 1000;
    const [lastSeconds, lastMicros] = this.lastTs;
    if (seconds < lastSeconds || (seconds === lastSeconds && micros <= lastMicros)) [seconds, micros] = [lastSeconds, lastMicros + 1];
    if (micros > 999_999) [seconds, micros] = [seconds + 1, 0];
    this.lastTs = [seconds, micros];
    return `${seconds}.${String(micros).padStart(6, '0')}`;
  }

  // Messages.

  post(channel: string, fields: Omit<Message, 'channel' | 'ts'>): Message {
    const message: Message = { channel, ts: this.nextTs(), ...fields, ...(fields.blocks ? { blocks: withBlockIds(fields.blocks) } : {}) };
    const list = this.conversations.get(channel) ?? [];
    list.push(message);
    this.conversations.set(channel, list);
    this.emit({ type: 'message', message: { ...message } });
    return message;
  }

  find(channel: string, ts: string): Message | undefined {
    return this.conversations.get(channel)?.find((m) => m.ts === ts);
  }

  update(channel: string, ts: string, fields: Pick<Message, 'text' | 'blocks' | 'metadata'>): Message | undefined {
    const message = this.find(channel, ts);
    if (!message) return undefined;
    if (fields.text !== undefined) message.text = fields.text;
    if (fields.blocks !== undefined) message.blocks = withBlockIds(fields.blocks);
    if (fields.metadata !== undefined) message.metadata = fields.metadata;
    message.edited = true;
    this.emit({ type: 'message_changed', message: { ...message } });
    return message;
  }

  remove(channel: string, ts: string): boolean {
    const list = this.conversations.get(channel) ?? [];
    const index = list.findIndex((m) => m.ts === ts);
    if (index < 0) return false;
    list.splice(index, 1);
    this.emit({ type: 'message_deleted', channel, ts });
    return true;
  }

  /** Every message of every conversation, oldest first (what the page shows). */
  allMessages(): Message[] {
    return [...this.conversations.values()].flat().sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** What the app can read back: everything but ephemerals, oldest first. */
  visible(channel: string): Message[] {
    return (this.conversations.get(channel) ?? []).filter((m) => !m.ephemeral);
  }

  // Views.

  modals(): View[] {
    return this.modalStack.map((v) => ({ ...v }));
  }

  homeView(): View | null {
    return this.home ? { ...this.home } : null;
  }

  findView(id: string): View | undefined {
    return this.modalStack.find((v) => v.id === id) ?? (this.home?.id === id ? this.home : undefined);
  }

  findViewByExternalId(externalId: string): View | undefined {
    if (!externalId) return undefined;
    return this.modalStack.find((v) => v.external_id === externalId) ?? (this.home?.external_id === externalId ? this.home : undefined);
  }

  /** A new view from what the app sent (`views.open`/`push`/`publish`, or a `response_action`). */
  buildView(fields: ViewFields, id: string, previous: View | undefined, root: string | undefined): View {
    const type = fields.type === 'home' ? 'home' : 'modal';
    const blocks = withBlockIds(Array.isArray(fields.blocks) ? fields.blocks : []);
    return {
      id,
      team_id: LOCAL_TEAM.id,
      type,
      callback_id: typeof fields.callback_id === 'string' ? fields.callback_id : '',
      ...(fields.title !== undefined ? { title: fields.title } : {}),
      ...(fields.submit !== undefined ? { submit: fields.submit } : {}),
      ...(fields.close !== undefined ? { close: fields.close } : {}),
      blocks,
      private_metadata: typeof fields.private_metadata === 'string' ? fields.private_metadata : '',
      external_id: typeof fields.external_id === 'string' ? fields.external_id : '',
      state: { values: initialValues(blocks) },
      hash: `${Math.floor(this.now() / 1000)}.${randomBytes(4).toString('hex')}`,
      ...(fields.notify_on_close === true ? { notify_on_close: true } : {}),
      ...(fields.clear_on_close === true ? { clear_on_close: true } : {}),
      root_view_id: root ?? id,
      previous_view_id: previous?.id ?? null,
      app_id: LOCAL_APP_ID,
      bot_id: LOCAL_BOT.botId,
      app_installed_team_id: LOCAL_TEAM.id,
    };
  }

  /** `views.open`: a new stack with this view. */
  openModal(fields: ViewFields): View {
    const view = this.buildView(fields, this.nextId('V'), undefined, undefined);
    this.modalStack = [view];
    this.emitViews();
    return view;
  }

  pushModal(fields: ViewFields): View | undefined {
    if (this.modalStack.length >= MAX_MODAL_STACK) return undefined;
    const previous = this.modalStack.at(-1);
    const view = this.buildView(fields, this.nextId('V'), previous, previous?.root_view_id);
    this.modalStack.push(view);
    this.emitViews();
    return view;
  }

  /**
   * Replaces a view in place: same id, new hash and content. Like Slack, what the person entered
   * survives where the block and action ids (and the element type) stay the same.
   */
  replaceView(existing: View, fields: ViewFields): View {
    const previous = this.modalStack[this.modalStack.indexOf(existing) - 1];
    const view = this.buildView({ ...fields, type: existing.type }, existing.id, previous, existing.root_view_id);
    view.state = { values: carriedOver(existing.state.values, view.state.values) };
    if (existing.type === 'home') {
      this.home = view;
      this.emit({ type: 'home', view: { ...view } });
    } else {
      this.modalStack[this.modalStack.indexOf(existing)] = view;
      this.emitViews();
    }
    return view;
  }

  publishHome(fields: ViewFields): View {
    const view = this.buildView({ ...fields, type: 'home' }, this.home?.id ?? this.nextId('V'), undefined, undefined);
    this.home = view;
    this.emit({ type: 'home', view: { ...view } });
    return view;
  }

  setViewState(view: View, values: ViewState): void {
    view.state = { values };
  }

  setViewErrors(view: View, errors: Record<string, string> | undefined): void {
    if (errors) view.errors = errors;
    else delete view.errors;
    this.emitViews();
  }

  /** Closes one view of the stack (an empty ack to its submission, or the page's Cancel). */
  closeModal(id: string): void {
    this.modalStack = this.modalStack.filter((v) => v.id !== id);
    this.emitViews();
  }

  clearModals(): void {
    this.modalStack = [];
    this.emitViews();
  }

  private emitViews(): void {
    this.emit({ type: 'views', views: this.modals() });
  }

  // Triggers and response URLs.

  newTrigger(): string {
    const id = `${Math.floor(this.now() / 1000)}.${this.counter + 1}.${randomBytes(8).toString('hex')}`;
    this.counter++;
    this.triggers.set(id, this.now());
    return id;
  }

  /** Uses up a trigger id: undefined when valid, else Slack's error code. */
  takeTrigger(id: unknown): 'invalid_trigger_id' | 'expired_trigger_id' | undefined {
    if (typeof id !== 'string' || !this.triggers.has(id)) return 'invalid_trigger_id';
    const issued = this.triggers.get(id)!;
    this.triggers.delete(id);
    return this.now() - issued > TRIGGER_LIFETIME_MS ? 'expired_trigger_id' : undefined;
  }

  newResponseTarget(target: ResponseTarget): string {
    const id = randomBytes(12).toString('hex');
    this.responseTargets.set(id, { ...target, uses: 0 });
    return id;
  }

  responseTarget(id: string): (ResponseTarget & { uses: number }) | undefined {
    return this.responseTargets.get(id);
  }

  // Files.

  addFile(file: Omit<StoredFile, 'id'>): StoredFile {
    const stored = { id: this.nextId('F'), ...file };
    this.files.set(stored.id, stored);
    return stored;
  }

  file(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  deleteFile(id: string): boolean {
    return this.files.delete(id);
  }
}

/** Compares Slack timestamps exactly (as numbers they lose their last digits). */
export function compareTs(a: string, b: string): number {
  const key = (ts: string): bigint => {
    const [seconds = '0', fraction = ''] = ts.split('.');
    return BigInt(seconds) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6) || '0');
  };
  const diff = key(a) - key(b);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

function carriedOver(before: ViewState, after: ViewState): ViewState {
  const values: ViewState = {};
  for (const [blockId, actions] of Object.entries(after)) {
    values[blockId] = {};
    for (const [actionId, value] of Object.entries(actions)) {
      const entered = before[blockId]?.[actionId] as { type?: unknown } | undefined;
      values[blockId][actionId] = entered && entered.type === (value as { type?: unknown }).type ? entered : value;
    }
  }
  return values;
}

/** Slack gives every block the app left without a `block_id` a random one, kept from then on. */
export function withBlockIds(blocks: unknown[]): unknown[] {
  return blocks.map((block) => {
    if (!block || typeof block !== 'object' || typeof (block as { block_id?: unknown }).block_id === 'string') return block;
    return { ...(block as Record<string, unknown>), block_id: randomBlockId() };
  });
}

const BLOCK_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomBlockId(): string {
  return [...randomBytes(5)].map((byte) => BLOCK_ID_ALPHABET[byte % BLOCK_ID_ALPHABET.length]).join('');
}

/** `state.values` as Slack fills it when a view opens: each input's initial value. */
export function initialValues(blocks: unknown[]): ViewState {
  const values: ViewState = {};
  for (const block of blocks as Array<Record<string, unknown>>) {
    const element = block?.type === 'input' ? (block.element as Record<string, unknown> | undefined) : undefined;
    if (!element || typeof block.block_id !== 'string' || typeof element.action_id !== 'string') continue;
    values[block.block_id] = { [element.action_id]: initialElementValue(element) };
  }
  return values;
}

function initialElementValue(element: Record<string, unknown>): Record<string, unknown> {
  const type = element.type;
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
    case 'url_text_input':
    case 'email_text_input':
      return { type, value: typeof element.initial_value === 'string' ? element.initial_value : null };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: element.initial_option ?? null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: Array.isArray(element.initial_options) ? element.initial_options : [] };
    case 'datepicker':
      return { type, selected_date: typeof element.initial_date === 'string' ? element.initial_date : null };
    case 'timepicker':
      return { type, selected_time: typeof element.initial_time === 'string' ? element.initial_time : null };
    case 'users_select':
      return { type, selected_user: typeof element.initial_user === 'string' ? element.initial_user : null };
    case 'conversations_select':
      return { type, selected_conversation: typeof element.initial_conversation === 'string' ? element.initial_conversation : null };
    case 'channels_select':
      return { type, selected_channel: typeof element.initial_channel === 'string' ? element.initial_channel : null };
    default:
      return { type };
  }
}

export type { Change, LocalFile, Message, View, ViewState };

/**
 * The local page's browser modules (src/local/web/*.js, plain ES modules with no types of their
 * own) loaded in node, with the types the tests rely on.
 */
export interface TextContext {
  users?: Record<string, string>;
  channels?: Record<string, string>;
  timeZone?: string;
  nowMs?: number;
  errors?: Record<string, string>;
  scope?: string;
  botName?: string;
  botUserId?: string;
}

export interface LocalMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  blocks?: unknown[];
  files?: { id?: string; name?: string; title?: string; mimetype?: string; url?: string }[];
  ephemeral?: boolean;
  edited?: boolean;
}

export interface MrkdwnModule {
  escapeHtml(text: string): string;
  safeUrl(url: string): string | null;
  emojify(text: string): string;
  mrkdwnToHtml(text: string, ctx?: TextContext): string;
  plainToHtml(text: string, opts?: { emoji?: boolean }): string;
  formatSlackDate(epochSeconds: number, format: string, opts?: { timeZone?: string; nowMs?: number }): string | null;
}

export interface BlocksModule {
  renderBlocks(blocks: unknown[], ctx?: TextContext): string;
  renderBlock(block: unknown, index: number, ctx?: TextContext): string;
  renderElement(element: unknown, blockId: string, opts?: { id?: string; label?: string; input?: boolean; ctx?: TextContext }): string;
}

export interface MessagesModule {
  channelTimeline(messages: LocalMessage[], channel: string): { message: LocalMessage; replies: LocalMessage[] }[];
  renderMessage(message: LocalMessage, ctx?: TextContext): string;
  renderChannel(messages: LocalMessage[], channel: string, expanded: Set<string>, ctx?: TextContext): string;
  channelEntries(messages: LocalMessage[], channel: string, expanded: Set<string>, ctx?: TextContext): { key: string; html: string }[];
}

export interface ViewsModule {
  renderModal(view: unknown, ctx?: TextContext): string;
  renderHome(view: unknown, ctx?: TextContext): string | null;
}

const WEB = '../../src/local/web';

export const mrkdwn = jest.requireActual<MrkdwnModule>(`${WEB}/mrkdwn.js`);
export const blocks = jest.requireActual<BlocksModule>(`${WEB}/blocks.js`);
export const messages = jest.requireActual<MessagesModule>(`${WEB}/messages.js`);
export const views = jest.requireActual<ViewsModule>(`${WEB}/views.js`);

/** Every tag in `html` (open or close), for checking no unexpected markup got through. */
export function tagNames(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)\b/g)].map((m) => m[1]!.toLowerCase());
}

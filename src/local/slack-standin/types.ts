/** The shapes the stand-in keeps and the page reads (PROTOCOL.md, "Shapes"). */

export interface LocalFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  /** Served by the stand-in. */
  url: string;
}

/** A message as `conversations.history` returns it, plus the stand-in's markers. */
export interface Message {
  channel: string;
  ts: string;
  thread_ts?: string;
  user?: string;
  bot_id?: string;
  text: string;
  blocks?: unknown[];
  files?: LocalFile[];
  /** "Only visible to you". */
  ephemeral?: true;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  edited?: true;
}

export type ViewState = Record<string, Record<string, unknown>>;

/** A view as `views.open/update/push/publish` return it. */
export interface View {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  callback_id: string;
  title?: unknown;
  submit?: unknown;
  close?: unknown;
  blocks: unknown[];
  private_metadata: string;
  external_id: string;
  state: { values: ViewState };
  hash: string;
  notify_on_close?: boolean;
  clear_on_close?: boolean;
  root_view_id: string;
  previous_view_id: string | null;
  app_id: string;
  bot_id: string;
  app_installed_team_id: string;
  /** Field errors from the app's last `response_action: 'errors'`. */
  errors?: Record<string, string>;
}

export type Change =
  | { type: 'message'; message: Message }
  | { type: 'message_changed'; message: Message }
  | { type: 'message_deleted'; channel: string; ts: string }
  | { type: 'views'; views: View[] }
  | { type: 'home'; view: View }
  | { type: 'emulator'; now: string };

/**
 * What Slack posts to the app, built from what the page did: slash command fields and the JSON
 * payloads of interactions and events, field for field as Slack shapes them. Pure functions; the
 * bridge (bridge.ts) signs and sends them.
 */
import { LOCAL_APP_ID, LOCAL_BOT, LOCAL_DM, LOCAL_TEAM, LOCAL_USER, resolveConversation } from './identities';
import type { Message, View, ViewState } from './slack-standin/types';

/** Slack still sends the deprecated verification token; the app must not rely on it. */
const VERIFICATION_TOKEN = 'local-verification-token';

const team = { id: LOCAL_TEAM.id, domain: LOCAL_TEAM.domain };
const user = { id: LOCAL_USER.id, username: LOCAL_USER.name, name: LOCAL_USER.name, team_id: LOCAL_TEAM.id };
const common = { api_app_id: LOCAL_APP_ID, token: VERIFICATION_TOKEN, is_enterprise_install: false, enterprise: null };

const channelOf = (id: string) => ({ id, name: id === LOCAL_DM.id ? 'directmessage' : (resolveConversation(id)?.name ?? id.toLowerCase()) });
const actionTs = (now: number) => (now / 1000).toFixed(6);

export interface SlashCommandInput {
  command: string;
  text: string;
  channel: string;
  responseUrl: string;
  triggerId: string;
}

export function slashCommandFields(input: SlashCommandInput): Record<string, string> {
  const channel = channelOf(input.channel);
  return {
    token: VERIFICATION_TOKEN,
    team_id: LOCAL_TEAM.id,
    team_domain: LOCAL_TEAM.domain,
    channel_id: channel.id,
    channel_name: channel.name,
    user_id: LOCAL_USER.id,
    user_name: LOCAL_USER.name,
    command: input.command,
    text: input.text,
    api_app_id: LOCAL_APP_ID,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

/** Splits a typed line such as `/record start --name x` into command and text. */
export function splitCommandLine(line: string): { command: string; text: string } | undefined {
  const match = /^\s*(\/[a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(line);
  if (!match) return undefined;
  return { command: match[1]!.toLowerCase(), text: (match[2] ?? '').trim() };
}

// Interactive elements, found in the blocks they were clicked in.

export interface ElementChoice {
  actionId: string;
  blockId?: string;
  value?: string;
  selectedOption?: unknown;
  selectedOptions?: unknown[];
}

interface FoundElement {
  blockId: string;
  element: Record<string, unknown>;
}

/**
 * The element `actionId` (in `blockId`, when given) among actions, section accessories and
 * inputs; among several with that id, the one carrying `value` when given.
 */
export function findElement(blocks: unknown[], actionId: string, blockId?: string, value?: string): FoundElement | undefined {
  const found = elementsWithId(blocks, actionId, blockId);
  return found.find((f) => value !== undefined && f.element.value === value) ?? found[0];
}

function elementsWithId(blocks: unknown[], actionId: string, blockId?: string): FoundElement[] {
  const found: FoundElement[] = [];
  for (const raw of blocks) {
    const block = raw as Record<string, unknown>;
    const id = typeof block.block_id === 'string' ? block.block_id : '';
    if (blockId !== undefined && blockId !== '' && id !== blockId) continue;
    const candidates = [
      ...(Array.isArray(block.elements) ? (block.elements as Record<string, unknown>[]) : []),
      ...(block.accessory ? [block.accessory as Record<string, unknown>] : []),
      ...(block.element ? [block.element as Record<string, unknown>] : []),
    ];
    for (const element of candidates) if (element && element.action_id === actionId) found.push({ blockId: id, element });
  }
  return found;
}

/** The `actions[]` entry Slack sends for a click or a choice on that element. */
export function actionFor(found: FoundElement | undefined, choice: ElementChoice, now: number): Record<string, unknown> {
  const element = found?.element ?? { type: 'button' };
  const type = typeof element.type === 'string' ? element.type : 'button';
  const base = { action_id: choice.actionId, block_id: found?.blockId ?? choice.blockId ?? '', type, action_ts: actionTs(now) };
  switch (type) {
    case 'button':
      return {
        ...base,
        text: element.text ?? { type: 'plain_text', text: '', emoji: true },
        ...(choice.value !== undefined ? { value: choice.value } : element.value !== undefined ? { value: element.value } : {}),
        ...(element.style ? { style: element.style } : {}),
      };
    case 'static_select':
    case 'external_select':
    case 'overflow':
    case 'radio_buttons':
      return { ...base, selected_option: choice.selectedOption ?? null, ...(element.placeholder ? { placeholder: element.placeholder } : {}) };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { ...base, selected_options: choice.selectedOptions ?? [] };
    case 'datepicker':
      return { ...base, selected_date: choice.value ?? null };
    case 'timepicker':
      return { ...base, selected_time: choice.value ?? null };
    default:
      return { ...base, value: choice.value ?? null };
  }
}

/** A message as an interaction payload carries it. */
function payloadMessage(m: Message): Record<string, unknown> {
  return {
    type: 'message',
    ...(m.user ? { user: m.user } : {}),
    ...(m.bot_id ? { bot_id: m.bot_id, app_id: LOCAL_APP_ID } : {}),
    ts: m.ts,
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    team: LOCAL_TEAM.id,
  };
}

export interface MessageActionInput {
  message: Message;
  choice: ElementChoice;
  values: ViewState;
  responseUrl: string;
  triggerId: string;
  now: number;
}

export function messageBlockActions(input: MessageActionInput): Record<string, unknown> {
  const { message } = input;
  const found = findElement(message.blocks ?? [], input.choice.actionId, input.choice.blockId, input.choice.value);
  return {
    type: 'block_actions',
    user,
    ...common,
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: message.ephemeral === true,
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    },
    trigger_id: input.triggerId,
    team,
    channel: channelOf(message.channel),
    // Slack leaves the message out for ephemerals: the app cannot read them back.
    ...(message.ephemeral ? {} : { message: payloadMessage(message) }),
    state: { values: input.values },
    response_url: input.responseUrl,
    actions: [actionFor(found, input.choice, input.now)],
  };
}

export interface ViewActionInput {
  view: View;
  choice: ElementChoice;
  triggerId: string;
  now: number;
}

export function viewBlockActions(input: ViewActionInput): Record<string, unknown> {
  const found = findElement(input.view.blocks, input.choice.actionId, input.choice.blockId, input.choice.value);
  return {
    type: 'block_actions',
    user,
    ...common,
    container: { type: 'view', view_id: input.view.id },
    trigger_id: input.triggerId,
    team,
    view: payloadView(input.view),
    actions: [actionFor(found, input.choice, input.now)],
  };
}

/** A view as interaction payloads carry it (the stand-in's field errors are the page's business). */
export function payloadView(view: View): Record<string, unknown> {
  const { errors: _errors, ...rest } = view;
  return rest;
}

export function viewSubmission(view: View, triggerId: string): Record<string, unknown> {
  return { type: 'view_submission', team, user, ...common, trigger_id: triggerId, view: payloadView(view), response_urls: [] };
}

export function viewClosed(view: View, isCleared: boolean): Record<string, unknown> {
  return { type: 'view_closed', team, user, ...common, view: payloadView(view), is_cleared: isCleared };
}

export interface SuggestionInput {
  actionId: string;
  blockId: string;
  value: string;
  view?: View;
  message?: Message;
}

export function blockSuggestion(input: SuggestionInput): Record<string, unknown> {
  return {
    type: 'block_suggestion',
    user,
    ...common,
    container: input.view
      ? { type: 'view', view_id: input.view.id }
      : { type: 'message', message_ts: input.message?.ts, channel_id: input.message?.channel, is_ephemeral: input.message?.ephemeral === true },
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
    team,
    ...(input.view ? { view: payloadView(input.view) } : {}),
    ...(input.message ? { channel: channelOf(input.message.channel), message: payloadMessage(input.message) } : {}),
  };
}

export function globalShortcut(callbackId: string, triggerId: string, now: number): Record<string, unknown> {
  return {
    type: 'shortcut',
    ...common,
    action_ts: actionTs(now),
    team,
    user: { id: user.id, username: user.username, team_id: user.team_id },
    callback_id: callbackId,
    trigger_id: triggerId,
  };
}

export function messageShortcut(callbackId: string, message: Message, triggerId: string, responseUrl: string, now: number): Record<string, unknown> {
  return {
    type: 'message_action',
    ...common,
    action_ts: actionTs(now),
    team,
    user: { id: user.id, name: user.name, username: user.username, team_id: user.team_id },
    channel: channelOf(message.channel),
    callback_id: callbackId,
    trigger_id: triggerId,
    message_ts: message.ts,
    message: payloadMessage(message),
    response_url: responseUrl,
  };
}

/** The Events API envelope of `app_home_opened` (Home tab). */
export function appHomeOpened(home: View | null, eventId: string, now: number): Record<string, unknown> {
  const eventTs = actionTs(now);
  return {
    token: VERIFICATION_TOKEN,
    team_id: LOCAL_TEAM.id,
    api_app_id: LOCAL_APP_ID,
    event: { type: 'app_home_opened', user: LOCAL_USER.id, channel: LOCAL_DM.id, tab: 'home', event_ts: eventTs, ...(home ? { view: payloadView(home) } : {}) },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(now / 1000),
    authorizations: [{ enterprise_id: null, team_id: LOCAL_TEAM.id, user_id: LOCAL_BOT.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `local-${eventId}`,
  };
}

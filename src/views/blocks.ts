/**
 * Small typed Block Kit builders. They clamp every text to Slack's documented limits
 * (reference/slack-block-kit-limits.json) so a long stream name or error message can never make
 * Slack reject a whole message. Texts passed as mrkdwn must already be escaped
 * (`src/slack/mrkdwn.ts`); plain_text needs no escaping.
 */
import type { types } from '@slack/bolt';
import { cutMrkdwn } from '../slack/mrkdwn';

export type KnownBlock = types.KnownBlock;
export type Button = types.Button;
export type ModalView = types.ModalView;
export type HomeView = types.HomeView;
export type PlainTextElement = types.PlainTextElement;
export type MrkdwnElement = types.MrkdwnElement;
export type PlainTextOption = types.PlainTextOption;
export type ConfirmationDialog = types.ConfirmationDialog;

/** What the app sends as a message (respond, chat.postMessage, chat.update). */
export interface SlackMessage {
  /** Notification / fallback text (plain words; Slack shows it where blocks cannot be). */
  text: string;
  blocks: KnownBlock[];
}

export const LIMITS = {
  text: 3000,
  sectionText: 3000,
  fieldText: 2000,
  header: 150,
  buttonText: 75,
  buttonValue: 2000,
  placeholder: 150,
  optionText: 75,
  optionValue: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  label: 2000,
  hint: 2000,
  contextElements: 10,
  actionElements: 25,
  messageBlocks: 50,
  modalBlocks: 100,
  /** Fallback `text` of a message: Slack truncates at 40,000; keep notifications short. */
  messageText: 3000,
} as const;

/** Cuts mrkdwn to `max` without leaving half an entity, mention, link or code span behind. */
export const clampMrkdwn = cutMrkdwn;

export function clampPlain(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut + '…';
}

export function plain(text: string, max: number = LIMITS.text): PlainTextElement {
  return { type: 'plain_text', text: clampPlain(text.length > 0 ? text : ' ', max), emoji: true };
}

export function mrkdwn(text: string, max: number = LIMITS.text): MrkdwnElement {
  return { type: 'mrkdwn', text: clampMrkdwn(text.length > 0 ? text : ' ', max) };
}

export function header(text: string): KnownBlock {
  return { type: 'header', text: plain(text, LIMITS.header) };
}

export function section(text: string, accessory?: types.SectionBlockAccessory, blockId?: string): KnownBlock {
  return {
    type: 'section',
    text: mrkdwn(text, LIMITS.sectionText),
    ...(accessory ? { accessory } : {}),
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export function fields(items: readonly string[]): KnownBlock {
  return { type: 'section', fields: items.slice(0, 10).map((f) => mrkdwn(f, LIMITS.fieldText)) };
}

export function context(...texts: string[]): KnownBlock {
  return { type: 'context', elements: texts.slice(0, LIMITS.contextElements).map((t) => mrkdwn(t)) };
}

export function divider(): KnownBlock {
  return { type: 'divider' };
}

export function actions(elements: types.ActionsBlockElement[], blockId?: string): KnownBlock {
  return { type: 'actions', elements: elements.slice(0, LIMITS.actionElements), ...(blockId ? { block_id: blockId } : {}) };
}

export interface ConfirmSpec {
  title: string;
  text: string;
  confirm: string;
  deny?: string;
  danger?: boolean;
}

export function confirmDialog(spec: ConfirmSpec): ConfirmationDialog {
  return {
    title: plain(spec.title, LIMITS.confirmTitle),
    text: mrkdwn(spec.text, LIMITS.confirmText),
    confirm: plain(spec.confirm, LIMITS.confirmButton),
    deny: plain(spec.deny ?? 'Cancel', LIMITS.confirmButton),
    ...(spec.danger ? { style: 'danger' as const } : {}),
  };
}

export interface ButtonSpec {
  actionId: string;
  text: string;
  value?: string;
  style?: 'primary' | 'danger';
  confirm?: ConfirmSpec;
  accessibilityLabel?: string;
}

export function button(spec: ButtonSpec): Button {
  if (spec.value !== undefined && spec.value.length > LIMITS.buttonValue) {
    throw new RangeError(`button value for ${spec.actionId} is ${spec.value.length} characters; Slack allows ${LIMITS.buttonValue}`);
  }
  return {
    type: 'button',
    action_id: spec.actionId,
    text: plain(spec.text, LIMITS.buttonText),
    ...(spec.value !== undefined ? { value: spec.value } : {}),
    ...(spec.style ? { style: spec.style } : {}),
    ...(spec.confirm ? { confirm: confirmDialog(spec.confirm) } : {}),
    ...(spec.accessibilityLabel ? { accessibility_label: clampPlain(spec.accessibilityLabel, 75) } : {}),
  };
}

export function option(text: string, value: string, description?: string): PlainTextOption {
  if (value.length > LIMITS.optionValue) {
    throw new RangeError(`option value is ${value.length} characters; Slack allows ${LIMITS.optionValue}`);
  }
  return {
    text: plain(text, LIMITS.optionText),
    value,
    ...(description ? { description: plain(description, LIMITS.optionText) } : {}),
  };
}

/** A plain message: one mrkdwn section (split into several when longer than a section allows). */
export function textMessage(text: string, fallback?: string): SlackMessage {
  return { text: clampPlain(fallback ?? stripMrkdwn(text), LIMITS.messageText), blocks: [section(text)] };
}

/** A one-sentence problem for the asker (mrkdwn, already escaped). */
export function warning(text: string): SlackMessage {
  return textMessage(`:warning: ${text}`);
}

/**
 * Notification text from mrkdwn: formatting marks dropped, user mentions kept (they render as
 * names), links reduced to their labels. Escapes stay: Slack parses a message's `text` as
 * mrkdwn too, so `&lt;` must not turn back into a control character.
 */
export function stripMrkdwn(text: string): string {
  return text.replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2').replace(/[*_~`]/g, '');
}

/**
 * Notification text from mrkdwn: bold, code and strike marks dropped, underscores kept (session
 * IDs are full of them); escapes stay, since Slack reads `text` as mrkdwn too.
 */
export function fallbackText(mrkdwnText: string): string {
  return clampPlain(mrkdwnText.replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2').replace(/[*`~]/g, ''), LIMITS.messageText);
}

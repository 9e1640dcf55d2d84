/**
 * The one confirmation policy (issue #14). Every action vidops offers that changes something is
 * either irreversible — it ends, removes or invalidates something vidops cannot put back as it
 * was — or reversible. An irreversible action asks exactly once, however it is reached:
 *
 * - typed: the command answers with one ephemeral card naming what will happen; its button acts
 *   (no confirm dialog on it);
 * - clicked on a card (a live card, a list, App Home): Slack's confirm dialog on the button;
 * - from the shortcut: the form's submit button is its one question.
 *
 * A reversible action acts at once, and its notice says how to undo it (an Undo button where
 * vidops can undo it). Every button that changes something takes its dialog from here.
 */
import type { ConfirmSpec } from './blocks';

export const CONFIRMATION_POLICY = {
  kick: 'irreversible',
  'record-stop': 'irreversible',
  'record-delete': 'irreversible',
  'broadcast-stop': 'irreversible',
  'render-stop': 'irreversible',
  'captions-stop': 'irreversible',
  'call-hang-up': 'irreversible',
  'audio-stop': 'irreversible',
  'storage-remove': 'irreversible',
  /** A project made can only be removed by deleting it for good. */
  'project-create': 'irreversible',
  /** Sessions in progress under its key stop working; activating it does not bring them back. */
  'project-suspend': 'irreversible',
  'project-delete': 'irreversible',
  'project-rotate-secret': 'irreversible',
  'project-activate': 'reversible',
  'mute-stream': 'reversible',
  'mute-all': 'reversible',
  'unmute-all': 'reversible',
  layout: 'reversible',
  'layout-classes': 'reversible',
  watch: 'reversible',
  unwatch: 'reversible',
} as const;

export type PolicyAction = keyof typeof CONFIRMATION_POLICY;
export type Reversibility = (typeof CONFIRMATION_POLICY)[PolicyAction];

/** How the person reached the action. */
export type Via = 'typed' | 'clicked' | 'shortcut';

/** The one question asked: the ephemeral card answering a command, Slack's dialog on the clicked button, the shortcut's form, or none. */
export type Confirmation = 'card' | 'dialog' | 'form' | 'none';

const IRREVERSIBLE: Record<Via, Confirmation> = { typed: 'card', clicked: 'dialog', shortcut: 'form' };

export function confirmationFor(action: PolicyAction, via: Via): Confirmation {
  return CONFIRMATION_POLICY[action] === 'irreversible' ? IRREVERSIBLE[via] : 'none';
}

/**
 * The `confirm` of a button of `action`: Slack's dialog only where the policy asks with one. A
 * button on the card that answers a typed command is `typed` (the card was the question); a
 * button on any other card is `clicked`.
 */
export function dialogFor(action: PolicyAction, via: Via, spec: ConfirmSpec): { confirm?: ConfirmSpec } {
  return confirmationFor(action, via) === 'dialog' ? { confirm: spec } : {};
}

/**
 * What the card answering a typed irreversible command becomes once acted upon. The card is the
 * one question (src/views/confirmation-policy.ts), so its red button acts; this replaces it.
 */
import { type SlackMessage, section } from './blocks';

export function resolvedCard(text: string): SlackMessage {
  return { text, blocks: [section(text)] };
}

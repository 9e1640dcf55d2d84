/**
 * Card re-rendering: after a change the poller asks for the watch's card drawn anew from the
 * newest state, and the deliverer `chat.update`s it. Each kind (src/kinds) draws it from the new
 * state, the card model stored with the watch and what this poll reported, so it keeps every
 * field it had.
 */
import { renderCard } from '../kinds';
import { replyText } from './messages';
import type { CardRenderer } from './poller';
import type { Clock } from './runtime';
import type { SlackBlocks } from './watch';

export interface CardRendererOptions {
  clock: Clock;
}

/** The poller's `renderCard` hook over the registry; a watch with no state yet keeps its card. */
export function cardRenderer(options: CardRendererOptions): CardRenderer {
  return (watch, state, transitions) => {
    if (!state) return undefined;
    const latest = transitions.map((transition) => ({ type: transition.event.type, text: replyText(transition) }));
    const card = renderCard(watch, state, options.clock(), latest);
    return { text: card.text, blocks: card.blocks as unknown as SlackBlocks };
  };
}

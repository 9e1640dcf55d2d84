/**
 * Card re-rendering: after a change the poller asks for the watch's card drawn anew from the
 * newest state, and the deliverer `chat.update`s it. A kind with a card of its own (src/kinds)
 * draws it from the new state and the card model stored with the watch, so it keeps every field
 * it had; any other kind gets a compact status card from the snapshot.
 */
import { KINDS, KIND_NOUNS, renderCard } from '../kinds';
import { type KnownBlock, type SlackMessage, actions, context, section, stripMrkdwn } from '../views/blocks';
import { discoveryNouns, summarize, watchScope } from '../views/dashboard';
import { watchButtons } from '../views/dashboard-buttons';
import { escapeAndTruncate } from '../slack/mrkdwn';
import { replyText } from './messages';
import type { CardRenderer } from './poller';
import type { Clock } from './runtime';
import type { DiscoverySnapshot, Snapshot, WatchKind } from './snapshot';
import type { Transition } from './transitions';
import type { SlackBlocks, Watch } from './watch';

export interface CardInput {
  kind: WatchKind;
  /** The newest state (what the poll just read). */
  snapshot: Snapshot | undefined;
  watch: Watch;
  /** What changed in this poll, oldest first. */
  transitions: readonly Transition[];
  now: number;
}

/** Draws one kind's card; undefined leaves the card as it is. */
export type CardBuilder = (input: CardInput) => SlackMessage | undefined;

export type CardBuilders = Partial<Record<WatchKind, CardBuilder>>;

/** Transitions shown on a status card; the thread has them all. */
const LATEST_SHOWN = 3;

/** The compact card for a kind whose own card builder does not exist. */
export function statusCard({ kind, snapshot, watch, transitions, now }: CardInput): SlackMessage {
  const summary = summarize(watch, snapshot, now);
  const headline =
    kind === 'session-discovery'
      ? `${summary.icon} *Watching* ${watchScope(watch)} for new ${discoveryNouns(snapshot as DiscoverySnapshot | undefined)}`
      : `${summary.icon} *${KIND_NOUNS[kind].one}* ${summary.title} — *${summary.status}*`;
  const facts = kind === 'session-discovery' ? [] : summary.facts;
  const blocks: KnownBlock[] = [section(facts.length > 0 ? `${headline}\n${facts.join(' · ')}` : headline)];
  const latest = transitions.slice(-LATEST_SHOWN).map((transition) => replyText(transition));
  if (latest.length > 0) blocks.push(context(latest.join('\n')));
  // The card's own buttons while the resource runs (Stop), so redrawing it does not take them away.
  const buttons = watchButtons(watch, snapshot);
  if (buttons.length > 0) blocks.push(actions(buttons));
  const where =
    kind === 'session-discovery'
      ? `Project *${escapeAndTruncate(watch.projectName, 60)}*`
      : `Project *${escapeAndTruncate(watch.projectName, 60)}* · ${watchScope(watch)}`;
  blocks.push(context(`${where} · updated <!date^${Math.floor(now / 1000)}^{time}|just now>`));
  const text =
    kind === 'session-discovery'
      ? stripMrkdwn(headline.replace(/^:[a-z_]+: /, ''))
      : `${KIND_NOUNS[kind].one} ${stripMrkdwn(summary.title)}: ${stripMrkdwn(summary.status)}`;
  return { text, blocks };
}

/** Each kind's own card, from the new state and the stored model. */
export const KNOWN_CARDS: CardBuilders = Object.fromEntries(
  Object.keys(KINDS).map((kind) => [kind, ({ watch, snapshot, now }: CardInput) => (snapshot ? renderCard(watch, snapshot, now) : undefined)]),
);

export interface CardRendererOptions {
  /** Cards per kind (default KNOWN_CARDS); kinds without one get `statusCard`. */
  builders?: CardBuilders;
  clock: Clock;
}

/** The poller's `renderCard` hook over the registry. */
export function cardRenderer(options: CardRendererOptions): CardRenderer {
  const builders = options.builders ?? KNOWN_CARDS;
  return (watch, state, transitions) => {
    const input: CardInput = { kind: watch.kind, snapshot: state, watch, transitions, now: options.clock() };
    const card = (builders[watch.kind] ?? statusCard)(input);
    return card && { text: card.text, blocks: card.blocks as unknown as SlackBlocks };
  };
}

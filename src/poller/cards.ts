/**
 * Card re-rendering: after a change the poller asks for the watch's card drawn anew from the
 * newest state, and the deliverer `chat.update`s it. Each kind's card comes from the view that
 * drew it first when there is one (so the buttons stay); any other kind gets a compact status
 * card from the snapshot and the poller's own words for what changed.
 */
import { archiveCardFromSnapshot } from '../views/archive';
import { broadcastCardFromSnapshot } from '../views/broadcast';
import { type KnownBlock, type SlackMessage, actions, context, section, stripMrkdwn } from '../views/blocks';
import { KIND_NOUNS, discoveryNouns, summarize, watchScope } from '../views/dashboard';
import { watchButtons } from '../views/dashboard-buttons';
import { escapeAndTruncate } from '../slack/mrkdwn';
import { replyText } from './messages';
import type { CardRenderer } from './poller';
import type { Clock } from './runtime';
import type { ArchiveSnapshot, BroadcastSnapshot, DiscoverySnapshot, GoneSnapshot, Snapshot, WatchKind } from './snapshot';
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
  const where = kind === 'session-discovery' ? `Project *${escapeAndTruncate(watch.projectName, 60)}*` : `Project *${escapeAndTruncate(watch.projectName, 60)}* · ${watchScope(watch)}`;
  blocks.push(context(`${where} · updated <!date^${Math.floor(now / 1000)}^{time}|just now>`));
  const text = kind === 'session-discovery' ? stripMrkdwn(headline.replace(/^:[a-z_]+: /, '')) : `${KIND_NOUNS[kind].one} ${stripMrkdwn(summary.title)}: ${stripMrkdwn(summary.status)}`;
  return { text, blocks };
}

/**
 * Kinds whose own card can be drawn from the snapshot alone. The others (composers, captions,
 * calls, audio connections) have cards built from their start request (page, language, number
 * dialled…), which a watch does not keep: they get the status card, with the same buttons.
 */
export const KNOWN_CARDS: CardBuilders = {
  archive: ({ watch, snapshot }) => (snapshot ? archiveCardFromSnapshot(watch, snapshot as ArchiveSnapshot | GoneSnapshot) : undefined),
  broadcast: ({ watch, snapshot }) => (snapshot ? broadcastCardFromSnapshot(watch, snapshot as BroadcastSnapshot | GoneSnapshot) : undefined),
};

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

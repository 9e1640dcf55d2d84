/**
 * The resource kinds vidops shows as live cards, and the one way a card is drawn from a watch:
 * the kind's renderer over the watch's state and its stored card model.
 */
import type { Snapshot, WatchKind } from '../poller/snapshot';
import type { CardModel, Watch } from '../poller/watch';
import type { SlackMessage } from '../views/blocks';
import { type ActionRecord, type AnyKind, type CardModel as KindModel, type LatestChange, type Nouns, readModel } from './kind';
import { audioKind } from './audio';
import { broadcastKind } from './broadcast';
import { callKind } from './call';
import { captionsKind } from './captions';
import { composerKind } from './composer';
import { recordingKind } from './recording';
import { sessionConsoleKind } from './session-console';
import { sessionWatchKind } from './session-watch';

/** Every kind, each with a card of its own. */
export const KINDS: Readonly<Record<WatchKind, AnyKind>> = {
  archive: recordingKind as AnyKind,
  broadcast: broadcastKind as AnyKind,
  captions: captionsKind as AnyKind,
  render: composerKind as AnyKind,
  sip: callKind as AnyKind,
  audio: audioKind as AnyKind,
  'session-discovery': sessionWatchKind as AnyKind,
  'session-console': sessionConsoleKind as AnyKind,
};

/** What every watched thing is called, one and many: the kinds' own nouns. */
export const KIND_NOUNS: Readonly<Record<WatchKind, Nouns>> = Object.fromEntries(Object.entries(KINDS).map(([kind, module]) => [kind, module.nouns])) as Record<
  WatchKind,
  Nouns
>;

export function kindOf(kind: WatchKind): AnyKind {
  return KINDS[kind];
}

export type CardSubject = Pick<Watch, 'kind' | 'resourceId' | 'sessionId' | 'projectName'> & { card?: CardModel };

/** The card of a watched resource in `state`, from its stored model (and what the poll drawing it reported). */
export function renderCard(subject: CardSubject, state: Snapshot | undefined, now: number, latest?: readonly LatestChange[]): SlackMessage {
  const kind = kindOf(subject.kind);
  const model = readModel(kind, subject.card);
  return kind.render({
    resourceId: subject.resourceId,
    sessionId: subject.sessionId,
    projectName: subject.projectName,
    state,
    ...model,
    now,
    ...(latest && { latest }),
  });
}

/** A new model: the context captured at start, no actions yet. */
export function startModel<C>(context: C): KindModel<C> {
  return { context, actions: [] };
}

/** The stored model with one more action on it. */
export function withAction(subject: CardSubject, record: ActionRecord): KindModel<unknown> {
  const model = readModel(kindOf(subject.kind), subject.card);
  return { context: model.context, actions: [...model.actions, record] };
}

/**
 * The resource kinds vidops shows as live cards, and the one way a card is drawn from a watch:
 * the kind's renderer over the watch's state and its stored card model.
 */
import type { Snapshot, WatchKind } from '../poller/snapshot';
import type { CardModel, Watch } from '../poller/watch';
import type { SlackMessage } from '../views/blocks';
import { type ActionRecord, type AnyKind, type CardModel as KindModel, type Nouns, readModel } from './kind';
import { audioKind } from './audio';
import { broadcastKind } from './broadcast';
import { callKind } from './call';
import { captionsKind } from './captions';
import { composerKind } from './composer';
import { recordingKind } from './recording';

/** Every kind with a card of its own; the others get the poller's compact status card. */
export const KINDS: Partial<Record<WatchKind, AnyKind>> = {
  archive: recordingKind as AnyKind,
  broadcast: broadcastKind as AnyKind,
  captions: captionsKind as AnyKind,
  render: composerKind as AnyKind,
  sip: callKind as AnyKind,
  audio: audioKind as AnyKind,
};

/** What every watched thing is called, one and many: the kinds' own nouns, and the session watch. */
export const KIND_NOUNS: Readonly<Record<WatchKind, Nouns>> = {
  ...(Object.fromEntries(Object.entries(KINDS).map(([kind, module]) => [kind, module.nouns])) as Record<Exclude<WatchKind, 'session-discovery'>, Nouns>),
  'session-discovery': { one: 'Watched session', many: 'Watched sessions' },
};

export function kindOf(kind: WatchKind): AnyKind | undefined {
  return KINDS[kind];
}

export type CardSubject = Pick<Watch, 'kind' | 'resourceId' | 'sessionId' | 'projectName'> & { card?: CardModel };

/** The card of a watched resource in `state`, from its stored model; undefined for kinds without a card. */
export function renderCard(subject: CardSubject, state: Snapshot | undefined, now: number): SlackMessage | undefined {
  const kind = kindOf(subject.kind);
  if (!kind) return undefined;
  const model = readModel(kind, subject.card);
  return kind.render({ resourceId: subject.resourceId, sessionId: subject.sessionId, projectName: subject.projectName, state, ...model, now });
}

/** A new model: the context captured at start, no actions yet. */
export function startModel<C>(context: C): KindModel<C> {
  return { context, actions: [] };
}

/** The stored model with one more action on it. */
export function withAction(subject: CardSubject, record: ActionRecord): KindModel<unknown> {
  const kind = kindOf(subject.kind);
  const model = kind ? readModel(kind, subject.card) : { context: {}, actions: [] };
  return { context: model.context, actions: [...model.actions, record] };
}

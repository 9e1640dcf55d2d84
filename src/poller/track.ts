/**
 * How a Slack command hands something it just started to the poller: one call after the card
 * was posted. The watch reports in the card's thread and keeps the card up to date.
 */
import { MAX_WATCH_AGE_MS } from './schedule';
import type { Snapshot, WatchKind } from './snapshot';
import { type CardModel, type WatchStore, type WatchTarget, createWatch } from './watch';

export interface TrackRequest {
  kind: WatchKind;
  /** Archive, broadcast, composer, captions, SIP call or Audio Connector id. */
  resourceId: string;
  sessionId: string;
  target: WatchTarget;
  /** Built from the start response with the snapshot builders, so the first poll reports only what changed since. */
  initialState: Snapshot | undefined;
  /** The kind's card model (src/kinds): the context captured at start, so every redraw keeps it. */
  card?: CardModel;
}

export type Tracker = (request: TrackRequest) => Promise<void>;

/** `maxAgeMs` per kind defaults to MAX_WATCH_AGE_MS (VIDOPS_WATCH_MAX_AGE_HOURS overrides it in main). */
export function storeTracker(
  store: Pick<WatchStore, 'addWatch' | 'expedite'>,
  clock: () => number,
  maxAgeMs: Readonly<Record<WatchKind, number>> = MAX_WATCH_AGE_MS,
): Tracker {
  return async ({ kind, resourceId, sessionId, target, initialState, card }) => {
    const now = clock();
    const added = await store.addWatch(createWatch({ target, kind, resourceId, sessionId, initialState, card, now, maxAgeMs: maxAgeMs[kind] }));
    // A resource tracked again (e.g. stopped from another card) is polled at once instead.
    if (!added) await store.expedite({ kind, resourceId, teamId: target.teamId, channelId: target.channelId }, now);
  };
}

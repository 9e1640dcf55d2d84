/**
 * An action changed a resource: every card of it in this workspace is redrawn at once from its
 * stored model (with the action on it, and the state the action left), and its thread says who
 * did it ("Stopped by @ana"). A failure here costs the redraw, never the action.
 */
import { kindOf, renderCard, withAction } from '../kinds';
import { type ActionRecord, actionLine } from '../kinds/kind';
import type { Snapshot, WatchKind } from '../poller/snapshot';
import type { Interaction } from './interaction';

export interface CardAction {
  kind: WatchKind;
  resourceId: string;
  /** In the kind's vocabulary: `stop`, `delete`, `layout`…; none when the card only catches up with the resource. */
  action?: string;
  detail?: string;
  /** The resource's state after the action, when the action changed it (from the card's last state, when that is what it needs). */
  state?: Snapshot | ((previous: Snapshot | undefined) => Snapshot);
  /** Only these watches' cards (one channel's watch of a session, not the other channels' nor its past ones). */
  watchIds?: readonly string[];
}

/** Redraws the resource's cards; resolves the message ts of each card redrawn. */
export async function applyToCards(ix: Interaction, change: CardAction): Promise<string[]> {
  const { store, clock, logger } = { ...ix.services, logger: ix.logger };
  const now = clock();
  const record: ActionRecord | undefined =
    change.action === undefined ? undefined : { action: change.action, by: ix.userId, at: now, ...(change.detail !== undefined && { detail: change.detail }) };
  const kind = kindOf(change.kind);
  let watches;
  try {
    watches = await store.listWatches({ kind: change.kind, resourceId: change.resourceId, teamId: ix.teamId }, { includeEnded: true });
  } catch (error) {
    logger.warn('could not read the cards of a changed resource', { kind: change.kind, error });
    return [];
  }
  const redrawn: string[] = [];
  for (const watch of watches) {
    if (watch.messageTs === undefined || (change.watchIds && !change.watchIds.includes(watch.id))) continue;
    const card = record ? withAction(watch, record) : (watch.card ?? {});
    const state = typeof change.state === 'function' ? change.state(watch.lastState) : change.state;
    try {
      await store.updateCard(watch.id, { card, ...(state !== undefined && { state }), at: now });
      const message = renderCard({ ...watch, card }, state ?? watch.lastState, now);
      await ix.client.chat.update({ channel: watch.channelId, ts: watch.messageTs, text: message.text, blocks: message.blocks });
      if (record)
        await ix.client.chat.postMessage({ channel: watch.channelId, thread_ts: watch.messageTs, text: actionLine(kind, record), unfurl_links: false });
      redrawn.push(watch.messageTs);
    } catch (error) {
      logger.warn('could not redraw a card after an action', { watchId: watch.id, error });
    }
  }
  return redrawn;
}

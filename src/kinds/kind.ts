/**
 * What a resource kind is to the rest of vidops: its noun, its card model (the context captured
 * when it was started plus who did each later action, stored with the watch), the one renderer
 * of its card, and the thread line naming who did an action. The poller, the interaction kernel
 * and the commands know a kind only through this interface (registry in ./index.ts).
 */
import { z } from 'zod';
import type { GoneSnapshot, Snapshot, WatchKind } from '../poller/snapshot';
import type { TransitionEvent } from '../poller/transitions';
import { userMention } from '../slack/mrkdwn';
import type { SlackMessage } from '../views/blocks';

export const ActionRecordSchema = z.object({
  /** What was done, in the kind's vocabulary (`stop`, `delete`, `layout`, `hang-up`…). */
  action: z.string().min(1),
  /** Slack user ID. */
  by: z.string().min(1),
  at: z.number(),
  /** A short detail the kind words (a layout name, a stream ID); never a secret. */
  detail: z.string().optional(),
});
export type ActionRecord = z.output<typeof ActionRecordSchema>;

/** The card model as stored (JSON in the watch's `card` column). */
export type CardModel<C> = {
  context: C;
  actions: ActionRecord[];
};

/** Everything a card is drawn from: the resource as last known, and its model. */
export interface CardView<S extends Snapshot, C> {
  resourceId: string;
  sessionId: string;
  projectName: string;
  /** Undefined before anything was read (a card drawn from a button of an older version). */
  state: S | GoneSnapshot | undefined;
  context: C;
  actions: readonly ActionRecord[];
  now: number;
  /** What the poll that redraws the card reported in its thread, oldest first; none on other redraws. */
  latest?: readonly LatestChange[];
}

/** A change a poll reported: what kind of change, and the thread reply that worded it. */
export interface LatestChange {
  type: TransitionEvent['type'];
  text: string;
}

export interface Nouns {
  one: string;
  many: string;
}

export interface ResourceKind<S extends Snapshot = Snapshot, C = unknown> {
  readonly kind: WatchKind;
  /** "Recording" / "Recordings"… */
  readonly nouns: Nouns;
  /** Parses a stored context; rows of older versions (no card) parse as `{}`. */
  readonly context: z.ZodType<C>;
  /** The card, from the model alone: pure. */
  render(view: CardView<S, C>): SlackMessage;
  /** The words for each action ("Stopped", "Layout changed to pip"), for the card and the thread. */
  actionWords(record: ActionRecord): string;
}

/** Any kind, as the registry holds it. */
export type AnyKind = ResourceKind<Snapshot, unknown>;

/** A stored model read back; anything unreadable falls back to an empty model (older rows). */
export function readModel<C>(kind: Pick<ResourceKind<Snapshot, C>, 'context'>, stored: unknown): CardModel<C> {
  const raw = (stored ?? {}) as { context?: unknown; actions?: unknown };
  const context = kind.context.safeParse(raw.context ?? {});
  const actions = z.array(ActionRecordSchema).safeParse(raw.actions ?? []);
  return {
    context: context.success ? context.data : (kind.context.parse({}) as C),
    actions: actions.success ? actions.data : [],
  };
}

/** "Stopped by @ana" — the thread reply for an action, also the card's record of it. */
export function actionLine(kind: Pick<AnyKind, 'actionWords'>, record: ActionRecord): string {
  return `${kind.actionWords(record)} by ${userMention(record.by)}`;
}

/** The card's context line of later actions, with when each happened. */
export function actionsContext(kind: Pick<AnyKind, 'actionWords'>, actions: readonly ActionRecord[]): string | undefined {
  if (actions.length === 0) return undefined;
  return actions
    .map((record) => `${actionLine(kind, record)} <!date^${Math.floor(record.at / 1000)}^{time}|${new Date(record.at).toISOString().slice(11, 16)} UTC>`)
    .join(' · ');
}

import type { TimingName, TransitionTimings } from '../timings';

/**
 * A lifecycle declared as data: each named transition lists the states it may leave, the state
 * it enters, the reason it records, and (for automatic ones) which timing delays it.
 */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  readonly reason?: string;
  readonly after?: TimingName;
}

export type TransitionTable<S extends string, N extends string> = Readonly<Record<N, Transition<S>>>;

export interface Stateful<S extends string> {
  status: S;
  reason?: string;
  updatedAt?: number;
}

/** Applies the transition when the resource is in one of its `from` states; tells whether it did. */
export function applyTransition<S extends string>(resource: Stateful<S>, transition: Transition<S>, at: number): boolean {
  if (!transition.from.includes(resource.status)) return false;
  resource.status = transition.to;
  if (transition.reason !== undefined) resource.reason = transition.reason;
  if (resource.updatedAt !== undefined) resource.updatedAt = at;
  return true;
}

/** The delay of an automatic transition, read from the current timings. */
export function delayOf<S extends string>(transition: Transition<S>, timings: TransitionTimings): number {
  if (transition.after === undefined) throw new Error(`Transition to '${transition.to}' is not automatic`);
  return timings[transition.after];
}

import type { Connection, Session, Stream } from '../state/model';

export type SessionChange =
  | { kind: 'connected'; session: Session; connection: Connection }
  | { kind: 'disconnected'; session: Session; connection: Connection }
  | { kind: 'published'; session: Session; stream: Stream }
  | { kind: 'unpublished'; session: Session; stream: Stream };

type Listener = (change: SessionChange) => void;

/** Connections and streams coming and going; archives, broadcasts and calls react to them. */
export class SessionEvents {
  private readonly listeners: Listener[] = [];

  on(listener: Listener): void {
    this.listeners.push(listener);
  }

  emit(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

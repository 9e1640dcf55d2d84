/**
 * What each list page the poller reads answered last time (`PageMemory`, one per project, kind and
 * query). A page is read again every few seconds and most of its items come back byte for byte:
 * compared with the last answer, they are neither scanned nor parsed, and their
 * `receivedVersion` tells the poller it has seen them (poller.ts, `#quietNext`). The memories are
 * bounded by the items they hold (each an id, its place, version and fingerprint, ~100 bytes): those used
 * least recently are forgotten first (such a page is scanned whole at its next read). Each
 * memory's arrays are written over by its read after next once the poller has said the items of
 * the reads before are read no more (`release`, at a cycle's end).
 */
import { PageMemory } from '../api/lists';
import type { ListedKind, ListQuery } from './resources';

/** Room for the pages of 45,000 listed items, four times the README's largest sizing (about 4.5 MB). */
export const DEFAULT_MAX_ITEMS = 45_000;

export class PageMemories {
  readonly #maxItems: number;
  /** Least recently used first. */
  readonly #byRequest = new Map<string, PageMemory>();
  #items = 0;

  constructor(maxItems = DEFAULT_MAX_ITEMS) {
    this.#maxItems = maxItems;
  }

  /** The memory of one request, made the most recently used (and one made for it when there was none). */
  of(projectName: string, kind: ListedKind, query: Partial<ListQuery>): PageMemory {
    const key = `${projectName}\n${kind}\n${query.offset ?? 0}\n${query.count ?? ''}\n${query.sessionId ?? ''}`;
    const memory = this.#byRequest.get(key) ?? this.#memory(key);
    this.#byRequest.delete(key);
    this.#byRequest.set(key, memory);
    if (this.#items > this.#maxItems) this.#trim();
    return memory;
  }

  /** The items of every read so far are read no more (see `PageMemory.release`). */
  release(): void {
    for (const memory of this.#byRequest.values()) memory.release();
  }

  /** How many items the memories hold. */
  get itemCount(): number {
    return this.#items;
  }

  /** A new memory, counted while it is this pool's (a read under way may still write one forgotten meanwhile). */
  #memory(key: string): PageMemory {
    const memory: PageMemory = new PageMemory((delta) => {
      if (this.#byRequest.get(key) === memory) this.#items += delta;
    });
    return memory;
  }

  /** Forgets the memories used least recently until the rest fit. */
  #trim(): void {
    for (const [key, memory] of this.#byRequest) {
      if (this.#items <= this.#maxItems) return;
      this.#items -= memory.itemCount;
      this.#byRequest.delete(key);
    }
  }
}

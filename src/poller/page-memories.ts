/**
 * What each list page the poller reads answered last time (`PageMemory`, one per project, kind and
 * query). A page is read again every few seconds and most of its items come back byte for byte:
 * compared with the last answer, they are neither scanned nor parsed, and their
 * `receivedVersion` tells the poller it has seen them (poller.ts, `#quietNext`). The memories are
 * bounded by the bytes they hold: those used least recently are forgotten first (such a page is
 * scanned whole at its next read). Each memory's buffer is written over by its next read once the
 * poller has said the items of the reads before are read no more (`release`, at a cycle's end).
 */
import { PageMemory } from '../api/lists';
import type { ListedKind, ListQuery } from './resources';

/** Room for the pages of ~45,000 listed items of ~360 bytes (the soak's pages of 10,000 hold ~4 MB). */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export class PageMemories {
  readonly #maxBytes: number;
  /** Least recently used first. */
  readonly #byRequest = new Map<string, PageMemory>();
  #bytes = 0;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The memory of one request, made the most recently used (and one made for it when there was none). */
  of(projectName: string, kind: ListedKind, query: Partial<ListQuery>): PageMemory {
    const key = `${projectName}\n${kind}\n${query.offset ?? 0}\n${query.count ?? ''}\n${query.sessionId ?? ''}`;
    const memory = this.#byRequest.get(key) ?? this.#memory(key);
    this.#byRequest.delete(key);
    this.#byRequest.set(key, memory);
    if (this.#bytes > this.#maxBytes) this.#trim();
    return memory;
  }

  /** The items of every read so far are read no more (see `PageMemory.release`). */
  release(): void {
    for (const memory of this.#byRequest.values()) memory.release();
  }

  /** How many bytes the memories hold. */
  get byteLength(): number {
    return this.#bytes;
  }

  /** A new memory, counted while it is this pool's (a read under way may still write one forgotten meanwhile). */
  #memory(key: string): PageMemory {
    const memory: PageMemory = new PageMemory((delta) => {
      if (this.#byRequest.get(key) === memory) this.#bytes += delta;
    });
    return memory;
  }

  /** Forgets the memories used least recently until the rest fit. */
  #trim(): void {
    for (const [key, memory] of this.#byRequest) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#bytes -= memory.byteLength;
      this.#byRequest.delete(key);
    }
  }
}

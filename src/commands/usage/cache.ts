/**
 * Usage answers kept in memory, per project and question. Insights aggregates a day 36–48 hours
 * after it ends, so asking `/usage` again a minute later would cost the same API calls for the
 * same figures. Each answer carries its own expiry (see `answers.ts`): an hour while some day of
 * the range may still change, the next Pacific midnight once every day is final, a few minutes
 * for per-session data. Two identical questions asked at once share one load. Failures are not
 * kept. Time is passed in by the caller, so tests and the scheduler use their own clocks.
 */

export interface Cached<T> {
  value: T;
  /** When the value was loaded from Insights. */
  fetchedAt: number;
  /** True when this answer was served from the cache, without asking Insights. */
  cached: boolean;
}

export interface Loaded<T> {
  value: T;
  expiresAt: number;
}

interface Entry {
  value: unknown;
  fetchedAt: number;
  expiresAt: number;
}

export const DEFAULT_MAX_ENTRIES = 500;

export class UsageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** The answer for `key` at `now`: kept if still fresh, else loaded (once, however many ask). */
  async get<T>(key: string, now: number, load: (fetchedAt: number) => Promise<Loaded<T>>): Promise<Cached<T>> {
    const kept = this.entries.get(key);
    if (kept && kept.expiresAt > now) return { value: kept.value as T, fetchedAt: kept.fetchedAt, cached: true };
    if (kept) this.entries.delete(key);

    let pending = this.loading.get(key);
    if (!pending) {
      pending = load(now).then((loaded) => ({ value: loaded.value, fetchedAt: now, expiresAt: loaded.expiresAt }));
      this.loading.set(key, pending);
      const settle = () => this.loading.delete(key);
      pending.then((entry) => {
        settle();
        this.keep(key, entry);
      }, settle);
    }
    const entry = await pending;
    return { value: entry.value as T, fetchedAt: entry.fetchedAt, cached: false };
  }

  /** Forgets everything (e.g. after a project's credentials change). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, entry: Entry): void {
    if (entry.expiresAt <= entry.fetchedAt) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Map order is insertion order: the first key is the one stored longest ago.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * Request budgets: a token bucket per project that no burst can overdraw, and the choice of
 * which due watches a cycle polls within them — the longest-waiting first, so none starves.
 */
import type { Clock } from './runtime';

export interface BucketConfig {
  /** Most requests that may go out in one burst; at least 2, what the costliest single watch needs. */
  capacity: number;
  refillPerSecond: number;
}

/** A session-discovery watch reads two lists in one poll; a smaller bucket could never poll it. */
export const MIN_CAPACITY = 2;

export const DEFAULT_BUCKET: BucketConfig = { capacity: 10, refillPerSecond: 5 };

export class TokenBucket {
  #tokens: number;
  #updatedAt: number;

  constructor(
    readonly config: BucketConfig,
    private readonly clock: Clock,
  ) {
    if (!(config.capacity >= MIN_CAPACITY) || !(config.refillPerSecond > 0)) {
      throw new RangeError(`a request budget needs capacity ≥ ${MIN_CAPACITY} and refillPerSecond > 0`);
    }
    this.#tokens = config.capacity;
    this.#updatedAt = clock();
  }

  available(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Takes `count` tokens if all are there; never goes below zero. */
  tryTake(count = 1): boolean {
    this.#refill();
    if (this.#tokens < count) return false;
    this.#tokens -= count;
    return true;
  }

  /** Milliseconds until `count` tokens will be there (0 if they already are). */
  msUntil(count = 1): number {
    const missing = count - this.available();
    return missing <= 0 ? 0 : Math.ceil((missing / this.config.refillPerSecond) * 1000);
  }

  #refill(): void {
    const now = this.clock();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.config.capacity, this.#tokens + (elapsed / 1000) * this.config.refillPerSecond);
    this.#updatedAt = now;
  }
}

/** One bucket per project, created on first use from the default or a per-project config. */
export class ProjectBudgets {
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly defaults: BucketConfig,
    private readonly clock: Clock,
    private readonly perProject: Readonly<Record<string, BucketConfig>> = {},
  ) {}

  bucket(projectName: string): TokenBucket {
    let bucket = this.#buckets.get(projectName);
    if (!bucket) {
      bucket = new TokenBucket(this.perProject[projectName] ?? this.defaults, this.clock);
      this.#buckets.set(projectName, bucket);
    }
    return bucket;
  }

  available(projectName: string): number {
    return this.bucket(projectName).available();
  }

  /** Projects that cannot make a single request right now. */
  exhausted(): string[] {
    return [...this.#buckets].filter(([, bucket]) => bucket.available() < 1).map(([name]) => name);
  }
}

export interface Schedulable {
  id: string;
  projectName: string;
  nextPollAt: number;
}

export interface CyclePlan<W> {
  /** Watches to poll now, per project in the order they became due. */
  byProject: Map<string, W[]>;
  /** Watches left for a later cycle; they keep their due time and so come first next time. */
  deferred: W[];
}

/**
 * Per project, the longest prefix of its due watches (oldest `nextPollAt` first) whose
 * estimated request cost fits the tokens available now (all of them, in the order given, when they all fit). `costOf` must not decrease as watches
 * are added (true of request plans: more watches never need fewer requests), which lets a
 * binary search find the prefix.
 */
export function planCycle<W extends Schedulable>(
  due: readonly W[],
  available: (projectName: string) => number,
  costOf: (watches: readonly W[]) => number,
): CyclePlan<W> {
  const groups = new Map<string, W[]>();
  for (const watch of due) {
    const group = groups.get(watch.projectName);
    if (group) group.push(watch);
    else groups.set(watch.projectName, [watch]);
  }
  const byProject = new Map<string, W[]>();
  const deferred: W[] = [];
  for (const [projectName, watches] of groups) {
    const tokens = Math.floor(available(projectName));
    // Usually everything fits: one costing instead of a sort and a search (planning thousands of watches is not free).
    if (costOf(watches) <= tokens) {
      byProject.set(projectName, watches);
      continue;
    }
    watches.sort((a, b) => a.nextPollAt - b.nextPollAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let fits = 0;
    let tooMany = watches.length + 1;
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      if (costOf(watches.slice(0, middle)) <= tokens) fits = middle;
      else tooMany = middle;
    }
    if (fits > 0) byProject.set(projectName, watches.slice(0, fits));
    deferred.push(...watches.slice(fits));
  }
  return { byProject, deferred };
}

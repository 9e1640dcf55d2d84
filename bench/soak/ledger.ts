/**
 * The notification ledger of the soak: every state change the environment made (or the emulator
 * made on its own, such as processing a stopped recording) is expected as exactly one Slack post,
 * identified by (resource, transition). Posts are read from what the fake Slack stored, so a
 * message posted twice (a retry after a lost answer) counts twice.
 */

export interface Post {
  /** The idempotency key in the message metadata: `${team}:${channel}:${kind}:${resourceId}:${transition}@${revision}`. */
  key: string;
  /** When the fake Slack stored it (epoch ms, from its ts). */
  postedAt: number;
}

/** `${resourceId}|${transition}`, the identity a notification is counted by. */
export function notificationId(key: string): string | undefined {
  const parts = key.split(':');
  if (parts.length < 5) return undefined;
  const transition = parts.slice(4).join(':').replace(/@\d+$/, '');
  return `${parts[3]}|${transition}`;
}

/** Slack ts (`seconds.micros`) → epoch ms. */
export function tsToMs(ts: string): number {
  const [seconds = '0', fraction = '0'] = ts.split('.');
  return Number(seconds) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6)) / 1000;
}

export interface LedgerWindow {
  /** Changes whose notification became due in the window. */
  due: number;
  /** Expected notifications first posted in the window. */
  delivered: number;
  /** Change → first post, ms, of those. */
  latencies: number[];
  /** Notifications posted more than once, and posts of nothing expected, counted since the start. */
  duplicates: number;
  unexpected: number;
}

export interface LedgerTotals {
  expected: number;
  delivered: number;
  lost: string[];
  duplicates: string[];
  unexpected: string[];
  latencies: number[];
  /**
   * Latencies of the delivered notifications whose channel Slack answered 429 between the
   * change and the post (its queue waited out a Retry-After), apart from the rest.
   */
  heldBy429: number[];
  clear: number[];
}

/** A Slack 429 the environment answered: the channel whose queue it held back, and when. */
export interface RateLimited {
  channel: string;
  at: number;
}

/** The channel of an idempotency key. */
const channelOf = (key: string): string | undefined => key.split(':')[1];

export class NotificationLedger {
  readonly #expected = new Map<string, number>();
  #seen = new Map<string, { count: number; firstAt: number; channel: string | undefined }>();
  readonly #rateLimited: RateLimited[] = [];

  rateLimited(event: RateLimited): void {
    this.#rateLimited.push(event);
  }

  expect(id: string, dueAt: number): void {
    this.#expected.set(id, dueAt);
  }

  /** Replaces what was posted so far with a full reading of the fake Slack. */
  observe(posts: Iterable<Post>): void {
    const seen = new Map<string, { count: number; firstAt: number; channel: string | undefined }>();
    for (const post of posts) {
      const id = notificationId(post.key);
      if (!id) continue;
      const entry = seen.get(id);
      if (entry) {
        entry.count += 1;
        entry.firstAt = Math.min(entry.firstAt, post.postedAt);
      } else seen.set(id, { count: 1, firstAt: post.postedAt, channel: channelOf(post.key) });
    }
    this.#seen = seen;
  }

  window(from: number, to: number): LedgerWindow {
    let due = 0;
    let delivered = 0;
    const latencies: number[] = [];
    for (const [id, dueAt] of this.#expected) {
      if (dueAt >= from && dueAt < to) due += 1;
      const seen = this.#seen.get(id);
      if (seen && seen.firstAt >= from && seen.firstAt < to) {
        delivered += 1;
        latencies.push(seen.firstAt - dueAt);
      }
    }
    const totals = this.totals(Number.POSITIVE_INFINITY);
    return { due, delivered, latencies, duplicates: totals.duplicates.length, unexpected: totals.unexpected.length };
  }

  /** Everything so far; `lost` are expected notifications due before `dueBefore` never posted. */
  totals(dueBefore: number): LedgerTotals {
    const lost: string[] = [];
    const latencies: number[] = [];
    const heldBy429: number[] = [];
    const clear: number[] = [];
    let delivered = 0;
    for (const [id, dueAt] of this.#expected) {
      const seen = this.#seen.get(id);
      if (seen) {
        delivered += 1;
        const latency = seen.firstAt - dueAt;
        latencies.push(latency);
        const held = this.#rateLimited.some((r) => r.channel === seen.channel && r.at >= dueAt && r.at <= seen.firstAt);
        (held ? heldBy429 : clear).push(latency);
      } else if (dueAt < dueBefore) lost.push(id);
    }
    const duplicates = [...this.#seen].filter(([, s]) => s.count > 1).map(([id, s]) => `${id} ×${s.count}`);
    const unexpected = [...this.#seen.keys()].filter((id) => !this.#expected.has(id));
    return { expected: this.#expected.size, delivered, lost, duplicates, unexpected, latencies, heldBy429, clear };
  }
}

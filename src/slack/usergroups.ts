/**
 * Members of Slack user groups, looked up with `usergroups.users.list` (scope `usergroups:read`)
 * and cached per group for `ttlMs` (5 minutes by default). Concurrent lookups of one group share
 * a single request; when a refresh fails, the last known members are used until a refresh
 * succeeds.
 */
import type { webApi } from '@slack/bolt';

export type Clock = () => number;

interface Entry {
  members: ReadonlySet<string>;
  fetchedAt: number;
}

export class UsergroupCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ReadonlySet<string>>>();
  private readonly ttlMs: number;
  private readonly clock: Clock;

  constructor(options: { ttlMs?: number; clock?: Clock } = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Members of `groupId`, from the cache while fresh. Rejects only when nothing is known yet. */
  async members(client: webApi.WebClient, groupId: string): Promise<ReadonlySet<string>> {
    const entry = this.entries.get(groupId);
    if (entry && this.clock() - entry.fetchedAt < this.ttlMs) return entry.members;
    const running = this.inflight.get(groupId);
    if (running) return running;
    const lookup = this.fetch(client, groupId)
      .then((members) => {
        const set = new Set(members);
        this.entries.set(groupId, { members: set, fetchedAt: this.clock() });
        return set as ReadonlySet<string>;
      })
      .catch((err: unknown) => {
        if (entry) return entry.members;
        throw err;
      })
      .finally(() => this.inflight.delete(groupId));
    this.inflight.set(groupId, lookup);
    return lookup;
  }

  /** Forgets every cached group (e.g. after the policy changed). */
  clear(): void {
    this.entries.clear();
  }

  private async fetch(client: webApi.WebClient, groupId: string): Promise<string[]> {
    const result = await client.usergroups.users.list({ usergroup: groupId });
    return result.users ?? [];
  }
}

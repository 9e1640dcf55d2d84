/**
 * The poller backlog the metrics read (`store.backlog(now)`), on SQLite and on PostgreSQL:
 * active, claimed and due watches, the lag of the most overdue one, and the outbox's depth and
 * oldest age — delivered and discarded rows no longer count.
 */
import { createStore } from '../../src/store';
import type { VidopsStore } from '../../src/store/types';
import { describePostgres, freshSchema, storeIn } from '../store/postgres-harness';
import { T0, newWatch, pollOutcome, reply } from '../store/watch-fixtures';

function describeBacklog(name: string, open: () => Promise<VidopsStore>): void {
  describe(name, () => {
    let store: VidopsStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it('is all zeros for an empty store', async () => {
      expect(await store.backlog(T0)).toEqual({ activeWatches: 0, claimedWatches: 0, dueWatches: 0, pollLagMs: 0, outboxDepth: 0, outboxOldestAgeMs: 0 });
    });

    it('follows watches through claims, polls and ends, and the outbox through delivery', async () => {
      await store.addWatch(newWatch('w1', { nextPollAt: T0 - 7_000 }));
      await store.addWatch(newWatch('w2', { nextPollAt: T0 - 2_000 }));
      await store.addWatch(newWatch('w3', { nextPollAt: T0 + 60_000 }));
      expect(await store.backlog(T0)).toEqual({ activeWatches: 3, claimedWatches: 0, dueWatches: 2, pollLagMs: 7_000, outboxDepth: 0, outboxOldestAgeMs: 0 });

      const [first] = await store.claimDue('replica-a', T0, 1, 30_000);
      expect(first?.id).toBe('w1');
      // The claimed watch is being polled: no longer due, and the lag is the next one's.
      expect(await store.backlog(T0)).toMatchObject({ claimedWatches: 1, dueWatches: 1, pollLagMs: 2_000 });
      // Past its lease, a claim counts for nothing.
      expect(await store.backlog(T0 + 30_000)).toMatchObject({ claimedWatches: 0, dueWatches: 2 });

      await store.completePoll('w1', 'replica-a', pollOutcome({ polledAt: T0, nextPollAt: T0 + 5_000, outbox: [reply('a'), reply('b')] }));
      expect(await store.backlog(T0 + 1_000)).toEqual({
        activeWatches: 3,
        claimedWatches: 0,
        dueWatches: 1,
        pollLagMs: 3_000,
        outboxDepth: 2,
        outboxOldestAgeMs: 1_000,
      });

      // One row per channel at a time: deliver the first, then give up on the second.
      const [a] = await store.claimOutbox('deliverer', T0 + 1_000, 10, 30_000);
      await store.markDelivered(a!.id, 'deliverer', { deliveredAt: T0 + 1_000 });
      expect(await store.backlog(T0 + 1_000)).toMatchObject({ outboxDepth: 1 });
      const [b] = await store.claimOutbox('deliverer', T0 + 1_000, 10, 30_000);
      await store.discardOutbox(b!.id, 'deliverer', T0 + 1_000, 'channel_not_found');
      await store.endWatch('w2', T0 + 1_000);
      expect(await store.backlog(T0 + 1_000)).toEqual({
        activeWatches: 2,
        claimedWatches: 0,
        dueWatches: 0,
        pollLagMs: 0,
        outboxDepth: 0,
        outboxOldestAgeMs: 0,
      });
    });
  });
}

describeBacklog('backlog on SQLite', async () => {
  const store = createStore('sqlite::memory:');
  await store.migrate();
  return store;
});

describePostgres('backlog on PostgreSQL', () => {
  describeBacklog('PostgresStore', async () => {
    const store = storeIn(freshSchema());
    await store.migrate();
    return store;
  });
});

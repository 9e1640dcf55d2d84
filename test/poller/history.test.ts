import { HistoryPruner } from '../../src/poller/history';
import { MemoryWatchStore } from '../../src/poller/memory-store';
import type { HistoryRetention, PrunedHistory } from '../../src/poller/watch';
import { newWatch, pollOutcome, reply } from './watch-store-contract';

const T0 = 1_700_000_000_000;
const RETENTION: HistoryRetention = { outboxMs: 60_000, endedWatchMs: 120_000 };

/** `count` ended watches, each with one delivered notification, all finished at T0. */
async function finished(store: MemoryWatchStore, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await store.addWatch(newWatch(`w${i}`, { nextPollAt: T0 }));
    await store.claimDue('p', T0, 1, 30_000);
    await store.completePoll(`w${i}`, 'p', pollOutcome({ polledAt: T0, ended: true, outbox: [reply(`r${i}`, { channelId: `C${i}` })] }));
  }
  for (const row of await store.claimOutbox('d', T0, count, 30_000)) await store.markDelivered(row.id, 'd', { deliveredAt: T0 });
}

function recordingLogger() {
  const lines: { message: string; fields?: unknown }[] = [];
  const log = (message: string, fields?: unknown) => lines.push({ message, fields });
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

describe('HistoryPruner', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('deletes what outlived its retention a batch per store call, up to a run’s limit, and says how much', async () => {
    const store = new MemoryWatchStore();
    await finished(store, 23);
    const calls: PrunedHistory[] = [];
    const counting = {
      pruneHistory: async (...args: Parameters<MemoryWatchStore['pruneHistory']>) => {
        const pruned = await store.pruneHistory(...args);
        calls.push(pruned);
        return pruned;
      },
    };
    const { lines, logger } = recordingLogger();
    let now = T0 + 100_000;
    const pruner = new HistoryPruner({ store: counting, logger, clock: () => now, retention: RETENTION, batch: 5, maxBatches: 4 });

    // The rows are old enough, the watches not yet.
    expect(await pruner.pruneOnce()).toEqual({ outboxRows: 20, watches: 0 });
    expect(calls).toHaveLength(4);
    expect(await pruner.pruneOnce()).toEqual({ outboxRows: 3, watches: 0 });
    now = T0 + 200_000;
    expect(await pruner.pruneOnce()).toEqual({ outboxRows: 0, watches: 20 });
    expect(await pruner.pruneOnce()).toEqual({ outboxRows: 0, watches: 3 });
    expect(await store.listWatches({}, { includeEnded: true })).toEqual([]);
    // Nothing left: one call, and nothing logged.
    calls.length = 0;
    lines.length = 0;
    expect(await pruner.pruneOnce()).toEqual({ outboxRows: 0, watches: 0 });
    expect(calls).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  test('runs when started and every interval after, and a failing run is logged without stopping the next', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const store = {
      pruneHistory: async (): Promise<PrunedHistory> => {
        runs += 1;
        if (runs === 2) throw new Error('database is locked');
        return { outboxRows: 0, watches: 0 };
      },
    };
    const { lines, logger } = recordingLogger();
    const pruner = new HistoryPruner({ store, logger, everyMs: 60_000 });
    pruner.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    expect(lines).toEqual([{ message: 'history pruning run failed', fields: { error: expect.objectContaining({ message: 'database is locked' }) } }]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(3);
    await pruner.stop();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(3);
  });
});

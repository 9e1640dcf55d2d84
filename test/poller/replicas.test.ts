import { MemoryWatchStore } from '../../src/poller/memory-store';
import { ANNOUNCED_WITHIN_MS, ANNOUNCE_EVERY_MS, PollerReplicas } from '../../src/poller/replicas';
import { storeWith } from './fakes';

const T0 = 1_700_000_000_000;

function recordingLogger() {
  const warnings: string[] = [];
  const log = () => undefined;
  return { warnings, logger: { debug: log, info: log, error: log, warn: (message: string) => warnings.push(message) } };
}

describe('PollerReplicas', () => {
  test('announces at most every ANNOUNCE_EVERY_MS and answers whether another poller was heard of lately', async () => {
    const store = new MemoryWatchStore();
    const announced: number[] = [];
    const counting = storeWith(store, {
      announcePoller: async (instance, now, withinMs) => {
        announced.push(now - T0);
        return store.announcePoller(instance, now, withinMs);
      },
    });
    const { logger, warnings } = recordingLogger();
    const replicas = new PollerReplicas(counting, 'p1', logger);

    expect(await replicas.othersAt(T0)).toBe(false);
    await store.announcePoller('p2', T0 + 1_000, ANNOUNCED_WITHIN_MS);
    // Not asked again before its time: the answer stands.
    expect(await replicas.othersAt(T0 + ANNOUNCE_EVERY_MS - 1)).toBe(false);
    expect(await replicas.othersAt(T0 + ANNOUNCE_EVERY_MS)).toBe(true);
    // p2 silent since 1 s: forgotten once ANNOUNCED_WITHIN_MS has passed.
    expect(await replicas.othersAt(T0 + 1_000 + ANNOUNCED_WITHIN_MS + 1)).toBe(false);
    expect(announced).toEqual([0, ANNOUNCE_EVERY_MS, 1_000 + ANNOUNCED_WITHIN_MS + 1]);
    expect(warnings).toEqual([]);
  });

  test('takes others to be there when the store cannot answer, says so, and asks again on the next call', async () => {
    let failing = true;
    const store = new MemoryWatchStore();
    const flaky = storeWith(store, {
      announcePoller: async (...args) => {
        if (failing) throw new Error('database is locked');
        return store.announcePoller(...args);
      },
    });
    const { logger, warnings } = recordingLogger();
    const replicas = new PollerReplicas(flaky, 'p1', logger);
    expect(await replicas.othersAt(T0)).toBe(true);
    expect(warnings).toEqual(['could not announce this poller to the store; giving watches back as if others shared them']);
    failing = false;
    expect(await replicas.othersAt(T0 + 1)).toBe(false);
  });

  test('retires from the store when it stops, and only warns when the store cannot hear it', async () => {
    const store = new MemoryWatchStore();
    const { logger, warnings } = recordingLogger();
    await new PollerReplicas(store, 'p2', logger).othersAt(T0);
    const p1 = new PollerReplicas(store, 'p1', logger);
    expect(await p1.othersAt(T0)).toBe(true);
    await new PollerReplicas(store, 'p2', logger).retire();
    expect(await store.announcePoller('p1', T0 + 1, ANNOUNCED_WITHIN_MS)).toBe(1);

    const broken = new PollerReplicas(
      storeWith(store, {
        retirePoller: async () => {
          throw new Error('connection terminated');
        },
      }),
      'p1',
      logger,
    );
    await expect(broken.retire()).resolves.toBeUndefined();
    expect(warnings).toEqual(['could not retire this poller from the store; it is forgotten in half a minute']);
  });
});

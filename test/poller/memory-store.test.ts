import { MemoryWatchStore } from '../../src/poller/memory-store';
import { describeWatchStoreContract } from './watch-store-contract';

describeWatchStoreContract('MemoryWatchStore', async () => new MemoryWatchStore());

describe('MemoryWatchStore', () => {
  it('hands out copies: changing a returned watch does not change the store', async () => {
    const store = new MemoryWatchStore();
    await store.addWatch({
      id: 'w',
      teamId: 'T1',
      channelId: 'C1',
      projectName: 'prod',
      kind: 'archive',
      resourceId: 'A1',
      sessionId: 'S1',
      lastState: { status: 'started', createdAt: 0, durationS: 0, sizeBytes: 0 },
      lastChangeAt: 0,
      nextPollAt: 0,
      createdAt: 0,
      expiresAt: 1,
    });
    const [claimed] = await store.claimDue('p', 0, 1, 10);
    claimed!.lastState!.status = 'tampered';
    claimed!.leaseOwner = 'someone-else';
    const stored = await store.getWatch('w');
    expect(stored?.lastState?.status).toBe('started');
    expect(stored?.leaseOwner).toBe('p');
  });
});

/** Watches and poll outcomes for the store's own WatchStore tests. */
import type { OutboxItem, PollOutcome } from '../../src/poller/watch';
import { T0, newWatch } from '../poller/watch-store-contract';

// Same watches as the contract's; replies without a thread and polls at T0 suit these tests.
export { T0, newWatch };

export function reply(transitionKey: string, overrides: Partial<OutboxItem> = {}): OutboxItem {
  return { transitionKey, teamId: 'T1', channelId: 'C1', payload: { type: 'reply', text: transitionKey }, ...overrides };
}

export function pollOutcome(overrides: Partial<PollOutcome> = {}): PollOutcome {
  return {
    polledAt: T0,
    state: { status: 'paused', createdAt: T0, durationS: 0, sizeBytes: 0 },
    changed: true,
    nextPollAt: T0 + 4_000,
    ended: false,
    failures: 0,
    outbox: [],
    ...overrides,
  };
}

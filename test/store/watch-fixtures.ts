/** Watches and poll outcomes for the store's own WatchStore tests. */
import type { NewWatch, OutboxItem, PollOutcome } from '../../src/poller/watch';

export const T0 = 1_700_000_000_000;

export function newWatch(id: string, overrides: Partial<NewWatch> = {}): NewWatch {
  return {
    id,
    teamId: 'T1',
    channelId: 'C1',
    messageTs: '1700000000.000100',
    projectName: 'prod',
    kind: 'archive',
    resourceId: `res-${id}`,
    sessionId: 'S1',
    lastState: { status: 'started', createdAt: T0, durationS: 0, sizeBytes: 0 },
    lastChangeAt: T0,
    nextPollAt: T0,
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
    ...overrides,
  };
}

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

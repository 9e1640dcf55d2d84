/**
 * The behaviour every WatchStore must have (see the contract in src/poller/watch.ts). A backend's
 * test file calls `describeWatchStoreContract(name, factory)` with a factory returning a fresh,
 * empty, ready store, and optionally a teardown closing it.
 */
import type { HistoryRetention, NewWatch, OutboxItem, PollOutcome, WatchStore } from '../../src/poller/watch';

export type WatchStoreFactory = () => Promise<WatchStore>;

export const T0 = 1_700_000_000_000;
const LEASE = 30_000;

/** Fixtures, exported for a backend's own extra tests. */
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
  return { transitionKey, teamId: 'T1', channelId: 'C1', threadTs: '1700000000.000100', payload: { type: 'reply', text: transitionKey }, ...overrides };
}

export function pollOutcome(overrides: Partial<PollOutcome> = {}): PollOutcome {
  return {
    polledAt: T0 + 1_000,
    state: { status: 'paused', createdAt: T0, durationS: 0, sizeBytes: 0 },
    changed: true,
    nextPollAt: T0 + 4_000,
    ended: false,
    failures: 0,
    outbox: [],
    ...overrides,
  };
}

export function describeWatchStoreContract(name: string, factory: WatchStoreFactory, teardown?: (store: WatchStore) => Promise<void>): void {
  describe(`${name} — WatchStore contract`, () => {
    let store: WatchStore;

    beforeEach(async () => {
      store = await factory();
    });

    afterEach(async () => {
      await teardown?.(store);
    });

    describe('watches', () => {
      it('adds a watch with no failures, revision 0 and no lease; the same id again changes nothing', async () => {
        expect(await store.addWatch(newWatch('w1'))).toBe(true);
        expect(await store.addWatch(newWatch('w1', { projectName: 'other' }))).toBe(false);
        const stored = await store.getWatch('w1');
        expect(stored).toMatchObject({ id: 'w1', projectName: 'prod', failures: 0, revision: 0, repollRequested: false });
        expect(stored?.leaseOwner).toBeUndefined();
        expect(stored?.lastState).toEqual({ status: 'started', createdAt: T0, durationS: 0, sizeBytes: 0 });
        expect(await store.getWatch('nope')).toBeUndefined();
      });

      it('lists watches by filter, leaving ended ones out unless asked', async () => {
        await store.addWatch(newWatch('a', { createdAt: T0 + 1 }));
        await store.addWatch(newWatch('b', { kind: 'broadcast', createdAt: T0 }));
        await store.addWatch(newWatch('c', { sessionId: 'S2', createdAt: T0 + 2 }));
        expect((await store.listWatches({})).map((w) => w.id)).toEqual(['b', 'a', 'c']);
        expect((await store.listWatches({ kind: 'archive', sessionId: 'S1' })).map((w) => w.id)).toEqual(['a']);
        const [claimed] = await store.claimDue('p', T0, 1, LEASE);
        await store.completePoll(claimed!.id, 'p', pollOutcome({ ended: true }));
        expect((await store.listWatches({})).map((w) => w.id)).not.toContain(claimed!.id);
        expect((await store.listWatches({}, { includeEnded: true })).map((w) => w.id)).toContain(claimed!.id);
      });
    });

    describe('claimDue', () => {
      it('claims due watches oldest first (ties by id), up to the limit, with a lease', async () => {
        await store.addWatch(newWatch('late', { nextPollAt: T0 + 5_000 }));
        await store.addWatch(newWatch('b', { nextPollAt: T0 - 10 }));
        await store.addWatch(newWatch('a', { nextPollAt: T0 - 10 }));
        await store.addWatch(newWatch('oldest', { nextPollAt: T0 - 1_000 }));
        const claimed = await store.claimDue('p1', T0, 2, LEASE);
        expect(claimed.map((w) => w.id)).toEqual(['oldest', 'a']);
        expect(claimed[0]).toMatchObject({ leaseOwner: 'p1', leaseUntil: T0 + LEASE });
        expect((await store.claimDue('p2', T0, 10, LEASE)).map((w) => w.id)).toEqual(['b']);
      });

      it('hides a claimed watch from other claims until its lease ends', async () => {
        await store.addWatch(newWatch('w'));
        expect(await store.claimDue('p1', T0, 10, LEASE)).toHaveLength(1);
        expect(await store.claimDue('p2', T0 + LEASE - 1, 10, LEASE)).toHaveLength(0);
        const taken = await store.claimDue('p2', T0 + LEASE, 10, LEASE);
        expect(taken.map((w) => [w.id, w.leaseOwner])).toEqual([['w', 'p2']]);
      });

      it('never hands the same watch to two concurrent claims', async () => {
        for (let i = 0; i < 50; i += 1) await store.addWatch(newWatch(`w${String(i).padStart(2, '0')}`));
        const [first, second] = await Promise.all([store.claimDue('p1', T0, 30, LEASE), store.claimDue('p2', T0, 30, LEASE)]);
        const ids = [...first!, ...second!].map((w) => w.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toHaveLength(50);
      });

      it('takes at most perProjectLimit per project and skips excluded projects', async () => {
        for (const [id, projectName, due] of [
          ['a1', 'a', T0 - 5],
          ['a2', 'a', T0 - 4],
          ['a3', 'a', T0 - 3],
          ['b1', 'b', T0 - 2],
          ['c1', 'c', T0 - 1],
        ] as const) {
          await store.addWatch(newWatch(id, { projectName, nextPollAt: due }));
        }
        const claimed = await store.claimDue('p', T0, 10, LEASE, { perProjectLimit: 2, excludeProjects: ['c'] });
        expect(claimed.map((w) => w.id)).toEqual(['a1', 'a2', 'b1']);
      });

      it('applies a project’s own limit over the common one', async () => {
        for (const [id, projectName] of [
          ['a1', 'a'],
          ['a2', 'a'],
          ['a3', 'a'],
          ['b1', 'b'],
          ['b2', 'b'],
        ] as const) {
          await store.addWatch(newWatch(id, { projectName }));
        }
        const claimed = await store.claimDue('p', T0, 10, LEASE, { perProjectLimit: 2, projectLimits: { a: 1, b: 5 } });
        expect(claimed.map((w) => w.id)).toEqual(['a1', 'b1', 'b2']);
      });

      it('merges watches whose lease ran out with unleased ones in due order, page after page, passing standing leases by', async () => {
        const due = T0 - LEASE - 1_000;
        // Read first and skipped: more than a page of an excluded project's watches.
        for (let i = 0; i < 70; i += 1) await store.addWatch(newWatch(`busy${String(i).padStart(2, '0')}`, { projectName: 'busy', nextPollAt: due - 500 }));
        for (const [id, projectName, offset] of [
          ['k1', 'k', -400],
          ['e1', 'e', -300],
          ['u1', 'u', -250],
          ['k2', 'k', -200],
          ['e2', 'e', -150],
          ['u2', 'u', -100],
          ['e3', 'e', -50],
        ] as const) {
          await store.addWatch(newWatch(id, { projectName, nextPollAt: due + offset }));
        }
        // A crashed replica's leases end at T0; a live one keeps its leases past T0.
        expect((await store.claimDue('crashed', T0 - LEASE, 10, LEASE, { excludeProjects: ['busy', 'k', 'u'] })).map((w) => w.id)).toEqual(['e1', 'e2', 'e3']);
        expect((await store.claimDue('live', T0, 10, LEASE, { excludeProjects: ['busy', 'e', 'u'] })).map((w) => w.id)).toEqual(['k1', 'k2']);
        const claimed = await store.claimDue('p', T0, 4, LEASE, { excludeProjects: ['busy'] });
        expect(claimed.map((w) => [w.id, w.leaseOwner])).toEqual([
          ['e1', 'p'],
          ['u1', 'p'],
          ['e2', 'p'],
          ['u2', 'p'],
        ]);
        expect((await store.claimDue('p', T0, 10, LEASE, { excludeProjects: ['busy'] })).map((w) => w.id)).toEqual(['e3']);
      });

      it('never claims an ended watch', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        await store.completePoll('w', 'p', pollOutcome({ ended: true, nextPollAt: T0 }));
        expect(await store.claimDue('p2', T0 + 10 * LEASE, 10, LEASE)).toHaveLength(0);
        expect((await store.getWatch('w'))?.endedAt).toBe(T0 + 1_000);
      });
    });

    describe('completePoll', () => {
      it('writes the state, schedules, bumps the revision, releases the lease and appends the outbox in one step', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        const ok = await store.completePoll(
          'w',
          'p',
          pollOutcome({
            failures: 0,
            outbox: [reply('archive:paused@0'), reply('card@0', { payload: { type: 'card', messageTs: '1.2', text: 't', blocks: [{ type: 'divider' }] } })],
          }),
        );
        expect(ok).toBe(true);
        const watch = await store.getWatch('w');
        expect(watch).toMatchObject({ lastChangeAt: T0 + 1_000, nextPollAt: T0 + 4_000, revision: 1, failures: 0 });
        expect(watch?.lastState).toEqual({ status: 'paused', createdAt: T0, durationS: 0, sizeBytes: 0 });
        expect(watch?.leaseOwner).toBeUndefined();
        expect(watch?.leaseUntil).toBeUndefined();
        const rows = await store.listOutbox('w');
        expect(rows.map((r) => [r.idempotencyKey, r.attempts, r.createdAt, r.retryAt])).toEqual([
          ['w:archive:paused@0', 0, T0 + 1_000, T0 + 1_000],
          ['w:card@0', 0, T0 + 1_000, T0 + 1_000],
        ]);
        expect(rows[1]!.payload).toEqual({ type: 'card', messageTs: '1.2', text: 't', blocks: [{ type: 'divider' }] });
        expect(rows[0]!.id).toBeLessThan(rows[1]!.id);
      });

      it('keeps lastChangeAt when nothing changed and records failures', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        await store.completePoll('w', 'p', pollOutcome({ changed: false, failures: 3 }));
        expect(await store.getWatch('w')).toMatchObject({ lastChangeAt: T0, failures: 3 });
      });

      it('ignores an outbox item whose idempotency key exists', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        await store.completePoll('w', 'p', pollOutcome({ nextPollAt: T0, outbox: [reply('k@0')] }));
        await store.claimDue('p2', T0 + 2_000, 1, LEASE);
        await store.completePoll('w', 'p2', pollOutcome({ polledAt: T0 + 2_000, outbox: [reply('k@0'), reply('k@1')] }));
        expect((await store.listOutbox('w')).map((r) => r.idempotencyKey)).toEqual(['w:k@0', 'w:k@1']);
      });

      it('refuses a poll from an owner whose lease was taken over, changing nothing', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p1', T0, 1, LEASE);
        await store.claimDue('p2', T0 + LEASE, 1, LEASE);
        expect(await store.completePoll('w', 'p1', pollOutcome({ outbox: [reply('x@0')] }))).toBe(false);
        const watch = await store.getWatch('w');
        expect(watch).toMatchObject({ revision: 0, leaseOwner: 'p2' });
        expect(await store.listOutbox('w')).toEqual([]);
        expect(await store.completePoll('w', 'p2', pollOutcome())).toBe(true);
        expect(await store.completePoll('w', 'p2', pollOutcome())).toBe(false);
      });

      it('accepts the owner after its lease ran out if nobody claimed the watch since', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p1', T0, 1, LEASE);
        expect(await store.completePoll('w', 'p1', pollOutcome({ polledAt: T0 + LEASE * 2 }))).toBe(true);
      });

      it('adds spawned watches whose ids are new', async () => {
        await store.addWatch(newWatch('parent', { kind: 'session-discovery' }));
        await store.addWatch(newWatch('existing', { projectName: 'kept' }));
        await store.claimDue('p', T0, 10, LEASE);
        await store.completePoll('parent', 'p', pollOutcome({ spawn: [newWatch('child'), newWatch('existing', { projectName: 'replaced' })] }));
        expect(await store.getWatch('child')).toMatchObject({ id: 'child', revision: 0, failures: 0 });
        expect(await store.getWatch('existing')).toMatchObject({ projectName: 'kept' });
      });
    });

    describe('completePolls', () => {
      it('writes each watch the owner holds as completePoll would, refuses the others, and answers per poll in order', async () => {
        for (const id of ['a', 'b', 'c', 'd', 'ended']) await store.addWatch(newWatch(id));
        await store.claimDue('p1', T0, 10, LEASE);
        await store.claimDue('p2', T0 + LEASE, 1, LEASE); // 'a' is taken over by p2
        expect(await store.endWatch('ended', T0 + 10)).toBe(true);
        const written = await store.completePolls('p1', [
          { watchId: 'd', outcome: pollOutcome({ outbox: [reply('d@0', { channelId: 'C2' })] }) },
          { watchId: 'a', outcome: pollOutcome({ outbox: [reply('a@0')] }) },
          { watchId: 'missing', outcome: pollOutcome() },
          { watchId: 'ended', outcome: pollOutcome({ outbox: [reply('late')] }) },
          { watchId: 'b', outcome: pollOutcome({ changed: false, failures: 2, outbox: [reply('b@0'), reply('b@0'), reply('b@1')] }) },
          { watchId: 'c', outcome: pollOutcome({ ended: true, spawn: [newWatch('child'), newWatch('b', { projectName: 'replaced' })] }) },
        ]);
        expect(written).toEqual([true, false, false, false, true, true]);
        expect(await store.getWatch('a')).toMatchObject({ revision: 0, leaseOwner: 'p2' });
        expect(await store.listOutbox('a')).toEqual([]);
        expect(await store.listOutbox('ended')).toEqual([]);
        expect(await store.getWatch('b')).toMatchObject({ revision: 1, lastChangeAt: T0, failures: 2, nextPollAt: T0 + 4_000, projectName: 'prod' });
        expect((await store.getWatch('b'))?.leaseOwner).toBeUndefined();
        expect((await store.listOutbox('b')).map((r) => r.idempotencyKey)).toEqual(['b:b@0', 'b:b@1']);
        expect(await store.getWatch('c')).toMatchObject({ revision: 1, endedAt: T0 + 1_000 });
        expect(await store.getWatch('child')).toMatchObject({ id: 'child', revision: 0 });
        expect(await store.getWatch('d')).toMatchObject({ revision: 1, lastChangeAt: T0 + 1_000 });
        expect((await store.listOutbox('d')).map((r) => [r.idempotencyKey, r.channelId])).toEqual([['d:d@0', 'C2']]);
      });

      it('keeps a channel in list order and schedules a re-poll asked for while leased', async () => {
        for (const id of ['x', 'y']) await store.addWatch(newWatch(id));
        await store.claimDue('p', T0, 10, LEASE);
        expect(await store.expedite({ resourceId: 'res-y' }, T0 + 500)).toBe(1);
        expect(
          await store.completePolls('p', [
            { watchId: 'y', outcome: pollOutcome({ nextPollAt: T0 + 60_000, outbox: [reply('y@0')] }) },
            { watchId: 'x', outcome: pollOutcome({ nextPollAt: T0 + 60_000, outbox: [reply('x@0')] }) },
          ]),
        ).toEqual([true, true]);
        expect(await store.getWatch('y')).toMatchObject({ nextPollAt: T0 + 1_000, repollRequested: false });
        expect(await store.getWatch('x')).toMatchObject({ nextPollAt: T0 + 60_000 });
        expect((await store.claimOutbox('d', T0 + 1_000, 10, LEASE)).map((r) => r.transitionKey)).toEqual(['y@0']);
      });

      it('does nothing for an empty list', async () => {
        expect(await store.completePolls('p', [])).toEqual([]);
      });
    });

    describe('releaseWatch and expedite', () => {
      it('releases a lease without touching the state', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        expect(await store.releaseWatch('w', 'other')).toBe(false);
        expect(await store.releaseWatch('w', 'p')).toBe(true);
        expect(await store.getWatch('w')).toMatchObject({ revision: 0, nextPollAt: T0 });
        expect(await store.claimDue('p2', T0, 1, LEASE)).toHaveLength(1);
      });

      it('makes matching watches due now', async () => {
        await store.addWatch(newWatch('r', { kind: 'render', resourceId: 'R1', nextPollAt: T0 + 60_000 }));
        await store.addWatch(newWatch('other', { kind: 'render', resourceId: 'R2', nextPollAt: T0 + 60_000 }));
        expect(await store.expedite({ kind: 'render', resourceId: 'R1' }, T0)).toBe(1);
        expect((await store.claimDue('p', T0, 10, LEASE)).map((w) => w.id)).toEqual(['r']);
      });

      it('asks for another poll when the hint arrives while the watch is leased', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        expect(await store.expedite({ resourceId: 'res-w' }, T0 + 500)).toBe(1);
        expect((await store.getWatch('w'))?.repollRequested).toBe(true);
        await store.completePoll('w', 'p', pollOutcome({ nextPollAt: T0 + 60_000 }));
        const watch = await store.getWatch('w');
        expect(watch).toMatchObject({ nextPollAt: T0 + 1_000, repollRequested: false });
      });

      it('keeps the card model with the watch; an action writes it (and the state it left) whatever the lease', async () => {
        const card = { v: 1, context: { startedBy: 'U1', alias: 'standup', resolution: '1280x720' }, actions: [] };
        await store.addWatch(newWatch('w', { card }));
        await store.addWatch(newWatch('old'));
        expect((await store.getWatch('w'))?.card).toEqual(card);
        expect((await store.getWatch('old'))?.card).toBeUndefined();
        const claimed = await store.claimDue('p', T0, 2, LEASE);
        expect(claimed.find((w) => w.id === 'w')?.card).toEqual(card);

        const stopped = { ...card, actions: [{ action: 'stop', by: 'U2', at: T0 + 10 }] };
        const state = { status: 'stopped', createdAt: T0, durationS: 5, sizeBytes: 0 };
        expect(await store.updateCard('w', { card: stopped, state, at: T0 + 10 })).toBe(true);
        expect(await store.getWatch('w')).toMatchObject({ card: stopped, lastState: state, lastChangeAt: T0 + 10 });
        expect((await store.getWatch('w'))?.leaseOwner).toBeUndefined();
        // Without a state only the model changes; ended watches take it too (a delete after "available").
        await store.endWatch('w', T0 + 20);
        expect(await store.updateCard('w', { card, at: T0 + 30 })).toBe(true);
        expect(await store.getWatch('w')).toMatchObject({ card, lastState: state, lastChangeAt: T0 + 10, endedAt: T0 + 20 });
        expect(await store.updateCard('missing', { card, at: T0 })).toBe(false);
      });

      it('an action draws over what was read before it: the poll in flight writes nothing, waiting card redraws are dropped, the watch is due', async () => {
        const card = { context: { startedBy: 'U1' }, actions: [] };
        await store.addWatch(newWatch('w', { card }));
        // A poll that read the resource before the action queued a redraw of its card…
        await store.claimDue('p', T0, 1, LEASE);
        const redraw = reply('card@0', { payload: { type: 'card', messageTs: '1.0', text: 'live', blocks: [] } });
        expect(await store.completePoll('w', 'p', pollOutcome({ nextPollAt: T0 + 60_000, outbox: [redraw, reply('started@0')] }))).toBe(true);
        // …and the next poll is in flight when the action lands.
        await store.claimDue('p', T0 + 60_000, 1, LEASE);
        const stopped = { ...card, actions: [{ action: 'stop', by: 'U2', at: T0 + 60_010 }] };
        const stoppedState = { status: 'stopped', createdAt: T0, durationS: 60, sizeBytes: 0 };
        expect(await store.updateCard('w', { card: stopped, state: stoppedState, at: T0 + 60_010 })).toBe(true);
        expect(
          await store.completePoll(
            'w',
            'p',
            pollOutcome({
              state: { ...stoppedState, status: 'started' },
              outbox: [reply('card@1', { payload: { type: 'card', messageTs: '1.0', text: 'stale', blocks: [] } })],
            }),
          ),
        ).toBe(false);
        const watch = await store.getWatch('w');
        expect(watch).toMatchObject({ card: stopped, lastState: stoppedState, nextPollAt: T0 + 60_000 });
        // The thread reply still goes; the stale redraw does not.
        expect((await store.claimOutbox('d', T0 + 60_020, 10, LEASE)).map((r) => r.transitionKey)).toEqual(['started@0']);
      });

      it('ends a watch on request, even while leased: the poll in flight then writes nothing', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        expect(await store.endWatch('w', T0 + 5)).toBe(true);
        expect(await store.endWatch('w', T0 + 6)).toBe(false);
        expect(await store.endWatch('missing', T0)).toBe(false);
        expect(await store.completePoll('w', 'p', pollOutcome({ outbox: [reply('late')] }))).toBe(false);
        expect(await store.getWatch('w')).toMatchObject({ endedAt: T0 + 5 });
        expect(await store.listWatches({})).toEqual([]);
        expect(await store.listOutbox('w')).toEqual([]);
      });
    });

    describe('checkLeases', () => {
      it('answers per lease, in order: held while the owner keeps it, lost once taken back, taken over, ended or never there', async () => {
        for (const id of ['kept', 'carded', 'ended', 'over']) await store.addWatch(newWatch(id));
        await store.claimDue('p', T0, 4, LEASE);
        const leases = ['kept', 'carded', 'ended', 'over', 'missing'].map((watchId) => ({ watchId, owner: 'p' }));
        expect(await store.checkLeases(leases)).toEqual(['held', 'held', 'held', 'held', 'lost']);
        await store.updateCard('carded', { card: { startedBy: 'U1' }, at: T0 + 10 });
        await store.endWatch('ended', T0 + 10);
        await store.releaseWatch('over', 'p');
        await store.claimDue('p2', T0 + 20, 10, LEASE);
        expect(await store.checkLeases(leases)).toEqual(['held', 'lost', 'lost', 'lost', 'lost']);
        expect(
          await store.checkLeases([
            { watchId: 'over', owner: 'p2' },
            { watchId: 'kept', owner: 'p2' },
          ]),
        ).toEqual(['held', 'lost']);
        expect(await store.checkLeases([])).toEqual([]);
      });

      it('keeps deciding by ownership after the lease ran out, as completePoll does, and changes nothing else', async () => {
        await store.addWatch(newWatch('w'));
        const [claimed] = await store.claimDue('p', T0, 1, LEASE);
        expect(await store.checkLeases([{ watchId: 'w', owner: 'p' }])).toEqual(['held']);
        expect(await store.getWatch('w')).toEqual(claimed);
        expect(await store.claimDue('p2', T0 + LEASE - 1, 1, LEASE)).toEqual([]);
        expect(await store.checkLeases([{ watchId: 'w', owner: 'p' }])).toEqual(['held']);
        expect(await store.claimDue('p2', T0 + LEASE, 1, LEASE)).toHaveLength(1);
        expect(await store.checkLeases([{ watchId: 'w', owner: 'p' }])).toEqual(['lost']);
      });

      it('answers repoll once for a hint that arrived while the watch was leased, clearing the request', async () => {
        await store.addWatch(newWatch('w'));
        await store.addWatch(newWatch('quiet'));
        await store.claimDue('p', T0, 2, LEASE);
        expect(await store.expedite({ resourceId: 'res-w' }, T0 + 500)).toBe(1);
        const leases = [
          { watchId: 'quiet', owner: 'p' },
          { watchId: 'w', owner: 'p' },
        ];
        expect(await store.checkLeases(leases)).toEqual(['held', 'repoll']);
        expect(await store.getWatch('w')).toMatchObject({ repollRequested: false, leaseOwner: 'p', revision: 0 });
        expect(await store.checkLeases(leases)).toEqual(['held', 'held']);
        await store.completePoll('w', 'p', pollOutcome({ nextPollAt: T0 + 60_000 }));
        expect(await store.getWatch('w')).toMatchObject({ nextPollAt: T0 + 60_000 });
      });

      it('leaves another owner’s repoll request alone', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        await store.expedite({}, T0 + 500);
        expect(await store.checkLeases([{ watchId: 'w', owner: 'other' }])).toEqual(['lost']);
        expect(await store.getWatch('w')).toMatchObject({ repollRequested: true });
      });
    });

    describe('renewLeases', () => {
      it('extends each lease its owner still holds, in order, and refuses those taken back, taken over, ended or never there', async () => {
        for (const id of ['kept', 'carded', 'ended', 'over']) await store.addWatch(newWatch(id));
        await store.claimDue('p', T0, 4, LEASE);
        await store.updateCard('carded', { card: { startedBy: 'U1' }, at: T0 + 10 });
        await store.endWatch('ended', T0 + 10);
        await store.releaseWatch('over', 'p');
        await store.claimDue('p2', T0 + 20, 10, LEASE);
        const leases = ['kept', 'carded', 'ended', 'over', 'missing'].map((watchId) => ({ watchId, owner: 'p' }));
        expect(await store.renewLeases(leases, T0 + 2 * LEASE)).toEqual([true, false, false, false, false]);
        expect(await store.getWatch('kept')).toMatchObject({ leaseOwner: 'p', leaseUntil: T0 + 2 * LEASE });
        // Refused ones are left as they were: another owner's lease keeps its own end.
        expect(await store.getWatch('over')).toMatchObject({ leaseOwner: 'p2', leaseUntil: T0 + 20 + LEASE });
        expect(await store.renewLeases([], T0)).toEqual([]);
      });

      it('keeps the watch from other claims until the new end, changing nothing else and logging no lease change', async () => {
        await store.addWatch(newWatch('w'));
        const [claimed] = await store.claimDue('p', T0, 1, LEASE);
        const cursor = (await store.leaseChanges()).cursor;
        expect(await store.renewLeases([{ watchId: 'w', owner: 'p' }], T0 + 2 * LEASE)).toEqual([true]);
        expect(await store.getWatch('w')).toEqual({ ...claimed, leaseUntil: T0 + 2 * LEASE });
        expect(await store.claimDue('p2', T0 + LEASE, 1, LEASE)).toEqual([]);
        expect((await store.leaseChanges(cursor)).watchIds).toEqual([]);
        expect(await store.claimDue('p2', T0 + 2 * LEASE, 1, LEASE)).toHaveLength(1);
        expect(await store.renewLeases([{ watchId: 'w', owner: 'p' }], T0 + 3 * LEASE)).toEqual([false]);
      });

      it('renews a lease that ran out while nobody claimed it (ownership decides), leaving a repoll request in place', async () => {
        await store.addWatch(newWatch('w'));
        await store.claimDue('p', T0, 1, LEASE);
        await store.expedite({}, T0 + 500);
        // At T0 + LEASE + 5 the lease has run out, and a claim then would take the watch; renewed then, it is still p's.
        expect(await store.renewLeases([{ watchId: 'w', owner: 'p' }], T0 + LEASE + 5 + LEASE)).toEqual([true]);
        expect(await store.claimDue('p2', T0 + LEASE + 5, 1, LEASE)).toEqual([]);
        expect(await store.getWatch('w')).toMatchObject({ leaseOwner: 'p', repollRequested: true, leaseUntil: T0 + 2 * LEASE + 5 });
        expect(await store.checkLeases([{ watchId: 'w', owner: 'p' }])).toEqual(['repoll']);
      });
    });

    describe('leaseChanges', () => {
      const named = async (after: number) => {
        const changes = await store.leaseChanges(after);
        expect(changes.complete).toBe(true);
        return { ids: [...new Set(changes.watchIds)].sort(), cursor: changes.cursor };
      };

      it('names none without a cursor, then each watch whose lease others touched: an action, an unwatch, a hint while leased, a takeover', async () => {
        for (const id of ['carded', 'ended', 'hinted', 'over', 'quiet']) await store.addWatch(newWatch(id));
        const start = await store.leaseChanges();
        expect(start).toMatchObject({ watchIds: [], complete: true });
        await store.claimDue('p', T0, 5, LEASE);
        await store.updateCard('carded', { card: { startedBy: 'U1' }, at: T0 + 10 });
        await store.endWatch('ended', T0 + 10);
        await store.expedite({ resourceId: 'res-hinted' }, T0 + 10);
        // 'over' is due again and its lease runs out: another poller takes it over.
        expect((await store.claimDue('p2', T0 + LEASE, 10, LEASE)).map((w) => w.id).sort()).toEqual(['carded', 'hinted', 'over', 'quiet']);
        const { ids } = await named(start.cursor);
        expect(ids).toEqual(['carded', 'ended', 'hinted', 'over', 'quiet']);
      });

      it('leaves out what the holder itself does and a hint to an unleased watch', async () => {
        for (const id of ['polled', 'released']) await store.addWatch(newWatch(id));
        await store.addWatch(newWatch('loose', { nextPollAt: T0 + 5 }));
        expect((await store.claimDue('p', T0, 10, LEASE)).map((w) => w.id).sort()).toEqual(['polled', 'released']);
        const start = await store.leaseChanges();
        await store.completePoll('polled', 'p', pollOutcome());
        await store.releaseWatch('released', 'p');
        await store.expedite({ resourceId: 'res-loose' }, T0 + 10);
        expect(await store.checkLeases([{ watchId: 'released', owner: 'p' }])).toEqual(['lost']);
        const first = await named(start.cursor);
        expect(first.ids).toEqual([]);
        // Unleased ones claimed afresh are not taken from anybody.
        expect((await store.claimDue('p3', T0 + 1_000, 10, LEASE)).map((w) => w.id).sort()).toEqual(['loose', 'released']);
        expect((await named(first.cursor)).ids).toEqual([]);
      });
    });

    describe('outbox', () => {
      async function seed(items: OutboxItem[]): Promise<void> {
        await store.addWatch(newWatch('w'));
        await store.claimDue('seed', T0, 1, LEASE);
        await store.completePoll('w', 'seed', pollOutcome({ polledAt: T0, outbox: items }));
      }

      it('hands out only the oldest pending row of each channel, in id order', async () => {
        await seed([reply('c1-a'), reply('c2-a', { channelId: 'C2' }), reply('c1-b'), reply('t2-c1', { teamId: 'T2' })]);
        const rows = await store.claimOutbox('d', T0, 10, LEASE);
        expect(rows.map((r) => r.transitionKey)).toEqual(['c1-a', 'c2-a', 't2-c1']);
        expect(rows[0]).toMatchObject({ attempts: 1, firstAttemptAt: T0, leaseOwner: 'd', leaseUntil: T0 + LEASE });
        expect(await store.claimOutbox('d2', T0, 10, LEASE)).toEqual([]);
      });

      it('releases the next row of a channel once the head is delivered', async () => {
        await seed([reply('a'), reply('b')]);
        const [head] = await store.claimOutbox('d', T0, 10, LEASE);
        expect(await store.markDelivered(head!.id, 'someone-else', { deliveredAt: T0 })).toBe(false);
        expect(await store.markDelivered(head!.id, 'd', { deliveredAt: T0 + 5, messageTs: '1.5' })).toBe(true);
        expect(await store.markDelivered(head!.id, 'd', { deliveredAt: T0 + 6 })).toBe(false);
        const [next] = await store.claimOutbox('d', T0 + 10, 10, LEASE);
        expect(next?.transitionKey).toBe('b');
        const rows = await store.listOutbox('w');
        expect(rows[0]).toMatchObject({ deliveredAt: T0 + 5, messageTs: '1.5' });
        expect(rows[0]!.leaseOwner).toBeUndefined();
      });

      it('defers a row and with it only its own channel', async () => {
        await seed([reply('a'), reply('b'), reply('x', { channelId: 'C2' })]);
        const rows = await store.claimOutbox('d', T0, 10, LEASE);
        const head = rows.find((r) => r.transitionKey === 'a')!;
        const other = rows.find((r) => r.transitionKey === 'x')!;
        expect(await store.deferOutbox(head.id, 'd', T0 + 30_000, 'rate limited')).toBe(true);
        await store.markDelivered(other.id, 'd', { deliveredAt: T0 });
        expect(await store.claimOutbox('d', T0 + 29_999, 10, LEASE)).toEqual([]);
        const again = await store.claimOutbox('d', T0 + 30_000, 10, LEASE);
        expect(again.map((r) => [r.transitionKey, r.attempts, r.firstAttemptAt, r.lastError])).toEqual([['a', 2, T0, 'rate limited']]);
      });

      it('lets a discarded row stop blocking its channel', async () => {
        await seed([reply('a'), reply('b')]);
        const [head] = await store.claimOutbox('d', T0, 10, LEASE);
        expect(await store.discardOutbox(head!.id, 'd', T0 + 1, 'channel_not_found')).toBe(true);
        expect((await store.claimOutbox('d', T0 + 2, 10, LEASE)).map((r) => r.transitionKey)).toEqual(['b']);
        expect((await store.listOutbox('w'))[0]).toMatchObject({ discardedAt: T0 + 1, lastError: 'channel_not_found' });
      });

      it('returns a row whose lease ran out to the next claimer and refuses the old owner', async () => {
        await seed([reply('a')]);
        const [first] = await store.claimOutbox('d1', T0, 10, LEASE);
        expect(await store.claimOutbox('d2', T0 + LEASE - 1, 10, LEASE)).toEqual([]);
        const [second] = await store.claimOutbox('d2', T0 + LEASE, 10, LEASE);
        expect(second).toMatchObject({ id: first!.id, attempts: 2, firstAttemptAt: T0, leaseOwner: 'd2' });
        expect(await store.markDelivered(first!.id, 'd1', { deliveredAt: T0 + LEASE })).toBe(false);
        expect(await store.deferOutbox(first!.id, 'd1', T0, 'late')).toBe(false);
        expect(await store.markDelivered(first!.id, 'd2', { deliveredAt: T0 + LEASE, messageTs: '9.9' })).toBe(true);
      });

      it('holds a channel back for channelIntervalMs after a delivery to it, and only that channel', async () => {
        await seed([reply('a'), reply('b'), reply('x', { channelId: 'C2' }), reply('y', { channelId: 'C2' })]);
        const paced = { channelIntervalMs: 1_000 };
        const first = await store.claimOutbox('d', T0, 10, LEASE, paced);
        expect(first.map((r) => r.transitionKey)).toEqual(['a', 'x']);
        await store.markDelivered(first[0]!.id, 'd', { deliveredAt: T0 + 100, messageTs: '1.1' });
        // C2's head was given up, which sends nothing: C2 is not held back.
        await store.discardOutbox(first[1]!.id, 'd', T0 + 100, 'invalid_blocks');
        expect((await store.claimOutbox('d', T0 + 1_099, 10, LEASE, paced)).map((r) => r.transitionKey)).toEqual(['y']);
        // Without the option the same row is claimable.
        expect((await store.claimOutbox('d', T0 + 1_099, 10, LEASE)).map((r) => r.transitionKey)).toEqual(['b']);
      });

      it('lets a paced channel go once the interval has passed since its last delivery', async () => {
        await seed([reply('a'), reply('b')]);
        const paced = { channelIntervalMs: 1_000 };
        const [head] = await store.claimOutbox('d', T0, 10, LEASE, paced);
        await store.markDelivered(head!.id, 'd', { deliveredAt: T0 + 100 });
        expect(await store.claimOutbox('d', T0 + 1_099, 10, LEASE, paced)).toEqual([]);
        expect((await store.claimOutbox('d', T0 + 1_100, 10, LEASE, paced)).map((r) => r.transitionKey)).toEqual(['b']);
      });

      it('does not hold back a card update: it posts no new message', async () => {
        const card = reply('card@1', { payload: { type: 'card', messageTs: '1.0', text: 'card', blocks: [] } });
        await seed([reply('a'), card, reply('b')]);
        const paced = { channelIntervalMs: 1_000 };
        const [head] = await store.claimOutbox('d', T0, 10, LEASE, paced);
        await store.markDelivered(head!.id, 'd', { deliveredAt: T0 + 100 });
        const [update] = await store.claimOutbox('d', T0 + 200, 10, LEASE, paced);
        expect(update?.transitionKey).toBe('card@1');
        await store.markDelivered(update!.id, 'd', { deliveredAt: T0 + 300 });
        expect(await store.claimOutbox('d', T0 + 1_099, 10, LEASE, paced)).toEqual([]);
        expect((await store.claimOutbox('d', T0 + 1_100, 10, LEASE, paced)).map((r) => r.transitionKey)).toEqual(['b']);
      });

      it('never hands the same row to two concurrent claims', async () => {
        await seed(Array.from({ length: 20 }, (_, i) => reply(`k${i}`, { channelId: `C${i}` })));
        const [a, b] = await Promise.all([store.claimOutbox('d1', T0, 15, LEASE), store.claimOutbox('d2', T0, 15, LEASE)]);
        const ids = [...a!, ...b!].map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toHaveLength(20);
      });
    });

    describe('pruneHistory', () => {
      const RETENTION: HistoryRetention = { outboxMs: 10_000, endedWatchMs: 100_000 };

      /** Watch `id` with one outbox row per item, written by a poll at `polledAt` that ends it when asked. */
      async function written(id: string, polledAt: number, items: OutboxItem[], ended: boolean): Promise<void> {
        await store.addWatch(newWatch(id, { resourceId: `res-${id}` }));
        await store.claimDue(`seed-${id}`, T0, 10, LEASE);
        await store.completePoll(id, `seed-${id}`, pollOutcome({ polledAt, outbox: items, ended }));
      }

      it('deletes rows delivered or discarded before the retention, never pending ones, then ended watches left without rows', async () => {
        await written(
          'old',
          T0,
          [reply('delivered', { channelId: 'C1' }), reply('discarded', { channelId: 'C2' }), reply('pending', { channelId: 'C3' })],
          true,
        );
        await written('recent', T0, [reply('late', { channelId: 'C4' })], true);
        await written('live', T0, [reply('live', { channelId: 'C5' })], false);
        const claimed = await store.claimOutbox('d', T0 + 1_000, 10, LEASE);
        const row = (key: string) => claimed.find((r) => r.transitionKey === key)!;
        await store.markDelivered(row('delivered').id, 'd', { deliveredAt: T0 + 1_000 });
        await store.discardOutbox(row('discarded').id, 'd', T0 + 1_000, 'channel_not_found');
        await store.markDelivered(row('late').id, 'd', { deliveredAt: T0 + 50_000 });
        await store.markDelivered(row('live').id, 'd', { deliveredAt: T0 + 1_000 });

        // Nothing has outlived its retention yet.
        expect(await store.pruneHistory(T0 + 11_000, RETENTION, 10)).toEqual({ outboxRows: 0, watches: 0 });
        // The old watch's finished rows and the live watch's delivered row go; the pending row stays, and with it its ended watch.
        expect(await store.pruneHistory(T0 + 200_000, RETENTION, 10)).toEqual({ outboxRows: 4, watches: 1 });
        expect((await store.listOutbox('old')).map((r) => r.transitionKey)).toEqual(['pending']);
        expect(await store.getWatch('old')).toBeDefined();
        expect(await store.getWatch('recent')).toBeUndefined();
        expect(await store.getWatch('live')).toBeDefined();
        expect(await store.listOutbox('live')).toEqual([]);

        const [pending] = await store.claimOutbox('d', T0 + 200_000, 10, LEASE);
        await store.markDelivered(pending!.id, 'd', { deliveredAt: T0 + 200_000 });
        expect(await store.pruneHistory(T0 + 211_000, RETENTION, 10)).toEqual({ outboxRows: 1, watches: 1 });
        expect(await store.getWatch('old')).toBeUndefined();
        expect(await store.listWatches({}, { includeEnded: true })).toEqual([expect.objectContaining({ id: 'live' })]);
      });

      it('deletes at most `limit` of each per call', async () => {
        for (let i = 0; i < 5; i++) await written(`w${i}`, T0, [reply(`r${i}`, { channelId: `C${i}` })], true);
        const claimed = await store.claimOutbox('d', T0, 10, LEASE);
        for (const row of claimed) await store.markDelivered(row.id, 'd', { deliveredAt: T0 });
        const later = T0 + 1_000_000;
        expect(await store.pruneHistory(later, RETENTION, 3)).toEqual({ outboxRows: 3, watches: 3 });
        expect(await store.pruneHistory(later, RETENTION, 3)).toEqual({ outboxRows: 2, watches: 2 });
        expect(await store.pruneHistory(later, RETENTION, 3)).toEqual({ outboxRows: 0, watches: 0 });
      });

      it('forgets a pruned row’s idempotency key with it', async () => {
        await written('w', T0, [reply('once')], false);
        const [row] = await store.claimOutbox('d', T0, 10, LEASE);
        await store.markDelivered(row!.id, 'd', { deliveredAt: T0 });
        await store.pruneHistory(T0 + 20_000, RETENTION, 10);
        await store.claimDue('again', T0 + 20_000, 10, LEASE);
        await store.completePoll('w', 'again', pollOutcome({ polledAt: T0 + 20_000, outbox: [reply('once')] }));
        expect((await store.listOutbox('w')).map((r) => r.transitionKey)).toEqual(['once']);
      });
    });

    describe('announcePoller / retirePoller', () => {
      it('counts the pollers heard of within the window, itself included, and forgets the others', async () => {
        expect(await store.announcePoller('p1', T0, 30_000)).toBe(1);
        expect(await store.announcePoller('p1', T0 + 10_000, 30_000)).toBe(1);
        expect(await store.announcePoller('p2', T0 + 15_000, 30_000)).toBe(2);
        // p1 last announced at 10 s: still heard of at 40 s, forgotten at 40.001 s.
        expect(await store.announcePoller('p2', T0 + 40_000, 30_000)).toBe(2);
        expect(await store.announcePoller('p2', T0 + 40_001, 30_000)).toBe(1);
        expect(await store.announcePoller('p1', T0 + 41_000, 30_000)).toBe(2);
      });

      it('forgets a poller that retires at once, and takes a retirement of one unknown in its stride', async () => {
        await store.announcePoller('p1', T0, 30_000);
        await store.announcePoller('p2', T0, 30_000);
        await store.retirePoller('p2');
        await store.retirePoller('never-announced');
        expect(await store.announcePoller('p1', T0 + 1_000, 30_000)).toBe(1);
      });
    });
  });
}

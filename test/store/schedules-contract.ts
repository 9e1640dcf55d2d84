/**
 * The behaviour every ScheduleStore must have (see the contract in src/schedules/types.ts). A
 * backend's test file calls `describeScheduleStoreContract(name, factory)` with a factory that
 * returns a fresh, empty, migrated store, and a teardown closing it.
 */
import type { NewUsageSchedule, ScheduleStore } from '../../src/schedules/types';

export const T0 = Date.parse('2026-11-09T17:00:00Z');
export const LEASE = 60_000;
export const PERIOD = '2026-11-02';
const NEXT_PERIOD = '2026-11-09';
const WEEK = 7 * 86_400_000;

export function newSchedule(overrides: Partial<NewUsageSchedule> = {}): NewUsageSchedule {
  return {
    teamId: 'T1',
    channelId: 'C1',
    projectName: 'prod',
    weekday: 1,
    minuteOfDay: 9 * 60,
    timeZone: 'America/Los_Angeles',
    createdBy: 'U1',
    createdAt: T0 - WEEK,
    nextDueAt: T0,
    ...overrides,
  };
}

export function describeScheduleStoreContract(name: string, factory: () => Promise<ScheduleStore>, teardown: (store: ScheduleStore) => Promise<void>): void {
  describe(`${name}: ScheduleStore contract`, () => {
    let store: ScheduleStore;
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await teardown(store);
    });

    it('adds a schedule with a fresh id and reads it back', async () => {
      const a = await store.addSchedule(newSchedule({ breakdown: 'country' }));
      const b = await store.addSchedule(newSchedule({ channelId: 'C2' }));
      expect(b.id).toBeGreaterThan(a.id);
      expect(a).toEqual({ ...newSchedule({ breakdown: 'country' }), id: a.id, failures: 0 });
      expect(await store.getSchedule('T1', a.id)).toEqual(a);
      expect(await store.getSchedule('T2', a.id)).toBeUndefined();
      expect(await store.getSchedule('T1', 999_999)).toBeUndefined();
    });

    it('lists a team’s active schedules by id, optionally one channel’s or with the cancelled ones', async () => {
      const a = await store.addSchedule(newSchedule());
      const b = await store.addSchedule(newSchedule({ channelId: 'C2' }));
      const c = await store.addSchedule(newSchedule());
      await store.addSchedule(newSchedule({ teamId: 'T2' }));
      expect(await store.cancelSchedule('T1', c.id, 'U2', T0)).toBe(true);
      expect((await store.listSchedules('T1')).map((s) => s.id)).toEqual([a.id, b.id]);
      expect((await store.listSchedules('T1', { channelId: 'C2' })).map((s) => s.id)).toEqual([b.id]);
      const all = await store.listSchedules('T1', { includeCancelled: true });
      expect(all.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
      expect(all[2]).toMatchObject({ cancelledAt: T0, cancelledBy: 'U2' });
    });

    it('cancels only an active schedule of the same team', async () => {
      const a = await store.addSchedule(newSchedule());
      expect(await store.cancelSchedule('T2', a.id, 'U2', T0)).toBe(false);
      expect(await store.cancelSchedule('T1', a.id, 'U2', T0)).toBe(true);
      expect(await store.cancelSchedule('T1', a.id, 'U2', T0 + 1)).toBe(false);
      expect((await store.getSchedule('T1', a.id))?.cancelledAt).toBe(T0);
    });

    it('claims due, unleased, active schedules, oldest first, with the period on the lease', async () => {
      const late = await store.addSchedule(newSchedule({ nextDueAt: T0 - 1_000 }));
      const due = await store.addSchedule(newSchedule({ nextDueAt: T0 }));
      await store.addSchedule(newSchedule({ nextDueAt: T0 + 10 * LEASE }));
      const cancelled = await store.addSchedule(newSchedule({ nextDueAt: T0 - 5_000 }));
      await store.cancelSchedule('T1', cancelled.id, 'U1', T0);

      const claimed = await store.claimDueSchedules('a', T0, PERIOD, 10, LEASE);
      expect(claimed.map((s) => s.id)).toEqual([late.id, due.id]);
      expect(claimed[0]).toMatchObject({ leaseOwner: 'a', leaseUntil: T0 + LEASE, leasePeriod: PERIOD });
      expect(await store.claimDueSchedules('b', T0 + LEASE - 1, PERIOD, 10, LEASE)).toEqual([]);
      // A lease that ran out can be taken over.
      expect((await store.claimDueSchedules('b', T0 + LEASE, PERIOD, 1, LEASE)).map((s) => [s.id, s.leaseOwner])).toEqual([[late.id, 'b']]);
    });

    it('records a delivery once per period, owner-checked, and frees the schedule', async () => {
      const s = await store.addSchedule(newSchedule());
      await store.claimDueSchedules('a', T0, PERIOD, 10, LEASE);
      const run = { period: PERIOD, at: T0 + 5, nextDueAt: T0 + WEEK, failures: 0, messageTs: '1.2' };
      expect(await store.completeScheduleRun(s.id, 'b', run)).toBe(false);
      expect(await store.completeScheduleRun(s.id, 'a', { ...run, period: NEXT_PERIOD })).toBe(false);
      expect(await store.completeScheduleRun(s.id, 'a', run)).toBe(true);
      expect(await store.completeScheduleRun(s.id, 'a', run)).toBe(false);
      const after = await store.getSchedule('T1', s.id);
      expect(after).toEqual({ ...s, nextDueAt: T0 + WEEK, lastPeriod: PERIOD, lastDeliveredAt: T0 + 5, lastMessageTs: '1.2', failures: 0 });
      expect(await store.claimDueSchedules('a', T0 + WEEK - 1, NEXT_PERIOD, 10, LEASE)).toEqual([]);
    });

    it('never records the same period twice, even for a new lease', async () => {
      const s = await store.addSchedule(newSchedule());
      await store.claimDueSchedules('a', T0, PERIOD, 10, LEASE);
      expect(await store.completeScheduleRun(s.id, 'a', { period: PERIOD, at: T0, nextDueAt: T0, failures: 0 })).toBe(true);
      await store.claimDueSchedules('b', T0, PERIOD, 10, LEASE);
      expect(await store.completeScheduleRun(s.id, 'b', { period: PERIOD, at: T0, nextDueAt: T0 + WEEK, failures: 0 })).toBe(false);
      // Nothing delivered: the lease is given back with the next due time.
      expect(await store.completeScheduleRun(s.id, 'b', { period: null, at: T0, nextDueAt: T0 + WEEK, failures: 0 })).toBe(true);
      expect(await store.getSchedule('T1', s.id)).toMatchObject({ lastPeriod: PERIOD, nextDueAt: T0 + WEEK });
    });

    it('keeps a failure and its retry time, and clears the error with the next delivery', async () => {
      const s = await store.addSchedule(newSchedule());
      await store.claimDueSchedules('a', T0, PERIOD, 10, LEASE);
      expect(await store.completeScheduleRun(s.id, 'a', { period: null, at: T0, nextDueAt: T0 + 300_000, failures: 1, error: 'x'.repeat(900) })).toBe(true);
      const failed = await store.getSchedule('T1', s.id);
      expect(failed).toMatchObject({ failures: 1, nextDueAt: T0 + 300_000 });
      expect(failed?.lastError).toHaveLength(500);
      expect(failed?.leaseOwner).toBeUndefined();
      expect(failed?.lastPeriod).toBeUndefined();
      await store.claimDueSchedules('a', T0 + 300_000, PERIOD, 10, LEASE);
      expect(await store.completeScheduleRun(s.id, 'a', { period: PERIOD, at: T0 + 300_001, nextDueAt: T0 + WEEK, failures: 0 })).toBe(true);
      const delivered = await store.getSchedule('T1', s.id);
      expect(delivered).toMatchObject({ failures: 0, lastPeriod: PERIOD, lastDeliveredAt: T0 + 300_001 });
      expect(delivered?.lastError).toBeUndefined();
    });

    it('refuses to complete a run of a schedule cancelled meanwhile', async () => {
      const s = await store.addSchedule(newSchedule());
      await store.claimDueSchedules('a', T0, PERIOD, 10, LEASE);
      await store.cancelSchedule('T1', s.id, 'U9', T0 + 1);
      expect(await store.completeScheduleRun(s.id, 'a', { period: PERIOD, at: T0 + 2, nextDueAt: T0 + WEEK, failures: 0 })).toBe(false);
      expect(await store.claimDueSchedules('a', T0 + WEEK * 2, PERIOD, 10, LEASE)).toEqual([]);
    });

    it('hands each due schedule to exactly one of many concurrent claimers', async () => {
      const ids = [];
      for (let i = 0; i < 30; i += 1) ids.push((await store.addSchedule(newSchedule({ nextDueAt: T0 - i }))).id);
      const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => store.claimDueSchedules(`r${i}`, T0, PERIOD, 7, LEASE)));
      const claimed = claims.flat().map((s) => s.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect([...claimed].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    });
  });
}

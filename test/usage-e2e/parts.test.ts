/**
 * The pieces under `/usage` on their own: words joined into a range, the weekly schedule's words
 * and due times (DST included), the answer cache, and the scheduler's retry / skip rules with
 * an injected clock and timers.
 */
import { usageCommand } from '../../src/commands/usage';
import { parseWeeklySpec } from '../../src/commands/usage/schedule';
import { UsageCache } from '../../src/commands/usage/cache';
import { REPORT_TTL_MS, reportExpiry } from '../../src/commands/usage/answers';
import { nextOccurrence, parseTimeOfDay, parseTimeZone, parseWeekday, describeWeekly } from '../../src/schedules/recurrence';
import { PermanentDeliveryError, UsageScheduler, reportedWeek, type ScheduledDelivery } from '../../src/schedules/scheduler';
import type { Timers } from '../../src/poller/runtime';
import { MEMORY, SqliteStore } from '../../src/store/sqlite';
import { buildUsageReport, parseRange, type UsageReport } from '../../src/usage';
import { parseCommand } from '../../src/commands/grammar';

/** What `/usage <text>` parses to: the subcommand and its arguments. */
const parsed = (text: string) => {
  const result = parseCommand(usageCommand, text);
  return result.kind === 'ok' ? { sub: result.subcommand.name ?? '', args: result.args } : { usage: result.kind === 'usage' ? result.problem.problem : 'help' };
};

describe('/usage words (a last positional taking the rest of the words)', () => {
  it.each([
    ['', { sub: '', args: {} }],
    ['last 30 days --by sdk', { sub: '', args: { range: 'last 30 days', by: 'sdk' } }],
    ['--by sdk last week', { sub: '', args: { range: 'last week', by: 'sdk' } }],
    ['--by=country this   month --private', { sub: '', args: { range: 'this month', by: 'country', private: true } }],
    ['2026-10-01 .. 2026-10-31 --project prod', { sub: '', args: { range: '2026-10-01 .. 2026-10-31', project: 'prod' } }],
    ['sessions last 7 days', { sub: 'sessions', args: { range: 'last 7 days' } }],
    ['schedule weekly mon 09:00 Europe/Paris --by sdk', { sub: 'schedule', args: { action: 'weekly', details: 'mon 09:00 Europe/Paris', by: 'sdk' } }],
    ['schedule cancel 3', { sub: 'schedule', args: { action: 'cancel', details: '3' } }],
    ['schedule list', { sub: 'schedule', args: { action: 'list' } }],
    ['session 2_MX4abc extra', { usage: 'too many words: “extra” is not expected (put text with spaces in quotes)' }],
  ])('%j', (text, expected) => {
    expect(parsed(text)).toEqual(expected);
  });
});

describe('weekly schedule words', () => {
  it('defaults to here, Monday 09:00 Pacific', () => {
    expect(parseWeeklySpec([])).toEqual({ ok: true, spec: { weekday: 1, minuteOfDay: 540, timeZone: 'America/Los_Angeles' } });
  });

  it('reads a channel, a day, a time and a zone in any order', () => {
    expect(parseWeeklySpec(['utc', '7:05pm', 'Sundays', 'C0123ABCD'])).toEqual({
      ok: true,
      spec: { channelId: 'C0123ABCD', weekday: 7, minuteOfDay: 19 * 60 + 5, timeZone: 'UTC' },
    });
    expect(parseWeeklySpec(['<#G0PRIVATE1|team>', 'wed', '08h15', 'europe/paris'])).toEqual({
      ok: true,
      spec: { channelId: 'G0PRIVATE1', weekday: 3, minuteOfDay: 8 * 60 + 15, timeZone: 'Europe/Paris' },
    });
  });

  it('says what is wrong', () => {
    expect(parseWeeklySpec(['mon', 'tue'])).toEqual({ ok: false, problem: 'the day is given twice (“tue”); give it once' });
    expect(parseWeeklySpec(['13pm'])).toEqual({ ok: false, problem: '“13pm” is not a time: with am/pm the hour goes from 1 to 12' });
    expect(parseWeeklySpec(['#ops'])).toMatchObject({ ok: false, problem: expect.stringContaining('Run the command in that channel, or give its channel ID') });
    expect(parseWeeklySpec(['soon'])).toMatchObject({ ok: false, problem: expect.stringContaining('“soon” is not a channel, a day, a time or a time zone') });
  });

  it.each([
    ['9am', 540],
    ['12am', 0],
    ['12pm', 720],
    ['21h30', 1290],
    ['21h', 1260],
    ['0:00', 0],
    ['23:59', 1439],
  ])('reads the time %s', (word, minutes) => {
    expect(parseTimeOfDay(word)).toBe(minutes);
  });

  it('does not read bare numbers or other words as times, days or zones', () => {
    expect(parseTimeOfDay('9')).toBeUndefined();
    expect(parseTimeOfDay('mon')).toBeUndefined();
    expect(parseWeekday('mo')).toBeUndefined();
    expect(parseTimeZone('Nowhere/Land')).toBeUndefined();
    expect(parseTimeZone('pt')).toBe('America/Los_Angeles');
  });
});

describe('due times', () => {
  const pacific = { weekday: 1, minuteOfDay: 9 * 60, timeZone: 'America/Los_Angeles' };

  it('is the next one strictly after the given instant', () => {
    const mondayNine = Date.parse('2026-11-09T17:00:00Z');
    expect(nextOccurrence(pacific, mondayNine - 1)).toBe(mondayNine);
    expect(nextOccurrence(pacific, mondayNine)).toBe(mondayNine + 7 * 86_400_000);
    expect(describeWeekly(pacific)).toBe('every Monday at 09:00 (America/Los_Angeles)');
  });

  it('keeps the wall-clock time across a DST change (PDT → PST on 1 November 2026)', () => {
    // Monday 26 October 09:00 PDT (UTC−7), then Monday 2 November 09:00 PST (UTC−8): 169 hours apart.
    const before = nextOccurrence(pacific, Date.parse('2026-10-25T00:00:00Z'));
    expect(new Date(before).toISOString()).toBe('2026-10-26T16:00:00.000Z');
    expect(new Date(nextOccurrence(pacific, before)).toISOString()).toBe('2026-11-02T17:00:00.000Z');
  });

  it('runs a time skipped by spring-forward an hour later, and a repeated time once', () => {
    const sunday0230 = { weekday: 7, minuteOfDay: 2 * 60 + 30, timeZone: 'America/Los_Angeles' };
    // 8 March 2026: 02:00 PST jumps to 03:00 PDT.
    expect(new Date(nextOccurrence(sunday0230, Date.parse('2026-03-07T00:00:00Z'))).toISOString()).toBe('2026-03-08T10:30:00.000Z');
    const sunday0130 = { weekday: 7, minuteOfDay: 90, timeZone: 'America/Los_Angeles' };
    const first = nextOccurrence(sunday0130, Date.parse('2026-10-31T00:00:00Z'));
    expect(new Date(first).toISOString()).toBe('2026-11-01T08:30:00.000Z');
    expect(new Date(nextOccurrence(sunday0130, first)).toISOString()).toBe('2026-11-08T09:30:00.000Z');
  });

  it('reports last week, Monday to Sunday Pacific, keyed by its Monday', () => {
    expect(reportedWeek(Date.parse('2026-11-10T21:00:00Z')).period).toBe('2026-11-02');
    // Monday 00:30 Pacific: the week that just ended.
    expect(reportedWeek(Date.parse('2026-11-09T08:30:00Z')).period).toBe('2026-11-02');
    // Sunday 23:30 Pacific: still the week before.
    expect(reportedWeek(Date.parse('2026-11-09T07:30:00Z')).period).toBe('2026-10-26');
  });
});

describe('UsageCache', () => {
  it('keeps an answer until it expires, shares a load in flight, and does not keep failures', async () => {
    const cache = new UsageCache();
    let loads = 0;
    const load = async (at: number) => ({ value: ++loads, expiresAt: at + 1000 });
    const [a, b] = await Promise.all([cache.get('k', 0, load), cache.get('k', 0, load)]);
    expect([a.value, b.value, loads]).toEqual([1, 1, 1]);
    expect(await cache.get('k', 999, load)).toEqual({ value: 1, fetchedAt: 0, cached: true });
    expect(await cache.get('k', 1000, load)).toEqual({ value: 2, fetchedAt: 1000, cached: false });

    await expect(cache.get('bad', 0, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', 0, load)).toMatchObject({ value: 3, cached: false });
  });

  it('forgets the oldest answers beyond its size', async () => {
    const cache = new UsageCache({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, 0, async () => ({ value: key, expiresAt: 10 }));
    expect(cache.size).toBe(2);
    expect((await cache.get('a', 1, async () => ({ value: 'again', expiresAt: 10 }))).value).toBe('again');
    expect((await cache.get('c', 1, async () => ({ value: 'again', expiresAt: 10 }))).cached).toBe(true);
  });

  it('keeps a report with incomplete days an hour, a final one until the next Pacific midnight', () => {
    const report = (now: number): UsageReport => {
      const parsed = parseRange('last week', { now });
      if (!parsed.ok) throw new Error(parsed.error);
      return buildUsageReport({ range: parsed.value.range, previous: null, metrics: [], now });
    };
    const tuesdayNoon = Date.parse('2026-11-10T20:00:00Z');
    expect(reportExpiry(report(tuesdayNoon), tuesdayNoon)).toBe(tuesdayNoon + REPORT_TTL_MS);
    const wednesday = Date.parse('2026-11-11T20:00:00Z');
    expect(reportExpiry(report(wednesday), wednesday)).toBe(Date.parse('2026-11-12T08:00:00Z'));
  });
});

describe('UsageScheduler (injected clock and timers)', () => {
  const DUE = Date.parse('2026-11-10T21:00:00Z');
  let store: SqliteStore;
  let now: number;
  let timers: Timers & { pending: { callback: () => void; at: number }[]; fire(): void };

  beforeEach(async () => {
    store = new SqliteStore(MEMORY);
    await store.migrate();
    now = DUE;
    const pending: { callback: () => void; at: number }[] = [];
    timers = {
      pending,
      setTimeout: (callback, ms) => {
        const entry = { callback, at: now + ms };
        pending.push(entry);
        return entry;
      },
      clearTimeout: (handle) => {
        const i = pending.indexOf(handle as (typeof pending)[number]);
        if (i >= 0) pending.splice(i, 1);
      },
      fire() {
        const due = pending.filter((p) => p.at <= now);
        for (const p of due) {
          pending.splice(pending.indexOf(p), 1);
          p.callback();
        }
      },
    };
  });
  afterEach(() => store.close());

  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const add = () =>
    store.addSchedule({
      teamId: 'T1',
      channelId: 'C1',
      projectName: 'prod',
      weekday: 2,
      minuteOfDay: 13 * 60,
      timeZone: 'America/Los_Angeles',
      createdBy: 'U1',
      createdAt: 0,
      nextDueAt: DUE,
    });
  const scheduler = (deliver: ScheduledDelivery, extra: Partial<ConstructorParameters<typeof UsageScheduler>[0]> = {}) =>
    new UsageScheduler({ store, deliver, logger: silent, clock: () => now, timers, owner: 'me', ...extra });

  it('ticks on its timers, delivers, and stops cleanly', async () => {
    await add();
    const delivered: string[] = [];
    const s = scheduler(async (schedule, run) => {
      delivered.push(`${schedule.id}:${run.period}`);
      return { messageTs: '1.1' };
    });
    s.start();
    expect(timers.pending).toHaveLength(1);
    timers.fire();
    await s.stop();
    expect(delivered).toEqual(['1:2026-11-02']);
    expect(await store.getSchedule('T1', 1)).toMatchObject({ lastPeriod: '2026-11-02', lastMessageTs: '1.1', nextDueAt: DUE + 7 * 86_400_000 });
    expect(timers.pending).toHaveLength(0);
  });

  it('never posts a period twice: a due schedule whose week went out already just moves on', async () => {
    const { id } = await add();
    await store.claimDueSchedules('other', now, '2026-11-02', 1, 1);
    await store.completeScheduleRun(id, 'other', { period: '2026-11-02', at: now, nextDueAt: now, failures: 0 });
    const deliver = jest.fn<ReturnType<ScheduledDelivery>, Parameters<ScheduledDelivery>>();
    expect(await scheduler(deliver).runOnce()).toEqual({ claimed: 1, delivered: 0, skipped: 1, retried: 0 });
    expect(deliver).not.toHaveBeenCalled();
    expect((await store.getSchedule('T1', id))?.nextDueAt).toBe(DUE + 7 * 86_400_000);
  });

  it('backs off on transient failures, then gives the week up after the last attempt', async () => {
    const { id } = await add();
    const s = scheduler(async () => Promise.reject(new Error('Insights is unavailable')), { maxAttempts: 3, retryBaseMs: 60_000, retryMaxMs: 90_000 });
    expect(await s.runOnce()).toMatchObject({ retried: 1 });
    expect(await store.getSchedule('T1', id)).toMatchObject({ failures: 1, nextDueAt: now + 60_000 });
    now += 60_000;
    expect(await s.runOnce()).toMatchObject({ retried: 1 });
    expect(await store.getSchedule('T1', id)).toMatchObject({ failures: 2, nextDueAt: now + 90_000 });
    now += 90_000;
    expect(await s.runOnce()).toMatchObject({ skipped: 1 });
    const given = await store.getSchedule('T1', id);
    expect(given).toMatchObject({ failures: 0, nextDueAt: DUE + 7 * 86_400_000, lastError: 'gave up after 3 attempts: Insights is unavailable' });
    expect(given?.lastPeriod).toBeUndefined();
  });

  it('skips the week at once on a permanent failure', async () => {
    const { id } = await add();
    expect(await scheduler(async () => Promise.reject(new PermanentDeliveryError('channel_not_found'))).runOnce()).toMatchObject({ skipped: 1 });
    expect(await store.getSchedule('T1', id)).toMatchObject({ failures: 0, lastError: 'channel_not_found', nextDueAt: DUE + 7 * 86_400_000 });
  });

  it('tells the delivery when the lease is too short to post', async () => {
    await add();
    let leased: boolean | undefined;
    await scheduler(
      async (_s, run) => {
        now += 9 * 60_000;
        leased = run.stillLeased();
        return {};
      },
      { leaseMs: 10 * 60_000, postMarginMs: 2 * 60_000 },
    ).runOnce();
    expect(leased).toBe(false);
  });
});

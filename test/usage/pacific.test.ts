import { tzOffset, TZDate } from '@date-fns/tz';
import { pacificMidnightOf, pacificOffsetMs } from '../../src/usage/pacific';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LOS_ANGELES = 'America/Los_Angeles';

describe('the Pacific clock, written out, against the tz database', () => {
  it('has the offset the tz database has at every hour of 1990–2037 where the clocks may change, and daily between', () => {
    const mismatches: string[] = [];
    for (let year = 1990; year <= 2037; year++) {
      for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1);) {
        const month = new Date(t).getUTCMonth();
        const changing = (month >= 2 && month <= 3) || (month >= 9 && month <= 10);
        const want = tzOffset(LOS_ANGELES, new Date(t)) * 60_000;
        if (pacificOffsetMs(t) !== want) mismatches.push(`${new Date(t).toISOString()}: ${pacificOffsetMs(t) / HOUR_MS} h ≠ ${want / HOUR_MS} h`);
        t += changing ? HOUR_MS : DAY_MS;
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('changes at the very millisecond: 02:00 PST on 8 March 2026, 02:00 PDT on 1 November 2026', () => {
    const springs = Date.UTC(2026, 2, 8, 10);
    expect([pacificOffsetMs(springs - 1), pacificOffsetMs(springs)]).toEqual([-8 * HOUR_MS, -7 * HOUR_MS]);
    const falls = Date.UTC(2026, 10, 1, 9);
    expect([pacificOffsetMs(falls - 1), pacificOffsetMs(falls)]).toEqual([-7 * HOUR_MS, -8 * HOUR_MS]);
  });

  it('finds 00:00 Pacific of every day of 1990–2037 where the tz database does', () => {
    const mismatches: string[] = [];
    for (let day = Date.UTC(1990, 0, 1); day < Date.UTC(2038, 0, 1); day += DAY_MS) {
      const d = new Date(day);
      const want = new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), LOS_ANGELES).getTime();
      if (pacificMidnightOf(day) !== want) mismatches.push(`${d.toISOString().slice(0, 10)}: ${pacificMidnightOf(day)} ≠ ${want}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

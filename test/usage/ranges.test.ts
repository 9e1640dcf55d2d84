import {
  clipToRetention,
  describeRange,
  eachDay,
  makeRange,
  pacificDate,
  pacificMidnight,
  parseRange,
  previousPeriod,
  RANGE_FORMATS,
  shiftDate,
  type ParsedRange,
  type RangeOptions,
} from '../../src/usage/ranges';

const HOUR = 3_600_000;
/** Wed 4 Nov 2026, 10:00 PST: the week before held the end of daylight saving time. */
const NOW = Date.UTC(2026, 10, 4, 18);

function ok(text: string, options: RangeOptions = { now: NOW }): ParsedRange {
  const result = parseRange(text, options);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error}`);
  return result.value;
}

function error(text: string, options: RangeOptions = { now: NOW }): string {
  const result = parseRange(text, options);
  if (result.ok) throw new Error(`expected ${text} to fail`);
  return result.error;
}

describe('parseRange: what managers type', () => {
  it.each([
    // text, first day, last day, kind, previous first, previous last
    ['', '2026-10-26', '2026-11-01', 'week', '2026-10-19', '2026-10-25'],
    ['last week', '2026-10-26', '2026-11-01', 'week', '2026-10-19', '2026-10-25'],
    ['  Last   WEEK ', '2026-10-26', '2026-11-01', 'week', '2026-10-19', '2026-10-25'],
    ['this week', '2026-11-02', '2026-11-04', 'week-to-date', '2026-10-26', '2026-10-28'],
    ['this month', '2026-11-01', '2026-11-04', 'month-to-date', '2026-10-01', '2026-10-04'],
    ['month', '2026-11-01', '2026-11-04', 'month-to-date', '2026-10-01', '2026-10-04'],
    ['last month', '2026-10-01', '2026-10-31', 'month', '2026-09-01', '2026-09-30'],
    ['last 30 days', '2026-10-05', '2026-11-03', 'days', '2026-09-05', '2026-10-04'],
    ['past 14 days', '2026-10-21', '2026-11-03', 'days', '2026-10-07', '2026-10-20'],
    ['last 1 day', '2026-11-03', '2026-11-03', 'days', '2026-11-02', '2026-11-02'],
    ['7d', '2026-10-28', '2026-11-03', 'days', '2026-10-21', '2026-10-27'],
    ['30d', '2026-10-05', '2026-11-03', 'days', '2026-09-05', '2026-10-04'],
    ['yesterday', '2026-11-03', '2026-11-03', 'days', '2026-11-02', '2026-11-02'],
    ['2026-10-01..2026-10-31', '2026-10-01', '2026-10-31', 'custom', '2026-08-31', '2026-09-30'],
    ['2026-10-01 to 2026-10-31', '2026-10-01', '2026-10-31', 'custom', '2026-08-31', '2026-09-30'],
    ['2026-10-01 – 2026-10-07', '2026-10-01', '2026-10-07', 'custom', '2026-09-24', '2026-09-30'],
    ['2026-10-15', '2026-10-15', '2026-10-15', 'custom', '2026-10-14', '2026-10-14'],
    ['2026-10', '2026-10-01', '2026-10-31', 'month', '2026-09-01', '2026-09-30'],
  ])('%j → %s..%s (%s), compared with %s..%s', (text, first, last, kind, prevFirst, prevLast) => {
    const { range, previous, notes } = ok(text);
    expect([range.firstDay, range.lastDay, range.kind]).toEqual([first, last, kind]);
    expect(range.start).toBe(pacificMidnight(first));
    expect(range.end).toBe(pacificMidnight(shiftDate(last, 1)));
    expect(pacificDate(range.end - 1)).toBe(last);
    expect(range.days).toBe(eachDay(range).length);
    expect([previous?.firstDay, previous?.lastDay]).toEqual([prevFirst, prevLast]);
    expect(notes).toEqual([]);
  });

  it('lists the formats it reads', () => {
    expect(RANGE_FORMATS).toContain('last week');
    expect(RANGE_FORMATS).toContain('YYYY-MM-DD..YYYY-MM-DD');
  });
});

describe('parseRange: Pacific days across daylight saving changes', () => {
  it('spans Monday 00:00 PT to the next Monday 00:00 PT across the 25-hour day of 2026-11-01', () => {
    const { range } = ok('last week');
    expect(range.start).toBe(Date.UTC(2026, 9, 26, 7)); // 00:00 PDT
    expect(range.end).toBe(Date.UTC(2026, 10, 2, 8)); // 00:00 PST
    expect(range.end - range.start).toBe(169 * HOUR);
    expect(range.days).toBe(7);
    expect(eachDay(range)).toEqual(['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01']);
    expect(pacificMidnight('2026-11-02') - pacificMidnight('2026-11-01')).toBe(25 * HOUR);
  });

  it('spans the spring-forward week of 2026-03-08 (a 23-hour Sunday)', () => {
    const now = Date.UTC(2026, 2, 11, 18); // Wed 11 Mar 2026
    const { range, previous } = ok('last week', { now });
    expect([range.firstDay, range.lastDay]).toEqual(['2026-03-02', '2026-03-08']);
    expect(range.start).toBe(Date.UTC(2026, 2, 2, 8)); // 00:00 PST
    expect(range.end).toBe(Date.UTC(2026, 2, 9, 7)); // 00:00 PDT
    expect(range.end - range.start).toBe(167 * HOUR);
    expect(previous!.end - previous!.start).toBe(168 * HOUR);
    expect(previous!.end).toBe(range.start);

    const sunday = ok('2026-03-08', { now }).range;
    expect(sunday.end - sunday.start).toBe(23 * HOUR);
  });

  it('takes "today" from the Pacific clock, not UTC', () => {
    // Sun 1 Nov 23:30 PST is already Monday in UTC: the last full week is still the one before.
    expect(ok('last week', { now: Date.UTC(2026, 10, 2, 7, 30) }).range.firstDay).toBe('2026-10-19');
    expect(ok('last week', { now: Date.UTC(2026, 10, 2, 8) }).range.firstDay).toBe('2026-10-26');
  });

  it('compares month-to-date with the same days of a shorter previous month', () => {
    const { range, previous } = ok('this month', { now: Date.UTC(2026, 2, 31, 20) });
    expect([range.firstDay, range.lastDay]).toEqual(['2026-03-01', '2026-03-31']);
    expect([previous!.firstDay, previous!.lastDay]).toEqual(['2026-02-01', '2026-02-28']);
  });
});

describe('parseRange: validation', () => {
  /** Every example an error suggests must itself be accepted. */
  function expectWorkingExamples(message: string): void {
    const examples = [...message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(parseRange(example, { now: NOW }).ok).toBe(true);
  }

  it('explains unknown words with working examples', () => {
    const message = error('the other week');
    expect(message).toBe(
      'I can’t read “the other week” as a date range. Try `last week`, `this month`, `last 30 days`, `2026-10-01..2026-10-31` or `2026-10`.',
    );
    expectWorkingExamples(message);
  });

  it('says when the end comes before the start, with the dates the right way round', () => {
    const message = error('2026-10-31..2026-10-01');
    expect(message).toBe('The range ends (2026-10-01) before it starts (2026-10-31). Put the earlier date first: `2026-10-01..2026-10-31`.');
    expectWorkingExamples(message);
  });

  it('refuses a range that starts in the future', () => {
    const message = error('2027-01-01..2027-01-31');
    expect(message).toContain('starts on Fri 1 Jan 2027, which is in the future');
    expectWorkingExamples(message);
    expect(error('2026-12')).toContain('in the future');
  });

  it('stops a range that ends in the future at today, and says so', () => {
    const { range, notes } = ok('2026-10-20..2026-12-31');
    expect([range.firstDay, range.lastDay]).toEqual(['2026-10-20', '2026-11-04']);
    expect(notes).toEqual(['The range ended in the future, so it stops today: Tue 20 Oct – Wed 4 Nov 2026.']);

    const month = ok('2026-11');
    expect([month.range.firstDay, month.range.lastDay, month.range.kind]).toEqual(['2026-11-01', '2026-11-04', 'month-to-date']);
    expect(month.notes).toEqual(['November 2026 is not over yet, so this covers Sun 1 Nov – Wed 4 Nov 2026, up to today.']);
  });

  it('refuses a range wholly older than the 90-day retention', () => {
    const message = error('2026-01-01..2026-02-01');
    expect(message).toBe('Insights keeps daily usage for 90 days: the oldest day available is Thu 6 Aug 2026. Try `last 90 days` or `2026-08-06..2026-11-03`.');
    expectWorkingExamples(message);
  });

  it('starts a partly expired range at the oldest day available, and says so', () => {
    const { range, previous, notes } = ok('2026-07-01..2026-09-01');
    expect([range.firstDay, range.lastDay]).toEqual(['2026-08-06', '2026-09-01']);
    expect(range.label).toBe('Thu 6 Aug – Tue 1 Sep 2026');
    expect(previous).toBeNull();
    expect(notes[0]).toBe('Insights keeps daily usage for 90 days, so this starts on Thu 6 Aug 2026, the oldest day available.');
    expect(notes[1]).toMatch(/^No comparison with .*: it is older than 90 days\.$/);
  });

  it('drops the comparison when the previous period has expired', () => {
    const { range, previous, notes } = ok('last 90 days');
    expect(range.firstDay).toBe('2026-08-06');
    expect(previous).toBeNull();
    expect(notes).toHaveLength(1);
  });

  it('applies the 21-day retention of per-session data', () => {
    const { range, notes } = ok('last month', { now: NOW, dataset: 'sessions' });
    expect([range.firstDay, range.lastDay]).toEqual(['2026-10-14', '2026-10-31']);
    expect(notes[0]).toContain('Insights keeps per-session data for 21 days');
    expect(error('2026-09', { now: NOW, dataset: 'sessions' })).toContain('per-session data for 21 days');
  });

  it.each([
    ['2026-02-30', '2026-02-30 is not a date.'],
    ['2026-13', '“2026-13” is not a month.'],
    ['last 0 days', 'A range needs at least one day.'],
    ['last 99999 days', 'far longer than Insights keeps data'],
  ])('%j → %s', (text, expected) => {
    const message = error(text);
    expect(message).toContain(expected);
    expectWorkingExamples(message);
  });
});

describe('range helpers', () => {
  it('describes ranges in words', () => {
    expect(describeRange(ok('last week').range)).toBe('Mon 26 Oct – Sun 1 Nov 2026');
    expect(describeRange(ok('yesterday').range)).toBe('Tue 3 Nov 2026');
    expect(describeRange({ firstDay: '2025-12-29', lastDay: '2026-01-04' })).toBe('Mon 29 Dec 2025 – Sun 4 Jan 2026');
  });

  it('clips a range to what a dataset still holds', () => {
    const month = makeRange('2026-10-01', '2026-10-31', 'month', 'October 2026');
    expect(clipToRetention(month, NOW, 'sessions')!.firstDay).toBe('2026-10-14');
    expect(clipToRetention(month, NOW, 'aggregates')).toBe(month);
    expect(clipToRetention(makeRange('2026-09-01', '2026-09-30', 'month', 'September'), NOW, 'sessions')).toBeNull();
  });

  it('gives custom ranges the same number of days just before', () => {
    const prev = previousPeriod(makeRange('2026-11-01', '2026-11-01', 'custom', 'x'));
    expect([prev.firstDay, prev.lastDay]).toEqual(['2026-10-31', '2026-10-31']);
    expect(prev.end).toBe(pacificMidnight('2026-11-01'));
  });
});

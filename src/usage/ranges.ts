/**
 * What a manager types ("last week", "2026-10", "last 30 days") → a range of whole Pacific-time
 * days, because Insights aggregates per day from 00:00 to 23:59 America/Los_Angeles.
 * Ranges are half-open in epoch ms: [start, end), where `end` is the next day's 00:00 PT, so a
 * week that contains a 25-hour or 23-hour day still spans exactly seven calendar days.
 */
// One module per function: the package index loads all ~300 of them.
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { endOfMonth } from 'date-fns/endOfMonth';
import { format } from 'date-fns/format';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfWeek } from 'date-fns/startOfWeek';
import { pacificMidnightOf, pacificOffsetMs } from './pacific';

export const PACIFIC_TZ = 'America/Los_Angeles';

/** A Pacific calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;

export type RangeKind = 'week' | 'week-to-date' | 'month' | 'month-to-date' | 'days' | 'custom';

export interface DateRange {
  /** 00:00 Pacific of `firstDay`, epoch ms. */
  start: number;
  /** 00:00 Pacific of the day after `lastDay`, epoch ms (exclusive). */
  end: number;
  firstDay: IsoDate;
  /** Inclusive. */
  lastDay: IsoDate;
  days: number;
  kind: RangeKind;
  /** What the user asked for, in words: "last week", "October 2026". */
  label: string;
}

export interface ParsedRange {
  range: DateRange;
  /** The period to compare with, or null when it is outside retention. */
  previous: DateRange | null;
  /** Adjustments made to the request (clamped to today, to retention), to show the user. */
  notes: string[];
}

export type RangeResult = { ok: true; value: ParsedRange } | { ok: false; error: string };

export type Dataset = 'aggregates' | 'sessions';

/** Insights retention: daily aggregates 90 days; advanced session data 21 days. */
export const RETENTION_DAYS: Readonly<Record<Dataset, number>> = { aggregates: 90, sessions: 21 };
const RETENTION_NOUN: Readonly<Record<Dataset, string>> = { aggregates: 'daily usage', sessions: 'per-session data' };

export interface RangeOptions {
  now: number;
  dataset?: Dataset;
}

export const RANGE_FORMATS = [
  'last week',
  'this week',
  'this month',
  'month',
  'last month',
  'last 30 days',
  'last N days',
  '7d',
  '30d',
  'yesterday',
  'YYYY-MM-DD..YYYY-MM-DD',
  'YYYY-MM',
  'YYYY-MM-DD',
] as const;

// ---- calendar helpers ----
// A date is a day of the calendar, whatever the zone: date-fns works on it as the host's local
// midnight of that day, its own model. Only the two crossings between instants and dates
// (`pacificDate`, `pacificMidnight`) need the Pacific clock.

/** The host's local midnight of a valid `YYYY-MM-DD`, or null. */
function parseIso(date: IsoDate): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > getDaysInMonth(new Date(y, mo - 1, 1))) return null;
  return new Date(y, mo - 1, d);
}

function day(date: IsoDate): Date {
  const parsed = parseIso(date);
  if (!parsed) throw new RangeError(`not a date: ${date}`);
  return parsed;
}

const iso = (d: Date): IsoDate => format(d, 'yyyy-MM-dd');

/** The Pacific calendar date at an instant. */
export const pacificDate = (epochMs: number): IsoDate => new Date(epochMs + pacificOffsetMs(epochMs)).toISOString().slice(0, 10);

/** 00:00 America/Los_Angeles of a date, epoch ms (DST-correct). */
export function pacificMidnight(date: IsoDate): number {
  const d = day(date);
  return pacificMidnightOf(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
}

export const shiftDate = (date: IsoDate, days: number): IsoDate => iso(addDays(day(date), days));

export const daysBetween = (from: IsoDate, to: IsoDate): number => differenceInCalendarDays(day(to), day(from));

/** Every date of a range, in order. */
export function eachDay(range: Pick<DateRange, 'firstDay' | 'days'>): IsoDate[] {
  return Array.from({ length: range.days }, (_, i) => shiftDate(range.firstDay, i));
}

/** "Mon 26 Oct" */
export const shortDay = (date: IsoDate): string => format(day(date), 'EEE d MMM');
/** "Mon 26 Oct 2026" */
export const longDay = (date: IsoDate): string => format(day(date), 'EEE d MMM yyyy');

/** "Mon 26 Oct – Sun 1 Nov 2026", or one day. */
export function describeRange(range: Pick<DateRange, 'firstDay' | 'lastDay'>): string {
  if (range.firstDay === range.lastDay) return longDay(range.firstDay);
  const sameYear = range.firstDay.slice(0, 4) === range.lastDay.slice(0, 4);
  return `${sameYear ? shortDay(range.firstDay) : longDay(range.firstDay)} – ${longDay(range.lastDay)}`;
}

export function makeRange(firstDay: IsoDate, lastDay: IsoDate, kind: RangeKind, label: string): DateRange {
  return {
    start: pacificMidnight(firstDay),
    end: pacificMidnight(shiftDate(lastDay, 1)),
    firstDay,
    lastDay,
    days: daysBetween(firstDay, lastDay) + 1,
    kind,
    label,
  };
}

const mondayOf = (date: IsoDate): IsoDate => iso(startOfWeek(day(date), { weekStartsOn: 1 }));
const firstOfMonth = (date: IsoDate): IsoDate => iso(startOfMonth(day(date)));
const lastOfMonth = (date: IsoDate): IsoDate => iso(endOfMonth(day(date)));
const addMonthsIso = (date: IsoDate, n: number): IsoDate => iso(addMonths(day(date), n));
const monthName = (date: IsoDate): string => format(day(date), 'MMMM yyyy');

/** Oldest day the dataset still holds, on the day `now` falls on. */
export function retentionFloor(now: number, dataset: Dataset = 'aggregates'): IsoDate {
  return shiftDate(pacificDate(now), -RETENTION_DAYS[dataset]);
}

/** The part of a range the dataset still holds, or null if none of it. */
export function clipToRetention(range: DateRange, now: number, dataset: Dataset): DateRange | null {
  const floor = retentionFloor(now, dataset);
  if (range.lastDay < floor) return null;
  if (range.firstDay >= floor) return range;
  return makeRange(floor, range.lastDay, range.kind, range.label);
}

/** The period a range is compared with: the week before, the month before, or the same number of
 * days just before. */
export function previousPeriod(range: DateRange): DateRange {
  switch (range.kind) {
    case 'week':
    case 'week-to-date':
      return makeRange(shiftDate(range.firstDay, -7), shiftDate(range.lastDay, -7), range.kind, `the week before`);
    case 'month': {
      const first = addMonthsIso(range.firstDay, -1);
      return makeRange(first, lastOfMonth(first), 'month', monthName(first));
    }
    case 'month-to-date': {
      const first = addMonthsIso(range.firstDay, -1);
      const last = shiftDate(first, range.days - 1);
      const monthEnd = lastOfMonth(first);
      return makeRange(first, last < monthEnd ? last : monthEnd, 'month-to-date', `the same days of ${monthName(first)}`);
    }
    case 'days':
    case 'custom':
      return makeRange(shiftDate(range.firstDay, -range.days), shiftDate(range.firstDay, -1), range.kind, `the ${range.days} days before`);
  }
}

// ---- parsing ----

interface Requested {
  first: IsoDate;
  last: IsoDate;
  kind: RangeKind;
  label: string;
  /** Ranges that name explicit dates are validated against today; relative ones never pass it. */
  explicit: boolean;
}

const SEPARATOR = String.raw`\s*(?:\.\.\.?|–|—|\s-\s|\s+to\s+)\s*`;
const EXPLICIT_RANGE = new RegExp(String.raw`^(\d{4}-\d{2}-\d{2})${SEPARATOR}(\d{4}-\d{2}-\d{2})$`);
const MAX_DAYS = 3660;

/** Parses a range as typed in Slack. An empty text means last week. */
export function parseRange(input: string, options: RangeOptions): RangeResult {
  const dataset = options.dataset ?? 'aggregates';
  const today = pacificDate(options.now);
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const requested = interpret(text, today);
  if ('error' in requested) return { ok: false, error: requested.error };
  return settle(requested, today, options.now, dataset);
}

function interpret(text: string, today: IsoDate): Requested | { error: string } {
  const relative = (first: IsoDate, last: IsoDate, kind: RangeKind, label: string): Requested => ({ first, last, kind, label, explicit: false });
  switch (text) {
    case '':
    case 'last week':
    case 'previous week': {
      const first = shiftDate(mondayOf(today), -7);
      return relative(first, shiftDate(first, 6), 'week', 'last week');
    }
    case 'this week':
    case 'week':
      return relative(mondayOf(today), today, 'week-to-date', 'this week');
    case 'this month':
    case 'month':
      return relative(firstOfMonth(today), today, 'month-to-date', 'this month');
    case 'last month':
    case 'previous month': {
      const first = addMonthsIso(firstOfMonth(today), -1);
      return relative(first, lastOfMonth(first), 'month', 'last month');
    }
    case 'yesterday': {
      const y = shiftDate(today, -1);
      return relative(y, y, 'days', 'yesterday');
    }
  }

  const nDays = /^(?:(?:last|past) (\d+) days?|(\d+) ?d(?:ays?)?)$/.exec(text);
  if (nDays) {
    const n = Number(nDays[1] ?? nDays[2]);
    if (n < 1) return { error: `A range needs at least one day. Try \`last 7 days\`.` };
    if (n > MAX_DAYS) return { error: `${n} days is far longer than Insights keeps data. Try \`last 90 days\`.` };
    // Whole days ending yesterday: today has no data yet (aggregates lag 36–48 h).
    return relative(shiftDate(today, -n), shiftDate(today, -1), 'days', `last ${n} days`);
  }

  const month = /^(\d{4})-(\d{2})$/.exec(text);
  if (month) {
    const first = `${month[1]}-${month[2]}-01`;
    if (!parseIso(first)) return { error: `“${text}” is not a month. ${examples(today)}` };
    return { first, last: lastOfMonth(first), kind: 'month', label: monthName(first), explicit: true };
  }

  const single = /^\d{4}-\d{2}-\d{2}$/.test(text) ? [text, text] : null;
  const pair = EXPLICIT_RANGE.exec(text);
  const dates = single ?? (pair ? [pair[1]!, pair[2]!] : null);
  if (dates) {
    const [first, last] = dates as [IsoDate, IsoDate];
    for (const d of [first, last]) if (!parseIso(d)) return { error: `${d} is not a date. ${examples(today)}` };
    if (last < first) {
      return { error: `The range ends (${last}) before it starts (${first}). Put the earlier date first: \`${last}..${first}\`.` };
    }
    return { first, last, kind: 'custom', label: describeRange({ firstDay: first, lastDay: last }), explicit: true };
  }

  return { error: `I can’t read “${text}” as a date range. ${examples(today)}` };
}

function settle(req: Requested, today: IsoDate, now: number, dataset: Dataset): RangeResult {
  const notes: string[] = [];
  const floor = retentionFloor(now, dataset);
  const noun = RETENTION_NOUN[dataset];
  const keeps = `Insights keeps ${noun} for ${RETENTION_DAYS[dataset]} days`;
  let { first, last, kind } = req;

  if (first > today) {
    return {
      ok: false,
      error: `The range starts on ${longDay(first)}, which is in the future (today is ${longDay(today)} in Pacific time). Try \`${firstOfMonth(today)}..${today}\`.`,
    };
  }
  if (last > today) {
    last = today;
    const sofar = describeRange({ firstDay: first, lastDay: last });
    if (kind === 'month') {
      kind = 'month-to-date';
      notes.push(`${req.label} is not over yet, so this covers ${sofar}, up to today.`);
    } else {
      notes.push(`The range ended in the future, so it stops today: ${sofar}.`);
    }
  }
  if (last < floor) {
    return {
      ok: false,
      error: `${keeps}: the oldest day available is ${longDay(floor)}. Try \`last ${RETENTION_DAYS[dataset]} days\` or \`${floor}..${shiftDate(today, -1)}\`.`,
    };
  }
  if (first < floor) {
    first = floor;
    kind = 'custom';
    notes.push(`${keeps}, so this starts on ${longDay(floor)}, the oldest day available.`);
  }

  const clamped = first !== req.first || last !== req.last;
  const label = kind === 'custom' && clamped ? describeRange({ firstDay: first, lastDay: last }) : req.label;
  const range = makeRange(first, last, kind, label);
  const candidate = previousPeriod(range);
  const previous = candidate.firstDay >= floor ? candidate : null;
  if (!previous) {
    notes.push(`No comparison with ${describeRange(candidate)}: it is older than ${RETENTION_DAYS[dataset]} days.`);
  }
  return { ok: true, value: { range, previous, notes } };
}

function examples(today: IsoDate): string {
  const lastMonth = addMonthsIso(firstOfMonth(today), -1);
  return `Try \`last week\`, \`this month\`, \`last 30 days\`, \`${lastMonth}..${lastOfMonth(lastMonth)}\` or \`${lastMonth.slice(0, 7)}\`.`;
}

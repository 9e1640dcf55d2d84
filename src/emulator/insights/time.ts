import { TZDate } from '@date-fns/tz';

/**
 * Insights time: the service aggregates per day from 00:00 to 23:59 Pacific time, so every
 * boundary here is an America/Los_Angeles wall-clock midnight (23-, 24- or 25-hour days).
 */
export const PACIFIC = 'America/Los_Angeles';
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** One Pacific calendar day: `[start, end)` in epoch ms, `key` = `YYYY-MM-DD`. */
export interface Day {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

const days = new Map<string, Day>();
/** Pacific midnights fall on whole UTC hours (offsets are -7 h / -8 h): the hour fixes the day. */
const dayByHour = new Map<number, Day>();
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Y-M-D parts of a calendar date, out-of-range values rolled over like Date does. */
function calendar(year: number, month0: number, date: number): [number, number, number] {
  const d = new Date(Date.UTC(year, month0, date));
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}

/** The Pacific day of the calendar date `(year, month0, date)`. */
export function dayAt(year: number, month0: number, date: number): Day {
  const [y, m, d] = calendar(year, month0, date);
  const key = `${pad(y, 4)}-${pad(m + 1)}-${pad(d)}`;
  let day = days.get(key);
  if (!day) {
    const start = new TZDate(y, m, d, PACIFIC).getTime();
    const end = new TZDate(y, m, d + 1, PACIFIC).getTime();
    day = { key, start, end };
    days.set(key, day);
  }
  return day;
}

function parts(day: Day): [number, number, number] {
  const [y, m, d] = day.key.split('-').map(Number);
  return [y ?? 1970, (m ?? 1) - 1, d ?? 1];
}

/** The Pacific day holding the instant `ms`. */
export function dayOf(ms: number): Day {
  const hour = Math.floor(ms / HOUR_MS);
  let day = dayByHour.get(hour);
  if (!day) {
    const t = new TZDate(ms, PACIFIC);
    day = dayAt(t.getFullYear(), t.getMonth(), t.getDate());
    dayByHour.set(hour, day);
  }
  return day;
}

export function addDays(day: Day, n: number): Day {
  if (n === 1) return dayOf(day.end);
  const [y, m, d] = parts(day);
  return dayAt(y, m, d + n);
}

/** 0 = Sunday ... 6 = Saturday (of the calendar date, so the same in Pacific time). */
export function weekday(day: Day): number {
  const [y, m, d] = parts(day);
  return new Date(Date.UTC(y, m, d)).getUTCDay();
}

/** The Pacific days overlapping `[from, to)` (instants), in order. */
export function daysBetween(from: number, to: number): Day[] {
  const result: Day[] = [];
  for (let day = dayOf(from); day.start < to; day = addDays(day, 1)) result.push(day);
  return result;
}

/** Calls `add(day, ms)` for each Pacific day the interval `[from, to)` overlaps, with the overlap. */
export function splitByDay(from: number, to: number, add: (day: Day, ms: number) => void): void {
  if (to <= from) return;
  for (let day = dayOf(from); day.start < to; day = addDays(day, 1)) {
    const ms = Math.min(to, day.end) - Math.max(from, day.start);
    if (ms > 0) add(day, ms);
  }
}

export type IntervalKind = 'DAILY' | 'WEEKLY' | 'MONTHLY';

/**
 * The interval (first day) a day belongs to: itself, the Monday of its ISO week, or the first of
 * its month, all Pacific.
 */
export function intervalStartDay(day: Day, kind: IntervalKind): Day {
  if (kind === 'DAILY') return day;
  if (kind === 'WEEKLY') return addDays(day, -((weekday(day) + 6) % 7));
  const [y, m] = parts(day);
  return dayAt(y, m, 1);
}

/** The first day after the interval that starts at `first`. */
export function intervalEndDay(first: Day, kind: IntervalKind): Day {
  if (kind === 'DAILY') return addDays(first, 1);
  if (kind === 'WEEKLY') return addDays(first, 7);
  const [y, m] = parts(first);
  return dayAt(y, m + 1, 1);
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export class TimestampError extends Error {
  override readonly name = 'TimestampError';
}

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An Insights date argument in epoch ms. Integers: 10 digits or fewer are epoch seconds, more
 * are milliseconds, `0` means "earliest available". Strings: ISO-8601; without a UTC offset the
 * wall-clock time is read as Pacific (the zone the service aggregates in), so `2026-11-01` is the
 * start of that Pacific day. Digit-only strings are read like integers.
 */
export function parseTimestamp(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TimestampError(`${value} is not an integer timestamp`);
    return fromEpochDigits(String(value));
  }
  const text = value.trim();
  if (/^-?\d+$/.test(text)) return fromEpochDigits(text);
  const m = ISO_PATTERN.exec(text);
  if (!m) throw new TimestampError(`'${value}' is neither an ISO-8601 date nor an epoch timestamp`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3))] as const;
  const [year, month0, date, hours, minutes, seconds] = parts;
  if (month0 > 11 || date < 1 || date > 31 || hours > 23 || minutes > 59 || seconds > 59) {
    throw new TimestampError(`'${value}' is not a valid date`);
  }
  const check = new Date(Date.UTC(year, month0, date));
  if (check.getUTCMonth() !== month0) throw new TimestampError(`'${value}' is not a valid date`);
  if (zone === undefined) return new TZDate(...parts, PACIFIC).getTime();
  const utc = Date.UTC(...parts);
  if (zone.toUpperCase() === 'Z') return utc;
  const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  const sign = z?.[1] === '-' ? -1 : 1;
  const offset = sign * (Number(z?.[2] ?? 0) * 60 + Number(z?.[3] ?? 0)) * MINUTE_MS;
  return utc - offset;
}

function fromEpochDigits(text: string): number {
  if (text.startsWith('-')) throw new TimestampError(`${text} is before the epoch`);
  const digits = text.replace(/^0+(?=\d)/, '');
  const n = Number(digits);
  const ms = digits.length <= 10 ? n * 1000 : n;
  if (!Number.isSafeInteger(ms) || ms > 8.64e15) throw new TimestampError(`${text} is out of range`);
  return ms;
}

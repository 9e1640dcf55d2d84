/**
 * "Every Monday at 09:00 in Europe/Paris": reading the words, naming it back, and the instants it
 * falls on. Wall-clock times in the schedule's own time zone, so a report set for 09:00 stays at
 * 09:00 across daylight-saving changes (a time skipped by a spring-forward runs an hour later that
 * day; a time that happens twice runs on the first).
 */
import { TZDate } from '@date-fns/tz';
import { PACIFIC_TZ } from '../usage';

export interface WeeklyTime {
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes after local midnight (0–1439). */
  minuteOfDay: number;
  /** IANA time zone. */
  timeZone: string;
}

/** Monday 09:00 Pacific: the start of the week in the time zone Insights counts days in. */
export const DEFAULT_WEEKLY_TIME: Readonly<WeeklyTime> = { weekday: 1, minuteOfDay: 9 * 60, timeZone: PACIFIC_TZ };

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const WEEKDAY_WORDS: ReadonlyMap<string, number> = new Map(
  DAY_NAMES.flatMap((name, i) => {
    const lower = name.toLowerCase();
    const extra: Record<string, string[]> = { tuesday: ['tues'], wednesday: ['weds'], thursday: ['thur', 'thurs'] };
    return [lower, `${lower}s`, lower.slice(0, 3), ...(extra[lower] ?? [])].map((w) => [w, i + 1] as const);
  }),
);

/** `mon`, `Monday`, `mondays` → 1 … 7; undefined for anything else. */
export function parseWeekday(word: string): number | undefined {
  return WEEKDAY_WORDS.get(word.toLowerCase());
}

/**
 * `09:00`, `9:30`, `9am`, `9:30pm`, `21h`, `21h30` → minutes after midnight; undefined when the word
 * is not a time, an error message when it is one that cannot be.
 */
export function parseTimeOfDay(word: string): number | { error: string } | undefined {
  const m = /^(\d{1,2})(?::(\d{2})|h(\d{2})?)?(am|pm)?$/i.exec(word.trim());
  if (!m) return undefined;
  const [, h, colonMinutes, hMinutes, meridiem] = m;
  const isTime = colonMinutes !== undefined || meridiem !== undefined || /h/i.test(word);
  if (!isTime) return undefined;
  let hours = Number(h);
  const minutes = Number(colonMinutes ?? hMinutes ?? 0);
  if (meridiem) {
    if (hours < 1 || hours > 12) return { error: `“${word}” is not a time: with am/pm the hour goes from 1 to 12` };
    hours = (hours % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return { error: `“${word}” is not a time of day; use 24-hour HH:MM, like 09:00 or 17:30` };
  return hours * 60 + minutes;
}

const ZONE_ALIASES: Readonly<Record<string, string>> = {
  pt: PACIFIC_TZ,
  pst: PACIFIC_TZ,
  pdt: PACIFIC_TZ,
  pacific: PACIFIC_TZ,
  mt: 'America/Denver',
  ct: 'America/Chicago',
  et: 'America/New_York',
  eastern: 'America/New_York',
  utc: 'UTC',
  gmt: 'UTC',
  z: 'UTC',
};

/** An IANA zone (any case) or a common abbreviation → its canonical IANA name; undefined otherwise. */
export function parseTimeZone(word: string): string | undefined {
  const alias = ZONE_ALIASES[word.toLowerCase()];
  if (alias) return alias;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(word)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: word }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The first instant strictly after `after` that is `weekday` at `minuteOfDay` in `timeZone`. */
export function nextOccurrence(when: WeeklyTime, after: number): number {
  const local = new TZDate(after, when.timeZone);
  const hours = Math.floor(when.minuteOfDay / 60);
  const minutes = when.minuteOfDay % 60;
  // Eight days always hold the next one: today's may already have passed.
  for (let i = 0; i <= 8; i += 1) {
    const candidate = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + i, hours, minutes, 0, when.timeZone);
    if (isoWeekday(candidate) === when.weekday && candidate.getTime() > after) return candidate.getTime();
  }
  throw new RangeError(`no occurrence of ${describeWeekly(when)} after ${new Date(after).toISOString()}`);
}

const isoWeekday = (d: TZDate): number => ((d.getDay() + 6) % 7) + 1;

export const weekdayName = (weekday: number): string => DAY_NAMES[weekday - 1] ?? `day ${weekday}`;

/** `09:00` */
export function formatTimeOfDay(minuteOfDay: number): string {
  return `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
}

/** "every Monday at 09:00 (America/Los_Angeles)" */
export function describeWeekly(when: WeeklyTime): string {
  return `every ${weekdayName(when.weekday)} at ${formatTimeOfDay(when.minuteOfDay)} (${when.timeZone})`;
}

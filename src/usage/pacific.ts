/**
 * The clock Insights counts days by, America/Los_Angeles, from its rules written out rather than
 * read from ICU's time zone data, whose first use maps ~10 MB into the process for good
 * (bench/README.md). Since 2007 (the Energy Policy Act of 2005): Pacific Daylight Time, UTC−7,
 * from the second Sunday of March at 02:00 PST to the first Sunday of November at 02:00 PDT, and
 * Pacific Standard Time, UTC−8, otherwise; from 1987 to 2006 (and here before, far older than
 * anything Insights keeps) from the first Sunday of April to the last Sunday of October. A test
 * compares them with the tz database hour by hour in the months the clocks change, and at every
 * midnight, from 1990 to 2037: new rules arriving with Node's tz data fail it.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const STANDARD_MS = -8 * HOUR_MS;
const DAYLIGHT_MS = -7 * HOUR_MS;

/** The Pacific offset from UTC at an instant, in ms: −8 h or −7 h. */
export function pacificOffsetMs(epochMs: number): number {
  const [start, end] = daylightSaving(new Date(epochMs).getUTCFullYear());
  return epochMs >= start && epochMs < end ? DAYLIGHT_MS : STANDARD_MS;
}

/** The UTC instants a year's daylight saving time starts (02:00 PST) and ends (02:00 PDT). */
function daylightSaving(year: number): [number, number] {
  if (year >= 2007) return [sunday(year, 2, 2) + 10 * HOUR_MS, sunday(year, 10, 1) + 9 * HOUR_MS];
  return [sunday(year, 3, 1) + 10 * HOUR_MS, lastSunday(year, 9) + 9 * HOUR_MS];
}

/** UTC midnight of the `nth` Sunday of a month (0-based). */
function sunday(year: number, month: number, nth: number): number {
  const first = Date.UTC(year, month, 1);
  return first + (((7 - new Date(first).getUTCDay()) % 7) + 7 * (nth - 1)) * DAY_MS;
}

/** UTC midnight of the last Sunday of a month (0-based). */
function lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month + 1, 0);
  return last - new Date(last).getUTCDay() * DAY_MS;
}

/** The instant of 00:00 Pacific time of the calendar day whose UTC midnight is `utcMidnightMs` (never skipped nor repeated: the clocks change at 02:00). */
export function pacificMidnightOf(utcMidnightMs: number): number {
  const ifStandard = utcMidnightMs - STANDARD_MS;
  return pacificOffsetMs(ifStandard) === STANDARD_MS ? ifStandard : utcMidnightMs - DAYLIGHT_MS;
}

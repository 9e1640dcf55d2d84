import type { ClientInfo, RecordedSession } from '../state/model';
import { CODES, InsightsError } from './codes';
import { firstRetainedDay, isAggregated } from './data';
import { addFacts, emptyFacts, FactTable, hasData, type Facts } from './facts';
import { daysBetween, intervalEndDay, intervalStartDay, type Day, type IntervalKind } from './time';

/** `groupBy` values and the client dimension each one reads. */
export const DIMENSIONS = {
  SDK_TYPE: 'sdkType',
  SDK_VERSION: 'sdkVersion',
  COUNTRY: 'country',
  REGION: 'region',
  BROWSER: 'browser',
  BROWSER_VERSION: 'browserVersion',
} as const satisfies Record<string, keyof ClientInfo>;
export type GroupBy = keyof typeof DIMENSIONS;
type Dimension = (typeof DIMENSIONS)[GroupBy];
const DIMENSION_ORDER: readonly Dimension[] = Object.values(DIMENSIONS);

/** "Region, SDK and browser filtering is unavailable for participant (and archiving) minutes." */
const NO_PARTICIPANT_MINUTES: readonly Dimension[] = ['sdkType', 'sdkVersion', 'region', 'browser', 'browserVersion'];

export type Filters = Partial<Record<Dimension, ReadonlyArray<string | null> | null>>;

export interface ProjectDataQuery {
  /** Epoch ms (already parsed); 0 = earliest available. */
  start: number;
  end?: number | null | undefined;
  interval?: ReadonlyArray<string | null> | null | undefined;
  groupBy?: ReadonlyArray<string | null> | null | undefined;
  filters: Filters;
  /** Computing sample averages costs; skipped unless `quality` is asked for. */
  wantsQuality: boolean;
  /** Participant minutes asked for: region / SDK / browser filtering and grouping are refused then. */
  wantsParticipantMinutes: boolean;
}

export interface MetricRow {
  intervalStart: number;
  /** Last millisecond of the interval (days run 00:00:00.000 to 23:59:59.999 Pacific). */
  intervalEnd: number;
  /** The grouped dimensions; the others are absent (null in the answer). */
  group: Partial<ClientInfo>;
  facts: Facts;
}

const SDK_VERSION = /^\d+\.\d+\.\d+$/;

/**
 * The published days a query covers: every Pacific day overlapping `[start, end]` that is still
 * retained (90 days) and already aggregated (36 h after it ended). A range entirely outside the
 * retained window, or ending before it starts, is 1002; a range reaching past it is cut.
 */
export function coveredDays(now: number, start: number, end: number | null | undefined): Day[] {
  const last = end ?? now;
  if (last < start) throw new InsightsError(CODES.invalidDateRange, 'Invalid date range: end is before start');
  const first = firstRetainedDay(now);
  if (last < first.start || start > now) {
    throw new InsightsError(CODES.invalidDateRange, `Invalid date range: data is kept from ${first.key} (Pacific) until now`);
  }
  return daysBetween(Math.max(start, first.start), Math.min(last, now) + 1).filter((d) => isAggregated(d, now));
}

function intervalKind(interval: ProjectDataQuery['interval'], days: readonly Day[]): IntervalKind | undefined {
  const values = (interval ?? []).filter((v): v is string => v !== null);
  if (values.length > 1) throw new InsightsError(CODES.oneInterval, 'Only one date interval allowed');
  const [value] = values;
  if (value === undefined) return undefined;
  if (value !== 'AUTO') return value as IntervalKind;
  // AUTO: about a month or less day by day, up to half a year by week, beyond that by month.
  if (days.length <= 31) return 'DAILY';
  return days.length <= 182 ? 'WEEKLY' : 'MONTHLY';
}

function checkFilters(q: ProjectDataQuery, groupBy: readonly Dimension[]): void {
  for (const version of q.filters.sdkVersion ?? []) {
    if (version !== null && !SDK_VERSION.test(version)) {
      throw new InsightsError(CODES.invalidSdkVersion, `Invalid SDK version '${version}', format must be 0.0.0`);
    }
  }
  if (!q.wantsParticipantMinutes) return;
  const blocked = NO_PARTICIPANT_MINUTES.filter((d) => (q.filters[d] ?? []).length > 0 || groupBy.includes(d));
  if (blocked.length > 0) {
    throw new InsightsError(
      CODES.unavailableFilter,
      `Participant minutes are unavailable with region, SDK or browser filtering or grouping (${blocked.join(', ')})`,
    );
  }
}

function matches(client: ClientInfo, filters: Filters): boolean {
  return DIMENSION_ORDER.every((d) => {
    const allowed = (filters[d] ?? []).filter((v): v is string => v !== null);
    const value = client[d];
    return allowed.length === 0 || (value !== null && allowed.includes(value));
  });
}

const compareValues = (a: string | null | undefined, b: string | null | undefined): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a.localeCompare(b);
};

/**
 * The Metric rows of a `projectData` query: published days, filtered clients, summed per
 * interval (or over the whole range without one) and per group; only rows holding data; in
 * interval order, then by group values.
 */
export function projectDataRows(sessions: Iterable<RecordedSession>, now: number, q: ProjectDataQuery): MetricRow[] {
  const groupBy = [...new Set((q.groupBy ?? []).filter((g): g is GroupBy => g !== null && g in DIMENSIONS))].map((g) => DIMENSIONS[g]);
  checkFilters(q, groupBy);
  const days = coveredDays(now, q.start, q.end);
  const kind = intervalKind(q.interval, days);
  const firstDay = days[0];
  const lastDay = days[days.length - 1];
  if (!firstDay || !lastDay) return [];

  const table = FactTable.build(sessions, now, {
    days: new Set(days.map((d) => d.key)),
    from: firstDay.start,
    to: lastDay.end,
    quality: q.wantsQuality,
  });
  const rows = new Map<string, MetricRow>();
  for (const cell of table.list()) {
    if (!matches(cell.client, q.filters)) continue;
    const [intervalStart, intervalEnd] = kind
      ? [intervalStartDay(cell.day, kind).start, intervalEndDay(intervalStartDay(cell.day, kind), kind).start - 1]
      : [firstDay.start, lastDay.end - 1];
    const group: Partial<ClientInfo> = {};
    for (const d of groupBy) Object.assign(group, { [d]: cell.client[d] });
    const key = `${intervalStart}|${JSON.stringify(DIMENSION_ORDER.map((d) => group[d]))}`;
    let row = rows.get(key);
    if (!row) {
      row = { intervalStart, intervalEnd, group, facts: emptyFacts() };
      rows.set(key, row);
    }
    addFacts(row.facts, cell.facts);
  }
  return [...rows.values()].filter((r) => hasData(r.facts)).sort((a, b) => a.intervalStart - b.intervalStart || compareGroups(a.group, b.group));
}

function compareGroups(a: Partial<ClientInfo>, b: Partial<ClientInfo>): number {
  for (const d of DIMENSION_ORDER) {
    const c = compareValues(a[d], b[d]);
    if (c !== 0) return c;
  }
  return 0;
}

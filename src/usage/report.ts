/**
 * Insights metrics → a UsageReport: totals with change against the previous period, participant
 * tiers, top SDKs, a zero-filled daily series, an optional breakdown, top sessions and a note on
 * which days may still be incomplete. Pure: no clock, no network. Figures stay unrounded here;
 * format.ts rounds them for display.
 */
import type { GroupBy, Metric, ParticipantBucket, ParticipantMinutes, SessionSummary } from '../api/insights';
import { change, formatNumber, type Change } from './format';
import { REGION_NAMES } from './region-names';
import { eachDay, pacificDate, pacificMidnight, shiftDate, shortDay, describeRange, type DateRange, type IsoDate } from './ranges';
import { addBuckets, bestPartition, bucketLabel, emptyBuckets, sumBuckets } from './tiers';

export type BreakdownBy = 'sdk' | 'country' | 'browser';
export const BREAKDOWNS: readonly BreakdownBy[] = ['sdk', 'country', 'browser'];

export const BREAKDOWN_GROUP_BY: Readonly<Record<BreakdownBy, GroupBy>> = { sdk: 'SDK_TYPE', country: 'COUNTRY', browser: 'BROWSER' };
const BREAKDOWN_FIELD = { sdk: 'sdkType', country: 'country', browser: 'browser' } as const;
const BREAKDOWN_TITLE: Readonly<Record<BreakdownBy, string>> = { sdk: 'By SDK', country: 'By country', browser: 'By browser' };

/** Insights publishes a day's aggregates 36–48 h after the day ends. */
export const AGGREGATE_LATENCY_MS = 48 * 3_600_000;

export type SessionsInput =
  | {
      status: 'ok';
      summaries: readonly SessionSummary[];
      /** The part of the range per-session data still covers. */
      coverage: DateRange;
      /** Reading stopped before the last page: the ranking covers the sessions read. */
      truncated?: boolean;
    }
  | { status: 'unavailable'; reason: string };

export interface ReportInput {
  range: DateRange;
  previous: DateRange | null;
  /** Daily, ungrouped metrics covering `range` and, when given, `previous`; each metric counts in
   * the period its Pacific day falls in. */
  metrics: readonly Metric[];
  /** Daily metrics grouped by SDK type over `range`. */
  sdkMetrics?: readonly Metric[];
  breakdown?: { by: BreakdownBy; metrics: readonly Metric[] };
  sessions?: SessionsInput;
  /** Notes from parsing the range, shown with the report. */
  notes?: readonly string[];
  now: number;
  limits?: { sdks?: number; breakdownRows?: number; sessions?: number };
}

export interface Total {
  minutes: number;
  /** Same figure over the previous period; null without a comparison. */
  previous: number | null;
  change: Change;
}

export interface TierRow {
  bucket: ParticipantBucket;
  label: string;
  minutes: number;
  share: number;
}

export interface ShareRow {
  key: string;
  label: string;
  minutes: number;
  share: number;
}

export interface DailyRow {
  date: IsoDate;
  published: number;
  subscribed: number;
  participant: number | null;
  /** The day's aggregates may not be final yet. */
  partial: boolean;
}

export interface BreakdownRow extends ShareRow {
  published: number;
  subscribed: number;
  /** null where Insights cannot split participant minutes this way (SDK, browser). */
  participant: number | null;
}

export interface Breakdown {
  by: BreakdownBy;
  title: string;
  /** Ranked by streamed (published + subscribed) minutes. */
  rows: BreakdownRow[];
}

export interface SessionRow {
  sessionId: string;
  participantMinutes: number;
  publisherMinutes: number;
  subscriberMinutes: number;
  meetings: number;
  maxConcurrentStreams: number;
  totalConnections: number;
}

export type TopSessions = { status: 'ok'; rows: SessionRow[]; sessionCount: number; note: string | null } | { status: 'unavailable'; reason: string };

export interface Freshness {
  incompleteDays: IsoDate[];
  note: string;
}

export interface UsageReport {
  range: DateRange;
  /** "Mon 26 Oct – Sun 1 Nov 2026" */
  description: string;
  previous: DateRange | null;
  totals: {
    published: Total;
    subscribed: Total;
    /** published + subscribed */
    streamed: Total;
    /** null when Insights gave no participant minutes. */
    participant: Total | null;
  };
  /** Non-zero participant tiers, in publisher order. */
  tiers: TierRow[];
  topSdks: ShareRow[];
  daily: DailyRow[];
  breakdown: Breakdown | null;
  topSessions: TopSessions | null;
  freshness: Freshness;
  notes: string[];
}

const DAY_MS = 86_400_000;

/**
 * The Pacific day a daily metric belongs to. Read at noon of the interval so that a start given
 * at 00:00 Pacific and one given at 00:00 UTC of the same calendar day both land on that day.
 */
export function metricDay(metric: Pick<Metric, 'intervalStart'>): IsoDate | null {
  return metric.intervalStart === null ? null : pacificDate(metric.intervalStart + DAY_MS / 2);
}

const within = (date: IsoDate, range: DateRange) => date >= range.firstDay && date <= range.lastDay;

/** Metrics of one period; undated metrics (no interval) count in the current period only. */
function inPeriod(metrics: readonly Metric[], range: DateRange, isCurrent: boolean): Metric[] {
  return metrics.filter((m) => {
    const date = metricDay(m);
    return date === null ? isCurrent : within(date, range);
  });
}

interface Sums {
  published: number;
  subscribed: number;
  buckets: ParticipantMinutes | null;
}

function sum(metrics: readonly Metric[]): Sums {
  let buckets: ParticipantMinutes | null = null;
  let published = 0;
  let subscribed = 0;
  for (const m of metrics) {
    published += m.usage.streamedPublishedMinutes;
    subscribed += m.usage.streamedSubscribedMinutes;
    if (m.usage.participantMinutes) buckets = addBuckets(buckets ?? emptyBuckets(), m.usage.participantMinutes);
  }
  return { published, subscribed, buckets };
}

const total = (minutes: number, previous: number | null): Total => ({ minutes, previous, change: change(minutes, previous) });

export function buildUsageReport(input: ReportInput): UsageReport {
  const { range, previous, now } = input;
  const current = inPeriod(input.metrics, range, true);
  const cur = sum(current);
  const prev = previous ? sum(inPeriod(input.metrics, previous, false)) : null;
  // One partition for the whole report, so days, tiers and totals add up to the same figure.
  const partition = cur.buckets ? bestPartition(cur.buckets) : null;
  const participantOf = (s: Sums | null) => (s?.buckets && partition ? sumBuckets(s.buckets, partition) : null);
  const participant = participantOf(cur);
  const freshness = freshnessOf(range, now);

  return {
    range,
    description: describeRange(range),
    previous,
    totals: {
      published: total(cur.published, prev ? prev.published : null),
      subscribed: total(cur.subscribed, prev ? prev.subscribed : null),
      streamed: total(cur.published + cur.subscribed, prev ? prev.published + prev.subscribed : null),
      participant: participant === null ? null : total(participant, prev ? (participantOf(prev) ?? 0) : null),
    },
    tiers: partition && cur.buckets ? tierRows(cur.buckets, partition) : [],
    topSdks: input.sdkMetrics ? topSdks(inPeriod(input.sdkMetrics, range, true), input.limits?.sdks ?? 5) : [],
    daily: dailyRows(current, range, partition, new Set(freshness.incompleteDays)),
    breakdown: input.breakdown
      ? breakdownOf(input.breakdown.by, inPeriod(input.breakdown.metrics, range, true), partition, input.limits?.breakdownRows ?? 10)
      : null,
    topSessions: input.sessions ? topSessions(input.sessions, range, input.limits?.sessions ?? 5) : null,
    freshness,
    notes: [...(input.notes ?? [])],
  };
}

function tierRows(buckets: ParticipantMinutes, partition: readonly ParticipantBucket[]): TierRow[] {
  const all = sumBuckets(buckets, partition);
  return partition
    .filter((b) => buckets[b] > 0)
    .map((bucket) => ({ bucket, label: bucketLabel(bucket), minutes: buckets[bucket], share: all > 0 ? buckets[bucket] / all : 0 }));
}

function dailyRows(metrics: readonly Metric[], range: DateRange, partition: readonly ParticipantBucket[] | null, partial: Set<IsoDate>): DailyRow[] {
  const byDay = new Map<IsoDate, Metric[]>();
  for (const m of metrics) {
    const date = metricDay(m);
    if (date !== null) byDay.set(date, [...(byDay.get(date) ?? []), m]);
  }
  return eachDay(range).map((date) => {
    const s = sum(byDay.get(date) ?? []);
    return {
      date,
      published: s.published,
      subscribed: s.subscribed,
      participant: partition ? (s.buckets ? sumBuckets(s.buckets, partition) : 0) : null,
      partial: partial.has(date),
    };
  });
}

/** Ranked rows; what does not fit in `limit` is folded into one "Other" row. */
function ranked<R extends ShareRow>(rows: R[], limit: number, fold: (rest: R[]) => R): R[] {
  const all = rows.reduce((s, r) => s + r.minutes, 0);
  const sorted = rows
    .filter((r) => r.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes || byText(a.label, b.label))
    .map((r) => ({ ...r, share: all > 0 ? r.minutes / all : 0 }));
  if (sorted.length <= limit) return sorted;
  const rest = sorted.slice(limit - 1);
  const other = fold(rest);
  return [...sorted.slice(0, limit - 1), { ...other, share: all > 0 ? other.minutes / all : 0 }];
}

const otherLabel = (n: number) => `Other (${n})`;

function topSdks(metrics: readonly Metric[], limit: number): ShareRow[] {
  const byKey = new Map<string, number>();
  for (const m of metrics) {
    const key = m.sdkType ?? '';
    byKey.set(key, (byKey.get(key) ?? 0) + m.usage.streamedPublishedMinutes + m.usage.streamedSubscribedMinutes);
  }
  const rows = [...byKey].map(([key, minutes]) => ({ key, label: dimensionLabel('sdk', key), minutes, share: 0 }));
  return ranked(rows, limit, (rest) => ({ key: 'other', label: otherLabel(rest.length), minutes: rest.reduce((s, r) => s + r.minutes, 0), share: 0 }));
}

function breakdownOf(by: BreakdownBy, metrics: readonly Metric[], partition: readonly ParticipantBucket[] | null, limit: number): Breakdown {
  const groups = new Map<string, Metric[]>();
  for (const m of metrics) {
    const key = m[BREAKDOWN_FIELD[by]] ?? '';
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const rows: BreakdownRow[] = [...groups].map(([key, ms]) => {
    const s = sum(ms);
    return {
      key,
      label: dimensionLabel(by, key),
      published: s.published,
      subscribed: s.subscribed,
      participant: s.buckets ? sumBuckets(s.buckets, partition ?? bestPartition(s.buckets)) : null,
      minutes: s.published + s.subscribed,
      share: 0,
    };
  });
  const fold = (rest: BreakdownRow[]): BreakdownRow => ({
    key: 'other',
    label: otherLabel(rest.length),
    published: rest.reduce((s, r) => s + r.published, 0),
    subscribed: rest.reduce((s, r) => s + r.subscribed, 0),
    participant: rest.some((r) => r.participant === null) ? null : rest.reduce((s, r) => s + (r.participant ?? 0), 0),
    minutes: rest.reduce((s, r) => s + r.minutes, 0),
    share: 0,
  });
  return { by, title: BREAKDOWN_TITLE[by], rows: ranked(rows, limit, fold) };
}

function topSessions(input: SessionsInput, range: DateRange, limit: number): TopSessions {
  if (input.status === 'unavailable') return input;
  const rows: SessionRow[] = input.summaries.map((s) => {
    const meetings = s.meetings.resources;
    return {
      sessionId: s.sessionId,
      participantMinutes: meetings.reduce((n, m) => n + m.participantMinutes, 0),
      publisherMinutes: meetings.reduce((n, m) => n + m.publisherMinutes, 0),
      subscriberMinutes: meetings.reduce((n, m) => n + m.subscriberMinutes, 0),
      meetings: s.meetings.totalCount ?? meetings.length,
      maxConcurrentStreams: meetings.reduce((n, m) => Math.max(n, m.maxConcurrentStreams), 0),
      totalConnections: meetings.reduce((n, m) => n + m.totalConnections, 0),
    };
  });
  rows.sort((a, b) => b.participantMinutes - a.participantMinutes || byText(a.sessionId, b.sessionId));
  const partial = input.coverage.firstDay !== range.firstDay || input.coverage.lastDay !== range.lastDay;
  const notes = [
    partial ? `Sessions cover ${describeRange(input.coverage)} only: Insights keeps per-session data for 21 days.` : null,
    input.truncated ? `Ranked from the first ${formatNumber(rows.length)} sessions only.` : null,
  ].filter((n): n is string => n !== null);
  return { status: 'ok', rows: rows.slice(0, limit), sessionCount: rows.length, note: notes.length ? notes.join(' ') : null };
}

/** Days of the range whose aggregates may not be final at `now`. */
export function freshnessOf(range: DateRange, now: number): Freshness {
  const incompleteDays = eachDay(range).filter((d) => pacificMidnight(shiftDate(d, 1)) + AGGREGATE_LATENCY_MS > now);
  const why = 'Insights publishes each day’s totals 36–48 hours after the day ends (Pacific time)';
  if (incompleteDays.length === 0) return { incompleteDays, note: 'All days are final.' };
  if (incompleteDays.length === range.days) {
    return { incompleteDays, note: `Every day of this range may still be incomplete: ${why}.` };
  }
  // At most the last three days of a range that ends today, so naming them stays short.
  return { incompleteDays, note: `Figures for ${joinWords(incompleteDays.map(shortDay))} may still be incomplete: ${why}.` };
}

function joinWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const SDK_LABELS: Readonly<Record<string, string>> = {
  JS: 'JavaScript',
  IOS: 'iOS',
  ANDROID: 'Android',
  MACOS: 'macOS',
  REACT_NATIVE: 'React Native',
};
const BROWSER_LABELS: Readonly<Record<string, string>> = { IE: 'Internet Explorer' };

/** A person's name for an SDK type, country or browser value. */
export function dimensionLabel(by: BreakdownBy, key: string): string {
  if (key === '') return 'Unknown';
  const upper = key.toUpperCase();
  if (by === 'sdk' && SDK_LABELS[upper]) return SDK_LABELS[upper];
  if (by === 'browser' && BROWSER_LABELS[upper]) return BROWSER_LABELS[upper];
  if (by === 'country' && /^[A-Z]{2}$/.test(upper)) {
    const name = REGION_NAMES[upper];
    return name ? `${name} (${upper})` : upper;
  }
  return titleCase(key);
}

/** Ties in the order people read, without ICU's collator (whose first use maps its data into the process for good). */
const byText = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

const titleCase = (s: string) =>
  s
    .toLowerCase()
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

export type ChartMetric = 'participant' | 'streamed';

/** The daily figures to chart: participant minutes when Insights gave them, else streamed minutes. */
export function dailySeries(report: UsageReport, metric?: ChartMetric): { metric: ChartMetric; title: string; points: DailyPoint[] } {
  const chosen: ChartMetric = metric ?? (report.totals.participant ? 'participant' : 'streamed');
  const points = report.daily.map((d) => ({
    date: d.date,
    minutes: chosen === 'participant' ? (d.participant ?? 0) : d.published + d.subscribed,
    partial: d.partial,
  }));
  return { metric: chosen, title: chosen === 'participant' ? 'Participant minutes per day' : 'Streamed minutes per day', points };
}

export interface DailyPoint {
  date: IsoDate;
  minutes: number;
  /** Drawn lighter: the day may still be incomplete. */
  partial?: boolean;
}

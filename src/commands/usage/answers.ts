/**
 * The three questions `/usage` answers — a usage report, the top sessions of a range, one
 * session's details — loaded from Insights through the usage cache. How long an answer is kept:
 * - a report whose days are all final: until the next Pacific midnight (nothing in it can
 *   change before the retention window moves);
 * - a report with days Insights may still fill in (36–48 h latency): one hour, at most until
 *   the next Pacific midnight;
 * - per-session data (about 5 minutes behind real time): five minutes.
 */
import type { Session, SessionSummary } from '../../api/insights';
import type { InsightsSource } from '../../services';
import {
  buildUsageReport,
  dailySeries,
  loadUsageReport,
  pacificDate,
  pacificMidnight,
  renderDailyChart,
  type BreakdownBy,
  type DateRange,
  type ParsedRange,
  type RenderedChart,
  type TopSessions,
  type UsageReport,
} from '../../usage';
import { shiftDate } from '../../usage/ranges';
import type { Cached, UsageCache } from './cache';

export const REPORT_TTL_MS = 3_600_000;
export const SESSION_DATA_TTL_MS = 5 * 60_000;
/** Pages of 500 session summaries read for a top-sessions ranking. */
export const MAX_SUMMARY_PAGES = 20;
export const TOP_SESSIONS = 10;
/** What one session lookup asks for: enough for a working day of a busy meeting. */
export const SESSION_DETAIL_SIZES = { meetings: 10, streams: 50, statsPerStream: 240 } as const;

const nextPacificMidnight = (at: number): number => pacificMidnight(shiftDate(pacificDate(at), 1));

/** A report and its chart, drawn once however often the report is shown. */
export class ReportAnswer {
  #chart: RenderedChart | undefined;

  constructor(
    readonly report: UsageReport,
    readonly projectName: string,
  ) {}

  chart(): RenderedChart {
    if (!this.#chart) {
      const series = dailySeries(this.report);
      this.#chart = renderDailyChart(series.points, { title: series.title, subtitle: `${this.report.description} · ${this.projectName}` });
    }
    return this.#chart;
  }
}

export function reportExpiry(report: UsageReport, fetchedAt: number): number {
  const midnight = nextPacificMidnight(fetchedAt);
  return report.freshness.incompleteDays.length === 0 ? midnight : Math.min(midnight, fetchedAt + REPORT_TTL_MS);
}

export interface ReportQuestion {
  projectName: string;
  parsed: ParsedRange;
  by?: BreakdownBy;
}

const rangeKey = (range: DateRange) => `${range.kind}:${range.firstDay}..${range.lastDay}`;

export function loadReport(cache: UsageCache, source: InsightsSource, q: ReportQuestion, now: number): Promise<Cached<ReportAnswer>> {
  const { range, previous, notes } = q.parsed;
  const key = ['report', q.projectName, rangeKey(range), previous ? rangeKey(previous) : '-', q.by ?? '-'].join('\n');
  return cache.get(key, now, async (fetchedAt) => {
    const report = await loadUsageReport(source, { range, previous, now: fetchedAt, by: q.by, topSessions: false, notes });
    return { value: new ReportAnswer(report, q.projectName), expiresAt: reportExpiry(report, fetchedAt) };
  });
}

/**
 * Sessions with a meeting in `range` (already within the 21 days of per-session data), ranked by
 * participant minutes. Insights failures propagate: without the add-on (1014) there is nothing
 * to show, and the caller explains why.
 */
export type SessionRanking = Extract<TopSessions, { status: 'ok' }>;

export function loadTopSessions(
  cache: UsageCache,
  source: InsightsSource,
  q: { projectName: string; range: DateRange },
  now: number,
): Promise<Cached<SessionRanking>> {
  const key = ['sessions', q.projectName, rangeKey(q.range)].join('\n');
  return cache.get(key, now, async (fetchedAt) => {
    const summaries: SessionSummary[] = [];
    let truncated = false;
    let pages = 0;
    for await (const page of source.sessionSummaries({ start: q.range.start, end: q.range.end }).pages()) {
      summaries.push(...page.items);
      if (++pages >= MAX_SUMMARY_PAGES && page.hasNextPage) {
        truncated = true;
        break;
      }
    }
    // The report builder ranks sessions; no daily metrics are needed for that part.
    const report = buildUsageReport({
      range: q.range,
      previous: null,
      metrics: [],
      sessions: { status: 'ok', summaries, coverage: q.range, truncated },
      now: fetchedAt,
      limits: { sessions: TOP_SESSIONS },
    });
    const top = report.topSessions;
    // Ranked from summaries that were read, the answer is always a ranking.
    if (top?.status !== 'ok') throw new Error('the session ranking was not built');
    return { value: top, expiresAt: fetchedAt + SESSION_DATA_TTL_MS };
  });
}

export function loadSessionDetail(
  cache: UsageCache,
  source: InsightsSource,
  q: { projectName: string; sessionId: string },
  now: number,
): Promise<Cached<Session | undefined>> {
  const key = ['session', q.projectName, q.sessionId].join('\n');
  return cache.get(key, now, async (fetchedAt) => {
    const [session] = await source.sessions([q.sessionId], SESSION_DETAIL_SIZES);
    return { value: session, expiresAt: fetchedAt + SESSION_DATA_TTL_MS };
  });
}

/** Fetches what a usage report needs from Insights, in parallel, and builds it. */
import { collectAll, InsightsError, type CallOptions, type InsightsClient, type SessionSummary } from '../api/insights';
import { clipToRetention, type DateRange } from './ranges';
import { BREAKDOWN_GROUP_BY, buildUsageReport, type BreakdownBy, type SessionsInput, type UsageReport } from './report';

export type UsageSource = Pick<InsightsClient, 'projectUsage' | 'sessionSummaries'>;

export interface UsageRequest {
  range: DateRange;
  previous: DateRange | null;
  now: number;
  by?: BreakdownBy;
  /** Look up top sessions (Advanced Insights); default true. */
  topSessions?: boolean;
  /** Stop reading session summaries after this many pages (of 500 sessions). */
  maxSessionPages?: number;
  notes?: readonly string[];
  signal?: AbortSignal;
}

export async function loadUsageReport(source: UsageSource, request: UsageRequest): Promise<UsageReport> {
  const { range, previous, by } = request;
  const options: CallOptions = { signal: request.signal };
  const daily = (start: number, groupBy?: (typeof BREAKDOWN_GROUP_BY)[BreakdownBy]) =>
    collectAll(source.projectUsage({ start, end: range.end, interval: 'DAILY', groupBy }, options));

  // One read covers the previous period too: the report splits the days.
  const metricsP = daily(previous ? Math.min(previous.start, range.start) : range.start);
  const sdkP = daily(range.start, 'SDK_TYPE');
  const breakdownP = by === undefined ? undefined : by === 'sdk' ? sdkP : daily(range.start, BREAKDOWN_GROUP_BY[by]);
  const sessionsP = request.topSessions === false ? undefined : loadSessions(source, request, options);

  const [metrics, sdkMetrics, breakdownMetrics, sessions] = await Promise.all([metricsP, sdkP, breakdownP, sessionsP]);
  return buildUsageReport({
    range,
    previous,
    metrics,
    sdkMetrics,
    breakdown: by && breakdownMetrics ? { by, metrics: breakdownMetrics } : undefined,
    sessions,
    notes: request.notes,
    now: request.now,
  });
}

async function loadSessions(source: UsageSource, request: UsageRequest, options: CallOptions): Promise<SessionsInput> {
  const coverage = clipToRetention(request.range, request.now, 'sessions');
  if (!coverage) {
    return { status: 'unavailable', reason: 'Top sessions need per-session data, which Insights keeps for 21 days; this range is older.' };
  }
  const maxPages = request.maxSessionPages ?? 20;
  const summaries: SessionSummary[] = [];
  let truncated = false;
  try {
    let pages = 0;
    for await (const page of source.sessionSummaries({ start: coverage.start, end: coverage.end }, options).pages()) {
      summaries.push(...page.items);
      if (++pages >= maxPages && page.hasNextPage) {
        truncated = true;
        break;
      }
    }
  } catch (error) {
    // Top sessions are an extra: without the add-on (1014) or on any Insights failure, the rest
    // of the report still stands, and says why this part is missing.
    if (error instanceof InsightsError && error.code !== 'ABORTED') return { status: 'unavailable', reason: error.message };
    throw error;
  }
  return { status: 'ok', summaries, coverage, truncated };
}

import { InsightsError, paginate, type Metric, type ProjectUsageParams, type SessionSummariesParams, type SessionSummary } from '../../src/api/insights';
import { pacificMidnight, parseRange } from '../../src/usage/ranges';
import { loadUsageReport, type UsageSource } from '../../src/usage/service';
import { dailyMetric } from './metrics';

const NOW = Date.UTC(2026, 10, 4, 18); // Wed 4 Nov 2026

function metric(date: string, published: number, extra: Partial<Metric> = {}): Metric {
  return dailyMetric(date, { streamedPublishedMinutes: published, streamedSubscribedMinutes: 0, participantMinutes: null }, { intervalEnd: null, ...extra });
}

interface FakeSource extends UsageSource {
  usageCalls: ProjectUsageParams[];
  summaryCalls: SessionSummariesParams[];
}

function fakeSource(options: { summaries?: SessionSummary[][]; summariesError?: Error } = {}): FakeSource {
  const usageCalls: ProjectUsageParams[] = [];
  const summaryCalls: SessionSummariesParams[] = [];
  const pages = options.summaries ?? [[]];
  return {
    usageCalls,
    summaryCalls,
    projectUsage(params) {
      usageCalls.push(params);
      return paginate(async () => {
        const items =
          params.groupBy === 'SDK_TYPE'
            ? [metric('2026-10-27', 70, { sdkType: 'JS' }), metric('2026-10-28', 30, { sdkType: 'IOS' })]
            : params.groupBy === 'COUNTRY'
              ? [metric('2026-10-27', 100, { country: 'US' })]
              : [metric('2026-10-20', 50), metric('2026-10-27', 100)];
        return { items, hasNextPage: false, endCursor: null };
      });
    },
    sessionSummaries(params) {
      summaryCalls.push(params);
      return paginate(async (cursor) => {
        if (options.summariesError) throw options.summariesError;
        const index = cursor === undefined ? 0 : Number(cursor);
        const more = index + 1 < pages.length;
        return { items: pages[index]!, hasNextPage: more, endCursor: more ? String(index + 1) : null };
      });
    },
  };
}

function lastWeek() {
  const parsed = parseRange('last week', { now: NOW });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const session = (sessionId: string, participantMinutes: number): SessionSummary => ({
  sessionId,
  meetings: {
    totalCount: 1,
    resources: [
      {
        participantMinutes,
        publisherMinutes: 0,
        subscriberMinutes: 0,
        maxConcurrentStreams: 2,
        maxConcurrentSubscribers: 1,
        totalStreams: 2,
        totalConnections: 2,
      },
    ],
  },
});

describe('loadUsageReport', () => {
  it('reads both periods in one daily query, plus SDKs, the breakdown and sessions', async () => {
    const { range, previous, notes } = lastWeek();
    const source = fakeSource({ summaries: [[session('a', 10), session('b', 90)]] });
    const report = await loadUsageReport(source, { range, previous, now: NOW, by: 'country', notes });

    expect(source.usageCalls).toEqual([
      { start: previous!.start, end: range.end, interval: 'DAILY', groupBy: undefined },
      { start: range.start, end: range.end, interval: 'DAILY', groupBy: 'SDK_TYPE' },
      { start: range.start, end: range.end, interval: 'DAILY', groupBy: 'COUNTRY' },
    ]);
    expect(source.summaryCalls).toEqual([{ start: range.start, end: range.end }]);

    expect(report.totals.published).toEqual({ minutes: 100, previous: 50, change: { kind: 'up', pct: 100 } });
    expect(report.topSdks.map((s) => s.label)).toEqual(['JavaScript', 'iOS']);
    expect(report.breakdown!.rows.map((r) => r.label)).toEqual(['United States (US)']);
    expect(report.topSessions).toMatchObject({ status: 'ok', rows: [{ sessionId: 'b' }, { sessionId: 'a' }] });
  });

  it('reuses the SDK query for a breakdown by SDK', async () => {
    const { range, previous } = lastWeek();
    const source = fakeSource();
    const report = await loadUsageReport(source, { range, previous, now: NOW, by: 'sdk', topSessions: false });
    expect(source.usageCalls).toHaveLength(2);
    expect(source.summaryCalls).toHaveLength(0);
    expect(report.breakdown!.rows.map((r) => [r.label, r.participant])).toEqual([
      ['JavaScript', null],
      ['iOS', null],
    ]);
    expect(report.topSessions).toBeNull();
  });

  it('keeps the report when per-session data needs the add-on', async () => {
    const { range, previous } = lastWeek();
    const addOn = new InsightsError('Per-session data needs the Advanced Insights add-on on this project.', { code: 1014 });
    const report = await loadUsageReport(fakeSource({ summariesError: addOn }), { range, previous, now: NOW });
    expect(report.topSessions).toEqual({ status: 'unavailable', reason: 'Per-session data needs the Advanced Insights add-on on this project.' });
    expect(report.totals.published.minutes).toBe(100);
  });

  it('does not ask for sessions older than 21 days, and clips a range that is partly older', async () => {
    const parsed = parseRange('last month', { now: NOW });
    if (!parsed.ok) throw new Error(parsed.error);
    const source = fakeSource();
    const report = await loadUsageReport(source, { range: parsed.value.range, previous: parsed.value.previous, now: NOW });
    expect(source.summaryCalls).toEqual([{ start: pacificMidnight('2026-10-14'), end: parsed.value.range.end }]);
    expect(report.topSessions).toMatchObject({ note: 'Sessions cover Wed 14 Oct – Sat 31 Oct 2026 only: Insights keeps per-session data for 21 days.' });

    const old = parseRange('2026-09', { now: NOW });
    if (!old.ok) throw new Error(old.error);
    const oldSource = fakeSource();
    const oldReport = await loadUsageReport(oldSource, { range: old.value.range, previous: old.value.previous, now: NOW });
    expect(oldSource.summaryCalls).toHaveLength(0);
    expect(oldReport.topSessions).toMatchObject({ status: 'unavailable' });
  });

  it('stops reading session summaries after the page cap and says so', async () => {
    const { range, previous } = lastWeek();
    const pages = [[session('a', 1)], [session('b', 2)], [session('c', 3)]];
    const report = await loadUsageReport(fakeSource({ summaries: pages }), { range, previous, now: NOW, maxSessionPages: 2 });
    expect(report.topSessions).toMatchObject({ status: 'ok', sessionCount: 2, note: 'Ranked from the first 2 sessions only.' });
  });

  it('lets other failures through', async () => {
    const { range, previous } = lastWeek();
    const source = fakeSource();
    source.projectUsage = () =>
      paginate(async () => {
        throw new InsightsError('Insights is unavailable right now (HTTP 503). Try again in a few minutes.', { code: 'HTTP_ERROR', status: 503 });
      });
    await expect(loadUsageReport(source, { range, previous, now: NOW, topSessions: false })).rejects.toMatchObject({ status: 503 });
  });
});

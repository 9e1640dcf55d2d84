import type { Metric, ParticipantMinutes, SessionSummary } from '../../src/api/insights';
import { change, formatChange, formatCompact, formatMinutes, formatShare } from '../../src/usage/format';
import { makeRange, pacificMidnight, parseRange, type DateRange } from '../../src/usage/ranges';
import { buildUsageReport, dailySeries, dimensionLabel, freshnessOf, metricDay, type ReportInput } from '../../src/usage/report';
import { dailyMetric } from './metrics';
import { bestPartition, bucketLabel, emptyBuckets, participantTotal, PARTITIONS } from '../../src/usage/tiers';

const NOW = Date.UTC(2026, 10, 4, 18); // Wed 4 Nov 2026 10:00 PST
const parsed = parseRange('last week', { now: NOW });
if (!parsed.ok) throw new Error(parsed.error);
const WEEK = parsed.value.range; // Mon 26 Oct – Sun 1 Nov 2026
const PREV = parsed.value.previous!;

function buckets(values: Partial<ParticipantMinutes>): ParticipantMinutes {
  return { ...emptyBuckets(), ...values };
}

function metric(date: string, published: number, subscribed: number, participant: Partial<ParticipantMinutes> | null, extra: Partial<Metric> = {}): Metric {
  return dailyMetric(
    date,
    { streamedPublishedMinutes: published, streamedSubscribedMinutes: subscribed, participantMinutes: participant && buckets(participant) },
    extra,
  );
}

function summary(sessionId: string, meetings: { participantMinutes: number; maxConcurrentStreams?: number }[]): SessionSummary {
  return {
    sessionId,
    meetings: {
      totalCount: meetings.length,
      resources: meetings.map((m) => ({
        maxConcurrentStreams: m.maxConcurrentStreams ?? 2,
        maxConcurrentSubscribers: 2,
        totalStreams: 2,
        totalConnections: 3,
        publisherMinutes: m.participantMinutes / 2,
        subscriberMinutes: m.participantMinutes / 2,
        participantMinutes: m.participantMinutes,
      })),
    },
  };
}

const input = (overrides: Partial<ReportInput> = {}): ReportInput => ({ range: WEEK, previous: PREV, metrics: [], now: NOW, ...overrides });

describe('buildUsageReport', () => {
  const metrics = [
    metric('2026-10-26', 100, 300, { from1To2Publishers: 200, from3To6Publishers: 100 }),
    metric('2026-10-28', 250.4, 500, { from1To2Publishers: 400 }),
    metric('2026-11-01', 349.6, 200, { from1To2Publishers: 100, from7To8Publishers: 50 }),
    // previous week
    metric('2026-10-20', 500, 0, { from1To2Publishers: 600 }),
    // outside both periods: ignored
    metric('2026-11-02', 9_999, 9_999, { from1To2Publishers: 9_999 }),
  ];

  it('totals the current period and compares with the previous one', () => {
    const report = buildUsageReport(input({ metrics }));
    expect(report.description).toBe('Mon 26 Oct – Sun 1 Nov 2026');
    expect(report.totals.published).toEqual({ minutes: 700, previous: 500, change: { kind: 'up', pct: 40 } });
    expect(report.totals.subscribed).toEqual({ minutes: 1_000, previous: 0, change: { kind: 'new' } });
    expect(report.totals.streamed.minutes).toBe(1_700);
    expect(report.totals.participant).toMatchObject({ minutes: 850, previous: 600 });
    expect(formatChange(report.totals.participant!.change)).toBe('+42%');
  });

  it('zero-fills every Pacific day of the range, across the 25-hour day', () => {
    const report = buildUsageReport(input({ metrics }));
    expect(report.daily.map((d) => d.date)).toEqual(['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01']);
    expect(report.daily.map((d) => d.participant)).toEqual([300, 0, 400, 0, 0, 0, 150]);
    expect(report.daily.reduce((s, d) => s + (d.participant ?? 0), 0)).toBe(report.totals.participant!.minutes);
    expect(report.daily[1]).toEqual({ date: '2026-10-27', published: 0, subscribed: 0, participant: 0, partial: false });
  });

  it('places a day given as 00:00 UTC on that calendar day too', () => {
    expect(metricDay({ intervalStart: Date.UTC(2026, 10, 1) })).toBe('2026-11-01');
    expect(metricDay({ intervalStart: pacificMidnight('2026-11-01') })).toBe('2026-11-01');
    expect(metricDay({ intervalStart: null })).toBeNull();
  });

  it('lists non-zero participant tiers with human labels', () => {
    const report = buildUsageReport(input({ metrics }));
    expect(report.tiers.map((t) => [t.label, t.minutes])).toEqual([
      ['1–2 publishers', 700],
      ['3–6 publishers', 100],
      ['7–8 publishers', 50],
    ]);
    expect(report.tiers.reduce((s, t) => s + t.share, 0)).toBeCloseTo(1);
  });

  it('has no participant total when Insights gave none, and charts streamed minutes instead', () => {
    const report = buildUsageReport(input({ metrics: [metric('2026-10-27', 10, 20, null)] }));
    expect(report.totals.participant).toBeNull();
    expect(report.tiers).toEqual([]);
    expect(report.daily[1]!.participant).toBeNull();
    const series = dailySeries(report);
    expect(series.metric).toBe('streamed');
    expect(series.points[1]).toEqual({ date: '2026-10-27', minutes: 30, partial: false });
    expect(dailySeries(buildUsageReport(input({ metrics }))).title).toBe('Participant minutes per day');
  });

  it('says "none" for change without a previous period', () => {
    const report = buildUsageReport(input({ previous: null, metrics }));
    expect(report.totals.published.change).toEqual({ kind: 'none' });
    expect(formatChange(report.totals.published.change)).toBe('');
  });

  it('ranks SDK types and folds the tail into Other', () => {
    const sdk = (sdkType: string, minutes: number) => metric('2026-10-27', minutes, 0, null, { sdkType });
    const report = buildUsageReport(
      input({
        metrics,
        sdkMetrics: [sdk('JS', 500), sdk('IOS', 300), sdk('JS', 100), sdk('ANDROID', 200), sdk('WINDOWS', 50), sdk('LINUX', 30), sdk('MACOS', 20)],
      }),
    );
    expect(report.topSdks.map((r) => [r.label, r.minutes])).toEqual([
      ['JavaScript', 600],
      ['iOS', 300],
      ['Android', 200],
      ['Windows', 50],
      ['Other (2)', 50],
    ]);
    expect(report.topSdks[0]!.share).toBeCloseTo(0.5);
  });

  it('breaks usage down by country with names, and keeps participant minutes there', () => {
    const c = (country: string | null, pub: number) => metric('2026-10-28', pub, pub, { from1To2Publishers: pub }, { country });
    const report = buildUsageReport(input({ metrics, breakdown: { by: 'country', metrics: [c('US', 300), c('FR', 100), c('US', 100), c(null, 50)] } }));
    expect(report.breakdown!.title).toBe('By country');
    expect(report.breakdown!.rows.map((r) => [r.label, r.minutes, r.participant])).toEqual([
      ['United States (US)', 800, 400],
      ['France (FR)', 200, 100],
      ['Unknown', 100, 50],
    ]);
  });

  it('breaks usage down by SDK or browser without participant minutes', () => {
    const b = (browser: string, pub: number) => metric('2026-10-28', pub, 0, null, { browser });
    const report = buildUsageReport(input({ metrics, breakdown: { by: 'browser', metrics: [b('CHROME', 30), b('IE', 10)] } }));
    expect(report.breakdown!.rows.map((r) => [r.label, r.participant])).toEqual([
      ['Chrome', null],
      ['Internet Explorer', null],
    ]);
  });

  it('ranks top sessions by participant minutes, summing their meetings', () => {
    const report = buildUsageReport(
      input({
        metrics,
        sessions: {
          status: 'ok',
          coverage: WEEK,
          summaries: [
            summary('small', [{ participantMinutes: 10 }]),
            summary('big', [{ participantMinutes: 300, maxConcurrentStreams: 9 }, { participantMinutes: 200 }]),
            summary('mid', [{ participantMinutes: 120 }]),
          ],
        },
        limits: { sessions: 2 },
      }),
    );
    expect(report.topSessions).toEqual({
      status: 'ok',
      sessionCount: 3,
      note: null,
      rows: [
        { sessionId: 'big', participantMinutes: 500, publisherMinutes: 250, subscriberMinutes: 250, meetings: 2, maxConcurrentStreams: 9, totalConnections: 6 },
        { sessionId: 'mid', participantMinutes: 120, publisherMinutes: 60, subscriberMinutes: 60, meetings: 1, maxConcurrentStreams: 2, totalConnections: 3 },
      ],
    });
  });

  it('says when top sessions cover part of the range or are unavailable', () => {
    const coverage = makeRange('2026-10-28', '2026-11-01', 'custom', 'x');
    const partial = buildUsageReport(input({ sessions: { status: 'ok', coverage, summaries: [], truncated: true } }));
    expect(partial.topSessions).toMatchObject({
      status: 'ok',
      note: 'Sessions cover Wed 28 Oct – Sun 1 Nov 2026 only: Insights keeps per-session data for 21 days. Ranked from the first 0 sessions only.',
    });
    const reason = 'Per-session data needs the Advanced Insights add-on on this project.';
    expect(buildUsageReport(input({ sessions: { status: 'unavailable', reason } })).topSessions).toEqual({ status: 'unavailable', reason });
    expect(buildUsageReport(input()).topSessions).toBeNull();
  });

  it('keeps the notes from the range parser', () => {
    expect(buildUsageReport(input({ notes: ['clamped'] })).notes).toEqual(['clamped']);
  });
});

describe('freshness', () => {
  const range = (first: string, last: string): DateRange => makeRange(first, last, 'custom', 'x');

  it('calls days final once 48 h have passed since they ended', () => {
    expect(freshnessOf(WEEK, NOW)).toEqual({ incompleteDays: [], note: 'All days are final.' });
  });

  it('names the days that may still be incomplete', () => {
    const f = freshnessOf(range('2026-10-28', '2026-11-03'), NOW);
    expect(f.incompleteDays).toEqual(['2026-11-02', '2026-11-03']);
    expect(f.note).toBe(
      'Figures for Mon 2 Nov and Tue 3 Nov may still be incomplete: Insights publishes each day’s totals 36–48 hours after the day ends (Pacific time).',
    );
    const report = buildUsageReport({ range: range('2026-10-28', '2026-11-03'), previous: null, metrics: [], now: NOW });
    expect(report.daily.filter((d) => d.partial).map((d) => d.date)).toEqual(['2026-11-02', '2026-11-03']);
  });

  it('lists up to three recent days, or says the whole range is recent', () => {
    expect(freshnessOf(range('2026-10-01', '2026-11-04'), NOW).note).toMatch(/^Figures for Mon 2 Nov, Tue 3 Nov and Wed 4 Nov may still be incomplete/);
    expect(freshnessOf(range('2026-11-02', '2026-11-04'), NOW).note).toMatch(/^Every day of this range may still be incomplete/);
  });
});

describe('participant tiers', () => {
  it('finds every non-overlapping cover of 1..∞ publishers', () => {
    expect(PARTITIONS.length).toBeGreaterThan(5);
    for (const p of PARTITIONS) {
      const spans = p.map((b) => /^from(\d+)(?:To(\d+)|Plus)Publishers$/.exec(b)!);
      expect(Number(spans[0]![1])).toBe(1);
      expect(spans.at(-1)![2]).toBeUndefined();
      for (let i = 1; i < spans.length; i++) expect(Number(spans[i]![1])).toBe(Number(spans[i - 1]![2]) + 1);
    }
  });

  it('counts each minute once when the service fills overlapping schemes', () => {
    // 100 minutes with 1–2 publishers, 50 with 5 publishers, 30 with 12: every bucket that covers them.
    const all = buckets({
      from1To2Publishers: 100,
      from3To6Publishers: 50,
      from1To4Publishers: 100,
      from5To8Publishers: 50,
      from1To8Publishers: 150,
      from1To10Publishers: 150,
      from11To35Publishers: 30,
      from11To20Publishers: 30,
      from1To25Publishers: 180,
      from3To25Publishers: 80,
    });
    expect(participantTotal(all)).toBe(180);
    const labels = bestPartition(all)
      .filter((b) => all[b] > 0)
      .map(bucketLabel);
    expect(labels).toEqual(['1–2 publishers', '3–6 publishers', '11–35 publishers']);
  });

  it('reads whichever scheme the service filled', () => {
    expect(participantTotal(buckets({ from1To4Publishers: 80, from5To8Publishers: 20, from41PlusPublishers: 5 }))).toBe(105);
    expect(participantTotal(buckets({ from1To25Publishers: 70, from26To35Publishers: 10 }))).toBe(80);
    expect(bucketLabel('from36PlusPublishers')).toBe('36+ publishers');
  });
});

describe('formatting', () => {
  it.each([
    [12_345, '12,345 min'],
    [12_345.5, '12,346 min'],
    [0, '0 min'],
    [0.2, '<1 min'],
    [0.6, '1 min'],
  ])('formatMinutes(%p) = %s', (n, s) => expect(formatMinutes(n)).toBe(s));

  it.each([
    [0, '0'],
    [999, '999'],
    [1_234, '1.2k'],
    [12_345, '12.3k'],
    [123_456, '123k'],
    [999_999, '1M'],
    [2_500_000, '2.5M'],
    [-1_500, '-1.5k'],
  ])('formatCompact(%p) = %s', (n, s) => expect(formatCompact(n)).toBe(s));

  it('formats shares and changes', () => {
    expect(formatShare(0.423)).toBe('42%');
    expect(formatShare(0.001)).toBe('<1%');
    expect(formatChange(change(112, 100))).toBe('+12%');
    expect(formatChange(change(95, 100))).toBe('−5%');
    expect(formatChange(change(103.4, 100))).toBe('+3%');
    expect(formatChange(change(1_034, 1_000))).toBe('+3.4%');
    expect(formatChange(change(5, 0))).toBe('new');
    expect(formatChange(change(0, 0))).toBe('no change');
    expect(formatChange(change(100.2, 100))).toBe('no change');
    expect(formatChange(change(0, 40))).toBe('−100%');
    expect(formatChange(change(5, null))).toBe('');
  });

  it('labels dimension values for people', () => {
    expect(dimensionLabel('sdk', 'REACT_NATIVE')).toBe('React Native');
    expect(dimensionLabel('sdk', 'WINDOWS')).toBe('Windows');
    expect(dimensionLabel('country', 'DE')).toBe('Germany (DE)');
    expect(dimensionLabel('browser', '')).toBe('Unknown');
  });
});

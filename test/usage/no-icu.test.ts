/**
 * The usage report, from the words typed to the message and the chart's SVG, without ICU: its
 * first use maps ~10 MB into the process for good (bench/README.md), so every formatter,
 * collator and time zone lookup it offers is made to throw here.
 */
import type { Metric, SessionSummary } from '../../src/api/insights';
import { dailyChartSvg, textBars } from '../../src/usage/chart';
import { parseRange, RANGE_FORMATS } from '../../src/usage/ranges';
import { buildUsageReport, dailySeries } from '../../src/usage/report';
import { emptyBuckets } from '../../src/usage/tiers';
import { usageReportMessage } from '../../src/views/usage-report';
import { topSessionsMessage } from '../../src/views/usage-report-sessions';
import { dailyMetric } from './metrics';

const NOW = Date.UTC(2026, 10, 4, 18);

function icuTouched(what: string): never {
  throw new Error(`ICU touched: ${what}`);
}

beforeEach(() => {
  for (const name of ['NumberFormat', 'DateTimeFormat', 'DisplayNames', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter'] as const) {
    jest.spyOn(Intl, name).mockImplementation(() => icuTouched(`Intl.${name}`));
  }
  jest.spyOn(Number.prototype, 'toLocaleString').mockImplementation(() => icuTouched('Number#toLocaleString'));
  jest.spyOn(String.prototype, 'localeCompare').mockImplementation(() => icuTouched('String#localeCompare'));
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'] as const) {
    jest.spyOn(Date.prototype, name).mockImplementation(() => icuTouched(`Date#${name}`));
  }
});

afterEach(() => jest.restoreAllMocks());

const metric = (date: string, minutes: number, extra: Partial<Metric> = {}): Metric =>
  dailyMetric(
    date,
    { streamedPublishedMinutes: minutes, streamedSubscribedMinutes: minutes * 2, participantMinutes: { ...emptyBuckets(), from1To2Publishers: minutes * 3 } },
    extra,
  );

const summary = (sessionId: string, participantMinutes: number): SessionSummary => ({
  sessionId,
  meetings: {
    totalCount: 1,
    resources: [
      {
        maxConcurrentStreams: 2,
        maxConcurrentSubscribers: 2,
        totalStreams: 2,
        totalConnections: 3,
        publisherMinutes: 1,
        subscriberMinutes: 1,
        participantMinutes,
      },
    ],
  },
});

describe('the usage report without ICU', () => {
  it('reads every range format it lists, across a daylight saving change', () => {
    const examples: Record<(typeof RANGE_FORMATS)[number], string> = {
      'last week': 'last week',
      'this week': 'this week',
      'this month': 'this month',
      month: 'month',
      'last month': 'last month',
      'last 30 days': 'last 30 days',
      'last N days': 'last 12 days',
      '7d': '7d',
      '30d': '30d',
      yesterday: 'yesterday',
      'YYYY-MM-DD..YYYY-MM-DD': '2026-10-20..2026-11-02',
      'YYYY-MM': '2026-10',
      'YYYY-MM-DD': '2026-11-01',
    };
    for (const text of Object.values(examples)) expect(parseRange(text, { now: NOW })).toMatchObject({ ok: true });
    expect(parseRange('2026-13-01', { now: NOW })).toMatchObject({ ok: false });
  });

  it('builds, words and draws a month of usage with countries, SDKs and top sessions', () => {
    const parsed = parseRange('last 30 days', { now: NOW });
    if (!parsed.ok) throw new Error(parsed.error);
    const { range, previous } = parsed.value;
    const days = ['2026-10-06', '2026-10-20', '2026-11-01', '2026-11-03'];
    const report = buildUsageReport({
      range,
      previous,
      metrics: days.map((d, i) => metric(d, 1_234.5 * (i + 1))),
      sdkMetrics: [metric('2026-10-20', 900, { sdkType: 'JS' }), metric('2026-10-21', 300, { sdkType: 'IOS' })],
      breakdown: {
        by: 'country',
        metrics: [metric('2026-10-20', 500, { country: 'CI' }), metric('2026-10-20', 500, { country: 'TR' }), metric('2026-10-21', 90, { country: 'US' })],
      },
      sessions: { status: 'ok', coverage: range, summaries: [summary('2_MX4b', 12_345), summary('2_MX4a', 12_345), summary('1_MX4c', 10)] },
      now: NOW,
    });
    expect(report.breakdown!.rows.map((r) => r.label)).toEqual(['Côte d’Ivoire (CI)', 'Türkiye (TR)', 'United States (US)']);
    const message = JSON.stringify(usageReportMessage(report, { projectName: 'default', fetchedAt: NOW, now: NOW, cached: false }, 'text'));
    expect(message).toContain('Côte d’Ivoire (CI)');
    const top = report.topSessions!;
    if (top.status !== 'ok') throw new Error('no top sessions');
    expect(top.rows.map((r) => r.sessionId)).toEqual(['2_MX4a', '2_MX4b', '1_MX4c']);
    expect(JSON.stringify(topSessionsMessage(top, range, { projectName: 'default', fetchedAt: NOW, now: NOW, cached: false }))).toContain('12,345 min');
    const series = dailySeries(report);
    expect(dailyChartSvg(series.points, { title: series.title })).toContain('<svg');
    expect(textBars(series.points)).toContain('14,814');
  });
});

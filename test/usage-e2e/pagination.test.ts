/**
 * Pagination end to end: the app's Insights clients ask for small pages (3 metrics, 2 session
 * summaries), so every answer spans several pages; the figures must not change.
 */
import { CHANNEL, startTestApp, testInsightsFactory, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { KNOWN_WEEK, WEEK_FINAL, advanceTo, graphqlRequests, postedReportWithChart, seedKnownWeek } from './fixtures';

const PAGE = { metrics: 3, summaries: 2 };

describe('/usage over several pages of Insights results', () => {
  let t: TestApp;
  const pages: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      useEmulatorClock: true,
      insightsFactory: (project, url) => {
        const client = testInsightsFactory(project, url);
        return {
          projectUsage: (params, options) => {
            pages.push(`projectUsage ${params.groupBy ?? 'none'}`);
            return client.projectUsage({ ...params, first: PAGE.metrics }, options);
          },
          sessionSummaries: (params, options) => client.sessionSummaries({ ...params, first: PAGE.summaries }, options),
          sessions: (ids, sizes, options) => client.sessions(ids, sizes, options),
        };
      },
    });
    seedKnownWeek(t);
    t.emulator.control.setAdvancedInsights(t.project.apiKey, true);
    advanceTo(t, WEEK_FINAL);
  });
  afterAll(() => t.close());

  it('reads every page of daily and per-SDK metrics and reports the exact week', async () => {
    const before = graphqlRequests(t);
    const since = t.slack.mark();
    await t.slash('/usage', 'last week --by country');
    const { call } = await postedReportWithChart(t, CHANNEL, since);
    const text = renderedText(call.body.blocks);
    expect(text).toContain(`*Participant minutes*\n*${KNOWN_WEEK.participant} min*`);
    expect(text).toContain(`*Published minutes*\n*${KNOWN_WEEK.published} min*`);
    for (const sdk of ['Android', 'iOS', 'JavaScript']) expect(text).toContain(`• ${sdk} — ${KNOWN_WEEK.perSdk} min (33%)`);
    for (const country of ['Brazil (BR)', 'United States (US)', 'France (FR)']) expect(text).toContain(`• ${country} — ${KNOWN_WEEK.perSdk} min streamed`);
    // 7 days with data over two weeks: 3 pages; 7 days × 3 SDKs: 7 pages; × 3 countries: 7 pages.
    expect(pages).toEqual(['projectUsage none', 'projectUsage SDK_TYPE', 'projectUsage COUNTRY']);
    expect(graphqlRequests(t) - before).toBe(3 + 7 + 7);
  });

  it('reads every page of session summaries for the top sessions', async () => {
    const before = graphqlRequests(t);
    const res = await t.slash('/usage', 'sessions 7d --private');
    const text = renderedText((await res.waitForResponse()).body);
    expect(text).toContain('6 sessions had a meeting in this range.');
    expect(text.match(/— \*60 min\* participant/g)).toHaveLength(6);
    // 6 sessions, 2 per page.
    expect(graphqlRequests(t) - before).toBe(3);
  });
});

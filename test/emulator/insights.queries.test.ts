import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codes, DAY, InsightsHarness, REFERENCE_DIR, referenceQueries } from './insights-helpers';

/** The reference queries, the synthetic history, argument rules and their error codes. */

const BUCKETS =
  'from1To2Publishers from3To6Publishers from7To8Publishers from1To4Publishers from5To8Publishers from1To8Publishers from1To10Publishers from9To10Publishers from11To35Publishers from11To20Publishers from21To35Publishers from36To40Publishers from36PlusPublishers from41PlusPublishers from1To25Publishers from3To25Publishers from26To35Publishers';

/** The key paths of a JSON value (array items merged): what a client reading it relies on. */
function shape(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => shape(v, `${prefix}[]`)))].sort();
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .flatMap(([k, v]) => [`${prefix}.${k}`, ...shape(v, `${prefix}.${k}`)])
      .sort();
  }
  return [];
}

describe('Insights queries', () => {
  let h: InsightsHarness;
  let now: number;
  const tenDaysAgo = () => String(now - 10 * DAY);

  beforeAll(async () => {
    h = await InsightsHarness.start({ syntheticHistory: true });
    now = h.control.now();
  });
  afterAll(() => h.close());

  describe('reference queries (dashboard sample and blog), placeholders filled in', () => {
    const queries = referenceQueries();
    const byName = (name: string) => {
      const found = queries.find((q) => q.name === name);
      if (!found) throw new Error(`no reference query ${name}`);
      return found.text;
    };

    /** Fills the dashboard's `${...}` template placeholders and the blog's prose ones. */
    function fill(text: string, values: { sessionIds?: string[]; endCursor?: string } = {}): string {
      return text
        .replaceAll('${apiKey}', h.apiKey)
        .replace(/\$\{moment\(\)\.subtract\(10, 'days'\)\}/g, tenDaysAgo())
        .replaceAll('${moment(startDate)}', String(now - 30 * DAY))
        .replaceAll('${moment(endDate)}', String(now))
        .replaceAll('${formattedPPM}', BUCKETS.split(' ').join('\n'))
        .replaceAll('${endCursor}', values.endCursor ?? '')
        .replaceAll('${sessionIds}', (values.sessionIds ?? []).map((id) => JSON.stringify(id)).join(','))
        .replaceAll('Your API Key Here', h.apiKey)
        .replaceAll('"Your Session ID Here"', JSON.stringify(values.sessionIds?.[0] ?? ''))
        .replaceAll('Your timestamp here', String(Math.floor((now - 10 * DAY) / 1000)));
    }

    async function run(text: string) {
      expect(text).not.toMatch(/\$\{|Your /);
      const res = await h.query(text);
      expect(res.json.errors).toBeUndefined();
      expect(res.status).toBe(200);
      return res.json.data.project;
    }

    let sessionIds: string[] = [];

    it('finds ten days of sessions (VideoStats #0, UsageBySession #0 with endCursor pages)', async () => {
      const summaries = (await run(fill(byName('dashboard-sample.VideoStats.0.graphql')))).sessionData.sessionSummaries;
      expect(summaries.totalCount).toBeGreaterThan(5);
      sessionIds = summaries.resources.map((r: { sessionId: string }) => r.sessionId);
      expect(sessionIds).toHaveLength(summaries.totalCount);
      const first = (await run(fill(byName('dashboard-sample.UsageBySession.0.graphql')))).sessionData.sessionSummaries;
      expect(first.resources.map((r: { sessionId: string }) => r.sessionId)).toEqual(sessionIds);
      const next = (await run(fill(byName('dashboard-sample.UsageBySession.0.graphql'), { endCursor: first.pageInfo.endCursor }))).sessionData.sessionSummaries;
      expect(next.resources).toEqual([]);
    });

    it('answers per-session minutes and publisher bitrates (UsageBySession #1, VideoStats #1)', async () => {
      const ids = sessionIds.slice(0, 3);
      const usage = (await run(fill(byName('dashboard-sample.UsageBySession.1.graphql'), { sessionIds: ids }))).sessionData.sessions.resources;
      expect(usage.map((s: { sessionId: string }) => s.sessionId)).toEqual(ids);
      for (const s of usage) {
        expect(s.publisherMinutes).toBeGreaterThan(0);
        expect(s.meetings.totalCount).toBeGreaterThanOrEqual(1);
      }
      const stats = (await run(fill(byName('dashboard-sample.VideoStats.1.graphql'), { sessionIds: ids }))).sessionData.sessions.resources;
      const publishers = stats.flatMap((s: any) => s.meetings.resources.flatMap((m: any) => m.publishers.resources));
      expect(publishers.length).toBeGreaterThan(0);
      expect(publishers[0].streamStatsCollection.resources.length).toBeGreaterThan(10);
    });

    it.each([
      ['dashboard-sample.UsageByDay.0.graphql', 'intervalStart'],
      ['dashboard-sample.SdkDistribution.0.graphql', 'sdkType'],
      ['dashboard-sample.BitrateByCountry.0.graphql', 'country'],
      ['dashboard-sample.FailuresByBrowser.0.graphql', 'browser'],
      ['dashboard-sample.UsageByParticipantTier.0.graphql', 'intervalStart'],
    ])('runs %s', async (name, key) => {
      const resources = (await run(fill(byName(name)))).projectData.resources;
      expect(resources.length).toBeGreaterThan(0);
      for (const r of resources) expect(r[key]).not.toBeNull();
    });

    it('groups and filters the way the dashboard charts expect', async () => {
      const sdk = (await run(fill(byName('dashboard-sample.SdkDistribution.0.graphql')))).projectData.resources;
      expect(sdk.map((r: { sdkType: string }) => r.sdkType)).toEqual(['ANDROID', 'IOS', 'JS']);
      const countries = (await run(fill(byName('dashboard-sample.BitrateByCountry.0.graphql')))).projectData.resources;
      for (const c of countries) {
        expect(['AR', 'BR', 'ES', 'FR', 'MX', 'US']).toContain(c.country);
        expect(c.quality.subscriber.videoBitrateKbpsAvg).toBeGreaterThan(100);
      }
      const browsers = (await run(fill(byName('dashboard-sample.FailuresByBrowser.0.graphql')))).projectData.resources;
      for (const b of browsers) {
        expect(['CHROME', 'FIREFOX', 'IE']).toContain(b.browser);
        expect(Number.isInteger(b.errors.connect.failures)).toBe(true);
      }
      const days = (await run(fill(byName('dashboard-sample.UsageByDay.0.graphql')))).projectData.resources;
      expect(days.length).toBeGreaterThanOrEqual(6);
      expect(days.length).toBeLessThanOrEqual(9);
      const tiers = (await run(fill(byName('dashboard-sample.UsageByParticipantTier.0.graphql')))).projectData.resources;
      expect(Object.keys(tiers[0].usage.participantMinutes)).toHaveLength(17);
    });

    it('answers the blog queries (projectId as an integer) in the shape of the blog responses', async () => {
      const blogResponse = (name: string) => JSON.parse(readFileSync(join(REFERENCE_DIR, name), 'utf8'));
      const summaries = await h.query(fill(byName('blog.sessionSummaries.query.graphql')));
      expect(summaries.status).toBe(200);
      expect(shape(summaries.json)).toEqual(shape(blogResponse('blog.sessionSummaries.response.json')));
      const bitrate = await h.query(fill(byName('blog.publisherBitrate.query.graphql'), { sessionIds }));
      expect(bitrate.status).toBe(200);
      expect(shape(bitrate.json)).toEqual(shape(blogResponse('blog.publisherBitrate.response.json')));
      const sample =
        bitrate.json.data.project.sessionData.sessions.resources[0].meetings.resources[0].publishers.resources[0].streamStatsCollection.resources[0];
      expect(sample.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });
  });

  describe('synthetic history', () => {
    it('covers the 90 days before the project was created: weekdays always, JS / Android / iOS, several countries', async () => {
      const res = await h.project(`projectData(start: 0, interval: DAILY, first: 1000) { totalCount resources { intervalStart } }`);
      const starts: string[] = res.json.data.project.projectData.resources.map((r: { intervalStart: string }) => r.intervalStart);
      // Created Monday 2 November 2026 09:00 PST: history from 4 August; Saturday 31 October is not published yet (36 h).
      expect(starts[0]).toBe('2026-08-04T07:00:00.000Z');
      expect(starts[starts.length - 1]).toBe('2026-10-30T07:00:00.000Z');
      const weekdays = starts.map((s) => new Date(Date.parse(s) + 12 * 3_600_000).getUTCDay());
      const weekdayCount = weekdays.filter((d) => d >= 1 && d <= 5).length;
      expect(weekdayCount).toBe(64); // every weekday from Tue 4 Aug to Fri 30 Oct
      const dims = await h.project(`projectData(start: 0, groupBy: [SDK_TYPE, COUNTRY], first: 1000) { resources { sdkType country } }`);
      const rows: Array<{ sdkType: string; country: string }> = dims.json.data.project.projectData.resources;
      expect([...new Set(rows.map((r) => r.sdkType))].sort()).toEqual(['ANDROID', 'IOS', 'JS']);
      expect(new Set(rows.map((r) => r.country)).size).toBeGreaterThanOrEqual(4);
    });

    it('is the same for the same API key on every run, and differs between keys', async () => {
      const a = await InsightsHarness.start({ syntheticHistory: true, apiKey: h.apiKey });
      const b = await InsightsHarness.start({ syntheticHistory: true, apiKey: '48000123' });
      try {
        const truth = h.control.insightsGroundTruth(h.apiKey, { start: 0 });
        expect(truth.length).toBeGreaterThan(60);
        expect(a.control.insightsGroundTruth(a.apiKey, { start: 0 })).toEqual(truth);
        expect(b.control.insightsGroundTruth(b.apiKey, { start: 0 })).not.toEqual(truth);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("can be turned off (in-process or over HTTP) so only the emulator's own sessions count", async () => {
      const other = await InsightsHarness.start({ syntheticHistory: true });
      try {
        expect(other.control.insightsGroundTruth(other.apiKey, { start: 0 }).length).toBeGreaterThan(60);
        const res = await fetch(`${other.emu.baseUrl}/_emulator/projects/${other.apiKey}/insights/synthetic-history`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ enabled: false }),
        });
        expect(res.status).toBe(204);
        expect(other.control.insightsGroundTruth(other.apiKey, { start: 0 })).toEqual([]);
        const empty = await other.project(
          'projectData(start: 0, interval: DAILY) { totalCount pageInfo { hasNextPage endCursor } resources { intervalStart } }',
        );
        expect(empty.json.data.project.projectData).toEqual({ totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null }, resources: [] });
        other.control.setSyntheticHistory(other.apiKey, true);
        expect(other.control.getProject(other.apiKey).insights).toEqual({ advancedInsights: true, syntheticHistory: true });
      } finally {
        await other.close();
      }
    });
  });

  it('pages projectData with first / endCursor: the pages join up to the whole answer', async () => {
    const query = (extra: string) =>
      h.project(
        `projectData(start: 0, interval: WEEKLY, groupBy: SDK_TYPE${extra}) { totalCount pageInfo { hasNextPage endCursor } resources { intervalStart sdkType usage { streamedPublishedMinutes } } }`,
      );
    const whole = (await query(', first: 1000')).json.data.project.projectData;
    expect(whole.totalCount).toBeGreaterThan(25);
    const collected: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor === null ? '' : `, endCursor: "${cursor}"`;
      const page: any = (await query(`, first: 10${after}`)).json.data.project.projectData;
      expect(page.totalCount).toBe(whole.totalCount);
      expect(page.resources.length).toBeLessThanOrEqual(10);
      collected.push(...page.resources);
      pages += 1;
      cursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (cursor !== null);
    expect(pages).toBe(Math.ceil(whole.totalCount / 10));
    expect(collected).toEqual(whole.resources);
  });

  it('accepts variables, projectId as Int or String, and named operations', async () => {
    const text = `query Usage($p: ID!, $s: DateTime!, $e: DateTime) { project(projectId: $p) { projectId projectData(start: $s, end: $e) { totalCount } } }
      query Other { project(projectId: ${h.apiKey}) { projectId } }`;
    const ok = await h.query(text, {
      variables: { p: Number(h.apiKey), s: '2026-10-01', e: now },
      body: JSON.stringify({ query: text, operationName: 'Usage', variables: { p: Number(h.apiKey), s: '2026-10-01', e: now } }),
    });
    expect(ok.status).toBe(200);
    expect(ok.json.data.project).toEqual({ projectId: h.apiKey, projectData: { totalCount: 1 } });
    const other = await h.query(text, { body: JSON.stringify({ query: text, operationName: 'Other' }) });
    expect(other.json.data).toEqual({ project: { projectId: h.apiKey } });
  });

  describe('argument rules and error codes', () => {
    const pd = (args: string) => h.project(`projectData(${args}) { resources { intervalStart } }`);

    it.each([
      ['end before start (1002)', `start: ${now0() - DAY}, end: ${now0() - 2 * DAY}`, 1002],
      ['a range in the future (1002)', `start: ${now0() + DAY}`, 1002],
      ['a range before the 90 days kept (1002)', `start: "2026-01-01", end: "2026-02-01"`, 1002],
      ['two intervals (1003)', 'start: 0, interval: [DAILY, WEEKLY]', 1003],
      ['an unparsable date (1005)', 'start: "yesterday"', 1005],
      ['an impossible date (1005)', 'start: "2026-02-30"', 1005],
      ['a negative timestamp (1005)', 'start: -5', 1005],
      ['a malformed endCursor (1005)', 'start: 0, endCursor: "abc"', 1005],
      ['first out of range (1005)', 'start: 0, first: 0', 1005],
      ['a float timestamp (1006)', 'start: 1790000000.5', 1006],
      ['an SDK version not 0.0.0 (1007)', 'start: 0, sdkVersion: ["2.x"]', 1007],
      ['start missing (1013)', 'end: 0', 1013],
      ['a boolean start (1022)', 'start: true', 1022],
      ['an unknown interval (1022)', 'start: 0, interval: HOURLY', 1022],
      ['an unknown argument (1022)', 'start: 0, colour: "red"', 1022],
    ])('%s', async (_label, args, code) => {
      const res = await pd(args);
      expect(codes(res)).toEqual([code]);
      const error = res.json.errors[0];
      expect(error.extensions.errorCode).toBe(code);
      expect(error.message).toEqual(expect.any(String));
    });

    it('reports field errors with path and locations beside data (200), document errors alone (400)', async () => {
      const fieldError = await pd('start: 0, interval: [DAILY, WEEKLY]');
      expect(fieldError.status).toBe(200);
      expect(fieldError.json).toEqual({
        data: { project: { projectData: null } },
        errors: [
          {
            message: 'project projectData: Only one date interval allowed',
            locations: [{ line: 1, column: expect.any(Number) }],
            path: ['project', 'projectData'],
            errorCode: 1003,
            extensions: { errorCode: 1003 },
          },
        ],
      });
      const unknownField = await h.project('projectData(start: 0) { resources { colour } }');
      expect(unknownField.status).toBe(400);
      expect(unknownField.json.data).toBeUndefined();
      expect(unknownField.json.errors).toEqual([
        {
          message: 'Cannot query field "colour" on type "Metric".',
          locations: [{ line: 1, column: expect.any(Number) }],
          errorCode: 1022,
          extensions: { errorCode: 1022 },
        },
      ]);
      const syntax = await h.query('{ project(projectId: 1 { projectId } }');
      expect(syntax.status).toBe(400);
      expect(codes(syntax)).toEqual([1022]);
      expect(syntax.json.errors[0].message).toMatch(/^Syntax Error/);
    });

    it('checks variables the same way', async () => {
      const text = 'query($s: DateTime!) { project(projectId: "' + h.apiKey + '") { projectData(start: $s) { totalCount } } }';
      expect(codes(await h.query(text, { variables: { s: 1.5 } }))).toEqual([1006]);
      expect(codes(await h.query(text, { variables: { s: 'nope' } }))).toEqual([1005]);
      expect(codes(await h.query(text, { variables: {} }))).toEqual([1013]);
      expect((await h.query(text, { variables: { s: now - DAY } })).json.data.project.projectData).toEqual({ totalCount: expect.any(Number) });
    });

    it('refuses invalid, unknown and foreign project IDs (1008, 1015, 1019) and two projects in one query (1004)', async () => {
      const other = h.control.createProject();
      for (const id of ['""', '" "', '"a b"', '0', '"-12"']) {
        const res = await h.query(`{ project(projectId: ${id}) { projectId } }`);
        expect(codes(res)).toEqual([1008]);
        expect(res.json.data).toEqual({ project: null });
      }
      expect(codes(await h.query('{ project(projectId: 99999999) { projectId } }'))).toEqual([1015]);
      const foreign = await h.query(`{ project(projectId: "${other.apiKey}") { projectId } }`);
      expect(codes(foreign)).toEqual([1019]);
      expect(foreign.json.errors[0]).toMatchObject({ path: ['project'], message: `query project: The token does not match the API key ${other.apiKey}` });
      // With the other project's own token the same query is fine.
      expect((await h.query(`{ project(projectId: "${other.apiKey}") { projectId } }`, {}, other)).json.data).toEqual({ project: { projectId: other.apiKey } });
      const two = await h.query(`{ a: project(projectId: ${h.apiKey}) { projectId } b: project(projectId: "${other.apiKey}") { projectId } }`);
      expect(two.status).toBe(400);
      expect(two.json).toEqual({ errors: [{ message: 'Invalid parameters: only one project per query', errorCode: 1004, extensions: { errorCode: 1004 } }] });
      // The same project twice is one project.
      const twice = await h.query(`{ a: project(projectId: ${h.apiKey}) { projectId } b: project(projectId: "${h.apiKey}") { projectId } }`);
      expect(twice.json.data).toEqual({ a: { projectId: h.apiKey }, b: { projectId: h.apiKey } });
      expect(codes(await h.query('{ project { projectId } }'))).toEqual([1013]);
    });
  });

  function now0(): number {
    // The harness clock starts at the emulator default and these rows are built before beforeAll.
    return Date.parse('2026-11-02T17:00:00Z');
  }
});

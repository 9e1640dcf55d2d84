/**
 * End to end through Slack: `/usage` and its range forms against the emulator, figures checked
 * against a week with known minutes and the emulator's ground truth; the chart uploaded with
 * files.uploadV2 (a real PNG), text bars without `files:write`, `--private`, the cache.
 */
import { CHANNEL, USERS, startTestApp, testInsightsFactory, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall, RecordedUpload } from '../harness/fake-slack';
import { renderedText } from '../harness/text';
import { DAY, KNOWN_WEEK, MINUTE, WEEK_FINAL, advanceTo, graphqlRequests, pngSize, seedKnownWeek } from './fixtures';

const minutes = (n: number) => `${n.toLocaleString('en-US')} min`;
/** A total as the report's fields show it (mrkdwn). */
const fig = (what: 'Participant' | 'Published' | 'Subscribed', n: number) => `*${what} minutes*\n*${minutes(n)}*`;

describe('/usage (report)', () => {
  let t: TestApp;
  /** API keys of the projects, as the app's Insights clients are made. */
  const keys = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({
      useEmulatorClock: true,
      extraProjects: [{ name: 'hist' }],
      insightsFactory: (p, url) => {
        keys.set(p.name, p.apiKey);
        return testInsightsFactory(p, url);
      },
    });
    seedKnownWeek(t);
    // Tuesday 10 November, 12:00 PST: every day of the known week is aggregated.
    advanceTo(t, WEEK_FINAL);
  });

  afterAll(async () => {
    // Blocks shared with a file are a message too: check them against Block Kit's limits.
    const shared = t.slack.callsOf('files.completeUploadExternal').map((c) => ({ method: 'chat.postMessage', body: { blocks: c.body.blocks, text: 'file' } }));
    expect(sentPayloadProblems([...t.slack.calls, ...shared], t.slack.responses)).toEqual([]);
    await t.close();
  });

  /** Sends `/usage <text>` and resolves the file upload it completes (report blocks + PNG). */
  async function reportWithChart(text: string, actor = {}): Promise<{ call: RecordedCall; upload: RecordedUpload; text: string }> {
    const since = t.slack.mark();
    const res = await t.slash('/usage', text, actor);
    expect(res.status).toBe(200);
    expect(res.ack).toBeUndefined();
    const call = await t.waitForSlackCall('files.completeUploadExternal', () => true, { since, timeoutMs: 15_000 });
    const fileId = (call.body.files as { id: string }[])[0]!.id;
    const upload = t.slack.uploads.find((u) => u.fileId === fileId)!;
    return { call, upload, text: renderedText(call.body.blocks) };
  }

  it('posts last week beside the week before in the channel, with the exact known minutes and a PNG chart', async () => {
    const { call, upload, text } = await reportWithChart('');
    expect(call.body.channel_id).toBe(CHANNEL);
    expect(text).toContain('Video usage · last week');
    expect(text).toContain('Mon 2 Nov – Sun 8 Nov 2026');
    expect(text).toContain(`${fig('Participant', KNOWN_WEEK.participant)}  new (was 0 min)`);
    expect(text).toContain(`${fig('Published', KNOWN_WEEK.published)}  new (was 0 min)`);
    expect(text).toContain(`${fig('Subscribed', KNOWN_WEEK.subscribed)}  new (was 0 min)`);
    expect(text).toContain('Compared with the week before: Mon 26 Oct – Sun 1 Nov 2026.');
    expect(text).toContain(`• 1–2 publishers — ${minutes(KNOWN_WEEK.tiers['1–2 publishers'])} (40%)`);
    expect(text).toContain(`• 3–6 publishers — ${minutes(KNOWN_WEEK.tiers['3–6 publishers'])} (60%)`);
    for (const sdk of ['Android', 'iOS', 'JavaScript']) expect(text).toContain(`• ${sdk} — ${minutes(KNOWN_WEEK.perSdk)} (33%)`);
    // 36 h after Sunday ended its figures are in, but Insights may take up to 48 h: said so.
    expect(text).toContain('Figures for Sun 8 Nov may still be incomplete: Insights publishes each day’s totals 36–48 hours after the day ends');
    expect(text).toContain('Fetched from Insights just now.');
    expect(text).toContain(`Asked by <@${USERS.moderator}>`);

    // The same figures as the emulator's ground truth, day by day.
    const truth = t.emulator.control.insightsGroundTruth(t.project.apiKey, { start: '2026-11-02', end: '2026-11-08T23:59:59' });
    expect(truth.map((d) => d.streamedPublishedMinutes)).toEqual([0, 1, 2, 3, 4, 5, 6].map(KNOWN_WEEK.publishedOn));
    expect(truth.reduce((s, d) => s + d.streamedSubscribedMinutes, 0)).toBe(KNOWN_WEEK.subscribed);

    // A real PNG: signature, IHDR, 800×400 CSS pixels at 2×.
    expect(upload.bytes).toBeDefined();
    expect(upload.bytes!.length).toBe(upload.length);
    expect(pngSize(upload.bytes!)).toEqual({ width: 1600, height: 800 });
    expect(upload.filename).toBe('usage-prod-2026-11-02-to-2026-11-08.png');
    expect(upload.altText).toContain('Participant minutes per day');
    expect(upload.altText).toContain('2026-11-02 60 min');
  });

  it('answers a second /usage from the cache: no GraphQL request, and it says how old the figures are', async () => {
    const before = graphqlRequests(t);
    advanceTo(t, t.emulator.control.now() + 5 * MINUTE);
    const { text } = await reportWithChart('last week');
    expect(graphqlRequests(t)).toBe(before);
    expect(text).toContain('Cached: fetched from Insights 5 min ago.');
    expect(text).toContain(`${fig('Participant', KNOWN_WEEK.participant)}`);
  });

  it('asks Insights again after the next Pacific midnight', async () => {
    const before = graphqlRequests(t);
    advanceTo(t, Date.parse('2026-11-11T08:00:01Z'));
    const { text } = await reportWithChart('');
    expect(graphqlRequests(t)).toBeGreaterThan(before);
    expect(text).toContain('Fetched from Insights just now.');
    expect(text).toContain(`${fig('Participant', KNOWN_WEEK.participant)}`);
  });

  it('reads this month, month, last 30 days and an explicit range, each against the ground truth', async () => {
    const sumOf = (start: string, end: string) => {
      const days = t.emulator.control.insightsGroundTruth(t.project.apiKey, { start, end: `${end}T23:59:59` });
      return days.reduce((s, d) => s + d.streamedPublishedMinutes, 0);
    };
    const thisMonth = await reportWithChart('this month');
    expect(thisMonth.text).toContain('Video usage · this month');
    expect(thisMonth.text).toContain('Sun 1 Nov – Wed 11 Nov 2026');
    expect(thisMonth.text).toContain(`${fig('Published', sumOf('2026-11-01', '2026-11-11'))}`);
    expect(thisMonth.text).toContain('Compared with the same days of October 2026');
    expect(thisMonth.text).toMatch(/Figures for .* may still be incomplete/);

    const before = graphqlRequests(t);
    const month = await reportWithChart('month');
    expect(graphqlRequests(t)).toBe(before);
    expect(month.text).toContain('Video usage · this month');

    const days30 = await reportWithChart('last 30 days');
    expect(days30.text).toContain('Video usage · last 30 days');
    expect(days30.text).toContain('Mon 12 Oct – Tue 10 Nov 2026');
    expect(days30.text).toContain(`${fig('Published', KNOWN_WEEK.published)}`);
    expect(pngSize(days30.upload.bytes!)).toEqual({ width: 1600, height: 800 });

    const explicit = await reportWithChart('2026-11-02..2026-11-04');
    expect(explicit.text).toContain('Mon 2 Nov – Wed 4 Nov 2026');
    expect(explicit.text).toContain(`${fig('Published', 50 + 49 + 48)}`);
  });

  it('reads October of a project with synthetic history exactly as the ground truth (--project)', async () => {
    const hist = t.services.projects.has('hist');
    expect(hist).toBe(true);
    const { text, call } = await reportWithChart('2026-10-01..2026-10-31 --project hist');
    const apiKey = keys.get('hist')!;
    const truth = t.emulator.control.insightsGroundTruth(apiKey, { start: '2026-10-01', end: '2026-10-31T23:59:59' });
    // Only days with sessions appear (synthetic history has quiet weekends).
    expect(truth.length).toBeGreaterThan(15);
    const published = truth.reduce((s, d) => s + d.streamedPublishedMinutes, 0);
    const subscribed = truth.reduce((s, d) => s + d.streamedSubscribedMinutes, 0);
    expect(text).toContain('project *hist*');
    expect(text).toContain(`${fig('Published', Math.round(published))}`);
    expect(text).toContain(`${fig('Subscribed', Math.round(subscribed))}`);
    expect(call.body.channel_id).toBe(CHANNEL);
  });

  it('breaks the range down by SDK, country and browser', async () => {
    const sdk = await reportWithChart('last week --by sdk');
    expect(sdk.text).toContain('*By SDK* (published + subscribed minutes)');
    for (const label of ['Android', 'iOS', 'JavaScript']) expect(sdk.text).toContain(`• ${label} — ${minutes(KNOWN_WEEK.perSdk)} streamed (33%)`);
    expect(sdk.text).toContain('Insights does not split participant minutes by SDK or browser');

    const country = await reportWithChart('last week --by country');
    for (const label of ['Brazil (BR)', 'United States (US)', 'France (FR)']) {
      expect(country.text).toContain(`• ${label} — ${minutes(KNOWN_WEEK.perSdk)} streamed (33%) · ${minutes(KNOWN_WEEK.perCountry)} participant`);
    }

    const browser = await reportWithChart('--by browser last week');
    expect(browser.text).toContain(`• Unknown — ${minutes(2 * KNOWN_WEEK.perSdk)} streamed (67%)`);
    expect(browser.text).toContain(`• Firefox — ${minutes(KNOWN_WEEK.perSdk)} streamed (33%)`);
  });

  it('posts text bars instead of the PNG when the app lacks files:write (missing_scope)', async () => {
    t.slack.failNext('files.getUploadURLExternal', { error: 'missing_scope' });
    const since = t.slack.mark();
    await t.slash('/usage', '2026-11-03..2026-11-05');
    const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    const text = renderedText(post.body);
    expect(text).toContain('Participant minutes per day');
    expect(text).toMatch(/Tue 3 Nov +│█+ +60/);
    expect(text).toContain(`${fig('Published', 49 + 48 + 47)}`);
    expect(t.slack.callsOf('files.completeUploadExternal', since)).toEqual([]);
  });

  it('answers only the asker with --private (chart in text), without posting in the channel', async () => {
    const since = t.slack.mark();
    const res = await t.slash('/usage', 'last week --private', { user: USERS.viewer });
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    const text = renderedText(reply.body);
    expect(text).toContain(`${fig('Participant', KNOWN_WEEK.participant)}`);
    expect(text).toMatch(/Mon 2 Nov +│/);
    expect(t.slack.callsOf('files.getUploadURLExternal', since)).toEqual([]);
    expect(t.slack.callsOf('chat.postMessage', since)).toEqual([]);
  });

  it('shows the report to the asker alone, with how to invite the bot, where it is not a member', async () => {
    t.slack.setNotInChannel('C0PRIVATE');
    try {
      const res = await t.slash('/usage', 'last week', { channel: 'C0PRIVATE' });
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      expect(renderedText(reply.body)).toContain('/invite @vidops');
      expect(renderedText(reply.body)).toContain(`${fig('Participant', KNOWN_WEEK.participant)}`);
    } finally {
      t.slack.setNotInChannel('C0PRIVATE', false);
    }
  });

  it('validates ranges with the parser’s sentences: future, order, retention', async () => {
    const future = await t.slash('/usage', '2027-01-01..2027-01-31');
    expect(renderedText((await future.waitForResponse()).body)).toMatch(
      /The range starts on Fri 1 Jan 2027, which is in the future \(today is Wed 11 Nov 2026/,
    );
    const order = await t.slash('/usage', '2026-11-05..2026-11-01');
    expect(renderedText((await order.waitForResponse()).body)).toContain(
      'The range ends (2026-11-01) before it starts (2026-11-05). Put the earlier date first: `2026-11-01..2026-11-05`.',
    );
    const old = await t.slash('/usage', '2026-01-01..2026-01-31');
    expect(renderedText((await old.waitForResponse()).body)).toMatch(/Insights keeps daily usage for 90 days: the oldest day available is/);
    const nonsense = await t.slash('/usage', 'the other day');
    expect(renderedText((await nonsense.waitForResponse()).body)).toContain('I can’t read “the other day” as a date range.');
    const badBy = await t.slash('/usage', '--by planet');
    expect(renderedText(badBy.ack)).toContain('--by: choose sdk, country or browser');
  });

  it('says what Insights said when it fails: 1002 (clock skew), 1011 (wrong secret), 503', async () => {
    // A server clock ten days ahead asks for days Insights has not reached: 1002.
    const clock = t.services.clock;
    t.services.clock = () => t.emulator.control.now() + 10 * DAY;
    try {
      const res = await t.slash('/usage', 'yesterday');
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toMatch(/^:warning: The date range is invalid: .+\. Insights keeps daily usage for 90 days/);
    } finally {
      t.services.clock = clock;
    }

    t.emulator.control.injectFault({ path: '/insights/graphql', kind: 'status', status: 503, count: 20 });
    try {
      const res = await t.slash('/usage', '2026-11-02..2026-11-03');
      expect(renderedText((await res.waitForResponse()).body)).toContain('Insights is unavailable right now (HTTP 503). Try again in a few minutes.');
    } finally {
      t.emulator.control.clearFaults();
    }
  });

  it('explains a missing Insights URL', async () => {
    const insights = t.services.insights;
    t.services.insights = () => undefined;
    try {
      const res = await t.slash('/usage', '');
      expect(renderedText((await res.waitForResponse()).body)).toContain('Ask an admin to set `VIDEO_INSIGHTS_URL`');
    } finally {
      t.services.insights = insights;
    }
  });
});

describe('/usage with a wrong project secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ useEmulatorClock: true, extraProjects: [{ name: 'broken', apiKey: '47999999', apiSecret: 'not-the-secret' }] });
  });
  afterAll(() => t.close());

  it('explains the refused credentials (1011) and who can fix them', async () => {
    const real = t.emulator.control.createProject({ name: 'other', apiKey: '47999999' });
    expect(real.apiSecret).not.toBe('not-the-secret');
    const res = await t.slash('/usage', '--project broken');
    const text = renderedText((await res.waitForResponse()).body);
    expect(text).toContain('Insights rejected the token. Check the project secret.');
    expect(text).toContain('Ask an admin to check the API key and secret configured for project *broken*.');
  });
});

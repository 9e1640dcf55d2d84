/**
 * The week of Sunday 1 November 2026, when Pacific time falls back an hour (01:00–02:00 happens
 * twice, the day has 25 hours). Sessions with known minutes at the week's edges and across the
 * repeated hour must land on the right Pacific days, and the week must stop at Monday 00:00 PST.
 */
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { HOUR, advanceTo, graphqlRequests, pngSize, postedReportWithChart } from './fixtures';

/** Sunday 25 October 2026, 23:00 PDT. */
const START = Date.parse('2026-10-26T06:00:00Z');

describe('/usage over the DST week of 1 November 2026', () => {
  let t: TestApp;

  /** One client publishing from `from` to `to` (epoch ms). */
  function publishBetween(from: number, to: number): void {
    const c = t.emulator.control;
    advanceTo(t, from);
    const sid = c.createSession(t.project.apiKey);
    const conn = c.connect(t.project.apiKey, sid);
    c.publish(t.project.apiKey, sid, conn, { videoType: 'camera' });
    advanceTo(t, to);
    c.disconnect(t.project.apiKey, sid, conn);
  }

  beforeAll(async () => {
    t = await startTestApp({ useEmulatorClock: true, emulatorStartTime: START });
    t.emulator.control.setSyntheticHistory(t.project.apiKey, false);
    // Sun 25 Oct 23:50 PDT → Mon 26 Oct 00:10 PDT: 10 min in the week before, 10 in the week.
    publishBetween(Date.parse('2026-10-26T06:50:00Z'), Date.parse('2026-10-26T07:10:00Z'));
    // Mon 26 Oct 00:10 → 00:20 PDT.
    publishBetween(Date.parse('2026-10-26T07:10:00Z'), Date.parse('2026-10-26T07:20:00Z'));
    // Sat 31 Oct 23:30 PDT → Sun 1 Nov 00:30 PDT: 30 + 30.
    publishBetween(Date.parse('2026-11-01T06:30:00Z'), Date.parse('2026-11-01T07:30:00Z'));
    // Sun 1 Nov 00:30 PDT → 01:30 PST: two hours of real time through the repeated hour.
    publishBetween(Date.parse('2026-11-01T07:30:00Z'), Date.parse('2026-11-01T09:30:00Z'));
    // Sun 1 Nov 23:30 PST → Mon 2 Nov 00:30 PST: 30 on Sunday, 30 in the next week.
    publishBetween(Date.parse('2026-11-02T07:30:00Z'), Date.parse('2026-11-02T08:30:00Z'));
    // Tuesday 3 November, 12:00 PST: 36 h after Sunday ended.
    advanceTo(t, Date.parse('2026-11-03T20:00:00Z'));
  });
  afterAll(() => t.close());

  it('puts every minute on its Pacific day, the 25-hour Sunday included', async () => {
    const truth = t.emulator.control.insightsGroundTruth(t.project.apiKey, { start: '2026-10-25', end: '2026-11-02T23:59:59' });
    expect(truth.map((d) => [d.day, d.streamedPublishedMinutes])).toEqual([
      ['2026-10-25', 10],
      ['2026-10-26', 20],
      ['2026-10-31', 30],
      ['2026-11-01', 180],
      // Monday 2 November's 30 minutes are not aggregated yet (36 h after the day ends).
    ]);
    const sunday = truth.find((d) => d.day === '2026-11-01')!;
    expect(Date.parse(sunday.intervalEnd) + 1 - Date.parse(sunday.intervalStart)).toBe(25 * HOUR);

    const since = t.slack.mark();
    await t.slash('/usage', 'last week');
    const { call, upload } = await postedReportWithChart(t, CHANNEL, since);
    expect(call.body.text).toBe('Video usage for prod, last week (Mon 26 Oct – Sun 1 Nov 2026): 230 participant minutes (+2,200% on the week before)');
    const text = renderedText(call.body.blocks);
    expect(text).toContain('Mon 26 Oct – Sun 1 Nov 2026');
    expect(text).toContain('*Published minutes*\n*230 min*  +2,200% (was 10 min)');
    expect(text).toContain('*Participant minutes*\n*230 min*');
    expect(text).toContain('Compared with the week before: Mon 19 Oct – Sun 25 Oct 2026.');

    expect(upload.altText).toContain(
      '2026-10-26 20 min; 2026-10-27 0 min; 2026-10-28 0 min; 2026-10-29 0 min; 2026-10-30 0 min; 2026-10-31 30 min; 2026-11-01 180 min',
    );
    expect(pngSize(upload.bytes!)).toEqual({ width: 1600, height: 800 });
  });

  it('gives the same week for the explicit dates, from the cache', async () => {
    const before = graphqlRequests(t);
    const since = t.slack.mark();
    await t.slash('/usage', '2026-10-26..2026-11-01');
    const { call } = await postedReportWithChart(t, CHANNEL, since);
    const text = renderedText(call.body.blocks);
    expect(text).toContain('*Published minutes*\n*230 min*');
    // A different question (explicit dates compare with the 7 days before): asked once more.
    expect(graphqlRequests(t)).toBeGreaterThan(before);
    expect(text).toContain('Compared with the 7 days before: Mon 19 Oct – Sun 25 Oct 2026.');
  });
});

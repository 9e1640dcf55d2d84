import { codes, DAY, HOUR, InsightsHarness, MINUTE } from './insights-helpers';

/** Usage numbers per Pacific day, from sessions driven through the control API (synthetic history off). */

const BUCKETS = [
  'from1To2Publishers',
  'from3To6Publishers',
  'from7To8Publishers',
  'from1To4Publishers',
  'from5To8Publishers',
  'from1To8Publishers',
  'from1To10Publishers',
  'from9To10Publishers',
  'from11To35Publishers',
  'from11To20Publishers',
  'from21To35Publishers',
  'from36To40Publishers',
  'from36PlusPublishers',
  'from41PlusPublishers',
  'from1To25Publishers',
  'from3To25Publishers',
  'from26To35Publishers',
];
const zeroBuckets = (): Record<string, number> => Object.fromEntries(BUCKETS.map((b) => [b, 0]));

const USAGE = `usage { streamedPublishedMinutes streamedSubscribedMinutes participantMinutes { ${BUCKETS.join(' ')} } }`;

const ANDROID_BR = { sdkType: 'ANDROID', sdkVersion: '2.28.0', country: 'BR', region: 'BR-SP', browser: null, browserVersion: null } as const;
const IOS_US = { sdkType: 'IOS', sdkVersion: '2.27.3', country: 'US', region: 'US-NY', browser: null, browserVersion: null } as const;
const JS_FR = { sdkType: 'JS', sdkVersion: '2.28.0', country: 'FR', region: 'FR-IDF', browser: 'FIREFOX', browserVersion: '131.0' } as const;

describe('Insights usage: a week with known minutes (Mon 19 - Sun 25 October 2026, PDT)', () => {
  let h: InsightsHarness;
  // Monday 19 October 2026, 00:00 PDT.
  const WEEK = Date.parse('2026-10-19T07:00:00Z');

  /**
   * Day k (0..6), from 10:00 Pacific: A, B, C connect; A publishes; B publishes 5 min later;
   * C k minutes after that; everyone leaves at 10:20.
   */
  function expected(k: number) {
    const participantMinutes = zeroBuckets();
    // 0-5 min: 1 publisher, 5-(5+k): 2, then 3; three connections all along.
    const one = 3 * 5;
    const two = 3 * k;
    const three = 3 * (15 - k);
    for (const b of ['from1To2Publishers']) participantMinutes[b] = one + two;
    for (const b of ['from3To6Publishers', 'from3To25Publishers']) participantMinutes[b] = three;
    for (const b of ['from1To4Publishers', 'from1To8Publishers', 'from1To10Publishers', 'from1To25Publishers']) participantMinutes[b] = one + two + three;
    return {
      intervalStart: new Date(WEEK + k * DAY).toISOString(),
      intervalEnd: new Date(WEEK + (k + 1) * DAY - 1).toISOString(),
      usage: {
        // A 20 min, B 15, C 15 - k.
        streamedPublishedMinutes: 20 + 15 + (15 - k),
        // Each stream is received by the two other connections.
        streamedSubscribedMinutes: 2 * (20 + 15 + (15 - k)),
        participantMinutes,
      },
    };
  }

  beforeAll(async () => {
    h = await InsightsHarness.start({ startTime: WEEK });
    const { control, apiKey } = h;
    for (let k = 0; k < 7; k += 1) {
      const tenAm = WEEK + k * DAY + 10 * HOUR;
      h.advanceTo(tenAm);
      const sid = control.createSession(apiKey);
      const a = control.connect(apiKey, sid, { client: ANDROID_BR });
      const b = control.connect(apiKey, sid, { client: IOS_US });
      const c = control.connect(apiKey, sid, { client: JS_FR });
      control.publish(apiKey, sid, a);
      h.advanceTo(tenAm + 5 * MINUTE);
      control.publish(apiKey, sid, b);
      h.advanceTo(tenAm + (5 + k) * MINUTE);
      control.publish(apiKey, sid, c);
      h.advanceTo(tenAm + 20 * MINUTE);
      for (const conn of [a, b, c]) control.disconnect(apiKey, sid, conn);
    }
    // Sunday's aggregates are published 36 h after it ends.
    h.advanceTo(WEEK + 7 * DAY + 36 * HOUR);
  });
  afterAll(() => h.close());

  const week = `start: ${WEEK / 1000}, end: ${WEEK + 7 * DAY - 1}`;

  it('answers exactly those minutes and buckets per Pacific day', async () => {
    const res = await h.project(`projectData(${week}, interval: DAILY) { totalCount resources { intervalStart intervalEnd ${USAGE} } }`);
    expect(res.status).toBe(200);
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.project.projectData.totalCount).toBe(7);
    expect(res.json.data.project.projectData.resources).toEqual([0, 1, 2, 3, 4, 5, 6].map(expected));
  });

  it('agrees with the ground truth of the control plane (and its HTTP route)', async () => {
    const truth = h.control.insightsGroundTruth(h.apiKey, { start: '2026-10-19', end: '2026-10-25T23:59:59' });
    expect(truth.map((d) => d.day)).toEqual(['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25']);
    expect(
      truth.map(({ intervalStart, intervalEnd, streamedPublishedMinutes, streamedSubscribedMinutes, participantMinutes }) => ({
        intervalStart,
        intervalEnd,
        usage: { streamedPublishedMinutes, streamedSubscribedMinutes, participantMinutes },
      })),
    ).toEqual([0, 1, 2, 3, 4, 5, 6].map(expected));
    const res = await fetch(`${h.emu.baseUrl}/_emulator/projects/${h.apiKey}/insights/ground-truth?start=2026-10-19&end=2026-10-25T23:59:59`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(truth);
  });

  it('sums the week without an interval, and reads ISO dates as Pacific wall-clock time', async () => {
    const res = await h.project(
      `projectData(start: "2026-10-19", end: "2026-10-25T23:59:59.999") { resources { intervalStart intervalEnd usage { streamedPublishedMinutes streamedSubscribedMinutes } } }`,
    );
    expect(res.json.data.project.projectData.resources).toEqual([
      {
        intervalStart: '2026-10-19T07:00:00.000Z',
        intervalEnd: '2026-10-26T06:59:59.999Z',
        usage: { streamedPublishedMinutes: 350 - 21, streamedSubscribedMinutes: 700 - 42 },
      },
    ]);
  });

  it('groups by SDK type: published minutes to the publisher, subscribed minutes to the subscriber', async () => {
    const res = await h.project(
      `projectData(${week}, groupBy: SDK_TYPE) { resources { sdkType country usage { streamedPublishedMinutes streamedSubscribedMinutes } } }`,
    );
    expect(res.json.data.project.projectData.resources).toEqual([
      // A (Android) publishes 20 min a day and receives B (15) and C (15 - k).
      { sdkType: 'ANDROID', country: null, usage: { streamedPublishedMinutes: 140, streamedSubscribedMinutes: 210 - 21 } },
      { sdkType: 'IOS', country: null, usage: { streamedPublishedMinutes: 105, streamedSubscribedMinutes: 245 - 21 } },
      { sdkType: 'JS', country: null, usage: { streamedPublishedMinutes: 105 - 21, streamedSubscribedMinutes: 245 } },
    ]);
  });

  it('filters by SDK type, browser and country, alone and grouped per day', async () => {
    const ios = await h.project(`projectData(${week}, sdkType: [IOS]) { resources { usage { streamedPublishedMinutes } } }`);
    expect(ios.json.data.project.projectData.resources).toEqual([{ usage: { streamedPublishedMinutes: 105 } }]);
    const firefox = await h.project(
      `projectData(${week}, browser: [FIREFOX, CHROME], groupBy: [BROWSER, BROWSER_VERSION]) { resources { browser browserVersion usage { streamedPublishedMinutes } } }`,
    );
    expect(firefox.json.data.project.projectData.resources).toEqual([{ browser: 'FIREFOX', browserVersion: '131.0', usage: { streamedPublishedMinutes: 84 } }]);
    const daily = await h.project(
      `projectData(${week}, interval: DAILY, country: [BR], groupBy: [COUNTRY, REGION]) { resources { country region usage { streamedPublishedMinutes } } }`,
    );
    expect(daily.json.data.project.projectData.resources).toHaveLength(7);
    expect(daily.json.data.project.projectData.resources[0]).toEqual({ country: 'BR', region: 'BR-SP', usage: { streamedPublishedMinutes: 20 } });
    const none = await h.project(`projectData(${week}, country: [DE]) { totalCount resources { usage { streamedPublishedMinutes } } }`);
    expect(none.json.data.project.projectData).toEqual({ totalCount: 0, resources: [] });
  });

  it('gives participant minutes with country filtering, refuses them (1009) with SDK, region or browser filtering', async () => {
    const fr = await h.project(
      `projectData(${week}, country: [FR]) { resources { usage { participantMinutes { from1To2Publishers from3To6Publishers from1To4Publishers } } } }`,
    );
    // C alone: 5 min with one publisher, k with two, 15 - k with three, each day.
    expect(fr.json.data.project.projectData.resources).toEqual([
      { usage: { participantMinutes: { from1To2Publishers: 35 + 21, from3To6Publishers: 105 - 21, from1To4Publishers: 140 } } },
    ]);
    for (const args of ['sdkType: [JS]', 'region: ["FR-IDF"]', 'browser: [FIREFOX]', 'groupBy: SDK_TYPE', 'sdkVersion: ["2.28.0"]']) {
      const res = await h.project(`projectData(${week}, ${args}) { resources { usage { participantMinutes { from1To2Publishers } } } }`);
      expect(codes(res)).toEqual([1009]);
      expect(res.json.errors[0]).toMatchObject({
        path: ['project', 'projectData'],
        message: expect.stringMatching(/^project projectData: Participant minutes are unavailable/),
      });
      expect(res.json.data.project.projectData).toBeNull();
    }
  });

  it('does not count days outside the 90 days kept', async () => {
    const h2 = await InsightsHarness.start({ startTime: WEEK });
    try {
      const sid = h2.control.createSession(h2.apiKey);
      h2.advanceTo(WEEK + 10 * HOUR);
      const a = h2.control.connect(h2.apiKey, sid);
      h2.control.publish(h2.apiKey, sid, a);
      h2.advanceTo(WEEK + 11 * HOUR);
      h2.control.disconnect(h2.apiKey, sid, a);
      h2.advanceTo(WEEK + 90 * DAY + 12 * HOUR);
      const kept = await h2.project('projectData(start: 0) { resources { usage { streamedPublishedMinutes } } }');
      expect(kept.json.data.project.projectData.resources).toEqual([{ usage: { streamedPublishedMinutes: 60 } }]);
      h2.advanceTo(WEEK + 91 * DAY + 12 * HOUR);
      const gone = await h2.project('projectData(start: 0) { resources { usage { streamedPublishedMinutes } } }');
      expect(gone.json.data.project.projectData.resources).toEqual([]);
      const outside = await h2.project(`projectData(start: ${WEEK}, end: ${WEEK + DAY - 1}) { resources { intervalStart } }`);
      expect(codes(outside)).toEqual([1002]);
    } finally {
      await h2.close();
    }
  });
});

describe('Insights usage: the DST week of 1 November 2026 (a 25-hour day)', () => {
  let h: InsightsHarness;
  // Monday 26 October 2026, 00:00 PDT.
  const MONDAY = Date.parse('2026-10-26T07:00:00Z');
  const LONG_FROM = Date.parse('2026-11-01T06:00:00Z'); // Sat 31 Oct 23:00 PDT
  const LONG_TO = Date.parse('2026-11-02T09:00:00Z'); // Mon 2 Nov 01:00 PST
  const days = (res: { json: any }) => res.json.data.project.projectData.resources;
  const range = `start: "2026-10-26T00:00:00-07:00", end: "2026-11-08T23:59:59-08:00"`;

  beforeAll(async () => {
    h = await InsightsHarness.start({ startTime: MONDAY });
    const { control, apiKey } = h;
    // Monday 12:00 PDT: two publishers for 30 minutes.
    h.advanceTo(MONDAY + 12 * HOUR);
    const s1 = control.createSession(apiKey);
    const a = control.connect(apiKey, s1);
    const b = control.connect(apiKey, s1);
    control.publish(apiKey, s1, a);
    control.publish(apiKey, s1, b);
    h.advanceTo(MONDAY + 12 * HOUR + 30 * MINUTE);
    control.disconnect(apiKey, s1, a);
    control.disconnect(apiKey, s1, b);
    // Saturday 23:00 PDT to Monday 01:00 PST: one publisher and one viewer, 27 hours.
    h.advanceTo(LONG_FROM);
    const s2 = control.createSession(apiKey);
    const pub = control.connect(apiKey, s2);
    const viewer = control.connect(apiKey, s2);
    control.publish(apiKey, s2, pub, { videoType: 'screen' });
    h.advanceTo(LONG_TO);
    control.disconnect(apiKey, s2, pub);
    control.disconnect(apiKey, s2, viewer);
  });
  afterAll(() => h.close());

  const day = (start: string, end: string, minutes: number, participant: number, bucket = 'from1To2Publishers') => ({
    intervalStart: start,
    intervalEnd: end,
    usage: { streamedPublishedMinutes: minutes, streamedSubscribedMinutes: minutes, participantMinutes: { [bucket]: participant } },
  });
  const query = (extra: string, bucket = 'from1To2Publishers') =>
    h.project(
      `projectData(${range}${extra}) { resources { intervalStart intervalEnd usage { streamedPublishedMinutes streamedSubscribedMinutes participantMinutes { ${bucket} } } } }`,
    );

  it('publishes a day 36 hours after it ends (not before)', async () => {
    // Sunday 1 November ends at 08:00Z on the 2nd: published at 20:00Z on the 3rd.
    h.advanceTo(Date.parse('2026-11-03T19:59:59Z'));
    expect(days(await query(', interval: DAILY')).map((d: { intervalStart: string }) => d.intervalStart)).toEqual([
      '2026-10-26T07:00:00.000Z',
      '2026-10-31T07:00:00.000Z',
    ]);
    h.advanceTo(Date.parse('2026-11-03T20:00:00Z'));
    expect(days(await query(', interval: DAILY')).map((d: { intervalStart: string }) => d.intervalStart)).toEqual([
      '2026-10-26T07:00:00.000Z',
      '2026-10-31T07:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
    ]);
    h.advanceTo(Date.parse('2026-11-04T20:00:00Z'));
  });

  it('splits at Pacific midnights: 60 minutes on Saturday, 1500 on the 25-hour Sunday, 60 on Monday', async () => {
    const res = await query(', interval: DAILY');
    expect(days(res)).toEqual([
      day('2026-10-26T07:00:00.000Z', '2026-10-27T06:59:59.999Z', 60, 60, 'from1To2Publishers'),
      day('2026-10-31T07:00:00.000Z', '2026-11-01T06:59:59.999Z', 60, 120),
      day('2026-11-01T07:00:00.000Z', '2026-11-02T07:59:59.999Z', 1500, 3000),
      day('2026-11-02T08:00:00.000Z', '2026-11-03T07:59:59.999Z', 60, 120),
    ]);
  });

  it('aggregates ISO weeks (Monday to Sunday) and calendar months', async () => {
    expect(days(await query(', interval: WEEKLY'))).toEqual([
      day('2026-10-26T07:00:00.000Z', '2026-11-02T07:59:59.999Z', 60 + 60 + 1500, 60 + 120 + 3000),
      day('2026-11-02T08:00:00.000Z', '2026-11-09T07:59:59.999Z', 60, 120),
    ]);
    expect(days(await query(', interval: MONTHLY'))).toEqual([
      day('2026-10-01T07:00:00.000Z', '2026-11-01T06:59:59.999Z', 120, 180),
      day('2026-11-01T07:00:00.000Z', '2026-12-01T07:59:59.999Z', 1560, 3120),
    ]);
    // AUTO over two weeks is daily.
    expect(days(await query(', interval: AUTO'))).toHaveLength(4);
    // Without an interval: one Metric over the published days the range covers (through Monday 2 November).
    expect(days(await query(''))).toEqual([day('2026-10-26T07:00:00.000Z', '2026-11-03T07:59:59.999Z', 1680, 3300)]);
  });

  it('counts a day when the range only touches it (start at 00:00 Pacific to avoid it)', async () => {
    const utcMidnight = await h.project(
      `projectData(start: "2026-11-02T00:00:00Z", end: "2026-11-02T05:00:00Z", interval: DAILY) { resources { intervalStart } }`,
    );
    expect(days(utcMidnight)).toEqual([{ intervalStart: '2026-11-01T07:00:00.000Z' }]);
  });

  it('ground truth shows the same days', () => {
    const truth = h.control.insightsGroundTruth(h.apiKey, { start: '2026-10-26', end: '2026-11-08' });
    expect(truth.map((d) => [d.day, d.intervalStart, d.intervalEnd, d.streamedPublishedMinutes])).toEqual([
      ['2026-10-26', '2026-10-26T07:00:00.000Z', '2026-10-27T06:59:59.999Z', 60],
      ['2026-10-31', '2026-10-31T07:00:00.000Z', '2026-11-01T06:59:59.999Z', 60],
      ['2026-11-01', '2026-11-01T07:00:00.000Z', '2026-11-02T07:59:59.999Z', 1500],
      ['2026-11-02', '2026-11-02T08:00:00.000Z', '2026-11-03T07:59:59.999Z', 60],
    ]);
  });
});

describe('Insights participant buckets at high publisher counts', () => {
  it('fills every overlapping bucket whose range holds the number of publishers', async () => {
    const start = Date.parse('2026-10-05T17:00:00Z');
    const h = await InsightsHarness.start({ startTime: start });
    try {
      const { control, apiKey } = h;
      const sid = control.createSession(apiKey);
      const conns = Array.from({ length: 42 }, () => control.connect(apiKey, sid));
      const streams = conns.map((c) => control.publish(apiKey, sid, c));
      h.advanceTo(start + 2 * MINUTE); // 42 publishers for 2 minutes
      for (const s of streams.slice(0, 6)) control.unpublish(apiKey, sid, s);
      h.advanceTo(start + 4 * MINUTE); // 36 for 2 minutes
      for (const s of streams.slice(6, 16)) control.unpublish(apiKey, sid, s);
      h.advanceTo(start + 6 * MINUTE); // 26 for 2 minutes
      for (const c of conns) control.disconnect(apiKey, sid, c);
      h.advanceTo(start + 3 * DAY);
      const res = await h.project(`projectData(start: "2026-10-05") { resources { usage { participantMinutes { ${BUCKETS.join(' ')} } } } }`);
      const perStage = 42 * 2;
      expect(res.json.data.project.projectData.resources[0].usage.participantMinutes).toEqual({
        ...zeroBuckets(),
        from41PlusPublishers: perStage,
        from36PlusPublishers: 2 * perStage,
        from36To40Publishers: perStage,
        from26To35Publishers: perStage,
        from21To35Publishers: perStage,
        from11To35Publishers: perStage,
      });
    } finally {
      await h.close();
    }
  });
});

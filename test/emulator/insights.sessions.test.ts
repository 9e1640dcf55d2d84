import { clientToken, projectToken } from './helpers';
import { codes, DAY, InsightsHarness, MINUTE } from './insights-helpers';

/** Advanced session data (`sessionData`): meetings, publishers, subscribers, statistics, summaries. */

const T0 = Date.parse('2026-11-02T17:00:00Z'); // the emulator's default start
const at = (minutes: number): string => new Date(T0 + minutes * MINUTE).toISOString();

const MEETING_FIELDS = `meetingId createdAt destroyedAt publisherMinutes subscriberMinutes participantMinutes`;
const STATS = `createdAt hasAudio hasVideo audioBitrateKbps videoBitrateKbps audioLatencyMs videoLatencyMs audioPacketLossRatio videoPacketLossRatio videoResolution audioCodec videoCodec`;

describe('Insights sessionData', () => {
  let h: InsightsHarness;
  let sid: string;
  const ids: Record<string, string> = {};

  const sessions = (list: string[], inner: string) =>
    h.project(`sessionData { sessions(sessionIds: ${JSON.stringify(list)}) { totalCount resources { ${inner} } } }`);
  const resources = (res: { json: any }) => res.json.data.project.sessionData.sessions.resources;

  beforeAll(async () => {
    h = await InsightsHarness.start();
    const { control, apiKey } = h;
    sid = control.createSession(apiKey);
    ids.a = control.connect(apiKey, sid, { client: { sdkType: 'JS', browser: 'CHROME', country: 'US' } });
    ids.b = control.connect(apiKey, sid, { client: { sdkType: 'ANDROID', country: 'MX', region: 'MX-CMX' } });
    ids.aStream = control.publish(apiKey, sid, ids.a);
  });
  afterAll(() => h.close());

  it('knows a session only 5 minutes after it started (advanced data latency)', async () => {
    h.advanceTo(T0 + 2 * MINUTE);
    ids.bStream = h.control.publish(h.apiKey, sid, ids.b, { hasVideo: false });
    const early = await sessions([sid], 'sessionId');
    expect(codes(early)).toEqual([1017]);
    expect(early.json.errors[0]).toMatchObject({
      path: ['project', 'sessionData', 'sessions', 'resources', 0],
      message: `sessionData sessions: Session ${sid} not found`,
      extensions: { errorCode: 1017 },
    });
    h.advanceTo(T0 + 6 * MINUTE);
    const res = await sessions(
      [sid],
      `sessionId meetings { totalCount resources { createdAt destroyedAt publishers { resources { createdAt destroyedAt } } } }`,
    );
    expect(res.json.errors).toBeUndefined();
    // As of 5 minutes ago (minute 1): everyone still connected, B's stream (minute 2) not known yet.
    expect(resources(res)).toEqual([
      {
        sessionId: sid,
        meetings: {
          totalCount: 1,
          resources: [{ createdAt: at(0), destroyedAt: null, publishers: { resources: [{ createdAt: at(0), destroyedAt: null }] } }],
        },
      },
    ]);
  });

  describe('after two meetings', () => {
    beforeAll(() => {
      const { control, apiKey } = h;
      h.advanceTo(T0 + 10 * MINUTE);
      control.disconnect(apiKey, sid, ids.b);
      h.advanceTo(T0 + 12 * MINUTE);
      control.disconnect(apiKey, sid, ids.a);
      // 8 minutes unused: same meeting.
      h.advanceTo(T0 + 20 * MINUTE);
      ids.c = control.connect(apiKey, sid);
      h.advanceTo(T0 + 25 * MINUTE);
      control.disconnect(apiKey, sid, ids.c);
      // 15 minutes unused: a new meeting.
      h.advanceTo(T0 + 40 * MINUTE);
      ids.d = control.connect(apiKey, sid);
      ids.dStream = control.publish(apiKey, sid, ids.d, { videoType: 'screen' });
      h.advanceTo(T0 + 45 * MINUTE);
      control.disconnect(apiKey, sid, ids.d);
      h.advanceTo(T0 + 60 * MINUTE);
    });

    it('splits meetings at 10 unused minutes and computes minutes from the lifetimes', async () => {
      const res = await sessions(
        [sid],
        `sessionId publisherMinutes subscriberMinutes participantMinutes meetings { totalCount resources { ${MEETING_FIELDS} } }`,
      );
      expect(res.json.errors).toBeUndefined();
      const [session] = resources(res);
      // Meeting 1: A publishes 0-12, B 2-10 (audio only); A's stream reaches B 0-10, B's reaches A 2-10; C joins 20-25.
      expect(session).toEqual({
        sessionId: sid,
        publisherMinutes: 25,
        subscriberMinutes: 18,
        participantMinutes: 32,
        meetings: {
          totalCount: 2,
          resources: [
            { meetingId: expect.any(String), createdAt: at(0), destroyedAt: at(25), publisherMinutes: 20, subscriberMinutes: 18, participantMinutes: 27 },
            { meetingId: expect.any(String), createdAt: at(40), destroyedAt: at(45), publisherMinutes: 5, subscriberMinutes: 0, participantMinutes: 5 },
          ],
        },
      });
      expect(session.meetings.resources[0].meetingId).not.toBe(session.meetings.resources[1].meetingId);
    });

    it('lists publishers with their stream and client, and a statistics sample every 30 seconds', async () => {
      const res = await sessions(
        [sid],
        `meetings(first: 1) { resources { publishers { totalCount resources { createdAt destroyedAt connectionId sdkType country region browser stream { streamId videoType } streamStatsCollection { totalCount resources { ${STATS} } } } } } }`,
      );
      const publishers = resources(res)[0].meetings.resources[0].publishers;
      expect(publishers.totalCount).toBe(2);
      const [a, b] = publishers.resources;
      expect(a).toMatchObject({
        createdAt: at(0),
        destroyedAt: at(12),
        connectionId: ids.a,
        sdkType: 'JS',
        country: 'US',
        browser: 'CHROME',
        stream: { streamId: ids.aStream, videoType: 'camera' },
      });
      expect(b).toMatchObject({ connectionId: ids.b, sdkType: 'ANDROID', country: 'MX', region: 'MX-CMX', browser: null, stream: { streamId: ids.bStream } });
      // 12 minutes: 24 samples at 00:30, 01:00, ... 12:00.
      expect(a.streamStatsCollection.totalCount).toBe(24);
      expect(a.streamStatsCollection.resources.map((s: { createdAt: string }) => s.createdAt)).toEqual(
        Array.from({ length: 24 }, (_, i) => new Date(T0 + (i + 1) * 30_000).toISOString()),
      );
      for (const s of a.streamStatsCollection.resources) {
        expect(s).toMatchObject({ hasAudio: true, hasVideo: true, videoResolution: '1280x720', audioCodec: 'OPUS', videoCodec: 'VP8' });
        expect(s.videoBitrateKbps).toBeGreaterThanOrEqual(400);
        expect(s.videoBitrateKbps).toBeLessThanOrEqual(900);
        expect(s.audioBitrateKbps).toBeGreaterThanOrEqual(28);
        expect(s.audioBitrateKbps).toBeLessThanOrEqual(40);
        expect(s.videoPacketLossRatio).toBeLessThan(0.03);
      }
      // B publishes audio only for 8 minutes.
      expect(b.streamStatsCollection.totalCount).toBe(16);
      expect(b.streamStatsCollection.resources[0]).toMatchObject({ hasVideo: false, videoBitrateKbps: null, videoResolution: null, audioCodec: 'OPUS' });
      // Deterministic: the same numbers on every read.
      const again = await sessions([sid], `meetings(first: 1) { resources { publishers { resources { streamStatsCollection { resources { ${STATS} } } } } } }`);
      expect(resources(again)[0].meetings.resources[0].publishers.resources[0].streamStatsCollection).toEqual({ resources: a.streamStatsCollection.resources });
    });

    it('pages statistics, publishers and meetings with first / endCursor', async () => {
      const page = async (cursor: string | null) => {
        const after = cursor === null ? '' : `, endCursor: "${cursor}"`;
        const res = await sessions(
          [sid],
          `meetings(first: 1) { resources { publishers(first: 1) { pageInfo { hasNextPage endCursor } resources { streamStatsCollection(first: 10${after}) { totalCount pageInfo { hasNextPage endCursor } resources { createdAt } } } } } }`,
        );
        return resources(res)[0].meetings.resources[0].publishers.resources[0].streamStatsCollection;
      };
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      for (;;) {
        const p = await page(cursor);
        sizes.push(p.resources.length);
        seen.push(...p.resources.map((r: { createdAt: string }) => r.createdAt));
        if (!p.pageInfo.hasNextPage) break;
        cursor = p.pageInfo.endCursor;
      }
      expect(sizes).toEqual([10, 10, 4]);
      expect(new Set(seen).size).toBe(24);
      const second = await sessions([sid], `meetings(first: 1) { pageInfo { hasNextPage endCursor } }`);
      const info = resources(second)[0].meetings.pageInfo;
      expect(info.hasNextPage).toBe(true);
      const rest = await sessions([sid], `meetings(first: 1, endCursor: "${info.endCursor}") { pageInfo { hasNextPage } resources { createdAt } }`);
      expect(resources(rest)[0].meetings).toEqual({ pageInfo: { hasNextPage: false }, resources: [{ createdAt: at(40) }] });
    });

    it("lists subscribers: every connection receives the others' streams while both exist", async () => {
      const res = await sessions(
        [sid],
        `meetings(first: 1) { resources { subscribers { totalCount resources { createdAt destroyedAt connectionId sdkType stream { streamId } streamStatsCollection { totalCount resources { videoBitrateKbps audioBitrateKbps } } } } } }`,
      );
      const subs = resources(res)[0].meetings.resources[0].subscribers;
      expect(subs.totalCount).toBe(2);
      expect(subs.resources.map(({ streamStatsCollection, ...rest }: { streamStatsCollection: unknown }) => rest)).toEqual([
        { createdAt: at(0), destroyedAt: at(10), connectionId: ids.b, sdkType: 'ANDROID', stream: { streamId: ids.aStream } },
        { createdAt: at(2), destroyedAt: at(10), connectionId: ids.a, sdkType: 'JS', stream: { streamId: ids.bStream } },
      ]);
      expect(subs.resources[0].streamStatsCollection.totalCount).toBe(20);
      expect(subs.resources[1].streamStatsCollection.resources[0]).toEqual({ videoBitrateKbps: null, audioBitrateKbps: expect.any(Number) });
    });

    it('answers sessionSummaries with meeting totals and concurrency', async () => {
      const res = await h.project(
        `sessionData { sessionSummaries(start: ${Math.floor((T0 - 60 * MINUTE) / 1000)}) { totalCount pageInfo { hasNextPage endCursor } resources { sessionId meetings { totalCount resources { maxConcurrentStreams maxConcurrentSubscribers totalStreams totalConnections publisherMinutes subscriberMinutes participantMinutes } } } } }`,
      );
      expect(res.json.errors).toBeUndefined();
      expect(res.json.data.project.sessionData.sessionSummaries).toEqual({
        totalCount: 1,
        pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
        resources: [
          {
            sessionId: sid,
            meetings: {
              totalCount: 2,
              resources: [
                {
                  maxConcurrentStreams: 2,
                  maxConcurrentSubscribers: 2,
                  totalStreams: 2,
                  totalConnections: 3,
                  publisherMinutes: 20,
                  subscriberMinutes: 18,
                  participantMinutes: 27,
                },
                {
                  maxConcurrentStreams: 1,
                  maxConcurrentSubscribers: 0,
                  totalStreams: 1,
                  totalConnections: 1,
                  publisherMinutes: 5,
                  subscriberMinutes: 0,
                  participantMinutes: 5,
                },
              ],
            },
          },
        ],
      });
      // A range holding only the second meeting still gives the whole session.
      const later = await h.project(
        `sessionData { sessionSummaries(start: "${at(30)}", end: "${at(50)}") { resources { sessionId meetings { totalCount } } } }`,
      );
      expect(later.json.data.project.sessionData.sessionSummaries.resources).toEqual([{ sessionId: sid, meetings: { totalCount: 2 } }]);
      const none = await h.project(`sessionData { sessionSummaries(start: "${at(50)}") { totalCount resources { sessionId } } }`);
      expect(none.json.data.project.sessionData.sessionSummaries).toEqual({ totalCount: 0, resources: [] });
    });

    it('records SIP calls as connections with an audio-only stream', async () => {
      const sipSession = h.control.createSession(h.apiKey);
      const viewer = h.control.connect(h.apiKey, sipSession);
      const res = await fetch(`${h.emu.baseUrl}/v2/project/${h.apiKey}/dial`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-AUTH': await projectToken(h.apiKey, h.apiSecret) },
        body: JSON.stringify({
          sessionId: sipSession,
          token: await clientToken(h.apiKey, h.apiSecret, sipSession, 'publisher'),
          sip: { uri: 'sip:+15551234567@sip.example.com' },
        }),
      });
      expect(res.status).toBe(200);
      const call = (await res.json()) as { connectionId: string; streamId: string };
      h.advanceTo(h.control.now() + 3 * MINUTE);
      h.control.disconnect(h.apiKey, sipSession, call.connectionId);
      h.control.disconnect(h.apiKey, sipSession, viewer);
      h.advanceTo(h.control.now() + 6 * MINUTE);
      const q = await sessions(
        [sipSession],
        `publisherMinutes subscriberMinutes meetings { resources { publishers { resources { connectionId sdkType browser stream { streamId } } } } }`,
      );
      expect(resources(q)).toEqual([
        {
          publisherMinutes: 3,
          subscriberMinutes: 3,
          meetings: {
            resources: [
              { publishers: { resources: [{ connectionId: call.connectionId, sdkType: 'SIP', browser: null, stream: { streamId: call.streamId } }] } },
            ],
          },
        },
      ]);
    });

    it('answers several sessions in the order asked; an unknown one is a null item with 1017', async () => {
      const other = 'x'.repeat(10);
      const res = await sessions([sid, other], 'sessionId');
      expect(res.status).toBe(200);
      expect(res.json.data.project.sessionData.sessions).toEqual({ totalCount: 2, resources: [{ sessionId: sid }, null] });
      expect(res.json.errors).toEqual([
        {
          message: `sessionData sessions: Session ${other} not found`,
          locations: [expect.objectContaining({ line: 1 })],
          path: ['project', 'sessionData', 'sessions', 'resources', 1],
          errorCode: 1017,
          extensions: { errorCode: 1017 },
        },
      ]);
    });

    it('needs at least one session ID (1018)', async () => {
      for (const list of ['[]', '[""]', '[null]']) {
        const res = await h.project(`sessionData { sessions(sessionIds: ${list}) { resources { sessionId } } }`);
        expect(codes(res)).toEqual([1018]);
        expect(res.json.data.project.sessionData.sessions).toBeNull();
      }
    });

    it('needs the Advanced Insights add-on (1014), switchable in-process and over HTTP', async () => {
      h.control.setAdvancedInsights(h.apiKey, false);
      const res = await h.project(`sessionData { sessions(sessionIds: ["${sid}"]) { resources { sessionId } } }`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        data: { project: { sessionData: null } },
        errors: [
          {
            message: 'project sessionData: This query requires the Advanced Insights add-on',
            locations: [{ line: 1, column: '{ project(projectId: "'.length + h.apiKey.length + '") { '.length + 1 }],
            path: ['project', 'sessionData'],
            errorCode: 1014,
            extensions: { errorCode: 1014 },
          },
        ],
      });
      // projectData does not need it.
      const usage = await h.project('projectData(start: 0) { totalCount }');
      expect(usage.json.errors).toBeUndefined();
      const on = await fetch(`${h.emu.baseUrl}/_emulator/projects/${h.apiKey}/insights/advanced`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      });
      expect(on.status).toBe(204);
      expect(h.control.getProject(h.apiKey).insights.advancedInsights).toBe(true);
      expect(codes(await h.project(`sessionData { sessions(sessionIds: ["${sid}"]) { resources { sessionId } } }`))).toEqual([]);
    });

    it('forgets meetings 21 days after their creation (1016), summaries included', async () => {
      h.advanceTo(T0 + 21 * DAY + 30 * MINUTE);
      // The first meeting (created at T0) is gone, the second (T0 + 40 min) is still kept.
      const res = await sessions([sid], 'meetings { totalCount resources { createdAt } }');
      expect(resources(res)[0].meetings).toEqual({ totalCount: 1, resources: [{ createdAt: at(40) }] });
      h.advanceTo(T0 + 21 * DAY + 41 * MINUTE);
      const expired = await sessions([sid], 'sessionId');
      expect(codes(expired)).toEqual([1016]);
      expect(expired.json.errors[0].message).toBe(`sessionData sessions: Session ${sid} has expired (session data is kept 21 days)`);
      const summaries = await h.project(`sessionData { sessionSummaries(start: 0) { resources { sessionId } } }`);
      expect(summaries.json.data.project.sessionData.sessionSummaries.resources).not.toContainEqual({ sessionId: sid });
      const outside = await h.project(`sessionData { sessionSummaries(start: ${T0 - DAY}, end: ${T0 + 30 * MINUTE}) { totalCount } }`);
      expect(codes(outside)).toEqual([1002]);
    });
  });
});

describe('Insights sessionSummaries pagination', () => {
  it('walks all sessions page by page with endCursor (an empty cursor starts at the beginning)', async () => {
    const h = await InsightsHarness.start();
    try {
      const created: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const sid = h.control.createSession(h.apiKey);
        const c = h.control.connect(h.apiKey, sid);
        h.advanceTo(h.control.now() + MINUTE);
        h.control.disconnect(h.apiKey, sid, c);
        created.push(sid);
      }
      h.advanceTo(h.control.now() + 10 * MINUTE);
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      for (;;) {
        const res = await h.project(
          `sessionData { sessionSummaries(start: ${T0}, first: 3, endCursor: "${cursor}") { totalCount pageInfo { hasNextPage endCursor } resources { sessionId } } }`,
        );
        const page = res.json.data.project.sessionData.sessionSummaries;
        expect(page.totalCount).toBe(7);
        seen.push(...page.resources.map((r: { sessionId: string }) => r.sessionId));
        pages += 1;
        if (!page.pageInfo.hasNextPage) break;
        cursor = page.pageInfo.endCursor;
      }
      expect(pages).toBe(3);
      // Oldest first.
      expect(seen).toEqual(created);
      const bad = await h.project(`sessionData { sessionSummaries(start: ${T0}, endCursor: "not-a-cursor") { totalCount } }`);
      expect(codes(bad)).toEqual([1005]);
    } finally {
      await h.close();
    }
  });
});

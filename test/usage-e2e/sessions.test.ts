/**
 * End to end: `/usage sessions`, `/usage session <id>` and `/kick <stream-id>` — per-session data
 * from Advanced Insights: the add-on missing (1014), unknown (1017) and expired (1016) sessions,
 * rankings and details checked against the known week.
 */
import { ACTION } from '../../src/views/ids';
import { CHANNEL, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, renderedText } from '../harness/text';
import { DAY, MINUTE, WEEK_FINAL, advanceTo, graphqlRequests, seedKnownWeek, type SeededDay } from './fixtures';

describe('/usage sessions, /usage session, /kick <stream-id>', () => {
  let t: TestApp;
  let week: SeededDay[];

  beforeAll(async () => {
    t = await startTestApp({ useEmulatorClock: true });
    week = seedKnownWeek(t);
    advanceTo(t, WEEK_FINAL);
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  describe('without the Advanced Insights add-on (1014)', () => {
    it('explains why there are no top sessions, and what works without the add-on', async () => {
      const res = await t.slash('/usage', 'sessions');
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain('Per-session data needs the Advanced Insights add-on on this project.');
      expect(text).toContain('project *prod* does not have');
      expect(text).toContain('`/usage` (daily totals, tiers, SDKs, chart) works without it');
    });

    it('explains it for one session too', async () => {
      const res = await t.slash('/usage', `session ${week[0]!.sessionId}`);
      expect(renderedText((await res.waitForResponse()).body)).toContain('Per-session data needs the Advanced Insights add-on on this project.');
    });

    it('tells /kick with a stream ID that it needs the add-on to find the connection', async () => {
      const live = t.seedSession({ streams: 2 });
      const res = await t.slash('/kick', `${live.streams[1]} ${live.sessionId}`);
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toContain('I could not find which connection *Participant 2* uses, so nobody was disconnected.');
      expect(text).toContain('needs Advanced Insights, and project *prod* does not have it');
      // Nothing to confirm, nobody disconnected.
      expect(text).not.toContain('Disconnect');
      expect(t.emulator.control.getSession(t.project.apiKey, live.sessionId).connections.every((c) => c.connected)).toBe(true);
    });
  });

  describe('with the add-on', () => {
    beforeAll(() => {
      t.emulator.control.setAdvancedInsights(t.project.apiKey, true);
    });

    it('ranks the sessions of the last 7 days by participant minutes and posts them in the channel', async () => {
      const since = t.slack.mark();
      await t.slash('/usage', 'sessions');
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const text = renderedText(post.body);
      expect(text).toContain('Top sessions · last 7 days');
      expect(text).toContain('Tue 3 Nov – Mon 9 Nov 2026');
      // Days 1…6 of the week (Tuesday to Sunday): 60 participant minutes each, 50 − k published; ties by session ID.
      const rows = week.slice(1).sort((a, b) => a.sessionId.localeCompare(b.sessionId));
      rows.forEach((day, i) => {
        const k = week.indexOf(day);
        expect(text).toContain(`${i + 1}. \`${day.sessionId}\` — *60 min* participant · ${50 - k} min published · 1 meeting · up to 3 streams · 3 connections`);
      });
      expect(text).toContain('6 sessions had a meeting in this range.');
      expect(text).not.toContain(week[0]!.sessionId);
    });

    it('answers a range of one day, privately', async () => {
      const res = await t.slash('/usage', 'sessions 2026-11-04 --private');
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain(`1. \`${week[2]!.sessionId}\` — *60 min* participant · 48 min published`);
      expect(text).toContain('1 session had a meeting in this range.');
    });

    it('refuses a range older than the 21 days of per-session data', async () => {
      const res = await t.slash('/usage', 'sessions 2026-10-01..2026-10-10');
      expect(renderedText((await res.waitForResponse()).body)).toMatch(/Insights keeps per-session data for 21 days: the oldest day available is/);
    });

    it('shows one session’s meeting, each publisher’s connection and stream, and bitrates', async () => {
      const day = week[3]!;
      const res = await t.slash('/usage', `session ${day.sessionId}`);
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain(`\`${day.sessionId}\` · project *prod* · 1 meeting`);
      expect(text).toMatch(/\*Meeting 1\* · .* \(20 min\) · 47 min published · 3 publishers · 6 subscriptions/);
      for (const who of ['A', 'B', 'C'] as const) {
        expect(text).toContain(`• connection \`${day.connections[who]}\` → stream \`${day.streams[who]}\``);
      }
      // Camera streams between 400 and 900 kbps, the screen share between 150 and 500, audio 28–40.
      const lineOf = (who: 'A' | 'B' | 'C') => text.split('\n').slice(text.split('\n').findIndex((l) => l.includes(day.connections[who])) + 1)[0]!;
      const avg = (line: string, kind: 'video' | 'audio') => Number(new RegExp(`${kind} (\\d+) kbps avg`).exec(line)?.[1]);
      expect(avg(lineOf('A'), 'video')).toBeGreaterThanOrEqual(400);
      expect(avg(lineOf('A'), 'video')).toBeLessThanOrEqual(900);
      expect(avg(lineOf('C'), 'video')).toBeGreaterThanOrEqual(150);
      expect(avg(lineOf('C'), 'video')).toBeLessThanOrEqual(500);
      expect(avg(lineOf('B'), 'audio')).toBeGreaterThanOrEqual(28);
      expect(avg(lineOf('B'), 'audio')).toBeLessThanOrEqual(40);
    });

    it('answers the same lookup from the cache', async () => {
      const before = graphqlRequests(t);
      const res = await t.slash('/usage', `session ${week[3]!.sessionId}`);
      expect(renderedText((await res.waitForResponse()).body)).toContain('Cached: fetched from Insights just now.');
      expect(graphqlRequests(t)).toBe(before);
    });

    it('says when Insights does not know the session (1017)', async () => {
      const res = await t.slash('/usage', 'session 2_MX40NzAwMDAwMX5-doesnotexist');
      expect(renderedText((await res.waitForResponse()).body)).toContain(
        'Session not found. Check the session ID: per-session data appears a few minutes after a meeting and is kept for 21 days.',
      );
    });

    it('turns a stream ID given to /kick into its publisher’s connection, names the person, and disconnects that one', async () => {
      const live = t.seedSession({ streams: 2 });
      // Advanced session data is about 5 minutes behind.
      const early = await t.slash('/kick', `${live.streams[1]} ${live.sessionId}`);
      expect(renderedText((await early.waitForResponse()).body)).toContain(
        'Insights does not have this session yet: it shows sessions about 5 minutes after they start.',
      );

      advanceTo(t, t.emulator.control.now() + 6 * MINUTE);
      const res = await t.slash('/kick', `${live.streams[1]} ${live.sessionId}`);
      const card = await res.waitForResponse();
      const text = renderedText(card.body);
      expect(text).toContain('Disconnect *Participant 2 (camera)* from this session?');
      expect(text).toContain(`Connection \`${live.connections[1]}\``);

      const since = t.slack.mark();
      await t.click(ACTION.kickPerson, buttonValue(card.body, ACTION.kickPerson), { responseUrl: res.responseUrl });
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain('disconnected *Participant 2 (camera)* from session');
      expect(renderedText(post.body)).toContain(`connection \`${live.connections[1]}\``);
      const connections = t.emulator.control.getSession(t.project.apiKey, live.sessionId).connections;
      expect(connections.find((c) => c.connectionId === live.connections[1])?.connected).toBe(false);
      expect(connections.find((c) => c.connectionId === live.connections[0])?.connected).toBe(true);
    });

    it('still reads a connection ID given to /kick as a connection', async () => {
      const live = t.seedSession({ streams: 1 });
      const res = await t.slash('/kick', `${live.connections[0]} ${live.sessionId}`);
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toContain(`Disconnect connection \`${live.connections[0]}\``);
      expect(text).not.toContain('is a stream');
    });

    it('says a session older than 21 days has expired (1016)', async () => {
      advanceTo(t, t.emulator.control.now() + 22 * DAY);
      const res = await t.slash('/usage', `session ${week[0]!.sessionId}`);
      expect(renderedText((await res.waitForResponse()).body)).toContain('That session has expired: Insights keeps per-session data for 21 days.');
    });
  });
});

/**
 * End to end: `/usage schedule weekly|list|cancel` through Slack, and two scheduler instances
 * (two replicas) on one SQLite file delivering each week's report exactly once — also after a
 * downtime of several weeks — driven by the emulator's clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { scheduledReportDelivery } from '../../src/commands/usage/scheduled';
import { UsageScheduler } from '../../src/schedules';
import { SqliteStore } from '../../src/store/sqlite';
import { BOT_TOKEN, CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { DAY, KNOWN_WEEK, MINUTE, WEEK_FINAL, advanceTo, pngSize, seedKnownWeek } from './fixtures';

/** Tuesday 10 November 2026, 13:00 PST. */
const FIRST_DUE = Date.parse('2026-11-10T21:00:00Z');

describe('weekly usage reports', () => {
  let dir: string;
  let t: TestApp;
  /** The app's store (replica A) and a second connection to the same file (replica B). */
  let replicaA: SqliteStore;
  let replicaB: SqliteStore;
  let schedulers: [UsageScheduler, UsageScheduler];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidops-usage-schedules-'));
    const file = join(dir, 'vidops.sqlite');
    replicaA = new SqliteStore(file);
    t = await startTestApp({ useEmulatorClock: true, store: replicaA });
    replicaB = new SqliteStore(file);
    await replicaB.migrate();
    seedKnownWeek(t);
    advanceTo(t, WEEK_FINAL);

    const client = new WebClient(BOT_TOKEN, { slackApiUrl: t.slack.apiUrl, retryConfig: { retries: 0 } });
    const replica = (store: SqliteStore, owner: string) =>
      new UsageScheduler({
        store,
        deliver: scheduledReportDelivery(t.services, client),
        logger: t.services.logger,
        clock: () => t.emulator.control.now(),
        owner,
      });
    schedulers = [replica(replicaA, 'replica-a'), replica(replicaB, 'replica-b')];
  });

  afterAll(async () => {
    await replicaB.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runBoth = async () => {
    const [a, b] = await Promise.all(schedulers.map((s) => s.runOnce()));
    return { claimed: a!.claimed + b!.claimed, delivered: a!.delivered + b!.delivered, skipped: a!.skipped + b!.skipped, retried: a!.retried + b!.retried };
  };
  const reportsIn = (channel: string, since: number) => t.slack.callsOf('files.completeUploadExternal', since).filter((c) => c.body.channel_id === channel);

  describe('/usage schedule', () => {
    it('is for moderators: a viewer is told who can set one up', async () => {
      const res = await t.slash('/usage', 'schedule weekly', { user: USERS.viewer });
      const text = renderedText((await res.waitForResponse()).body);
      expect(text).toMatch(/needs the moderator role/i);
      expect(await replicaA.listSchedules('T0TEST')).toEqual([]);
    });

    it('sets up a weekly report in this channel, announces it and audits it', async () => {
      const since = t.slack.mark();
      await t.slash('/usage', 'schedule weekly tue 13:00');
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const text = renderedText(post.body);
      expect(text).toContain(
        `<@${USERS.moderator}> set up the weekly usage report #1 of project *prod* in <#${CHANNEL}>, every Tuesday at 13:00 (America/Los_Angeles).`,
      );
      expect(text).toContain(`The first one comes <!date^${FIRST_DUE / 1000}^`);
      const [schedule] = await replicaA.listSchedules('T0TEST');
      expect(schedule).toMatchObject({
        id: 1,
        channelId: CHANNEL,
        projectName: 'prod',
        weekday: 2,
        minuteOfDay: 13 * 60,
        timeZone: 'America/Los_Angeles',
        nextDueAt: FIRST_DUE,
        createdBy: USERS.moderator,
      });
      const [audit] = await t.store.listAudit('T0TEST', 1);
      expect(audit).toMatchObject({ command: '/usage schedule weekly', outcome: 'ok', target: `schedule 1 in ${CHANNEL}` });
    });

    it('takes a channel ID, a day, a time and a time zone in any order, and a breakdown', async () => {
      const since = t.slack.mark();
      await t.slash('/usage', 'schedule weekly Europe/Paris fri <#C0REPORTS|reports> 4:30pm --by sdk');
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      const second = await replicaA.getSchedule('T0TEST', 2);
      expect(second).toMatchObject({ channelId: 'C0REPORTS', weekday: 5, minuteOfDay: 16 * 60 + 30, timeZone: 'Europe/Paris', breakdown: 'sdk' });
      // Friday 13 November, 16:30 in Paris (CET, UTC+1).
      expect(second!.nextDueAt).toBe(Date.parse('2026-11-13T15:30:00Z'));
    });

    it('refuses a duplicate, a channel name it cannot resolve and an impossible time', async () => {
      const twin = await t.slash('/usage', 'schedule weekly 1pm PT tuesday');
      expect(renderedText((await twin.waitForResponse()).body)).toContain(
        'That report is already scheduled: #1, every Tuesday at 13:00 (America/Los_Angeles). Nothing was added.',
      );
      const named = await t.slash('/usage', 'schedule weekly #general');
      expect(renderedText((await named.waitForResponse()).body)).toContain('Slack sent “#general” as plain text');
      const late = await t.slash('/usage', 'schedule weekly mon 25:00');
      expect(renderedText((await late.waitForResponse()).body)).toContain('“25:00” is not a time of day');
      const what = await t.slash('/usage', 'schedule weekly mon 09:00 Mars/Olympus');
      expect(renderedText((await what.waitForResponse()).body)).toContain('“Mars/Olympus” is not a channel, a day, a time or a time zone');
      const verb = await t.slash('/usage', 'schedule daily');
      expect(renderedText(verb.ack)).toContain('say weekly, list or cancel');
      expect(await replicaA.listSchedules('T0TEST')).toHaveLength(2);
    });

    it('lists the schedules to anyone, privately', async () => {
      const res = await t.slash('/usage', 'schedule list', { user: USERS.viewer });
      const reply = await res.waitForResponse();
      expect(reply.body.response_type).toBe('ephemeral');
      const text = renderedText(reply.body);
      expect(text).toContain(`*#1* <#${CHANNEL}> · project *prod* · every Tuesday at 13:00 (America/Los_Angeles)`);
      expect(text).toContain('*#2* <#C0REPORTS> · project *prod* · every Friday at 16:30 (Europe/Paris) · by sdk');
    });

    it('cancels one (moderators), and says when there is no such schedule', async () => {
      const denied = await t.slash('/usage', 'schedule cancel 2', { user: USERS.viewer });
      expect(renderedText((await denied.waitForResponse()).body)).toMatch(/needs the moderator role/i);
      const since = t.slack.mark();
      await t.slash('/usage', 'schedule cancel 2');
      const post = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(post.body)).toContain(`<@${USERS.moderator}> cancelled the weekly usage report #2`);
      expect((await replicaA.listSchedules('T0TEST')).map((s) => s.id)).toEqual([1]);
      const again = await t.slash('/usage', 'schedule cancel 2');
      expect(renderedText((await again.waitForResponse()).body)).toContain('There is no active weekly report `#2`');
    });
  });

  describe('delivery by two replicas on one SQLite file', () => {
    it('posts nothing before the due time', async () => {
      const since = t.slack.mark();
      expect(await runBoth()).toEqual({ claimed: 0, delivered: 0, skipped: 0, retried: 0 });
      expect(reportsIn(CHANNEL, since)).toEqual([]);
    });

    it('posts last week’s report once when it is due, however many replicas run', async () => {
      advanceTo(t, FIRST_DUE + 30_000);
      const since = t.slack.mark();
      expect(await runBoth()).toEqual({ claimed: 1, delivered: 1, skipped: 0, retried: 0 });
      expect(await runBoth()).toEqual({ claimed: 0, delivered: 0, skipped: 0, retried: 0 });
      const [report, ...more] = reportsIn(CHANNEL, since);
      expect(more).toEqual([]);
      const text = renderedText(report!.body.blocks);
      expect(text).toContain('Video usage · last week');
      expect(text).toContain('Mon 2 Nov – Sun 8 Nov 2026');
      expect(text).toContain(`*Participant minutes*\n*${KNOWN_WEEK.participant} min*`);
      expect(text).toContain(`Weekly report #1, set up by <@${USERS.moderator}> · \`/usage schedule cancel 1\` stops it`);
      const upload = t.slack.uploads.find((u) => u.fileId === (report!.body.files as { id: string }[])[0]!.id)!;
      expect(pngSize(upload.bytes!)).toEqual({ width: 1600, height: 800 });

      expect(await replicaA.getSchedule('T0TEST', 1)).toMatchObject({ lastPeriod: '2026-11-02', nextDueAt: FIRST_DUE + 7 * DAY, failures: 0 });
      expect((await replicaA.getSchedule('T0TEST', 1))?.leaseOwner).toBeUndefined();
    });

    it('after a downtime of several weeks, posts once (the last full week) and waits for the next due time', async () => {
      // Down from before Tue 17 Nov until Thu 10 Dec: three due times missed.
      advanceTo(t, Date.parse('2026-12-10T18:00:00Z'));
      const since = t.slack.mark();
      expect(await runBoth()).toEqual({ claimed: 1, delivered: 1, skipped: 0, retried: 0 });
      expect(await runBoth()).toEqual({ claimed: 0, delivered: 0, skipped: 0, retried: 0 });
      const reports = reportsIn(CHANNEL, since);
      expect(reports).toHaveLength(1);
      expect(renderedText(reports[0]!.body.blocks)).toContain('Mon 30 Nov – Sun 6 Dec 2026');
      // Next: Tuesday 15 December, 13:00 PST.
      expect(await replicaA.getSchedule('T0TEST', 1)).toMatchObject({ lastPeriod: '2026-11-30', nextDueAt: Date.parse('2026-12-15T21:00:00Z') });
    });

    it('skips a week it cannot post (not in the channel) and shows why in the list', async () => {
      t.slack.setNotInChannel(CHANNEL);
      try {
        advanceTo(t, Date.parse('2026-12-15T21:00:05Z'));
        expect(await runBoth()).toEqual({ claimed: 1, delivered: 0, skipped: 1, retried: 0 });
        const schedule = await replicaA.getSchedule('T0TEST', 1);
        expect(schedule).toMatchObject({ lastPeriod: '2026-11-30', nextDueAt: Date.parse('2026-12-22T21:00:00Z') });
        expect(schedule?.lastError).toContain('Slack refused the post: not_in_channel (invite me with `/invite @vidops`)');
      } finally {
        t.slack.setNotInChannel(CHANNEL, false);
      }
      const res = await t.slash('/usage', 'schedule list', { channel: 'C0ELSEWHERE' });
      expect(renderedText((await res.waitForResponse()).body)).toContain(':warning: Last attempt failed: Slack refused the post: not_in_channel');
    });

    it('retries a week when Insights is down, then delivers it', async () => {
      advanceTo(t, Date.parse('2026-12-22T21:00:05Z'));
      t.emulator.control.injectFault({ path: '/insights/graphql', kind: 'status', status: 503, count: 10 });
      try {
        expect(await runBoth()).toEqual({ claimed: 1, delivered: 0, skipped: 0, retried: 1 });
      } finally {
        t.emulator.control.clearFaults();
      }
      const failed = await replicaA.getSchedule('T0TEST', 1);
      expect(failed).toMatchObject({ failures: 1, nextDueAt: Date.parse('2026-12-22T21:00:05Z') + 5 * MINUTE });
      expect(failed?.lastError).toContain('HTTP 503');

      advanceTo(t, Date.parse('2026-12-22T21:05:05Z'));
      const since = t.slack.mark();
      expect(await runBoth()).toEqual({ claimed: 1, delivered: 1, skipped: 0, retried: 0 });
      expect(reportsIn(CHANNEL, since)).toHaveLength(1);
      const delivered = await replicaA.getSchedule('T0TEST', 1);
      expect(delivered).toMatchObject({ failures: 0, lastPeriod: '2026-12-14', nextDueAt: Date.parse('2026-12-29T21:00:00Z') });
      expect(delivered?.lastError).toBeUndefined();
    });
  });
});

/**
 * Two replicas on one PostgreSQL schema posting to one busy channel: 30 recordings whose cards
 * share a channel stop at once, so 60 replies (stopped, then available) queue up there, and
 * both replicas poll and deliver on every tick. The fake Slack answers chat.postMessage as Slack
 * does past its limit: 429 with Retry-After 1 when the channel had a post less than a second
 * before. Paced, the channel gets one post per second at most, whichever replica sends it, no
 * 429, and every reply once. Without pacing the same run draws 429s (so the test can fail).
 * Time is the emulator's manual clock; nothing sleeps.
 */
import { RETRY_FAST, VideoClient } from '../../src/api';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { createLogger } from '../../src/log';
import { PollerService } from '../../src/poller/service';
import { DEFAULT_POLLER_SETTINGS } from '../../src/poller/settings';
import { posterClient, webClientPoster } from '../../src/poller/slack-poster';
import { archiveSnapshot } from '../../src/poller/snapshot';
import { storeTracker } from '../../src/poller/track';
import type { PostgresStore } from '../../src/store/postgres';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { describePostgres, freshSchema, storeIn } from '../store/postgres-harness';
import { duplicates } from './helpers';

const TOKEN = 'xoxb-pacing-test';
const TEAM = 'T0PACE';
const RECORDINGS = 30;
const logger = createLogger({ level: (process.env.VIDOPS_TEST_LOG as 'debug' | undefined) ?? 'silent', stream: process.stderr });

interface Run {
  /** Emulator times of the replies Slack took in the busy channel, oldest first. */
  postedAt: number[];
  /** 429s the fake Slack answered for posting too fast. */
  refused: number;
  delivered: { a: number; b: number };
  missing: string[];
  duplicated: string[];
}

describePostgres('two replicas posting to one busy channel', () => {
  let emulator: RunningEmulator;
  let slack: FakeSlack;
  const stores: PostgresStore[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
    slack = await startFakeSlack({ botToken: TOKEN, teamId: TEAM, clock: () => emulator.control.now() });
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all([slack.close(), emulator.close()]);
  });

  async function run(channel: string, channelIntervalMs: number): Promise<Run> {
    const schema = freshSchema();
    const open = async (): Promise<PostgresStore> => {
      const store = storeIn(schema);
      stores.push(store);
      await store.migrate();
      return store;
    };
    const [storeA, storeB] = [await open(), await open()];
    const { apiKey, apiSecret } = emulator.control.createProject({ name: `pacing-${channel}` });
    const client = new VideoClient({ baseUrl: emulator.baseUrl, apiKey, apiSecret, retry: RETRY_FAST });
    const clock = () => emulator.control.now();
    const replica = (store: PostgresStore, name: string) =>
      new PollerService({
        store,
        clientFor: () => client,
        poster: webClientPoster(posterClient({ botToken: TOKEN, slackApiUrl: slack.apiUrl, logger })),
        settings: { ...DEFAULT_POLLER_SETTINGS, budget: { capacity: 20, refillPerSecond: 10 } },
        logger,
        instanceId: name,
        clock,
        deliverer: { channelIntervalMs },
      });
    const [a, b] = [replica(storeA, 'replica-a'), replica(storeB, 'replica-b')];

    // Slack's limit for chat.postMessage: about one message per second per channel.
    const postedAt: number[] = [];
    let refused = 0;
    slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, Infinity, (body) => {
      if (body.channel !== channel || body.thread_ts === undefined) return false;
      const now = clock();
      const last = postedAt.at(-1);
      if (last !== undefined && now - last < 1_000) {
        refused += 1;
        return true;
      }
      postedAt.push(now);
      return false;
    });

    const sessionId = emulator.control.createSession(apiKey);
    emulator.control.publish(apiKey, sessionId, emulator.control.connect(apiKey, sessionId), { videoType: 'camera' });
    const cards = posterClient({ botToken: TOKEN, slackApiUrl: slack.apiUrl, logger });
    const track = storeTracker(storeA, clock);
    const recordings: { id: string; cardTs: string }[] = [];
    for (let i = 0; i < RECORDINGS; i++) {
      const started = await client.archives.start({ sessionId, name: `rec-${i}`, multiArchiveTag: `tag-${i}` });
      const cardTs = (await cards.chat.postMessage({ channel, text: 'card' })).ts!;
      await track({
        kind: 'archive',
        resourceId: started.id,
        sessionId,
        initialState: archiveSnapshot(started),
        target: { teamId: TEAM, channelId: channel, messageTs: cardTs, projectName: `pacing-${channel}` },
      });
      recordings.push({ id: started.id, cardTs });
    }
    for (const recording of recordings) await client.archives.stop(recording.id);

    const delivered = { a: 0, b: 0 };
    const expected = 2 * RECORDINGS;
    for (let tick = 0; tick < 1_200 && postedAt.length < expected; tick++) {
      emulator.control.advanceTime(250);
      await Promise.all([a.poller.runCycle(), b.poller.runCycle()]);
      const [da, db] = await Promise.all([a.deliverer.deliverOnce(), b.deliverer.deliverOnce()]);
      delivered.a += da.delivered;
      delivered.b += db.delivered;
    }
    // A few more rounds for anything posted twice to show.
    for (let tick = 0; tick < 20; tick++) {
      emulator.control.advanceTime(250);
      await Promise.all([a.deliverer.deliverOnce(), b.deliverer.deliverOnce()]);
    }

    const keys = slack
      .messages(channel)
      .map((m) => m.metadata?.event_payload?.key)
      .filter((k): k is string => typeof k === 'string');
    const missing: string[] = [];
    for (const { id, cardTs } of recordings) {
      const replies = slack.threadReplies(channel, cardTs).map((m) => m.text);
      if (!replies.includes('Recording stopped on request')) missing.push(`${id} stopped`);
      if (!replies.some((r) => r.startsWith('Recording available'))) missing.push(`${id} available`);
    }
    return { postedAt, refused, delivered, missing, duplicated: duplicates(keys) };
  }

  it('posts at most one message a second to the channel, whichever replica sends it: no 429, nothing lost or doubled', async () => {
    const { postedAt, refused, delivered, missing, duplicated } = await run('C0BUSY1', 1_000);
    expect({ missing, duplicated, refused }).toEqual({ missing: [], duplicated: [], refused: 0 });
    expect(postedAt).toHaveLength(2 * RECORDINGS);
    const gaps = postedAt.slice(1).map((at, i) => at - postedAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);
    const perSecond = (postedAt.length - 1) / ((postedAt.at(-1)! - postedAt[0]!) / 1_000);
    expect(perSecond).toBeLessThanOrEqual(1);
    // Still about one a second, not slower: the queue drains as fast as Slack allows.
    expect(perSecond).toBeGreaterThan(0.6);
    // Both replicas posted.
    expect(Math.min(delivered.a, delivered.b)).toBeGreaterThan(0);
  }, 120_000);

  it('without pacing, the same two replicas post faster than Slack allows and draw 429s', async () => {
    const { refused, missing, duplicated } = await run('C0BUSY2', 0);
    expect({ missing, duplicated }).toEqual({ missing: [], duplicated: [] });
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});

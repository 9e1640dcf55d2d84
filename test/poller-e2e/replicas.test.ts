/**
 * Two replicas on one PostgreSQL schema, each with its own Poller and OutboxDeliverer (as
 * main.ts runs them), against the emulator and the fake Slack, through a run of many changes:
 * every notification is posted exactly once, whichever replica polled or delivered it. Along the
 * way one replica crashes with leases held (mid-poll and mid-delivery, after its post reached
 * Slack) and comes back as a new process, Slack answers 429 and 500 for a while, and the video
 * service fails for a while. Time is the emulator's manual clock; nothing sleeps.
 */
import { RETRY_FAST, VideoClient } from '../../src/api';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { createLogger } from '../../src/log';
import { PollerService } from '../../src/poller/service';
import { DEFAULT_POLLER_SETTINGS } from '../../src/poller/settings';
import { posterClient, webClientPoster } from '../../src/poller/slack-poster';
import { archiveSnapshot, broadcastSnapshot, renderSnapshot } from '../../src/poller/snapshot';
import { storeTracker } from '../../src/poller/track';
import type { WatchStore } from '../../src/poller/watch';
import type { PostgresStore } from '../../src/store/postgres';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { storeWith } from '../poller/fakes';
import { describePostgres, freshSchema, storeIn } from '../store/postgres-harness';
import { duplicates } from './helpers';

const TOKEN = 'xoxb-replicas-test';
const TEAM = 'T0REPL';
const CHANNELS = ['C0REPA', 'C0REPB', 'C0REPC', 'C0REPD'];
const logger = createLogger({ level: (process.env.VIDOPS_TEST_LOG as 'debug' | undefined) ?? 'silent', stream: process.stderr });

/** A small deterministic PRNG, so a failing run can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describePostgres('two poller replicas on one PostgreSQL', () => {
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

  async function openStore(schema: string): Promise<PostgresStore> {
    const store = storeIn(schema);
    stores.push(store);
    await store.migrate();
    return store;
  }

  it('posts every change exactly once through crashes, Slack 429/500 and API failures', async () => {
    const schema = freshSchema();
    const { apiKey, apiSecret } = emulator.control.createProject({ name: 'replicas' });
    const client = new VideoClient({ baseUrl: emulator.baseUrl, apiKey, apiSecret, retry: RETRY_FAST });
    const clock = () => emulator.control.now();
    const replica = (store: WatchStore, name: string) =>
      new PollerService({
        store,
        clientFor: () => client,
        poster: webClientPoster(posterClient({ botToken: TOKEN, slackApiUrl: slack.apiUrl, logger })),
        settings: { ...DEFAULT_POLLER_SETTINGS, budget: { capacity: 20, refillPerSecond: 10 } },
        logger,
        instanceId: name,
        clock,
        random: mulberry32(name.length),
        deliverer: { leaseMs: 30_000, postTimeoutMs: 15_000 },
        poller: { leaseMs: 30_000 },
      });

    const storeA = await openStore(schema);
    const storeB = await openStore(schema);
    let a = replica(storeA, 'replica-a');
    const b = replica(storeB, 'replica-b');
    const track = storeTracker(storeA, clock);

    // What the commands would have started: 24 recordings in 6 sessions, 4 broadcasts, 4 composers, each with a card.
    const cardClient = posterClient({ botToken: TOKEN, slackApiUrl: slack.apiUrl, logger });
    const sessions: { sessionId: string; connectionId: string; streamId: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const sessionId = emulator.control.createSession(apiKey);
      const connectionId = emulator.control.connect(apiKey, sessionId);
      sessions.push({ sessionId, connectionId, streamId: emulator.control.publish(apiKey, sessionId, connectionId, { videoType: 'camera' }) });
    }
    const archives: { id: string; sessionId: string; channel: string; cardTs: string }[] = [];
    const others: { kind: 'broadcast' | 'render'; id: string; channel: string; cardTs: string }[] = [];
    const card = async (channel: string) => (await cardClient.chat.postMessage({ channel, text: 'card' })).ts!;
    for (let i = 0; i < 24; i++) {
      const session = sessions[i % sessions.length]!;
      const started = await client.archives.start({ sessionId: session.sessionId, name: `rec-${i}`, multiArchiveTag: `tag-${i}` });
      const channel = CHANNELS[i % CHANNELS.length]!;
      const cardTs = await card(channel);
      await track({
        kind: 'archive',
        resourceId: started.id,
        sessionId: session.sessionId,
        initialState: archiveSnapshot(started),
        target: { teamId: TEAM, channelId: channel, messageTs: cardTs, projectName: 'replicas' },
      });
      archives.push({ id: started.id, sessionId: session.sessionId, channel, cardTs });
    }
    for (let i = 0; i < 4; i++) {
      const session = sessions[i]!;
      const channel = CHANNELS[i]!;
      const broadcast = await client.broadcasts.start({
        sessionId: session.sessionId,
        outputs: { rtmp: [{ id: `out${i}`, serverUrl: 'rtmp://live.example.com:1935/app', streamName: 'key' }] },
        multiBroadcastTag: `b-${i}`,
      });
      const bTs = await card(channel);
      await track({
        kind: 'broadcast',
        resourceId: broadcast.id,
        sessionId: session.sessionId,
        initialState: broadcastSnapshot(broadcast, clock()),
        target: { teamId: TEAM, channelId: channel, messageTs: bTs, projectName: 'replicas' },
      });
      others.push({ kind: 'broadcast', id: broadcast.id, channel, cardTs: bTs });
      const render = await client.render.start({ sessionId: session.sessionId, url: 'https://example.com/page' });
      const rTs = await card(channel);
      await track({
        kind: 'render',
        resourceId: render.id,
        sessionId: session.sessionId,
        initialState: renderSnapshot(render),
        target: { teamId: TEAM, channelId: channel, messageTs: rTs, projectName: 'replicas' },
      });
      others.push({ kind: 'render', id: render.id, channel, cardTs: rTs });
    }

    const random = mulberry32(7);
    const work = { aPolled: 0, bPolled: 0, aDelivered: 0, bDelivered: 0 };
    let recovered = 0;
    const both = async () => {
      const [ca, cb] = await Promise.all([a.poller.runCycle(), b.poller.runCycle()]);
      const [da, db] = await Promise.all([a.deliverer.deliverOnce(), b.deliverer.deliverOnce()]);
      work.aPolled += ca.polled;
      work.bPolled += cb.polled;
      work.aDelivered += da.delivered + da.recovered;
      work.bDelivered += db.delivered + db.recovered;
      recovered += da.recovered + db.recovered;
    };
    const tick = async (ms: number) => {
      emulator.control.advanceTime(ms);
      await both();
    };

    // A run of changes: pauses and resumes, stops, output statuses, composers ending.
    const stopped = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const archive = archives[Math.floor(random() * archives.length)]!;
      if (!stopped.has(archive.id) && random() < 0.5) {
        await client.archives.stop(archive.id);
        stopped.add(archive.id);
      }
      if (round % 10 === 3) {
        const session = sessions[Math.floor(random() * sessions.length)]!;
        emulator.control.unpublish(apiKey, session.sessionId, session.streamId);
        await tick(4_000);
        session.streamId = emulator.control.publish(apiKey, session.sessionId, session.connectionId, { videoType: 'camera' });
      }
      if (round === 8) {
        // Slack rate-limits and fails for a while.
        slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 7 }, 3);
        slack.failNext('chat.update', { status: 500 }, 2);
        slack.failNext('chat.postMessage', { status: 500 }, 3);
      }
      if (round === 14) {
        // Replica A crashes mid-poll, with its watches leased, and comes back as a new process.
        // It has taken its leases before the test goes on: at this point of the emulator's clock,
        // whatever the machine's load, so they run out at the same point in every run.
        let claimed!: () => void;
        const leased = new Promise<void>((resolve) => (claimed = resolve));
        const crashing = replica(
          storeWith(storeA, {
            claimDue: async (...args) => {
              const watches = await storeA.claimDue(...args);
              claimed();
              return watches;
            },
            completePolls: () => new Promise<boolean[]>(() => undefined),
          }),
          'replica-a-crashing',
        );
        await Promise.race([leased, crashing.poller.runCycle()]);
        a = replica(await openStore(schema), 'replica-a-restarted');
      }
      if (round === 20) {
        // Replica A crashes after Slack took its post, before the row was marked delivered.
        // First everything pending goes out, so that the stop below heads its channel's queue.
        for (let i = 0; i < 60; i++) {
          emulator.control.advanceTime(1_000);
          const [da, db] = await Promise.all([a.deliverer.deliverOnce(), b.deliverer.deliverOnce()]);
          if (da.claimed + db.claimed === 0 && i > 20) break;
        }
        const stopOne = archives.find((x) => !stopped.has(x.id))!;
        await client.archives.stop(stopOne.id);
        stopped.add(stopOne.id);
        // Hinted, as the app hints after a stop it made: the watch may be kept by either replica,
        // and, left to its schedule, polled only a slow interval later (which replica keeps it
        // depends on how far the replica that crashed at round 14 got).
        await b.poller.pollNow({ resourceId: stopOne.id });
        emulator.control.advanceTime(3_000);
        await Promise.all([a.poller.runCycle(), b.poller.runCycle()]);
        const crashing = replica(storeWith(storeA, { markDelivered: () => new Promise<boolean>(() => undefined) }), 'replica-a-crashing-2');
        const since = slack.mark();
        void crashing.deliverer.deliverOnce();
        await slack.waitForCall('chat.postMessage', (c) => String(c.body.text) === 'Recording stopped on request', { since });
        a = replica(await openStore(schema), 'replica-a-restarted-2');
      }
      if (round === 26) {
        // The video service fails for a while.
        emulator.control.injectFault({ method: 'GET', path: '/v2/project/', kind: 'status', status: 500, count: 6 });
      }
      if (round === 30) {
        for (const other of others) {
          if (other.kind === 'broadcast') await client.broadcasts.stop(other.id);
          else await client.render.stop(other.id);
        }
      }
      await tick(1_000 + Math.floor(random() * 3_000));
    }
    // Stop what is left, then let everything settle (leases of the crashed processes run out).
    for (const archive of archives) {
      if (!stopped.has(archive.id)) {
        await client.archives.stop(archive.id);
        stopped.add(archive.id);
      }
    }
    for (let i = 0; i < 40; i++) await tick(5_000);

    // Every notification once, in the thread of its card.
    const messages = CHANNELS.flatMap((c) => slack.messages(c));
    const keys = messages.map((m) => m.metadata?.event_payload?.key).filter((k): k is string => typeof k === 'string');
    expect(duplicates(keys)).toEqual([]);
    for (const archive of archives) {
      const replies = slack.threadReplies(archive.channel, archive.cardTs).map((m) => m.text);
      expect({ archive: archive.id, stopped: replies.filter((r) => r === 'Recording stopped on request').length }).toEqual({ archive: archive.id, stopped: 1 });
      expect({ archive: archive.id, available: replies.filter((r) => r.startsWith('Recording available')).length }).toEqual({
        archive: archive.id,
        available: 1,
      });
      expect(replies.filter((r) => r.includes('paused')).length).toBe(replies.filter((r) => r.includes('resumed')).length);
    }
    for (const other of others) {
      const replies = slack.threadReplies(other.channel, other.cardTs).map((m) => m.text);
      const final = other.kind === 'broadcast' ? 'Broadcast stopped' : 'Composer stopped: stop requested';
      expect({ id: other.id, final: replies.filter((r) => r === final).length }).toEqual({ id: other.id, final: 1 });
    }
    // Nothing left behind: no watch, no pending or abandoned notification.
    expect(await storeB.listWatches({ projectName: 'replicas' })).toEqual([]);
    const rows = (
      await Promise.all([...archives, ...others].map((x) => storeB.listOutbox(`${TEAM}:${x.channel}:${'kind' in x ? x.kind : 'archive'}:${x.id}`)))
    ).flat();
    expect(rows.filter((r) => r.deliveredAt === undefined)).toEqual([]);
    const replyRows = rows.filter((r) => r.payload.type === 'reply');
    expect(new Set(replyRows.map((r) => r.messageTs)).size).toBe(replyRows.length);
    expect(keys.sort()).toEqual(replyRows.map((r) => r.idempotencyKey).sort());
    // The duplicate check found the post of the replica that crashed after posting, instead of posting again.
    expect(slack.callsOf('conversations.replies').length).toBeGreaterThan(0);
    expect(recovered).toBeGreaterThanOrEqual(1);
    // Slack's refusals were retried: more attempts than messages.
    expect(slack.callsOf('chat.postMessage').length).toBeGreaterThan(messages.length);
    // Both replicas did the work.
    expect(work).toEqual({ aPolled: expect.any(Number), bPolled: expect.any(Number), aDelivered: expect.any(Number), bDelivered: expect.any(Number) });
    expect(Math.min(work.aPolled, work.bPolled, work.aDelivered, work.bDelivered)).toBeGreaterThan(0);
  }, 120_000);
});

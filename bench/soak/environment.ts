/**
 * The soak's environment process: the video service emulator (real clock) and the fake Slack
 * Web API, i.e. the remote services. It seeds sessions, 10,000 resources and a card message per
 * resource, then, once told to, changes resources steadily and injects faults, and keeps the
 * notification ledger (bench/soak/ledger.ts). Run by bench/soak.ts; answers its requests.
 */
import { RETRY_DEFAULT, VideoClient } from '../../src/api';
import type { Archive } from '../../src/api/archives';
import type { Broadcast } from '../../src/api/broadcasts';
import type { Render } from '../../src/api/render';
import { startEmulator } from '../../src/emulator';
import { NOTIFICATION_EVENT_TYPE } from '../../src/poller/delivery';
import { type StoredMessage, startFakeSlack } from '../../test/harness/fake-slack';
import { mulberry32, shuffled } from '../lib/stats';
import { serve } from '../lib/peer';
import { NotificationLedger, type Post, notificationId, tsToMs } from './ledger';
import { type FaultKind, FAULT_KINDS, type SeedOptions, type Seeded, type WatchedResource, BOT_TOKEN, TEAM, sessionChannel } from './protocol';

type Client = VideoClient;

interface Driver {
  stop(): void;
}

async function main(): Promise<void> {
  // Broadcasts go live and composers start at once, so seeding ends with settled resources and
  // every notification of the run comes from a change the driver made.
  const emulator = await startEmulator({ clock: 'real', transitions: { rtmpLiveMs: 0, hlsReadyMs: 0, hlsLiveMs: 0, renderStartMs: 0 } });
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM, clock: () => emulator.control.now() });
  const ledger = new NotificationLedger();
  const injected = new Map<string, number>();
  let client: Client | undefined;
  let apiKey = '';
  let sessions: string[] = [];
  let watched: WatchedResource[] = [];
  let driver: Driver | undefined;
  let windowStart = Date.now();
  /** Calls and responses recorded before this mark are forgotten at the next window. */
  let forgetFrom = 0;

  const postCard = async (channel: string, text: string): Promise<string> => {
    const res = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel, text }),
    });
    const body = (await res.json()) as { ok: boolean; ts?: string; error?: string };
    if (!body.ok || !body.ts) throw new Error(`posting a card failed: ${body.error}`);
    return body.ts;
  };

  const inBatches = async <T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (let start = 0; start < count; start += 50)
      out.push(...(await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_v, k) => make(start + k)))));
    return out;
  };

  /** Every notification post the fake Slack holds, in every channel of the run. */
  const posts = function* (): Generator<Post> {
    for (let i = 0; i < sessions.length; i++) {
      for (const message of slack.messages(sessionChannel(i))) {
        const key = message.metadata?.event_type === NOTIFICATION_EVENT_TYPE ? message.metadata.event_payload?.key : undefined;
        if (typeof key === 'string') yield { key, postedAt: tsToMs(message.ts) };
      }
    }
  };

  async function seed(o: SeedOptions): Promise<Seeded> {
    const project = emulator.control.createProject({ name: 'prod' });
    apiKey = project.apiKey;
    const c = new VideoClient({ baseUrl: emulator.baseUrl, apiKey: project.apiKey, apiSecret: project.apiSecret, retry: RETRY_DEFAULT });
    client = c;
    sessions = Array.from({ length: o.sessions }, () => {
      const sessionId = emulator.control.createSession(apiKey, { mediaMode: 'routed' });
      const connectionId = emulator.control.connect(apiKey, sessionId);
      emulator.control.publish(apiKey, sessionId, connectionId, { videoType: 'camera', name: 'Speaker' });
      return sessionId;
    });
    await inBatches(o.archives, (i) => c.archives.start({ sessionId: sessions[i % o.sessions]!, name: `rec-${i}`, multiArchiveTag: `t${i}` }));
    await inBatches(o.broadcasts, (i) =>
      c.broadcasts.start({
        sessionId: sessions[i % o.sessions]!,
        multiBroadcastTag: `b${i}`,
        outputs: { rtmp: [{ id: 'out', serverUrl: 'rtmps://live.example.com:443/app', streamName: `key-${i}` }] },
      }),
    );
    await inBatches(o.renders, (i) => c.render.start({ sessionId: sessions[i % o.sessions]!, url: `https://example.com/page/${i}` }));
    // Read back once settled (live broadcasts, started composers): the watches start from there.
    const all = async <T>(list: (offset: number) => Promise<{ items: T[] }>, total: number): Promise<T[]> => {
      const out: T[] = [];
      for (let offset = 0; offset < total; offset += 1000) out.push(...(await list(offset)).items);
      return out;
    };
    const archives = await all<Archive>((offset) => c.archives.list({ offset, count: 1000 }), o.archives);
    const broadcasts = await all<Broadcast>((offset) => c.broadcasts.list({ offset, count: 1000 }), o.broadcasts);
    const renders = await all<Render>((offset) => c.render.list({ offset, count: 1000 }), o.renders);
    const channelOf = (sessionId: string) => sessionChannel(sessions.indexOf(sessionId));
    const pick = <T extends object>(item: T, keys: (keyof T)[]): T => Object.fromEntries(keys.map((k) => [k, item[k]])) as T;
    const card = async (kind: WatchedResource['kind'], resource: { id: string; sessionId: string }) => {
      const channelId = channelOf(resource.sessionId);
      return { channelId, messageTs: await postCard(channelId, `${kind} ${resource.id}`) };
    };
    watched = [
      ...(await inBatches(archives.length, async (i) => {
        const a = archives[i]!;
        return {
          kind: 'archive' as const,
          resource: pick(a, ['id', 'sessionId', 'status', 'createdAt', 'duration', 'size', 'name', 'reason']),
          ...(await card('archive', a)),
        };
      })),
      ...(await inBatches(broadcasts.length, async (i) => {
        const b = broadcasts[i]!;
        return {
          kind: 'broadcast' as const,
          resource: pick(b, ['id', 'sessionId', 'status', 'createdAt', 'maxDuration', 'broadcastUrls']),
          ...(await card('broadcast', b)),
        };
      })),
      ...(await inBatches(renders.length, async (i) => {
        const r = renders[i]!;
        return { kind: 'render' as const, resource: pick(r, ['id', 'sessionId', 'status', 'createdAt', 'name', 'reason']), ...(await card('render', r)) };
      })),
    ];
    const notLive = broadcasts.filter((b) => b.status !== 'started').length + renders.filter((r) => r.status !== 'started').length;
    if (notLive > 0) throw new Error(`${notLive} broadcasts or composers had not settled after seeding`);
    return {
      videoApiUrl: emulator.baseUrl,
      insightsUrl: emulator.insightsUrl,
      slackApiUrl: slack.apiUrl,
      apiKey: project.apiKey,
      apiSecret: project.apiSecret,
      sessions,
      counts: { archives: archives.length, broadcasts: broadcasts.length, renders: renders.length },
      archiveProcessingMs: emulator.control.transitions().archiveProcessingMs,
    };
  }

  /**
   * Steady changes: `perSecond` a second, 70 % recordings stopped (two notifications: stopped,
   * then available once processed), 10 % broadcast outputs offline, 10 % composers stopped, 10 %
   * broadcasts stopped (only those whose output went offline at least 10 s before, as stopping
   * takes the outputs down with it). Faults: `faultsPerMinute`, a kind at random.
   *
   * A broadcast is stopped only once its offline output was posted (and at least `settleMs`
   * after it went offline): a state that came and went between two polls cannot be reported by
   * any poller, and a poller running late (a starved CPU) must not turn that into a "loss".
   */
  function startDriver(perSecond: number, faultsPerMinute: number, settleMs: number): Driver {
    const c = client!;
    const random = mulberry32(7);
    const ids = (kind: WatchedResource['kind']) =>
      shuffled(
        watched.filter((w) => w.kind === kind).map((w) => w.resource.id),
        random,
      );
    const archives = ids('archive');
    const broadcasts = ids('broadcast');
    const renders = ids('render');
    const offlineAt = new Map<string, number>();
    const channelOf = new Map(watched.map((w) => [w.resource.id, w.channelId]));
    const posted = (id: string, transition: string): boolean =>
      slack.messages(channelOf.get(id)!).some((m) => {
        const key = m.metadata?.event_type === NOTIFICATION_EVENT_TYPE ? m.metadata.event_payload?.key : undefined;
        return typeof key === 'string' && notificationId(key) === `${id}|${transition}`;
      });
    const processingMs = emulator.control.transitions().archiveProcessingMs;
    let changing = false;
    const change = async (): Promise<void> => {
      const roll = random();
      const now = () => emulator.control.now();
      if (roll < 0.7 && archives.length > 0) {
        const id = archives.pop()!;
        await c.archives.stop(id);
        const at = now();
        ledger.expect(`${id}|archive:stopped`, at);
        ledger.expect(`${id}|archive:available`, at + processingMs);
      } else if (roll < 0.8 && broadcasts.length > 0) {
        const id = broadcasts.pop()!;
        emulator.control.setBroadcastOutputStatus(apiKey, id, { rtmp: { out: 'offline' } });
        offlineAt.set(id, now());
        ledger.expect(`${id}|broadcast:rtmp:out:offline`, now());
      } else if (roll < 0.9 && renders.length > 0) {
        const id = renders.pop()!;
        await c.render.stop(id);
        ledger.expect(`${id}|render:stopped`, now());
      } else {
        const ready = [...offlineAt].find(([id, at]) => at <= now() - settleMs && posted(id, 'broadcast:rtmp:out:offline'));
        if (!ready) return;
        offlineAt.delete(ready[0]);
        await c.broadcasts.stop(ready[0]);
        ledger.expect(`${ready[0]}|broadcast:stopped`, now());
      }
    };
    const changes = setInterval(() => {
      // One change at a time: a slow answer delays the next instead of piling them up.
      if (changing) return;
      changing = true;
      change()
        .catch((error: unknown) => injected.set(`driver error: ${String(error)}`, (injected.get(`driver error: ${String(error)}`) ?? 0) + 1))
        .finally(() => (changing = false));
    }, 1000 / perSecond);
    const faults = setInterval(() => {
      const kind = FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!;
      inject(kind);
      injected.set(kind, (injected.get(kind) ?? 0) + 1);
    }, 60_000 / faultsPerMinute);
    return {
      stop() {
        clearInterval(changes);
        clearInterval(faults);
      },
    };
  }

  /**
   * Faults hit reads only (GET), the app's: the driver's own writes must not take them. At most
   * one video service fault waits at a time: faults left waiting while the poller backs off
   * would all hit its first request after the back-off, a storm no real service produces.
   */
  /** Taken by the first call it is offered to: notes whose channel the 429 holds back. */
  function noteRateLimit(body: Record<string, unknown>): boolean {
    if (typeof body.channel === 'string') ledger.rateLimited({ channel: body.channel, at: Date.now() });
    return true;
  }

  function inject(kind: FaultKind): void {
    if (kind.startsWith('api ')) emulator.control.clearFaults();
    const isNotification = (body: Record<string, unknown>) => (body.metadata as { event_type?: string } | undefined)?.event_type === NOTIFICATION_EVENT_TYPE;
    switch (kind) {
      case 'slack 429 chat.postMessage':
        return slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, 1, noteRateLimit);
      case 'slack 429 chat.update':
        return slack.failNext('chat.update', { status: 429, retryAfterSeconds: 1 }, 1, noteRateLimit);
      case 'slack 500 after posting a notification':
        return slack.failNext('chat.postMessage', { status: 500, applied: true }, 1, isNotification);
      case 'api 500 on a read':
        return emulator.control.injectFault({ method: 'GET', path: '/v2/project/', kind: 'status', status: 500 });
      case 'api 429 on a read':
        return emulator.control.injectFault({ method: 'GET', path: '/v2/project/', kind: 'status', status: 429, retryAfterSeconds: 1 });
      case 'api connection reset on a read':
        return emulator.control.injectFault({ method: 'GET', path: '/v2/project/', kind: 'reset' });
    }
  }

  /** The value of the first button with `actionId` (any button when undefined) in `blocks`. */
  const findButton = (blocks: unknown, actionId: string | undefined): string | undefined => {
    if (Array.isArray(blocks)) {
      for (const block of blocks) {
        const found = findButton(block, actionId);
        if (found !== undefined) return found;
      }
    } else if (blocks && typeof blocks === 'object') {
      const record = blocks as Record<string, unknown>;
      if ((actionId === undefined ? typeof record.action_id === 'string' : record.action_id === actionId) && typeof record.value === 'string')
        return record.value;
      for (const value of Object.values(record)) {
        const found = typeof value === 'object' ? findButton(value, actionId) : undefined;
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  /**
   * Per channel, its messages with a button that `channelButton` has not handed out (each is
   * clicked once), and how many of its messages were looked at: a lookup reads only what was
   * posted since the one before. Reading the whole channel on every post while waiting for a
   * notice (the commands' answers: tens of thousands an hour) made this process's CPU grow with
   * the run until, 53 minutes into a 60-minute soak, it starved (bench/README.md, 2026-11-28).
   */
  const withButtons = new Map<string, { seen: number; open: StoredMessage[] }>();
  const openButtons = (channel: string): StoredMessage[] => {
    let entry = withButtons.get(channel);
    if (entry === undefined) withButtons.set(channel, (entry = { seen: 0, open: [] }));
    const fresh = slack.messages(channel, entry.seen);
    entry.seen += fresh.length;
    for (const message of fresh) if (findButton(message.blocks, undefined) !== undefined) entry.open.push(message);
    return entry.open;
  };

  serve(
    {
      seed: (msg) => seed(msg.options as SeedOptions),
      /** A slice of the watched resources (with their cards), so no message is large. */
      watched: (msg) => watched.slice(Number(msg.offset), Number(msg.offset) + Number(msg.count)),
      responseUrl: () => slack.newResponseUrl(),
      /**
       * The newest message in `channel`, not handed out before, with button `actionId` and
       * `mentions` in its blocks (the notice a command posted): its ts and the button's value.
       */
      channelButton: async (msg) => {
        const channel = String(msg.channel);
        const actionId = String(msg.actionId);
        const mentions = String(msg.mentions);
        const deadline = Date.now() + Number(msg.timeoutMs);
        const wanted = (m: StoredMessage) => findButton(m.blocks, actionId) !== undefined && JSON.stringify(m.blocks).includes(mentions);
        for (;;) {
          const since = slack.mark();
          const open = openButtons(channel);
          const index = open.findLastIndex(wanted);
          if (index >= 0) {
            const [found] = open.splice(index, 1);
            return { ts: found!.ts, value: findButton(found!.blocks, actionId) };
          }
          const left = deadline - Date.now();
          if (left <= 0) return undefined;
          await slack.waitForCall('chat.postMessage', (c) => c.body.channel === channel, { since, timeoutMs: left }).catch(() => undefined);
        }
      },
      startDriver: (msg) => {
        driver = startDriver(Number(msg.changesPerSecond), Number(msg.faultsPerMinute), Number(msg.settleMs));
        windowStart = Date.now();
      },
      stopDriver: () => driver?.stop(),
      /** What happened since the last window: notifications, injected faults, Slack calls. */
      window: () => {
        const now = Date.now();
        // What was recorded before the last window is no longer waited on (waits last seconds).
        slack.forgetBefore(forgetFrom);
        forgetFrom = slack.mark();
        ledger.observe(posts());
        const result = { ...ledger.window(windowStart, now), injected: Object.fromEntries(injected) };
        injected.clear();
        windowStart = now;
        return result;
      },
      /**
       * Waits (on fake Slack calls, at most `timeoutMs`) until every expected notification is
       * posted, then reads the ledger one last time, `settleMs` later, to catch late duplicates.
       */
      drain: async (msg) => {
        const deadline = Date.now() + Number(msg.timeoutMs);
        for (;;) {
          ledger.observe(posts());
          const totals = ledger.totals(Number.POSITIVE_INFINITY);
          if (totals.lost.length === 0 || Date.now() >= deadline) break;
          const since = slack.mark();
          await slack
            .waitForCall('chat.postMessage', undefined, { since, timeoutMs: Math.max(1, Math.min(5_000, deadline - Date.now())) })
            .catch(() => undefined);
        }
        const settleUntil = Date.now() + Number(msg.settleMs);
        while (Date.now() < settleUntil) {
          const since = slack.mark();
          await slack.waitForCall('chat.postMessage', undefined, { since, timeoutMs: Math.max(1, settleUntil - Date.now()) }).catch(() => undefined);
        }
        ledger.observe(posts());
        return ledger.totals(Number.POSITIVE_INFINITY);
      },
      load: () => {
        const usage = process.cpuUsage();
        return { cpuMs: (usage.user + usage.system) / 1000 };
      },
      slackCalls: () => slack.callCounts(),
    },
    () => Promise.all([slack.close(), emulator.close()]),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

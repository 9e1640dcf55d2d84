/**
 * The soak's app process, run as compiled JavaScript with a capped heap (bench/lib/compile.ts)
 * so that its RSS is the app's alone: either vidops as `node dist/main.js` runs it (environment
 * → loadConfig → startVidops: SQLite file store, poller, Bolt HTTP receiver, usage scheduler), or
 * the floor, a bare Bolt app that acks every command and action.
 *
 *   argv: --role vidops|floor
 */
import { rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import type { Archive } from '../../src/api/archives';
import type { Broadcast } from '../../src/api/broadcasts';
import type { Render } from '../../src/api/render';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { type PollerSettings, pollerSettingsFromEnv } from '../../src/poller/settings';
import { archiveSnapshot, broadcastSnapshot, renderSnapshot } from '../../src/poller/snapshot';
import { storeTracker } from '../../src/poller/track';
import { parsePolicy } from '../../src/rbac/policy';
import { type RunningVidops, startVidops } from '../../src/runtime';
import { LoopDelay } from '../lib/loop-delay';
import { serve } from '../lib/peer';
import { BOT_TOKEN, POLICY, type Seeded, SIGNING_SECRET, TEAM, type WatchedResource } from './protocol';

/** The project name loadConfig gives VIDEO_API_KEY / VIDEO_API_SECRET. */
const PROJECT = 'default';

async function startFloor(seeded: Seeded): Promise<number> {
  const app = new App({
    token: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    processBeforeResponse: false,
    convoStore: false,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: seeded.slackApiUrl },
  });
  app.command(/.*/, async ({ ack }) => {
    await ack();
  });
  app.action(/.*/, async ({ ack }) => {
    await ack();
  });
  const server = (await app.start(0)) as Server;
  return (server.address() as AddressInfo).port;
}

/** The SQLite file (when no database is given) and the policy file of this process; removed when it stops. */
const FILES = `/tmp/vidops-soak-${process.pid}`;
const removeFiles = () => {
  for (const suffix of ['.sqlite', '.sqlite-wal', '.sqlite-shm', '-policy.json']) rmSync(`${FILES}${suffix}`, { force: true });
};

/** `databaseUrl` undefined: a fresh SQLite file under /tmp. */
async function startApp(
  seeded: Seeded,
  pollerEnv: Record<string, string>,
  databaseUrl: string | undefined,
): Promise<{ running: RunningVidops; settings: PollerSettings }> {
  const files = FILES;
  removeFiles();
  writeFileSync(`${files}-policy.json`, JSON.stringify(POLICY));
  const env = {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: seeded.slackApiUrl,
    PORT: '0',
    VIDEO_API_URL: seeded.videoApiUrl,
    VIDEO_INSIGHTS_URL: seeded.insightsUrl,
    VIDEO_API_KEY: seeded.apiKey,
    VIDEO_API_SECRET: seeded.apiSecret,
    VIDOPS_POLICY_FILE: `${files}-policy.json`,
    DATABASE_URL: databaseUrl ?? `sqlite:${files}.sqlite`,
    LOG_LEVEL: 'warn',
    ...pollerEnv,
  };
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const { config } = loaded;
  const policy = parsePolicy(config.policy?.document);
  if (!policy.ok) throw new Error(policy.problems.join('; '));
  const settings = pollerSettingsFromEnv(env);
  if (!settings.ok) throw new Error(settings.problems.join('; '));
  if (!config.slack || !config.video) throw new Error('Slack and video settings are both required');
  const logger = createLogger({ level: config.logLevel, bindings: { service: 'vidops' } });
  const running = await startVidops({
    config: { ...config, slack: config.slack, video: config.video },
    policy: policy.policy,
    pollerSettings: settings.settings,
    logger,
  });
  return { running, settings: settings.settings };
}

/** How late timers run in this process: what any request waits behind. Reset at each reading. */
const loopDelay = new LoopDelay(10).enable();
/** The same from the end of the warm-up on (`warm`), for the run's verdict. */
const runLoopDelay = new LoopDelay(10);

const roleIndex = process.argv.indexOf('--role');
const role = process.argv[roleIndex + 1];
let vidops: { running: RunningVidops; settings: PollerSettings } | undefined;

serve(
  {
    start: async (msg) => {
      const seeded = msg.seeded as Seeded;
      if (role === 'floor') return { port: await startFloor(seeded) };
      vidops = await startApp(seeded, msg.pollerEnv as Record<string, string>, msg.databaseUrl as string | undefined);
      const { schedule, budget, tickMs, thread } = vidops.settings;
      return {
        port: vidops.running.port,
        poller: { slowMs: schedule.slowMs, fastMs: schedule.fastMs, tickMs, rate: budget.refillPerSecond, burst: budget.capacity, thread },
      };
    },
    /** What a command would have done for each resource: the watch on its card. */
    track: async (msg) => {
      const { running, settings } = vidops!;
      const track = storeTracker(running.services.store, () => Date.now(), settings.maxWatchAgeMs);
      for (const w of msg.items as WatchedResource[]) {
        const target = { teamId: TEAM, channelId: w.channelId, messageTs: w.messageTs, projectName: PROJECT };
        const { id, sessionId } = w.resource;
        const initialState =
          w.kind === 'archive'
            ? archiveSnapshot(w.resource as unknown as Archive)
            : w.kind === 'broadcast'
              ? broadcastSnapshot(w.resource as unknown as Broadcast, Date.now())
              : renderSnapshot(w.resource as unknown as Render);
        await track({ kind: w.kind, resourceId: id, sessionId, target, initialState });
      }
      return (msg.items as unknown[]).length;
    },
    memory: () => process.memoryUsage(),
    warm: () => {
      runLoopDelay.reset();
      runLoopDelay.enable();
    },
    /** Event-loop delay p99 and max (ms) since `warm`. */
    runLoop: () => ({ p99Ms: runLoopDelay.percentileMs(99), maxMs: runLoopDelay.maxMs }),
    /** CPU time used so far (ms), and the event-loop delay p99 and max (ms) since the last reading. */
    load: () => {
      const usage = process.cpuUsage();
      const reading = { cpuMs: (usage.user + usage.system) / 1000, loopP99Ms: loopDelay.percentileMs(99), loopMaxMs: loopDelay.maxMs };
      loopDelay.reset();
      return reading;
    },
  },
  async () => {
    await vidops?.running.stop();
    removeFiles();
  },
);

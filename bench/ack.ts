/**
 * Ack latency under a slow video service: 2,000 signed `/mute` slash commands at concurrency 1
 * and 50 while the emulator delays every answer by 800 ms. The same load goes to the real app
 * and to a bare Bolt app that only acks (the floor). Prints ack latency p50/p95/p99/max, acks
 * over 3 s, and how many follow-ups (the in-channel notices) reached the fake Slack.
 *
 *   npm run bench:ack [-- --requests 2000 --latency 800 --rounds 3]
 *   BENCH_CPU_PROF=vidops npm run bench:ack   # V8 CPU profile of that process in /tmp/ackprof
 *
 * Three processes, as in production: this one generates the load and measures; an
 * "environment" child runs the fake Slack Web API and the video service emulator (the remote
 * services); an "app" child runs the app under test (vidops with SQLite, or the floor).
 */
import { fork } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { App, LogLevel } from '@slack/bolt';
import { Agent, request } from 'undici';
import { RETRY_DEFAULT, VideoClient } from '../src/api';
import { createApp } from '../src/app';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { createStore } from '../src/store';
import { startEmulator } from '../src/emulator';
import { BOT_TOKEN, CHANNEL, SIGNING_SECRET, TEAM, TEST_POLICY, USERS } from '../test/harness/app';
import { startFakeSlack } from '../test/harness/fake-slack';
import { parsePolicy } from '../src/rbac/policy';
import { signedSlashCommand } from '../test/harness/signing';
import { Peer, serve } from './lib/peer';
import { median } from './lib/stats';

function spawn(role: string): Peer {
  const profile = process.env.BENCH_CPU_PROF === role ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ackprof'] : [];
  return new Peer(fork(__filename, ['--role', role], { execArgv: ['--import', 'tsx', ...profile], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
}

// ---------------------------------------------------------------------------------------------
// The environment: fake Slack + emulator.

interface Environment {
  slackApiUrl: string;
  videoApiUrl: string;
  apiKey: string;
  apiSecret: string;
  sessionId: string;
  streamId: string;
}

async function runEnvironment(): Promise<void> {
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  const emulator = await startEmulator();
  const creds = emulator.control.createProject({ name: 'prod' });
  const sessionId = emulator.control.createSession(creds.apiKey, { mediaMode: 'routed' });
  const connectionId = emulator.control.connect(creds.apiKey, sessionId);
  const streamId = emulator.control.publish(creds.apiKey, sessionId, connectionId, { name: 'Speaker' });
  const env: Environment = { slackApiUrl: slack.apiUrl, videoApiUrl: emulator.baseUrl, ...creds, sessionId, streamId };
  const delivered = (since: number) => slack.callsOf('chat.postMessage', since).filter((c) => c.body.channel === CHANNEL).length;
  serve({
    env: () => env,
    setLatency: (msg) => emulator.control.setLatency(Number(msg.ms)),
    mark: () => slack.mark(),
    responseUrl: () => slack.newResponseUrl(),
    delivered: (msg) => delivered(Number(msg.since)),
    waitDelivered: async (msg) => {
      const since = Number(msg.since);
      const count = Number(msg.count);
      await slack
        .waitForCall('chat.postMessage', () => delivered(since) >= count, { since, timeoutMs: Number(msg.timeoutMs) })
        .catch(() => undefined);
      return delivered(since);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The app under test: vidops, or the floor (a bare Bolt app that only acks).

async function runApp(kind: 'vidops' | 'floor', env: Environment): Promise<number> {
  if (kind === 'floor') {
    const app = new App({
      token: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      processBeforeResponse: false,
      convoStore: false,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: env.slackApiUrl },
    });
    app.command('/mute', async ({ ack }) => {
      await ack();
    });
    const server = (await app.start(0)) as Server;
    return (server.address() as AddressInfo).port;
  }
  const store = createStore('sqlite::memory:');
  await store.migrate();
  const policy = parsePolicy(TEST_POLICY);
  if (!policy.ok) throw new Error(policy.problems.join('; '));
  const services = createServices({
    store,
    logger: createLogger({ level: 'silent' }),
    projects: [{ name: 'prod', apiKey: env.apiKey, apiSecret: env.apiSecret, channels: [] }],
    defaultProject: 'prod',
    video: { apiUrl: env.videoApiUrl },
    policy: policy.policy,
    clientFactory: (p, video) => new VideoClient({ baseUrl: video.apiUrl, apiKey: p.apiKey, apiSecret: p.apiSecret, retry: RETRY_DEFAULT }),
  });
  const app = createApp(services, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: env.slackApiUrl });
  const server = (await app.start(0)) as Server;
  return (server.address() as AddressInfo).port;
}

// ---------------------------------------------------------------------------------------------
// The load generator.

const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

async function load(url: string, count: number, concurrency: number, text: string, responseUrl: string): Promise<number[]> {
  const latencies: number[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const signed = signedSlashCommand(SIGNING_SECRET, {
        team_id: TEAM,
        channel_id: CHANNEL,
        user_id: USERS.moderator,
        command: '/mute',
        text,
        response_url: responseUrl,
        trigger_id: `t${i}`,
      });
      const t0 = performance.now();
      const res = await request(`${url}/slack/events`, { method: 'POST', headers: signed.headers, body: signed.body, dispatcher });
      await res.body.dump();
      latencies[i] = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`request ${i} answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  over3s: number;
}

function stats(latencies: number[]): Stats {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1]!, over3s: sorted.filter((l) => l > 3000).length };
}

const ms = (n: number): string => `${n.toFixed(2)} ms`.padStart(11);

function option(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const parsed = i === -1 ? NaN : Number(argv[i + 1]);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

async function main(argv: string[]): Promise<void> {
  const requests = option(argv, 'requests', 2000);
  const latencyMs = option(argv, 'latency', 800);
  const rounds = Math.max(1, option(argv, 'rounds', 3));
  const concurrencies = [1, 50];

  const envPeer = spawn('env');
  const env = await envPeer.call<Environment>('env');
  const text = `${env.streamId} ${env.sessionId}`;
  const responseUrl = await envPeer.call<string>('responseUrl');

  const startApp = async (kind: 'vidops' | 'floor') => {
    const peer = spawn(kind);
    const port = await peer.call<number>('start', { env });
    const url = `http://127.0.0.1:${port}`;
    await load(url, 200, 10, text, responseUrl); // warm-up: auth.test, JIT, connections
    return { peer, url };
  };
  const floor = await startApp('floor');
  const vidops = await startApp('vidops');
  await envPeer.call('waitDelivered', { since: 0, count: 200, timeoutMs: 60_000 });
  await envPeer.call('setLatency', { ms: latencyMs });

  console.log(`vidops ack benchmark: ${requests} signed /mute commands per run, ${rounds} rounds per row (floor and vidops interleaved);`);
  console.log(`the video service answers after ${latencyMs} ms. Load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} CPUs.`);
  console.log('run                        p50         p95         p99         max  acks>3s  follow-ups delivered');
  const summary: string[] = [];
  for (const concurrency of concurrencies) {
    const floorRounds: number[][] = [];
    const vidopsRounds: number[][] = [];
    let delivered = 0;
    let drainMs = 0;
    let floorCpu = 0;
    let vidopsCpu = 0;
    for (let round = 0; round < rounds; round++) {
      const floorCpuBefore = await floor.peer.call<number>('cpu');
      floorRounds.push(await load(floor.url, requests, concurrency, text, responseUrl));
      floorCpu += (await floor.peer.call<number>('cpu')) - floorCpuBefore;
      const since = await envPeer.call<number>('mark');
      const vidopsCpuBefore = await vidops.peer.call<number>('cpu');
      vidopsRounds.push(await load(vidops.url, requests, concurrency, text, responseUrl));
      vidopsCpu += (await vidops.peer.call<number>('cpu')) - vidopsCpuBefore;
      const lastAck = performance.now();
      delivered += await envPeer.call<number>('waitDelivered', { since, count: requests, timeoutMs: 180_000 });
      drainMs = Math.max(drainMs, performance.now() - lastAck);
    }
    const f = stats(floorRounds.flat());
    const a = stats(vidopsRounds.flat());
    const total = requests * rounds;
    console.log(`floor (bare Bolt)  c=${String(concurrency).padEnd(3)}${ms(f.p50)} ${ms(f.p95)} ${ms(f.p99)} ${ms(f.max)} ${String(f.over3s).padStart(8)}  (acks only)`);
    console.log(
      `vidops             c=${String(concurrency).padEnd(3)}${ms(a.p50)} ${ms(a.p95)} ${ms(a.p99)} ${ms(a.max)} ${String(a.over3s).padStart(8)}  ${delivered}/${total}, each round's within ${(drainMs / 1000).toFixed(1)} s of its last ack`,
    );
    const floorP99 = floorRounds.map((r) => stats(r).p99);
    const vidopsP99 = vidopsRounds.map((r) => stats(r).p99);
    const perAck = (us: number) => `${(us / (requests * rounds)).toFixed(0)} µs`;
    console.log(`  app CPU while acking, per request: floor ${perAck(floorCpu)}, vidops ${perAck(vidopsCpu)} (vidops' follow-up work mostly waits for the burst to end)`);
    console.log(`  p99 per round: floor ${floorP99.map((v) => v.toFixed(1)).join(' / ')} ms; vidops ${vidopsP99.map((v) => v.toFixed(1)).join(' / ')} ms`);
    summary.push(`c=${concurrency}: p99 ${(a.p99 / f.p99).toFixed(2)}× the floor (median of rounds ${(median(vidopsP99) / median(floorP99)).toFixed(2)}×)`);
  }
  console.log(summary.join('; '));
  console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await Promise.all([floor.peer.stop(), vidops.peer.stop(), envPeer.stop()]);
  await dispatcher.close();
}


// ---------------------------------------------------------------------------------------------

const roleIndex = process.argv.indexOf('--role');
const role = roleIndex === -1 ? 'main' : process.argv[roleIndex + 1];
if (role === 'env') {
  void runEnvironment();
} else if (role === 'vidops' || role === 'floor') {
  serve({
    start: (msg) => runApp(role, msg.env as Environment),
    cpu: () => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    },
  });
} else {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

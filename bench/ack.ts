/**
 * Ack latency under a slow video service: 2,000 signed `/mute` slash commands at concurrency 1
 * and 50 while the emulator delays every answer by 800 ms. The same load goes to the real app
 * and to a bare Bolt app that only acks (the floor). Prints ack latency p50/p95/p99/max, acks
 * over 3 s, and how many follow-ups (the in-channel notices) reached the fake Slack.
 *
 * Every command carries its own trigger_id, so no two are the same delivery to vidops' duplicate
 * check. The run checks its preconditions and exits 1 naming the first that failed, printing no
 * figures: every request answered 200, every command of every round (and of the warm-up) made
 * its mute call to the service and posted its notice once, and vidops logged no warning or error.
 *
 *   npm run bench:ack [-- --requests 2000 --latency 800 --rounds 3]
 *   BENCH_CPU_PROF=vidops npm run bench:ack   # V8 CPU profile of that process in /tmp/ackprof
 *
 * Three processes, as in production: this one generates the load and measures; an
 * "environment" child runs the fake Slack Web API and the video service emulator (the remote
 * services); an "app" child runs the app under test (vidops with SQLite, or the floor).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { Writable } from 'node:stream';
import { App, LogLevel } from '@slack/bolt';
import { Agent, request } from 'undici';
import { RETRY_DEFAULT, VideoClient } from '../src/api';
import { createApp } from '../src/app';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { createStore } from '../src/store';
import { startEmulator } from '../src/emulator';
import { BOT_TOKEN, CHANNEL, SIGNING_SECRET, TEAM, TEST_POLICY, USERS, slashCommandFields } from '../test/harness/app';
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
  const mutePath = `/v2/project/${creds.apiKey}/session/${sessionId}/stream/${streamId}/mute`;
  serve({
    env: () => env,
    videoMark: () => emulator.control.requestLog().length,
    /** The service's answers to mute calls since `since` (a videoMark), by status. */
    mutes: (msg) => {
      const byStatus: Record<string, number> = {};
      for (const entry of emulator.control.requestLog().slice(Number(msg.since))) {
        if (entry.path === mutePath) byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
      }
      return byStatus;
    },
    setLatency: (msg) => emulator.control.setLatency(Number(msg.ms)),
    mark: () => slack.mark(),
    responseUrl: () => slack.newResponseUrl(),
    delivered: (msg) => delivered(Number(msg.since)),
    waitDelivered: async (msg) => {
      const since = Number(msg.since);
      const count = Number(msg.count);
      await slack.waitForCall('chat.postMessage', () => delivered(since) >= count, { since, timeoutMs: Number(msg.timeoutMs) }).catch(() => undefined);
      return delivered(since);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The app under test: vidops, or the floor (a bare Bolt app that only acks).

/** What vidops logged at warn or error: a healthy run logs nothing there. */
const problems: string[] = [];
const problemLog = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() !== '' && problems.length < 20) problems.push(line.slice(0, 300));
    }
    done();
  },
});

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
    logger: createLogger({ level: 'warn', stream: problemLog }),
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

/** Thrown when a precondition fails: the run is broken and prints no figures. */
class BrokenRun extends Error {}

/** Each command is its own delivery: Slack gives every invocation a new trigger_id. */
const RUN = randomUUID().slice(0, 8);
let triggers = 0;

async function load(url: string, count: number, concurrency: number, text: string, responseUrl: string): Promise<number[]> {
  const latencies: number[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const fields = slashCommandFields({
        command: '/mute',
        text,
        user: USERS.moderator,
        channel: CHANNEL,
        team: TEAM,
        responseUrl,
        triggerId: `${RUN}.${++triggers}`,
      });
      const signed = signedSlashCommand(SIGNING_SECRET, fields);
      const t0 = performance.now();
      const res = await request(`${url}/slack/events`, { method: 'POST', headers: signed.headers, body: signed.body, dispatcher });
      await res.body.dump();
      latencies[i] = performance.now() - t0;
      if (res.statusCode !== 200) throw new BrokenRun(`command ${i} to ${url} answered ${res.statusCode}`);
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
    return { peer, url: `http://127.0.0.1:${port}` };
  };
  const floor = await startApp('floor');
  const vidops = await startApp('vidops');

  /** After vidops' commands since the marks: each made its mute call and posted its notice once, nothing logged. */
  const checkVidops = async (what: string, marks: { slack: number; video: number }, count: number): Promise<void> => {
    const delivered = await envPeer.call<number>('waitDelivered', { since: marks.slack, count, timeoutMs: 180_000 });
    if (delivered !== count) throw new BrokenRun(`${what}: vidops posted ${delivered} follow-ups for ${count} commands`);
    const mutes = await envPeer.call<Record<string, number>>('mutes', { since: marks.video });
    if (mutes['200'] !== count || Object.keys(mutes).length !== 1) {
      throw new BrokenRun(`${what}: the service answered vidops' mute calls ${JSON.stringify(mutes)} (status: calls), expected ${count} × 200`);
    }
    const logged = await vidops.peer.call<string[]>('problems');
    if (logged.length > 0) throw new BrokenRun(`${what}: vidops logged ${logged.length} warning(s) or error(s); the first: ${logged[0]}`);
  };
  const marks = async () => ({ slack: await envPeer.call<number>('mark'), video: await envPeer.call<number>('videoMark') });

  // Warm-up: auth.test, JIT, connections.
  await load(floor.url, 200, 10, text, responseUrl);
  const warmup = await marks();
  await load(vidops.url, 200, 10, text, responseUrl);
  await checkVidops('warm-up', warmup, 200);
  await envPeer.call('setLatency', { ms: latencyMs });

  const loadAtStart = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const report = [
    `vidops ack benchmark: ${requests} signed /mute commands per run, ${rounds} rounds per row (floor and vidops interleaved), each command its own trigger_id;`,
    `the video service answers after ${latencyMs} ms. Load average at start: ${loadAtStart} on ${cpus().length} CPUs.`,
    'run                        p50         p95         p99         max  acks>3s  follow-ups delivered',
  ];
  const summary: string[] = [];
  for (const concurrency of concurrencies) {
    const floorRounds: number[][] = [];
    const vidopsRounds: number[][] = [];
    let drainMs = 0;
    let floorCpu = 0;
    let vidopsCpu = 0;
    for (let round = 0; round < rounds; round++) {
      const floorCpuBefore = await floor.peer.call<number>('cpu');
      floorRounds.push(await load(floor.url, requests, concurrency, text, responseUrl));
      floorCpu += (await floor.peer.call<number>('cpu')) - floorCpuBefore;
      const since = await marks();
      const vidopsCpuBefore = await vidops.peer.call<number>('cpu');
      vidopsRounds.push(await load(vidops.url, requests, concurrency, text, responseUrl));
      vidopsCpu += (await vidops.peer.call<number>('cpu')) - vidopsCpuBefore;
      const lastAck = performance.now();
      await checkVidops(`c=${concurrency} round ${round + 1}`, since, requests);
      drainMs = Math.max(drainMs, performance.now() - lastAck);
      process.stderr.write(`c=${concurrency} round ${round + 1} of ${rounds}: ${requests} commands acked, ${requests} mutes made and notices posted\n`);
    }
    const f = stats(floorRounds.flat());
    const a = stats(vidopsRounds.flat());
    const total = requests * rounds;
    report.push(
      `floor (bare Bolt)  c=${String(concurrency).padEnd(3)}${ms(f.p50)} ${ms(f.p95)} ${ms(f.p99)} ${ms(f.max)} ${String(f.over3s).padStart(8)}  (acks only)`,
    );
    report.push(
      `vidops             c=${String(concurrency).padEnd(3)}${ms(a.p50)} ${ms(a.p95)} ${ms(a.p99)} ${ms(a.max)} ${String(a.over3s).padStart(8)}  ${total}/${total}, each round's within ${(drainMs / 1000).toFixed(1)} s of its last ack`,
    );
    const floorP99 = floorRounds.map((r) => stats(r).p99);
    const vidopsP99 = vidopsRounds.map((r) => stats(r).p99);
    const perAck = (us: number) => `${(us / (requests * rounds)).toFixed(0)} µs`;
    report.push(
      `  app CPU while acking, per request: floor ${perAck(floorCpu)}, vidops ${perAck(vidopsCpu)} (vidops' follow-up work mostly waits for the burst to end)`,
    );
    report.push(`  p99 per round: floor ${floorP99.map((v) => v.toFixed(1)).join(' / ')} ms; vidops ${vidopsP99.map((v) => v.toFixed(1)).join(' / ')} ms`);
    summary.push(`c=${concurrency}: p99 ${(a.p99 / f.p99).toFixed(2)}× the floor (median of rounds ${(median(vidopsP99) / median(floorP99)).toFixed(2)}×)`);
  }
  report.push(summary.join('; '));
  report.push(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  report.push(
    `Checked: every command answered 200; vidops made each command's mute call (answered 200) and posted its notice once; it logged no warning or error.`,
  );
  console.log(report.join('\n'));
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
    problems: () => problems,
    cpu: () => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    },
  });
} else {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof BrokenRun ? `bench:ack: broken run, no figures: ${error.message}` : error);
    process.exit(1);
  });
}

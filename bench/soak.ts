/**
 * The soak: minutes of mixed load on the running product, printing every window the app's RSS
 * (the bare Bolt app's beside it) and heap, commands sent and acked, ack p50/p99 (vidops and a
 * bare Bolt app under the same commands), notifications due / delivered / duplicated with their
 * latency, and errors by kind; at the end the RSS growth after the warm-up and how far vidops'
 * RSS is above the bare Bolt app's, lost and duplicate notifications, and the p99 ack ratio.
 * Exits 1 when an aim is missed (RSS growth < 10 %, no lost or duplicate notification, p99 ack
 * ≤ 1.3× the bare Bolt app), naming it.
 *
 *   npm run bench:soak
 *   SOAK_MINUTES=2 npm run bench:soak        # a short run (warm-up: a quarter of it, at most 2 min)
 *
 * Settings (environment): SOAK_MINUTES (10), SOAK_RATE commands/s (20), SOAK_WATCHES (10000),
 * SOAK_CHANGES_PER_SECOND (2), SOAK_FAULTS_PER_MINUTE (12), SOAK_WINDOW_SECONDS (30), SOAK_NODE_FLAGS (more node flags for vidops and the floor),
 * SOAK_WARMUP_MINUTES (min(2, minutes / 4)), SOAK_HEAP_MB (the deployment's cap), SOAK_DATABASE_URL (a fresh SQLite
 * file under /tmp; the store's tables must be empty, so never a shared database). The app gets the
 * VIDOPS_POLL_* variables of this environment, as a deployment sets them (and VIDOPS_POLLER_THREAD); with none set, those the
 * README ("Sizing") gives a project of 10,000 watches (LARGE_PROJECT_POLLING).
 * SOAK_CPU_PROF=1 writes a V8 CPU profile of the vidops process to /tmp/vidops-bench-soak-<uid>-<pid>/prof.
 *
 * Four processes: this one generates the load and measures; "environment" (bench/soak/
 * environment.ts, tsx) runs the emulator on the real clock and the fake Slack, changes resources
 * and injects faults; "vidops" (bench/soak/app.ts) runs the product as main.ts does, compiled to
 * JavaScript with a capped heap so its RSS is its own, launched as a deployment launches it
 * (bench/lib/deployment.ts); "floor" runs a bare Bolt app from the same compiled file, launched
 * the same way. Every command goes to vidops and to the floor at the same moment.
 */
import { fork } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { compileForBench } from './lib/compile';
import { allocatorOf, deploymentEnv, deploymentNodeFlags } from './lib/deployment';
import { Peer } from './lib/peer';
import { mulberry32 } from './lib/stats';
import type { LedgerTotals, LedgerWindow } from './soak/ledger';
import { type Command, clickRequest, nextCommand, slashRequest } from './soak/load';
import { type LoadReading, OPS_CHANNEL, type SeedOptions, type Seeded, type Started, type WatchedResource } from './soak/protocol';
import { AIMS, type RssSample, addCounts, brokenRun, counts, fixed, mb, missedAims, p, rssGrowth } from './soak/report';

interface Options {
  minutes: number;
  rate: number;
  watches: number;
  changesPerSecond: number;
  faultsPerMinute: number;
  windowS: number;
  warmupS: number;
  /** A V8 heap cap of the soak's own (SOAK_HEAP_MB) instead of the deployment's. */
  heapMb: number | undefined;
  /** More node flags for vidops and the floor alike (SOAK_NODE_FLAGS, space-separated). */
  nodeFlags: string[];
  databaseUrl: string | undefined;
}

function readOptions(env: NodeJS.ProcessEnv): Options {
  const num = (name: string, fallback: number): number => {
    const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number above 0`);
    return value;
  };
  const minutes = num('SOAK_MINUTES', 10);
  return {
    minutes,
    rate: num('SOAK_RATE', 20),
    watches: num('SOAK_WATCHES', 10_000),
    changesPerSecond: num('SOAK_CHANGES_PER_SECOND', 2),
    faultsPerMinute: num('SOAK_FAULTS_PER_MINUTE', 12),
    windowS: num('SOAK_WINDOW_SECONDS', 30),
    warmupS: num('SOAK_WARMUP_MINUTES', Math.min(2, minutes / 4)) * 60,
    heapMb: env.SOAK_HEAP_MB ? num('SOAK_HEAP_MB', 0) : undefined,
    nodeFlags: (env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    databaseUrl: env.SOAK_DATABASE_URL || undefined,
  };
}

/** README, "Poller" → "Sizing": what a project with 10,000 watches is told to run. */
const LARGE_PROJECT_POLLING = { VIDOPS_POLL_SLOW_SECONDS: '3', VIDOPS_POLL_RATE: '30', VIDOPS_POLL_BURST: '60', VIDOPS_POLL_MAX_WATCHES: '5000' };

/** 300 broadcasts and composers, the rest recordings, spread over 100 sessions (channels). */
function seedOptions(watches: number): SeedOptions {
  const broadcasts = Math.min(200, Math.floor(watches * 0.02));
  const renders = Math.min(100, Math.floor(watches * 0.01));
  return { sessions: Math.min(100, Math.max(1, Math.floor(watches / 100))), archives: watches - broadcasts - renders, broadcasts, renders };
}

/** RSS of another process, from /proc (Linux): no message to the app, so no work added to it. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Tallies the app's log lines (JSON, level warn and up) by level and message, as they are appended. */
class LogTally {
  #offset = 0;
  constructor(readonly path: string) {}

  take(): Record<string, number> {
    const text = readFileSync(this.path, 'utf8');
    const fresh = text.slice(this.#offset);
    const complete = fresh.slice(0, fresh.lastIndexOf('\n') + 1);
    this.#offset += complete.length;
    const tally: Record<string, number> = {};
    for (const line of complete.split('\n')) {
      if (!line) continue;
      let key: string;
      try {
        const record = JSON.parse(line) as { level?: string; msg?: string };
        key = `app ${record.level}: ${record.msg}`;
      } catch {
        key = `app output: ${line.slice(0, 80)}`;
      }
      tally[key] = (tally[key] ?? 0) + 1;
    }
    return tally;
  }
}

type Target = 'vidops' | 'floor';

/** Ack samples of one window, by target. */
class AckWindow {
  readonly latencies: Record<Target, number[]> = { vidops: [], floor: [] };
  sent = 0;
  acked = 0;
  clicks = 0;
  readonly errors: Record<string, number> = {};

  error(kind: string): void {
    this.errors[kind] = (this.errors[kind] ?? 0) + 1;
  }
}

/** The poller thread's heap as an operator's scrape of /metrics reads it (bytes). */
async function pollerThreadHeap(metricsUrl: string): Promise<{ used: number; total: number; external: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    used: value('vidops_poller_thread_heap_used_bytes'),
    total: value('vidops_poller_thread_heap_total_bytes'),
    external: value('vidops_poller_thread_external_memory_bytes'),
  };
}

async function main(): Promise<void> {
  const o = readOptions(process.env);
  // Per run: another soak (or a 60-minute one still going) must not have its build removed.
  const scratch = `/tmp/vidops-bench-soak-${process.getuid?.() ?? 0}-${process.pid}`;
  const compiled = compileForBench(join(__dirname, 'soak', 'app.ts'), join(scratch, 'build'));
  const logPath = join(scratch, 'app.log');
  const logFd = openSync(logPath, 'w');
  const launchEnv = deploymentEnv();
  const start = (file: string, args: string[], execArgv: string[], stdio: 'inherit' | number): Peer =>
    new Peer(fork(file, args, { execArgv, env: launchEnv, stdio: ['ignore', stdio, stdio, 'ipc'] }));
  // vidops and the floor both as a deployment launches the app (README, "Deployment").
  const appFlags = [...deploymentNodeFlags(o.heapMb), ...o.nodeFlags];
  const profile = process.env.SOAK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(scratch, 'prof')}`] : [];
  const environment = start(join(__dirname, 'soak', 'environment.ts'), [], ['--import', 'tsx'], 'inherit');
  const vidops = start(compiled, ['--role', 'vidops'], [...appFlags, ...profile], logFd);
  const floor = start(compiled, ['--role', 'floor'], appFlags, 'inherit');
  const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
  try {
    const seedStarted = performance.now();
    const seed = seedOptions(o.watches);
    const seeded = await environment.call<Seeded>('seed', { options: seed });
    const sizing = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('VIDOPS_POLL_')));
    const thread = process.env.VIDOPS_POLLER_THREAD;
    const pollerEnv = { ...(Object.keys(sizing).length > 0 ? sizing : LARGE_PROJECT_POLLING), ...(thread !== undefined && { VIDOPS_POLLER_THREAD: thread }) };
    const [started, floorStarted] = await Promise.all([
      vidops.call<Started>('start', { seeded, pollerEnv, databaseUrl: o.databaseUrl }),
      floor.call<Started>('start', { seeded }),
    ]);
    const poller = started.poller!;
    const seededS = (performance.now() - seedStarted) / 1000;
    let tracked = 0;
    for (;;) {
      const items = await environment.call<WatchedResource[]>('watched', { offset: tracked, count: 500 });
      if (items.length === 0) break;
      tracked += await vidops.call<number>('track', { items });
    }
    console.log(
      `vidops soak: ${o.minutes} min, ${o.rate} commands/s (each to vidops and to a bare Bolt app), ${tracked.toLocaleString('en-US')} watches ` +
        `(${seeded.counts.archives} recordings, ${seeded.counts.broadcasts} broadcasts, ${seeded.counts.renders} composers in ${seeded.sessions.length} sessions), ` +
        `${o.changesPerSecond} resource changes/s, ${o.faultsPerMinute} injected faults/min; seeded in ${fixed(seededS)} s, watches added in ${fixed((performance.now() - seedStarted) / 1000 - seededS)} s`,
    );
    console.log(
      `app: compiled JavaScript, ${appFlags.join(' ')}, ${allocatorOf(launchEnv)}, store ${o.databaseUrl?.replace(/\/\/[^@/]*@/, '//') ?? 'SQLite file in /tmp'}, LOG_LEVEL=warn; poller ${poller.rate} requests/s (burst ${poller.burst}), ` +
        `tick ${poller.tickMs} ms, each watch polled ${poller.fastMs / 1000} s after a change and at least every ${poller.slowMs / 1000} s` +
        ` (${Object.entries(pollerEnv)
          .map(([k, v]) => `${k}=${v}`)
          .join(
            ' ',
          )})${Object.keys(sizing).length === 0 ? ", the README's sizing for 10,000 watches" : ''}, ${poller.thread ? 'in a worker thread of its own' : 'on the main thread'}; ` +
        `warm-up ${fixed(o.warmupS / 60)} min; ${cpus().length} CPUs shared with other work, load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );

    const url: Record<Target, string> = {
      vidops: `http://127.0.0.1:${started.port}/slack/events`,
      floor: `http://127.0.0.1:${floorStarted.port}/slack/events`,
    };
    // The fake Slack serves any id under /response/.
    const responseBase = `${seeded.slackApiUrl.replace(/\/api\/$/, '')}/response/`;
    let responses = 0;
    const random = mulberry32(11);
    const logs = new LogTally(logPath);
    const rss: RssSample[] = [];
    /** The bare Bolt app's, sampled beside vidops': what the process costs before vidops' own work. */
    const floorRss: RssSample[] = [];
    const allAcks: Record<Target, { at: number; ms: number }[]> = { vidops: [], floor: [] };
    const vidopsByKind = new Map<string, { at: number; ms: number }[]>();
    const totals = {
      sent: 0,
      acked: 0,
      clicks: 0,
      errors: {} as Record<string, number>,
      injected: {} as Record<string, number>,
      appLog: {} as Record<string, number>,
    };
    let window = new AckWindow();
    const inflight = new Set<Promise<void>>();
    const loadStart = performance.now();
    const elapsedS = () => (performance.now() - loadStart) / 1000;

    /** Samples and errors go to the window in which the answer came, so slow answers are not lost between windows. */
    const send = async (
      target: Target,
      body: { body: string; headers: Record<string, string> },
      kind: string,
    ): Promise<{ status: number; text: string } | undefined> => {
      const t0 = performance.now();
      try {
        const res = await request(url[target], {
          method: 'POST',
          headers: body.headers,
          body: body.body,
          dispatcher,
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        });
        const text = await res.body.text();
        const ms = performance.now() - t0;
        const w = window;
        w.latencies[target].push(ms);
        allAcks[target].push({ at: elapsedS(), ms });
        if (target === 'vidops') {
          const list = vidopsByKind.get(kind) ?? [];
          list.push({ at: elapsedS(), ms });
          vidopsByKind.set(kind, list);
          if (res.statusCode === 200 && !kind.endsWith('(click)')) w.acked += 1;
          if (ms > 3000) w.error('ack over 3 s');
        }
        if (res.statusCode !== 200) w.error(`${target} answered ${res.statusCode}`);
        return { status: res.statusCode, text };
      } catch (error) {
        window.error(`${target} request failed: ${(error as { code?: string }).code ?? String(error)}`);
        return undefined;
      }
    };

    const run = async (c: Command): Promise<void> => {
      window.sent += 1;
      const responseId = `S${++responses}`;
      const [acked] = await Promise.all([
        send('vidops', slashRequest(c, `${responseBase}${responseId}`), c.kind),
        send('floor', slashRequest(c, `${responseBase}F${responses}`), c.kind),
      ]);
      if (!c.click || acked?.status !== 200) return;
      // The notice vidops posted for this command (the floor posts none: it gets the same click).
      let notice: { ts: string; value: string } | undefined;
      try {
        notice = await environment.call<{ ts: string; value: string } | undefined>('channelButton', {
          channel: OPS_CHANNEL,
          actionId: c.click,
          mentions: c.text,
          timeoutMs: 15_000,
        });
      } catch {
        notice = undefined;
      }
      if (notice === undefined) {
        window.error(`no ${c.click} button in the channel within 15 s`);
        return;
      }
      window.clicks += 1;
      await Promise.all([
        send('vidops', clickRequest(c.click, notice.value, notice.ts, `${responseBase}${responseId}c`), `${c.kind} (click)`),
        send('floor', clickRequest(c.click, notice.value, notice.ts, `${responseBase}F${responses}c`), `${c.kind} (click)`),
      ]);
    };

    let [lastAppLoad, lastEnvLoad, lastReport]: [LoadReading, LoadReading, number] = [{ cpuMs: 0 }, { cpuMs: 0 }, 0];
    const report = async (): Promise<void> => {
      const w = window;
      window = new AckWindow();
      const [memory, threadHeap, notes, appLoad, envLoad] = await Promise.all([
        vidops.call<NodeJS.MemoryUsage>('memory'),
        poller.thread ? pollerThreadHeap(url.vidops.replace(/\/slack\/events$/, '/metrics')) : undefined,
        environment.call<LedgerWindow & { injected: Record<string, number> }>('window'),
        vidops.call<LoadReading>('load'),
        environment.call<LoadReading>('load'),
      ]);
      const now = performance.now();
      const cpuPct = (reading: LoadReading, before: LoadReading) => `${fixed(((reading.cpuMs - before.cpuMs) / (now - lastReport)) * 100, 0)} %`;
      const cpuLine = `CPU vidops ${cpuPct(appLoad, lastAppLoad)} (event loop delay p99 ${fixed(appLoad.loopP99Ms ?? NaN, 0)} ms, max ${fixed(appLoad.loopMaxMs ?? NaN, 0)} ms), environment ${cpuPct(envLoad, lastEnvLoad)}`;
      [lastAppLoad, lastEnvLoad, lastReport] = [appLoad, envLoad, now];
      const appLog = logs.take();
      totals.sent += w.sent;
      totals.acked += w.acked;
      totals.clicks += w.clicks;
      addCounts(totals.errors, w.errors);
      addCounts(totals.injected, notes.injected);
      addCounts(totals.appLog, appLog);
      const current = rss.at(-1)?.bytes ?? NaN;
      const floorCurrent = floorRss.at(-1)?.bytes ?? NaN;
      console.log(
        `${fixed(elapsedS(), 0).padStart(5)} s  RSS ${mb(current).padStart(6)} MB (bare Bolt ${mb(floorCurrent)} MB)  heap ${mb(memory.heapUsed).padStart(5)}/${mb(memory.heapTotal)} MB  ` +
          (threadHeap ? `poller thread's ${mb(threadHeap.used)}/${mb(threadHeap.total)} MB (+${mb(threadHeap.external)})  ` : '') +
          `cmds ${w.sent} sent ${w.acked} acked (+${w.clicks} clicks)  ` +
          `ack p50/p99 vidops ${fixed(p(w.latencies.vidops, 50))}/${fixed(p(w.latencies.vidops, 99))} ms, floor ${fixed(p(w.latencies.floor, 50))}/${fixed(p(w.latencies.floor, 99))} ms  ` +
          `notifications ${notes.due} due ${notes.delivered} delivered ${notes.duplicates} dup, latency p50/p99 ${fixed(p(notes.latencies, 50) / 1000)}/${fixed(p(notes.latencies, 99) / 1000)} s`,
      );
      console.log(`        ${cpuLine}; errors: ${counts(w.errors)}; injected: ${counts(notes.injected)}; app log: ${counts(appLog)}`);
    };

    [lastAppLoad, lastEnvLoad, lastReport] = [await vidops.call<LoadReading>('load'), await environment.call<LoadReading>('load'), performance.now()];
    const sampleRss = () => {
      const at = elapsedS();
      rss.push({ at, bytes: rssOf(vidops.child.pid!) });
      floorRss.push({ at, bytes: rssOf(floor.child.pid!) });
    };
    const sampler = setInterval(sampleRss, 1000);
    // A broadcast's output goes offline, then the broadcast stops once any poll must have seen that.
    const settleMs = 2 * poller.slowMs + 5_000;
    await environment.call('startDriver', { changesPerSecond: o.changesPerSecond, faultsPerMinute: o.faultsPerMinute, settleMs });
    const reporter = setInterval(() => void report().catch((error: unknown) => console.error('window report failed', error)), o.windowS * 1000);
    sampleRss();
    const warmed = setTimeout(
      () => void Promise.all([vidops.call('warm'), floor.call('warm')]).catch((error: unknown) => console.error('warm-up mark failed', error)),
      o.warmupS * 1000,
    );

    // Open loop: command i leaves at i / rate whatever happened to the earlier ones.
    const endAt = loadStart + o.minutes * 60_000;
    for (let i = 0; ; i++) {
      const due = loadStart + (i * 1000) / o.rate;
      if (due >= endAt) break;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const command = nextCommand(random, seeded.sessions);
      const done: Promise<void> = run(command).finally(() => inflight.delete(done));
      inflight.add(done);
    }
    await Promise.all(inflight);
    clearInterval(reporter);
    clearTimeout(warmed);
    const [runLoop, floorLoop] = await Promise.all([
      vidops.call<{ p99Ms: number; maxMs: number }>('runLoop'),
      floor.call<{ p99Ms: number; maxMs: number }>('runLoop'),
    ]);
    await environment.call('stopDriver');
    await report();
    clearInterval(sampler);

    // Every change made so far must be posted; the poller may need up to a slow interval (and a
    // failure back-off) to see the last ones.
    const drainStarted = performance.now();
    const ledger = await environment.call<LedgerTotals>('drain', { timeoutMs: 4 * poller.slowMs + 60_000, settleMs: 5_000 });
    const drainS = (performance.now() - drainStarted) / 1000;
    const appLog = logs.take();
    addCounts(totals.appLog, appLog);
    const slackCalls = await environment.call<Record<string, number>>('slackCalls');

    const measured = (t: Target) => allAcks[t].filter((a) => a.at >= o.warmupS).map((a) => a.ms);
    const vidopsP99 = p(measured('vidops'), 99);
    const floorP99 = p(measured('floor'), 99);
    /** The span whose median RSS is compared at each end of the run. */
    const medianSpanS = Math.min(60, o.windowS * 2);
    const growth = rssGrowth(rss, o.warmupS, medianSpanS);
    const floorGrowth = rssGrowth(floorRss, o.warmupS, medianSpanS);
    const clearP99 = p(ledger.clear, 99);
    const missed = missedAims({
      rss: growth,
      lost: ledger.lost.length,
      duplicates: ledger.duplicates.length,
      vidopsP99,
      floorP99,
      loopP99Ms: runLoop.p99Ms,
      latencyP99Ms: clearP99,
      fastMs: poller.fastMs,
      minutes: o.minutes,
    });
    const broken = brokenRun({
      sent: totals.sent,
      acked: totals.acked,
      errors: totals.errors,
      expected: ledger.expected,
      unexpected: ledger.unexpected.length,
    });

    console.log('');
    if (broken.length > 0) {
      console.log(`Broken run, no figures: ${broken.join('; ')}`);
      process.exitCode = 2;
      return;
    }
    console.log(`Totals: ${totals.sent} commands sent, ${totals.acked} acked by vidops, ${totals.clicks} Undo clicks; errors: ${counts(totals.errors)}`);
    console.log(`  injected faults: ${counts(totals.injected)}`);
    console.log(`  app log (warn and up): ${counts(totals.appLog)}`);
    console.log(`  fake Slack calls: ${counts(slackCalls)}`);
    console.log(
      growth
        ? `RSS after the warm-up: ${fixed(growth.baselineMb)} MB → ${fixed(growth.finalMb)} MB (${growth.growthPct >= 0 ? '+' : ''}${fixed(growth.growthPct)} %; medians of the first and last ${medianSpanS} s), peak ${fixed(growth.peakMb)} MB, trend ${growth.slopeMbPerMin >= 0 ? '+' : ''}${fixed(growth.slopeMbPerMin, 2)} MB/min (aim < ${AIMS.rssGrowthPct} %)`
        : 'RSS after the warm-up: too few samples',
    );
    if (growth && floorGrowth) {
      console.log(
        `  the bare Bolt app's in the same run: ${fixed(floorGrowth.baselineMb)} MB → ${fixed(floorGrowth.finalMb)} MB, peak ${fixed(floorGrowth.peakMb)} MB; ` +
          `vidops is ${fixed(growth.finalMb - floorGrowth.finalMb)} MB above it in the medians of the last ${medianSpanS} s, ${fixed(growth.peakMb - floorGrowth.peakMb)} MB at the peaks`,
      );
    }
    console.log(
      `Notifications: ${ledger.expected} expected, ${ledger.delivered} delivered, ${ledger.lost.length} lost, ${ledger.duplicates.length} duplicated, ${ledger.unexpected.length} unexpected; ` +
        `change → post p50 ${fixed(p(ledger.latencies, 50) / 1000)} s, p99 ${fixed(p(ledger.latencies, 99) / 1000)} s, max ${fixed(Math.max(...ledger.latencies) / 1000)} s (drained in ${fixed(drainS)} s)`,
    );
    const heldSum = ledger.heldBy429.reduce((sum, ms) => sum + ms, 0);
    const allSum = heldSum + ledger.clear.reduce((sum, ms) => sum + ms, 0);
    console.log(
      `  without a Slack 429 on the way: ${ledger.clear.length}, change → post p50 ${fixed(p(ledger.clear, 50) / 1000)} s, p99 ${fixed(clearP99 / 1000)} s (aim ≤ ${fixed((poller.fastMs + AIMS.latencyOverFastMs) / 1000)} s); ` +
        `held back by an injected 429 in their channel: ${ledger.heldBy429.length}, p50 ${fixed(p(ledger.heldBy429, 50) / 1000)} s, p99 ${fixed(p(ledger.heldBy429, 99) / 1000)} s, ` +
        `${fixed(allSum === 0 ? 0 : (heldSum / allSum) * 100)} % of all change → post time`,
    );
    for (const [label, ids] of [
      ['lost', ledger.lost],
      ['duplicated', ledger.duplicates],
      ['unexpected', ledger.unexpected],
    ] as const) {
      if (ids.length > 0) console.log(`  ${label}: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}`);
    }
    console.log(
      `Ack after the warm-up: vidops p50 ${fixed(p(measured('vidops'), 50))} ms p99 ${fixed(vidopsP99)} ms over ${measured('vidops').length}; ` +
        `bare Bolt p50 ${fixed(p(measured('floor'), 50))} ms p99 ${fixed(floorP99)} ms over ${measured('floor').length}; ratio ${fixed(vidopsP99 / floorP99, 2)}× (aim ≤ ${AIMS.ackRatio}×)`,
    );
    const byKind = [...vidopsByKind]
      .map(([kind, acks]) => [kind, acks.filter((a) => a.at >= o.warmupS).map((a) => a.ms)] as const)
      .map(([kind, ms]) => `${kind} ${fixed(p(ms, 50))}/${fixed(p(ms, 99))} ms (${ms.length})`);
    console.log(`  vidops p50/p99 by command: ${byKind.join(', ')}`);
    console.log(
      `Event loop delay after the warm-up: p99 ${fixed(runLoop.p99Ms)} ms, max ${fixed(runLoop.maxMs)} ms (aim p99 ≤ ${AIMS.loopP99Ms} ms); ` +
        `the bare Bolt app's in the same run: p99 ${fixed(floorLoop.p99Ms)} ms, max ${fixed(floorLoop.maxMs)} ms`,
    );
    console.log(
      `Load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(missed.length === 0 ? 'All aims met.' : `Missed: ${missed.join('; ')}`);
    process.exitCode = missed.length === 0 ? 0 : 1;
  } finally {
    await Promise.all([vidops.stop(), floor.stop(), environment.stop()].map((s) => s.catch(() => undefined)));
    await dispatcher.close();
    closeSync(logFd);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

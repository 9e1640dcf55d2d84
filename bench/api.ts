/**
 * The Video Session Service adapter against the limit and the official SDK (`npm run bench:api`).
 *
 * A stand-in service runs in its own process (`stand-in/service.ts`) and answers with recorded
 * bodies. For get archive, a list of 300 and of 1,000 archives, and a list of 100 broadcasts, at
 * concurrency 32, three clients take turns in short slices, in a new random order each round and
 * after a full garbage collection (so drift, and one client's garbage, hit none of them alone):
 *   limit         a bare undici Pool, one token signed once and reused, body read and JSON.parse'd;
 *   adapter       VideoClient as the product builds it, compiled to JavaScript as in production;
 *   opentok-node  the official SDK 2.23 (a devDependency).
 * Each client then does with a page what the poller does with it: reads every item's id. A
 * fourth row per list, "adapter, all fields read", also reads every item's status, which
 * validates every item in full.
 *
 * Each verdict also gives the ratio round by round (the clients' slices of one round run back to
 * back): their spread is the machine's drift, and a verdict whose rounds fall on both sides of
 * its aim says so instead of passing for a settled figure.
 *
 * The run checks its own preconditions and exits 1 naming what broke, instead of printing
 * figures: every call answered 200 with the expected item ids, and the stand-in served exactly
 * the calls each client made.
 *
 *   npm run bench:api [-- --slice 500 --rounds 4 --concurrency 32 --only get]
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import { HmacSigner, REST_TOKEN_LIFETIME_S } from '../src/api/auth';
import type * as Adapter from '../src/api';
import { ARCHIVE_ID, BROADCASTS, itemId } from './stand-in/bodies';
import type { Served } from './stand-in/service';
import { ROOT, compileForBench } from './lib/compile';
import { Peer } from './lib/peer';
import { median, mulberry32, percentile, shuffled } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    slice: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '32' },
    /** Only the operations whose name starts with this (e.g. "get"); all of them otherwise. */
    only: { type: 'string', default: '' },
  },
});
const SLICE_MS = Number(args.slice);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const WARMUP_MS = 600;
/** Fewer calls than this in a row and its figure says nothing. */
const MIN_CALLS_PER_ROW = 20;
const API_SECRET = 'bench-stand-in-secret';
const LIMIT_AGENT = 'bench-limit/1';

/** Thrown when a precondition fails: the run is broken and prints no figures. */
class BrokenRun extends Error {}

// The adapter runs as production runs it: JavaScript from TypeScript's transpiler. Under tsx,
// esbuild wraps every closure the adapter creates per call in a naming helper, a cost the
// product does not have.
const ADAPTER_BUILD = join(tmpdir(), `vidops-bench-api-${process.pid}`);
const { VideoClient, closeSharedPools } = require(compileForBench(join(ROOT, 'src', 'api', 'index.ts'), ADAPTER_BUILD)) as typeof Adapter;
type VideoClient = Adapter.VideoClient;

interface OpenTokClient {
  getArchive(id: string, callback: (error: Error | null, archive?: { id: string; status: string }) => void): void;
  listArchives(options: { count: number }, callback: (error: Error | null, archives?: { id: string; status: string }[], total?: number) => void): void;
  listBroadcasts(options: { count: number }, callback: (error: Error | null, broadcasts?: { id: string; status: string }[], total?: number) => void): void;
}
const OpenTok = require('opentok') as new (apiKey: string, apiSecret: string, env: { apiUrl: string }) => OpenTokClient;

function promised<T>(call: (callback: (error: Error | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value as T))));
}

type Item = { id: string; status?: unknown };

interface Operation {
  name: string;
  /** The stand-in's tally key. */
  served: string;
  apiKey: string;
  path: string;
  /** Ids the answer must hold, in order. */
  ids: string[];
  adapter(client: VideoClient): Promise<Item[]>;
  opentok(client: OpenTokClient): Promise<Item[]>;
}

function listIds(prefix: 'a' | 'b', size: number): string[] {
  return Array.from({ length: size }, (_, i) => itemId(prefix, i));
}

const ALL_OPERATIONS: Operation[] = [
  {
    name: 'get archive',
    served: 'archive.get',
    apiKey: 'p1',
    path: `/v2/project/p1/archive/${ARCHIVE_ID}`,
    ids: [ARCHIVE_ID],
    adapter: async (c) => [await c.archives.get(ARCHIVE_ID)],
    opentok: async (ot) => [await promised<Item>((cb) => ot.getArchive(ARCHIVE_ID, cb))],
  },
  ...[300, 1000].map((size): Operation => ({
    name: `list of ${size.toLocaleString('en')} archives`,
    served: 'archive.list',
    apiKey: `p${size}`,
    path: `/v2/project/p${size}/archive?count=1000`,
    ids: listIds('a', size),
    adapter: async (c) => (await c.archives.list({ count: 1000 })).items,
    opentok: (ot) => promised<Item[]>((cb) => ot.listArchives({ count: 1000 }, cb)),
  })),
  {
    name: `list of ${BROADCASTS} broadcasts`,
    served: 'broadcast.list',
    apiKey: 'p1',
    path: '/v2/project/p1/broadcast?count=1000',
    ids: listIds('b', BROADCASTS),
    adapter: async (c) => (await c.broadcasts.list({ count: 1000 })).items,
    opentok: (ot) => promised<Item[]>((cb) => ot.listBroadcasts({ count: 1000 }, cb)),
  },
];

const OPERATIONS = ALL_OPERATIONS.filter((operation) => operation.name.startsWith(args.only));
if (OPERATIONS.length === 0) {
  console.error(`bench:api: no operation's name starts with "${args.only}"; the operations: ${ALL_OPERATIONS.map((o) => o.name).join(', ')}`);
  process.exit(1);
}

/** What the poller reads of every item of a page: its id. Checks them against the expected ids. */
function readIds(operation: Operation, variant: string, items: Item[]): void {
  if (items.length !== operation.ids.length) {
    throw new BrokenRun(`${variant}, ${operation.name}: ${items.length} items where the service sent ${operation.ids.length}`);
  }
  for (let i = 0; i < items.length; i++) {
    if (items[i]!.id !== operation.ids[i]) throw new BrokenRun(`${variant}, ${operation.name}: item ${i} has id ${items[i]!.id}, expected ${operation.ids[i]}`);
  }
}

function readStatuses(operation: Operation, variant: string, items: Item[]): void {
  for (const item of items) {
    if (typeof item.status !== 'string' || item.status === '') throw new BrokenRun(`${variant}, ${operation.name}: item ${item.id} has no status`);
  }
}

interface Row {
  operation: string;
  variant: string;
  calls: number;
  perSecond: number;
  /** Calls per second of each round's slice, in round order. */
  perRound: number[];
  /** CPU time of this process (the client; the stand-in runs apart) per call, µs. */
  cpuPerCall: number;
  p50: number;
  p99: number;
}

async function runFor(durationMs: number, concurrency: number, call: () => Promise<void>, latencies: number[]): Promise<void> {
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await call();
        latencies.push(performance.now() - started);
      }
    }),
  );
}

// A full collection before each slice: one client's garbage is not collected in another's time.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Variants take turns in slices, in a new random order each round; warm-up calls are not timed. */
async function compare(operation: string, calls: Record<string, () => Promise<void>>): Promise<Row[]> {
  const names = Object.keys(calls);
  const variants = Object.fromEntries(
    names.map((name) => [
      name,
      () =>
        calls[name]!().catch((error: unknown) => {
          throw error instanceof BrokenRun
            ? error
            : new BrokenRun(`${name}, ${operation}: a call failed: ${error instanceof Error ? error.message : String(error)}`);
        }),
    ]),
  );
  const latencies = new Map(names.map((name) => [name, [] as number[]]));
  const elapsed = new Map(names.map((name) => [name, 0]));
  const cpu = new Map(names.map((name) => [name, 0]));
  const perRound = new Map(names.map((name) => [name, [] as number[]]));
  for (const name of names) await runFor(WARMUP_MS, CONCURRENCY, variants[name]!, []);
  const random = mulberry32(ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of shuffled(names, random)) {
      collectGarbage();
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const before = latencies.get(name)!.length;
      await runFor(SLICE_MS, CONCURRENCY, variants[name]!, latencies.get(name)!);
      const used = process.cpuUsage(cpuBefore);
      const sliceMs = performance.now() - started;
      elapsed.set(name, elapsed.get(name)! + sliceMs);
      perRound.get(name)!.push(((latencies.get(name)!.length - before) / sliceMs) * 1000);
      cpu.set(name, cpu.get(name)! + used.user + used.system);
    }
  }
  return names.map((variant) => {
    const all = latencies.get(variant)!;
    if (all.length < MIN_CALLS_PER_ROW) throw new BrokenRun(`${variant}, ${operation}: only ${all.length} calls completed in ${ROUNDS} × ${SLICE_MS} ms`);
    return {
      operation,
      variant,
      calls: all.length,
      perSecond: (all.length / elapsed.get(variant)!) * 1000,
      perRound: perRound.get(variant)!,
      cpuPerCall: cpu.get(variant)! / all.length,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
    };
  });
}

/** Per-round ratios as "rounds 1.12–1.41×, median 1.25×", and whether the rounds fall on both sides of `aim`. */
function spread(ratios: number[], aim: number): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  const [low, high] = [sorted[0]!, sorted[sorted.length - 1]!];
  const across = low <= aim && high > aim ? ', on both sides of the aim' : '';
  return `rounds ${low.toFixed(2)}–${high.toFixed(2)}×, median ${median(sorted).toFixed(2)}×${across}`;
}

const pad = (text: string | number, width: number, right = false): string => (right ? String(text).padStart(width) : String(text).padEnd(width));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = load();
  const standIn = new Peer(
    fork(join(__dirname, 'stand-in', 'service.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const pools: Pool[] = [];
  try {
    const port = await standIn.call<number>('start');
    const baseUrl = `http://127.0.0.1:${port}`;
    const standInCpuBefore = await standIn.call<number>('cpu');
    const made: Served = {};
    const count = (client: string, operation: Operation) => {
      const key = `${client} ${operation.served}`;
      made[key] = (made[key] ?? 0) + 1;
    };

    const rows: Row[] = [];
    for (const operation of OPERATIONS) {
      const pool = new Pool(baseUrl, { connections: 64 });
      pools.push(pool);
      const signer = new HmacSigner(API_SECRET);
      const iat = Math.floor(Date.now() / 1000);
      const token = await signer.sign({ iss: operation.apiKey, ist: 'project', iat, exp: iat + REST_TOKEN_LIFETIME_S, jti: 'bench' });
      const headers = { 'x-service-auth': token, accept: 'application/json', 'user-agent': LIMIT_AGENT };
      const adapter = new VideoClient({ baseUrl, apiKey: operation.apiKey, apiSecret: API_SECRET });
      const opentok = new OpenTok(operation.apiKey, API_SECRET, { apiUrl: baseUrl });

      const limit = async (): Promise<Item[]> => {
        count(LIMIT_AGENT.split('/')[0]!, operation);
        const res = await pool.request({ method: 'GET', path: operation.path, headers });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new BrokenRun(`limit, ${operation.name}: the stand-in answered ${res.statusCode} ${text}`);
        const body = JSON.parse(text) as Item & { items?: Item[] };
        return body.items ?? [body];
      };
      const variants: Record<string, () => Promise<void>> = {
        limit: async () => readIds(operation, 'limit', await limit()),
        adapter: async () => {
          count('adapter', operation);
          readIds(operation, 'adapter', await operation.adapter(adapter));
        },
        'opentok-node': async () => {
          count('opentok-node', operation);
          readIds(operation, 'opentok-node', await operation.opentok(opentok));
        },
      };
      if (operation.ids.length > 1) {
        variants['adapter, all fields read'] = async () => {
          count('adapter', operation);
          const items = await operation.adapter(adapter);
          readIds(operation, 'adapter, all fields read', items);
          readStatuses(operation, 'adapter, all fields read', items);
        };
      }
      rows.push(...(await compare(operation.name, variants)));
    }

    const served = await standIn.call<Served>('served');
    const standInCpuMs = ((await standIn.call<number>('cpu')) - standInCpuBefore) / 1000;
    for (const key of new Set([...Object.keys(made), ...Object.keys(served)])) {
      if (made[key] !== served[key]) throw new BrokenRun(`the stand-in served ${served[key] ?? 0} calls of "${key}" where the bench made ${made[key] ?? 0}`);
    }
    const benchMs = performance.now() - started;

    console.log(`Video adapter benchmark: stand-in service in its own process at ${baseUrl} (recorded bodies), concurrency ${CONCURRENCY},`);
    console.log(
      `each row ${ROUNDS} × ${SLICE_MS} ms, clients interleaved in random order, a full GC before each slice. ${cpus().length} CPUs, load average ${loadAtStart} at the start, ${load()} at the end; node ${process.versions.node}.`,
    );
    console.log(`The stand-in used ${(standInCpuMs / 1000).toFixed(1)} s of CPU in ${(benchMs / 1000).toFixed(1)} s.\n`);
    const header = `${pad('operation', 26)}  ${pad('client', 26)} ${pad('calls/s', 8, true)} ${pad('p50 ms', 8, true)} ${pad('p99 ms', 8, true)} ${pad('× limit', 8, true)} ${pad('CPU µs/call', 12, true)} ${pad('× limit', 8, true)}`;
    console.log(header);
    console.log('-'.repeat(header.length));
    const verdicts: string[] = [];
    for (const operation of OPERATIONS) {
      const of = (variant: string) => rows.find((r) => r.operation === operation.name && r.variant === variant)!;
      const limit = of('limit');
      for (const row of rows.filter((r) => r.operation === operation.name)) {
        const ratio = `${(limit.perSecond / row.perSecond).toFixed(2)}×`;
        const cpuRatio = `${(row.cpuPerCall / limit.cpuPerCall).toFixed(2)}×`;
        console.log(
          `${pad(row.operation, 26)}  ${pad(row.variant, 26)} ${pad(row.perSecond.toFixed(0), 8, true)} ${pad(row.p50.toFixed(2), 8, true)} ${pad(row.p99.toFixed(2), 8, true)} ${pad(ratio, 8, true)} ${pad(row.cpuPerCall.toFixed(0), 12, true)} ${pad(cpuRatio, 8, true)}`,
        );
      }
      const adapter = of('adapter');
      const toLimit = limit.perSecond / adapter.perSecond;
      const opentok = of('opentok-node');
      const toOpentok = adapter.perSecond / opentok.perSecond;
      // The same ratios round by round: a round's slices run back to back, seconds apart, so the
      // spread of the rounds is what the machine's drift does to one figure.
      const roundsToLimit = limit.perRound.map((perSecond, round) => perSecond / adapter.perRound[round]!);
      const roundsToOpentok = adapter.perRound.map((perSecond, round) => perSecond / opentok.perRound[round]!);
      verdicts.push(
        `${pad(operation.name, 26)}  adapter ${toLimit.toFixed(2)}× the limit's time (aim ≤ 1.30×: ${toLimit <= 1.3 ? 'met' : 'MISSED'}; ${spread(roundsToLimit, 1.3)}), ` +
          `${toOpentok.toFixed(2)}× opentok-node's calls/s (aim ≥ 2×: ${toOpentok >= 2 ? 'met' : 'MISSED'}; ${spread(roundsToOpentok, 2)})`,
      );
    }
    console.log("\n× limit = limit calls/s ÷ client calls/s, and client CPU per call ÷ the limit's (this process's CPU; the stand-in runs apart).");
    console.log('Every client read every item\'s id; "all fields read" also read each status. The aims are judged on calls/s.');
    console.log(verdicts.join('\n'));
    console.log(
      `\nChecked: ${Object.values(made).reduce((a, b) => a + b, 0)} calls, every one answered 200 with the expected ids, each one served once by the stand-in.`,
    );
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
    await closeSharedPools();
    await standIn.stop();
    rmSync(ADAPTER_BUILD, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BrokenRun ? `bench:api: broken run, no figures: ${error.message}` : error);
  process.exit(1);
});

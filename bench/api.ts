/**
 * Adapter overhead against the in-process emulator on loopback (`npm run bench:api`).
 *
 * For get-archive and list-archives (count 1000) at concurrency 1 and 32 it measures:
 *   floor    bare undici Pool, a fresh jose HS256 token per request (minted exactly like the
 *            adapter's), body read and JSON.parse'd — what any caller must at least do;
 *   adapter  VideoClient with a fresh token per call (tokenReuseMs 0) and with the default
 *            30 s token reuse: validation, retry loop, zod parsing and normalisation included.
 * Then raw token-minting throughput. Runs well under 60 s.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { HmacSigner, REST_TOKEN_LIFETIME_S } from '../src/api/auth';
import { DEFAULT_TOKEN_REUSE_MS, VideoClient, closeSharedPools } from '../src/api';
import { startEmulator } from '../src/emulator';

const SEED_ARCHIVES = 300;
/** Variants alternate in short slices so drift and neighbours' load hit them alike. */
const ROUNDS = 4;
const SLICE_MS = 400;
const WARMUP_MS = 300;
const CONCURRENCY = [1, 32] as const;

interface Result {
  operation: string;
  concurrency: number;
  variant: string;
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function runFor(durationMs: number, concurrency: number, call: () => Promise<unknown>, latencies: number[] = []): Promise<number[]> {
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
  return latencies;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function compare(
  operation: string,
  concurrency: number,
  variants: Record<string, () => Promise<unknown>>,
): Promise<Result[]> {
  const names = Object.keys(variants);
  const latencies = new Map(names.map((name) => [name, [] as number[]]));
  const elapsed = new Map(names.map((name) => [name, 0]));
  for (const name of names) await runFor(WARMUP_MS, concurrency, variants[name]!);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const started = performance.now();
      await runFor(SLICE_MS, concurrency, variants[name]!, latencies.get(name));
      elapsed.set(name, elapsed.get(name)! + performance.now() - started);
    }
  }
  return names.map((variant) => {
    const sorted = latencies.get(variant)!.sort((x, y) => x - y);
    return {
      operation,
      concurrency,
      variant,
      calls: sorted.length,
      perSecond: (sorted.length / elapsed.get(variant)!) * 1000,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
    };
  });
}

async function tokensPerSecond(signer: HmacSigner, concurrency: number): Promise<number> {
  let minted = 0;
  const started = performance.now();
  await runFor(1_000, concurrency, async () => {
    const iat = Math.floor(Date.now() / 1000);
    await signer.sign({ iss: 'bench', ist: 'project', iat, exp: iat + REST_TOKEN_LIFETIME_S, jti: randomUUID() });
    minted += 1;
  });
  return (minted / (performance.now() - started)) * 1000;
}

function pad(text: string | number, width: number, right = false): string {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const emulator = await startEmulator({ clock: 'real' });
  const { apiKey, apiSecret } = emulator.control.createProject({ name: 'bench' });
  const sessionId = emulator.control.createSession(apiKey, { mediaMode: 'routed' });
  const connectionId = emulator.control.connect(apiKey, sessionId);
  emulator.control.publish(apiKey, sessionId, connectionId, { videoType: 'camera' });

  const options = { baseUrl: emulator.baseUrl, apiKey, apiSecret };
  const fresh = new VideoClient({ ...options, tokenReuseMs: 0 });
  const reusing = new VideoClient(options);
  let archiveId = '';
  for (let i = 0; i < SEED_ARCHIVES; i++) {
    archiveId = (await reusing.archives.start({ sessionId, multiArchiveTag: `bench-${i}`, name: `Bench ${i}` })).id;
  }

  const pool = new Pool(emulator.baseUrl, { connections: 64 });
  const signer = new HmacSigner(apiSecret);
  const bare = async (path: string) => {
    const iat = Math.floor(Date.now() / 1000);
    const token = await signer.sign({ iss: apiKey, ist: 'project', iat, exp: iat + REST_TOKEN_LIFETIME_S, jti: randomUUID() });
    const res = await pool.request({ method: 'GET', path, headers: { 'x-service-auth': token, accept: 'application/json' } });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200) throw new Error(`floor request failed: ${res.statusCode}`);
    return body;
  };
  const getPath = `/v2/project/${apiKey}/archive/${archiveId}`;
  const listPath = `/v2/project/${apiKey}/archive?count=1000`;

  const operations = [
    {
      name: 'get-archive',
      floor: () => bare(getPath),
      fresh: () => fresh.archives.get(archiveId),
      reusing: () => reusing.archives.get(archiveId),
    },
    {
      name: `list-archives (count 1000, ${SEED_ARCHIVES} items)`,
      floor: () => bare(listPath),
      fresh: () => fresh.archives.list({ count: 1000 }),
      reusing: () => reusing.archives.list({ count: 1000 }),
    },
  ];

  const results: Result[] = [];
  const mintedBefore = reusing.restTokensMinted;
  for (const operation of operations) {
    for (const concurrency of CONCURRENCY) {
      results.push(
        ...(await compare(operation.name, concurrency, {
          'floor: undici + fresh JWT': operation.floor,
          'adapter, fresh JWT/call': operation.fresh,
          [`adapter, JWT reuse ${DEFAULT_TOKEN_REUSE_MS / 1000} s`]: operation.reusing,
        })),
      );
    }
  }
  const reuseTokens = reusing.restTokensMinted - mintedBefore;
  const reuseCalls = results.filter((r) => r.variant.includes('reuse')).reduce((sum, r) => sum + r.calls, 0);

  const mintSequential = await tokensPerSecond(signer, 1);
  const mintConcurrent = await tokensPerSecond(signer, 32);

  console.log(
    `\nVideo adapter benchmark — emulator in-process at ${emulator.baseUrl}, ${SEED_ARCHIVES} archives seeded; ` +
      `each row ${ROUNDS} × ${SLICE_MS} ms, variants interleaved\n`,
  );
  const header = `${pad('operation', 38)} ${pad('conc', 4, true)}  ${pad('variant', 30)} ${pad('calls/s', 9, true)} ${pad('p50 ms', 8, true)} ${pad('p99 ms', 8, true)} ${pad('× floor', 8, true)}`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const result of results) {
    const floor = results.find((r) => r.operation === result.operation && r.concurrency === result.concurrency && r.variant.startsWith('floor'))!;
    const ratio = floor.perSecond / result.perSecond;
    console.log(
      `${pad(result.operation, 38)} ${pad(result.concurrency, 4, true)}  ${pad(result.variant, 30)} ${pad(result.perSecond.toFixed(0), 9, true)} ${pad(result.p50.toFixed(2), 8, true)} ${pad(result.p99.toFixed(2), 8, true)} ${pad(`${ratio.toFixed(2)}×`, 8, true)}`,
    );
  }
  console.log('\n× floor = floor calls/s ÷ variant calls/s (1.00× = as fast as bare undici; target ≤ 1.30×).');
  console.log(`\nJWT minting (jose HS256, CryptoKey imported once): ${mintSequential.toFixed(0)} tokens/s sequential, ${mintConcurrent.toFixed(0)} tokens/s at concurrency 32`);
  console.log(`  = ${(1000 / mintSequential).toFixed(3)} ms of signing per fresh-token call.`);
  console.log(`Token reuse: ${reuseCalls} measured calls in the reuse rows needed ${reuseTokens} new signature(s) (one token serves a 30 s window).`);
  const getFresh = results.find((r) => r.operation === 'get-archive' && r.concurrency === 32 && r.variant.startsWith('adapter, fresh'))!;
  const getReuse = results.find((r) => r.operation === 'get-archive' && r.concurrency === 32 && r.variant.includes('reuse'))!;
  console.log(
    `Signing share of get-archive at concurrency 32: ${((1 - getFresh.perSecond / getReuse.perSecond) * 100).toFixed(0)}% of throughput ` +
      `(fresh ${getFresh.perSecond.toFixed(0)}/s vs reuse ${getReuse.perSecond.toFixed(0)}/s).`,
  );
  console.log(`\nTotal bench time ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);

  await pool.close();
  await closeSharedPools();
  await emulator.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * How the app is launched in a deployment (README, "Operating vidops"; `npm start` does the same):
 * the benches run it so, or they would measure a process nobody runs. Each setting trades a little
 * CPU for memory, measured in bench/README.md:
 * - a young generation of 2 MB semi-spaces instead of V8's default (up to 16 MB each), whose
 *   scavenges stay short with the small live set of a request;
 * - a cap of 256 MB on each heap (the main thread's and the poller's), at which V8 grows a heap by
 *   at most 1.3× what it holds live after a full collection, against up to 4× under its default
 *   cap of a quarter of the machine's memory;
 * - the malloc `bin/launch` picks: jemalloc when the machine has it, which gives back what V8's
 *   compilers free, else glibc's with two arenas instead of up to eight per CPU.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const DEPLOYMENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--max-old-space-size=256'];

const HEAP_CAP = '--max-old-space-size=';

/** The deployment's node flags, with a bench's own heap cap (`heapMb`) in place of the deployment's when given. */
export function deploymentNodeFlags(heapMb?: number): string[] {
  if (heapMb === undefined) return [...DEPLOYMENT_NODE_FLAGS];
  return DEPLOYMENT_NODE_FLAGS.map((flag) => (flag.startsWith(HEAP_CAP) ? `${HEAP_CAP}${heapMb}` : flag));
}

/** The launcher a deployment runs node through: it sets the allocator's variables. */
export const LAUNCHER = join(__dirname, '..', '..', 'bin', 'launch');

const ALLOCATOR_VARIABLES = ['LD_PRELOAD', 'MALLOC_CONF', 'MALLOC_ARENA_MAX'] as const;

/**
 * `env` with the allocator's variables `bin/launch` sets on this machine, read from the launcher
 * itself so that one place decides them. A variable the caller set is left as it is.
 */
export function deploymentEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const launched = JSON.parse(
    execFileSync('sh', [LAUNCHER, process.execPath, '-e', `process.stdout.write(JSON.stringify(process.env))`], { env, encoding: 'utf8' }),
  ) as NodeJS.ProcessEnv;
  const withAllocator = { ...env };
  for (const name of ALLOCATOR_VARIABLES) if (launched[name] !== undefined) withAllocator[name] = launched[name];
  return withAllocator;
}

/** The allocator of an environment from `deploymentEnv`, for a bench's report. */
export function allocatorOf(env: NodeJS.ProcessEnv): string {
  const jemalloc = env.LD_PRELOAD?.includes('jemalloc');
  return jemalloc ? `jemalloc (${env.LD_PRELOAD}, MALLOC_CONF=${env.MALLOC_CONF ?? ''})` : `glibc malloc, MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX ?? ''}`;
}

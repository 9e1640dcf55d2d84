/**
 * The benches launch the app as a deployment does (bench/lib/deployment.ts, bin/launch): the same
 * settings must be the ones `npm start` uses and the README tells a deployment to use, or the
 * figures describe a process nobody runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPLOYMENT_NODE_FLAGS, LAUNCHER, allocatorOf, deploymentEnv, deploymentNodeFlags } from '../../bench/lib/deployment';

const root = join(__dirname, '..', '..');
const launch = `bin/launch node ${DEPLOYMENT_NODE_FLAGS.join(' ')} dist/main.js`;

/** What a node process launched through bin/launch with `env` sees: its allocator variables and whether jemalloc is mapped. */
function launched(env: NodeJS.ProcessEnv): { LD_PRELOAD?: string; MALLOC_CONF?: string; MALLOC_ARENA_MAX?: string; jemallocMapped: boolean } {
  const script = `const e = process.env; process.stdout.write(JSON.stringify({ LD_PRELOAD: e.LD_PRELOAD, MALLOC_CONF: e.MALLOC_CONF, MALLOC_ARENA_MAX: e.MALLOC_ARENA_MAX, jemallocMapped: require('fs').readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc') }))`;
  // stderr ignored: the dynamic loader warns about a preload that is not a library (the fake one below).
  return JSON.parse(
    execFileSync('sh', [LAUNCHER, process.execPath, '-e', script], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as ReturnType<typeof launched>;
}

/** The jemalloc libraries bin/launch looks for, present on this machine. */
function jemallocHere(): string[] {
  const multiarch = readdirSync('/usr/lib').flatMap((dir) => (dir.endsWith('-linux-gnu') ? [join('/usr/lib', dir, 'libjemalloc.so.2')] : []));
  return [...multiarch, '/usr/lib64/libjemalloc.so.2', '/usr/lib/libjemalloc.so.2', '/usr/local/lib/libjemalloc.so.2'].filter((path) => existsSync(path));
}

const { LD_PRELOAD: _preload, MALLOC_CONF: _conf, MALLOC_ARENA_MAX: _arenas, VIDOPS_MALLOC: _malloc, VIDOPS_JEMALLOC: _jemalloc, ...cleanEnv } = process.env;

describe('the deployment launch the benches measure', () => {
  it('is what `npm start` runs', () => {
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toMatch(/^sh bin\/launch tsx /);
    expect(start).toContain(DEPLOYMENT_NODE_FLAGS.join(' '));
  });

  it("takes a bench's own heap cap in place of the deployment's, never beside it", () => {
    expect(deploymentNodeFlags()).toEqual(['--max-semi-space-size=2', '--max-old-space-size=256']);
    expect(deploymentNodeFlags(128)).toEqual(['--max-semi-space-size=2', '--max-old-space-size=128']);
  });

  it('is what the README tells a deployment to run', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(launch);
  });

  it('runs node on jemalloc when the machine has it, else on glibc with two arenas', () => {
    const found = jemallocHere();
    const child = launched(cleanEnv);
    expect(child.MALLOC_ARENA_MAX).toBe('2');
    if (found.length > 0) {
      expect(found).toContain(child.LD_PRELOAD);
      expect(child.MALLOC_CONF).toBe('narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0');
      expect(child.jemallocMapped).toBe(true);
    } else {
      expect(child).toEqual({ MALLOC_ARENA_MAX: '2', jemallocMapped: false });
    }
  });

  describe('with a library of its own', () => {
    let dir: string;
    let fake: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'vidops-launch-'));
      fake = join(dir, 'libjemalloc-elsewhere.so.2');
      writeFileSync(fake, 'not a library');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps glibc when told to, and takes the library named by VIDOPS_JEMALLOC', () => {
      expect(launched({ ...cleanEnv, VIDOPS_MALLOC: 'glibc' })).toEqual({ MALLOC_ARENA_MAX: '2', jemallocMapped: false });
      expect(launched({ ...cleanEnv, VIDOPS_JEMALLOC: fake })).toMatchObject({ LD_PRELOAD: fake, MALLOC_ARENA_MAX: '2' });
    });

    it("leaves the allocator settings the caller's environment already has", () => {
      const own = { LD_PRELOAD: fake, MALLOC_CONF: 'narenas:1', MALLOC_ARENA_MAX: '4' };
      expect(launched({ ...cleanEnv, ...own })).toEqual({ ...own, jemallocMapped: false });
    });
  });

  it('hands the benches what the caller set', () => {
    expect(deploymentEnv({ PATH: process.env.PATH, MALLOC_ARENA_MAX: '4', VIDOPS_MALLOC: 'glibc' })).toEqual({
      PATH: process.env.PATH,
      MALLOC_ARENA_MAX: '4',
      VIDOPS_MALLOC: 'glibc',
    });
  });

  it("gives the benches the launcher's allocator and names it in their reports", () => {
    const env = deploymentEnv({ ...cleanEnv, VIDOPS_MALLOC: 'glibc' });
    expect(env).toMatchObject({ MALLOC_ARENA_MAX: '2' });
    expect(env.LD_PRELOAD).toBeUndefined();
    expect(allocatorOf(env)).toBe('glibc malloc, MALLOC_ARENA_MAX=2');
    expect(allocatorOf({ LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', MALLOC_CONF: 'narenas:2' })).toBe(
      'jemalloc (/usr/lib/x86_64-linux-gnu/libjemalloc.so.2, MALLOC_CONF=narenas:2)',
    );
  });
});

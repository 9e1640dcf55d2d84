/**
 * Benches that measure a process's memory run it as compiled JavaScript (as `node dist/main.js`
 * runs it; tsx alone adds some 40 MB to RSS) with its heap capped as a container's memory limit
 * would cap it: V8 otherwise grows the heap far beyond what is live before collecting, and RSS
 * with it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Modules a worker thread loads by path (never imported), by the module that starts the thread. */
const LOADED_BY_PATH: Record<string, string[]> = {
  'src/poller/thread.ts': ['src/poller/thread-worker.ts'],
};

/**
 * Transpiles `entry` and every source file it reaches (relative imports and requires) into `out`
 * (emptied first), keeping their paths relative to the repository; returns the entry's copy.
 * Outside the repository, `out/node_modules` links to the repository's so packages resolve.
 */
export function compileForBench(entry: string, out: string): string {
  const ts = require('typescript') as typeof import('typescript');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  if (relative(ROOT, out).startsWith('..')) symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  const resolve = (from: string, spec: string): string | undefined =>
    [`${spec}.ts`, join(spec, 'index.ts')].map((candidate) => join(dirname(from), candidate)).find((file) => existsSync(file));
  const pending = [entry];
  const done = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, 'utf8');
    for (const loaded of LOADED_BY_PATH[relative(ROOT, file)] ?? []) pending.push(join(ROOT, loaded));
    for (const imported of ts.preProcessFile(source, true, true).importedFiles) {
      const next = imported.fileName.startsWith('.') ? resolve(file, imported.fileName) : undefined;
      if (next) pending.push(next);
    }
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  return join(out, relative(ROOT, entry)).replace(/\.ts$/, '.js');
}

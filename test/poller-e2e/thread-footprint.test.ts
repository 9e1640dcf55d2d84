/**
 * The poller's thread is a second V8 heap in the process: every module it loads is loaded
 * twice. It needs the poller, the REST adapter, the store, the cards and a Web API client, not
 * Bolt's receivers (Express, Socket Mode, OAuth), Insights (GraphQL) or the commands; nor, on the
 * SQLite default, PostgreSQL's driver; nor undici's fetch, WebSocket and mock agent.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function modulesLoadedBy(entry: string): string[] {
  const script = `require(${JSON.stringify(entry)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as string[]).map((path) => path.slice(ROOT.length + 1));
}

describe("the poller thread's module graph", () => {
  it('loads neither Bolt, Express, GraphQL nor the commands', () => {
    const loaded = modulesLoadedBy('./src/poller/thread-worker.ts');
    expect(loaded).toContain('src/poller/service.ts');
    expect(loaded).toContain('node_modules/@slack/web-api/dist/index.js');
    const unwanted = loaded.filter((path) =>
      /node_modules\/(@slack\/bolt|express|graphql|@slack\/socket-mode|@slack\/oauth)\/|^src\/(commands|usage|actions)\//.test(path),
    );
    expect(unwanted).toEqual([]);
  }, 30_000);

  it("loads undici's pool without undici's index, and pg only with a PostgreSQL store", () => {
    const loaded = modulesLoadedBy('./src/poller/thread-worker.ts');
    expect(loaded).toContain('node_modules/undici/lib/dispatcher/pool.js');
    expect(loaded.filter((path) => /node_modules\/(pg|pg-pool)\/|^node_modules\/undici\/(index\.js|lib\/web\/|lib\/mock\/)/.test(path))).toEqual([]);
  }, 30_000);
});

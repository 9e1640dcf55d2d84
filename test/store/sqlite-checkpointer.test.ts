/**
 * The WAL checkpointer: the app's connection never checkpoints (so no commit copies pages into
 * the database file on the event loop), and the worker does it instead. Waits are on what the
 * worker does to the files, with a deadline, never a fixed sleep.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkpointOnConnection, startCheckpointer } from '../../src/store/sqlite-checkpointer';
import { SqliteStore } from '../../src/store/sqlite';
import { newWatch } from './watch-fixtures';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-checkpointer-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A WAL database whose own connection does not checkpoint, with about 2 MB written to its WAL. */
function filledWal(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(1_000));
  })();
  return db;
}

describe('startCheckpointer', () => {
  it('copies the WAL into the database file from its own thread', async () => {
    const path = join(dir, 'a.sqlite');
    const db = filledWal(path);
    expect(statSync(path).size).toBeLessThan(100_000);
    const checkpointer = startCheckpointer(path, 10, (reason) => {
      throw new Error(reason);
    });
    await until(() => statSync(path).size > 2_000_000);
    await checkpointer.stop();
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2_000 });
    db.close();
  });

  it('reports a file it cannot checkpoint, once', async () => {
    const path = join(dir, 'not-a-database');
    writeFileSync(path, 'this is not SQLite '.repeat(1_000));
    const reasons: string[] = [];
    const checkpointer = startCheckpointer(path, 10, (reason) => reasons.push(reason));
    await until(() => reasons.length > 0);
    await checkpointer.stop();
    expect(reasons).toEqual([expect.stringMatching(/not a database/)]);
  });
});

describe('checkpointOnConnection', () => {
  it('copies the WAL into the database file from the connection itself, on a timer of this thread', async () => {
    const path = join(dir, 'b.sqlite');
    const db = filledWal(path);
    expect(statSync(path).size).toBeLessThan(100_000);
    const checkpointer = checkpointOnConnection(db, 10, (reason) => {
      throw new Error(reason);
    });
    await until(() => statSync(path).size > 2_000_000);
    await checkpointer.stop();
    db.close();
  });

  it('reports a checkpoint that fails, once, and stops', async () => {
    const path = join(dir, 'c.sqlite');
    const db = filledWal(path);
    const reasons: string[] = [];
    db.close();
    const checkpointer = checkpointOnConnection(db, 10, (reason) => reasons.push(reason));
    await until(() => reasons.length > 0);
    await checkpointer.stop();
    expect(reasons).toEqual([expect.stringMatching(/not open/)]);
  });
});

describe('SqliteStore on a file', () => {
  it('has its WAL copied into the database file by the worker, below the size at which a commit would checkpoint', async () => {
    const path = join(dir, 'vidops.sqlite');
    const store = new SqliteStore(path);
    await store.migrate();
    const before = statSync(path).size;
    for (let i = 0; i < 300; i++) await store.addWatch(newWatch(`w${i}`, { lastState: { status: 'started', name: 'x'.repeat(2_000) } as never }));
    // The app's commits left the pages in the WAL; the worker moves them.
    await until(() => statSync(path).size > before + 600_000);
    expect(await store.listWatches({})).toHaveLength(300);
    await store.close();
  });

  it("hands its checkpoints over to a second connection's timer (the poller thread's) and takes them back when that ends", async () => {
    const path = join(dir, 'vidops.sqlite');
    const app = new SqliteStore(path);
    await app.migrate();
    expect(app.checkpoints).toBe('worker');
    const thread = new SqliteStore(path, undefined, { checkpoints: 'connection' });
    app.handOverCheckpoints();
    expect(app.checkpoints).toBe('handed-over');

    let before = statSync(path).size;
    for (let i = 0; i < 300; i++) await app.addWatch(newWatch(`a${i}`, { lastState: { status: 'started', name: 'x'.repeat(2_000) } as never }));
    // Only the second connection checkpoints now (the app's worker is stopped, its commits do not).
    await until(() => statSync(path).size > before + 600_000);

    await thread.close();
    app.takeBackCheckpoints();
    expect(app.checkpoints).toBe('worker');
    before = statSync(path).size;
    for (let i = 0; i < 300; i++) await app.addWatch(newWatch(`b${i}`, { lastState: { status: 'started', name: 'x'.repeat(2_000) } as never }));
    await until(() => statSync(path).size > before + 600_000);
    expect(await app.listWatches({})).toHaveLength(600);
    await app.close();
  });

  it('an in-memory store has no WAL: its commits are all there is', () => {
    expect(new SqliteStore(':memory:').checkpoints).toBe('commits');
  });
});

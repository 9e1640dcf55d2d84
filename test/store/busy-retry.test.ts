/**
 * The app's SQLite connection (createStore) never blocks the event loop on another connection's
 * lock: while a second connection holds the write lock, a store call waits off the loop (other
 * work runs), and goes through once the lock is free; past the deadline it fails with SQLITE_BUSY.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { retryingWhenBusy, whenNotBusy } from '../../src/store/busy-retry';
import { SqliteStore, createStore } from '../../src/store';
import type { NewAuditEntry, VidopsStore } from '../../src/store';

const entry = (target: string): NewAuditEntry => ({
  at: 1,
  teamId: 'T1',
  userId: 'U1',
  channelId: 'C1',
  projectName: 'default',
  command: '/record stop',
  target,
  outcome: 'ok',
});

describe('SQLite writes while another connection holds the lock', () => {
  let dir: string;
  let path: string;
  let store: VidopsStore;
  let other: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidops-busy-'));
    path = join(dir, 'vidops.sqlite');
    store = createStore(`sqlite:${path}`);
    await store.migrate();
    other = new Database(path);
  });
  afterEach(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('wait off the event loop and go through once the lock is released', async () => {
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const write = store.appendAudit(entry('recording A')).finally(() => (settled = true));
    // The loop keeps turning while the write waits: ten turns pass, the write still pending.
    for (let turn = 0; turn < 10; turn += 1) await nextTurn();
    expect(settled).toBe(false);
    other.exec('COMMIT');
    await expect(write).resolves.toMatchObject({ target: 'recording A' });
    expect((await store.listAudit('T1')).map((e) => e.target)).toEqual(['recording A']);
  });

  test('fail with SQLITE_BUSY past the deadline, having changed nothing', async () => {
    const quick = retryingWhenBusy(new SqliteStore(path, undefined, { busyTimeoutMs: 0 }), 50);
    other.exec('BEGIN IMMEDIATE');
    await expect(quick.appendAudit(entry('recording B'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    other.exec('ROLLBACK');
    expect(await quick.listAudit('T1')).toEqual([]);
    await quick.close();
  });

  test('other errors are not retried', async () => {
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
    };
    await expect(whenNotBusy(failing)).rejects.toThrow('constraint');
    expect(calls).toBe(1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createStore } from '../../src/store';
import { sqliteMigrations } from '../../src/store/migrations/sqlite';
import { MEMORY, SqliteStore } from '../../src/store/sqlite';
import { LEASE_CHANGE_RETENTION_MS } from '../../src/store/watch-rows';
import { describeWatchStoreContract } from '../poller/watch-store-contract';
import { T0, newWatch, pollOutcome, reply } from './watch-fixtures';

const LEASE = 30_000;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-sqlite-watches-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function migrated(path: string): Promise<SqliteStore> {
  const store = new SqliteStore(path);
  await store.migrate();
  return store;
}

let current: SqliteStore | undefined;
describeWatchStoreContract(
  'SqliteStore (in memory)',
  async () => (current = await migrated(MEMORY)),
  async () => current?.close(),
);
describeWatchStoreContract(
  'SqliteStore (file)',
  async () => (current = await migrated(join(dir, 'vidops.sqlite'))),
  async () => current?.close(),
);

describe('SqliteStore watches', () => {
  it('is what createStore returns for SQLite', async () => {
    const store = createStore('sqlite::memory:');
    await store.migrate();
    expect(await store.addWatch(newWatch('w'))).toBe(true);
    expect((await store.claimDue('p', T0, 10, LEASE)).map((w) => w.id)).toEqual(['w']);
    await store.close();
  });

  it('starts a claim after the cursor it is given, reading past per-project limits and excluded projects', async () => {
    const store = await migrated(MEMORY);
    for (let i = 0; i < 6; i++) await store.addWatch(newWatch(`w${i}`, { nextPollAt: T0 - 100 + i, projectName: i % 2 === 0 ? 'even' : 'odd' }));
    const first = await store.claimDue('p', T0, 2, LEASE, { perProjectLimit: 2 });
    expect(first.map((w) => w.id)).toEqual(['w0', 'w1']);
    const last = first.at(-1)!;
    // Excluding "odd" and with "even" limited to one more, the claim reads on to w4.
    const next = await store.claimDue('p', T0, 5, LEASE, {
      projectLimits: { even: 1 },
      excludeProjects: ['odd'],
      after: { nextPollAt: last.nextPollAt, id: last.id },
    });
    expect(next.map((w) => w.id)).toEqual(['w2']);
    // A cursor past a due watch leaves it for a later claim.
    expect((await store.claimDue('p', T0, 5, LEASE, { after: { nextPollAt: T0 - 96, id: 'w4' } })).map((w) => w.id)).toEqual(['w5']);
    expect((await store.claimDue('p', T0, 5, LEASE)).map((w) => w.id)).toEqual(['w3', 'w4']);
    await store.close();
  });

  it('shows a lease taken on one connection to another connection on the same file', async () => {
    const path = join(dir, 'vidops.sqlite');
    const [a, b] = [await migrated(path), await migrated(path)];
    try {
      await a.addWatch(newWatch('w1'));
      await a.addWatch(newWatch('w2'));
      expect((await a.claimDue('a', T0, 1, LEASE)).map((w) => w.id)).toEqual(['w1']);
      expect((await b.claimDue('b', T0, 10, LEASE)).map((w) => w.id)).toEqual(['w2']);
      expect(await b.completePoll('w1', 'b', pollOutcome())).toBe(false);
      expect(await b.completePoll('w1', 'a', pollOutcome({ outbox: [reply('k')] }))).toBe(true);
      expect((await a.claimOutbox('d', T0, 10, LEASE)).map((row) => row.idempotencyKey)).toEqual(['w1:k']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('shows one connection the lease changes of another in commit order, prunes old ones, and answers incomplete for a cursor before them', async () => {
    const path = join(dir, 'vidops.sqlite');
    const [a, b] = [await migrated(path), await migrated(path)];
    const raw = new Database(path);
    try {
      // `a` prunes on its first read, this one: nothing to prune yet, and no rows.
      expect(await a.leaseChanges()).toEqual({ watchIds: [], cursor: 0, complete: true });
      // Logged long ago (row 1), then by the stores (row 2).
      raw.prepare(`INSERT INTO lease_changes (watch_id, logged_at) VALUES ('old', ?)`).run(Date.now() - LEASE_CHANGE_RETENTION_MS - 1_000);
      await a.addWatch(newWatch('w'));
      await a.claimDue('a', T0, 1, LEASE);
      await b.endWatch('w', T0 + 10);
      expect(await a.leaseChanges(0)).toMatchObject({ watchIds: ['old', 'w'], cursor: 2, complete: true });
      expect(await a.leaseChanges(2)).toEqual({ watchIds: [], cursor: 2, complete: true });
      // A connection that has not pruned yet prunes on its first read; the newest row always stays.
      const fresh = await migrated(path);
      expect(await fresh.leaseChanges()).toEqual({ watchIds: [], cursor: 2, complete: true });
      await fresh.close();
      expect(raw.prepare('SELECT watch_id FROM lease_changes').pluck().all()).toEqual(['w']);
      expect(await a.leaseChanges(0)).toEqual({ watchIds: [], cursor: 2, complete: false });
      expect(await a.leaseChanges(1)).toEqual({ watchIds: ['w'], cursor: 2, complete: true });
    } finally {
      raw.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('adds the watch tables to a database created before them, keeping its data', async () => {
    const path = join(dir, 'vidops.sqlite');
    const before = new SqliteStore(
      path,
      sqliteMigrations.filter(({ version }) => version < 2),
    );
    await before.migrate();
    await before.putSecret({ name: 'k', ciphertext: 'c', updatedAt: 1 });
    await before.close();

    const after = await migrated(path);
    try {
      expect(await after.getSecret('k')).toEqual({ name: 'k', ciphertext: 'c', updatedAt: 1 });
      expect(await after.addWatch(newWatch('w'))).toBe(true);
      expect((await after.getWatch('w'))?.revision).toBe(0);
    } finally {
      await after.close();
    }
  });

  it('keeps unset optional fields unset (undefined, never null) and snapshots intact across a reopen', async () => {
    const path = join(dir, 'vidops.sqlite');
    const first = await migrated(path);
    const lastState = { status: 'started', createdAt: T0, rtmp: { 'out-1': 'live' }, observedAt: T0 };
    await first.addWatch(newWatch('b', { kind: 'broadcast', messageTs: undefined, lastState }));
    await first.addWatch(newWatch('d', { kind: 'session-discovery', lastState: undefined, threadTs: '1.1' }));
    await first.close();

    const second = await migrated(path);
    try {
      const broadcast = await second.getWatch('b');
      expect(broadcast?.lastState).toEqual(lastState);
      expect(broadcast).toBeDefined();
      expect([broadcast!.messageTs, broadcast!.endedAt, broadcast!.card]).toEqual([undefined, undefined, undefined]);
      expect(await second.getWatch('d')).toMatchObject({ lastState: undefined, threadTs: '1.1' });
    } finally {
      await second.close();
    }
  });
});

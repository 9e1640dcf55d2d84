import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { backlogSql } from '../../src/store/backlog';
import { sqliteMigrations } from '../../src/store/migrations/sqlite';
import { MEMORY, PAGE_CACHE_SIZE, SqliteStore } from '../../src/store/sqlite';
import { CLAIM_OUTBOX, PRUNE_OUTBOX, PRUNE_WATCHES } from '../../src/store/sqlite-watches';
import { describeStoreContract } from './contract';

describe('SqliteStore (in memory)', () => {
  describeStoreContract(async () => new SqliteStore(MEMORY));
});

describe('SqliteStore (file)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidops-sqlite-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new database file with every migration applied, opened directly (to read query plans). */
  async function migratedDatabase(): Promise<Database.Database> {
    const path = join(dir, 'vidops.sqlite');
    const store = new SqliteStore(path);
    await store.migrate();
    await store.close();
    return new Database(path);
  }

  it('creates the directory, uses WAL and records the applied versions', async () => {
    const path = join(dir, 'nested', 'data', 'vidops.sqlite');
    const store = new SqliteStore(path);
    await store.migrate();
    await store.close();

    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(sqliteMigrations.map((m) => m.version));
    } finally {
      db.close();
    }
  });

  it('claims the outbox through its pending rows, not by scanning every row ever delivered', async () => {
    const db = await migratedDatabase();
    try {
      const insert = db.prepare(
        `INSERT INTO outbox (idempotency_key, watch_id, transition_key, team_id, channel_id, payload, created_at, retry_at, delivered_at)
         VALUES (?, 'w', 't', 'T1', ?, '{"type":"reply"}', 0, 0, ?)`,
      );
      db.transaction(() => {
        for (let i = 0; i < 2_000; i++) insert.run(`k${i}`, `C${i % 40}`, i < 1_990 ? 1_000 + i : null);
      })();
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${CLAIM_OUTBOX}`).all({ owner: 'o', now: 5_000, limit: 50, lease_until: 6_000, paced_since: 4_000 }) as {
          detail: string;
        }[]
      ).map((row) => row.detail);
      expect(plan).toContain('SCAN o USING INDEX outbox_pending');
      expect(plan).not.toContain('SCAN o');
    } finally {
      db.close();
    }
  });

  it('keeps a page cache of 2 MB per connection, not the 16 MB better-sqlite3 builds SQLite with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidops-cache-'));
    const store = new SqliteStore(join(dir, 'vidops.sqlite'), undefined, { checkpoints: 'commits' });
    const plain = new Database(':memory:');
    try {
      expect(plain.pragma('cache_size', { simple: true })).toBe(-16_000);
      expect((store as unknown as { db: Database.Database }).db.pragma('cache_size', { simple: true })).toBe(PAGE_CACHE_SIZE);
      expect(PAGE_CACHE_SIZE).toBe(-2_000);
    } finally {
      plain.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the backlog from partial indexes alone: no kept watch’s row is read', async () => {
    const db = await migratedDatabase();
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${backlogSql('@now')}`).all({ now: 5_000 }) as { detail: string }[]).map((row) => row.detail);
      const watchReads = plan.filter((detail) => / watches /.test(`${detail} `));
      expect(watchReads).toEqual([
        'SCAN watches USING INDEX watches_due',
        'SEARCH watches USING INDEX watches_lease_end (lease_until>?)',
        'SEARCH watches USING INDEX watches_due_unleased (next_poll_at<?)',
        'SEARCH watches USING INDEX watches_lease_end (lease_until>? AND lease_until<?)',
        'SEARCH watches USING INDEX watches_due_unleased (next_poll_at<?)',
        'SEARCH watches USING INDEX watches_lease_end (lease_until>? AND lease_until<?)',
      ]);
    } finally {
      db.close();
    }
  });

  it('prunes finished history through its indexes, without scanning the tables', async () => {
    const db = await migratedDatabase();
    try {
      const plan = (sql: string, params: object) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
      const outbox = plan(PRUNE_OUTBOX, { before: 5_000, limit: 500 });
      expect(outbox).toContainEqual(expect.stringMatching(/^SEARCH outbox USING INDEX outbox_finished/));
      expect(outbox).not.toContain('SCAN outbox');
      const watches = plan(PRUNE_WATCHES, { before: 5_000, limit: 500 });
      expect(watches).toContainEqual(expect.stringMatching(/^SEARCH w USING INDEX watches_ended/));
      expect(watches).toContainEqual(expect.stringMatching(/^SEARCH o USING (COVERING )?INDEX outbox_by_watch/));
      expect(watches.filter((detail) => detail.startsWith('SCAN'))).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('keeps data across restarts', async () => {
    const path = join(dir, 'vidops.sqlite');
    const first = new SqliteStore(path);
    await first.migrate();
    await first.putAlias({ teamId: 'T1', alias: 'daily', projectName: 'prod', sessionId: 'S1', createdBy: 'U1', createdAt: 1 });
    await first.close();

    const second = new SqliteStore(path);
    await second.migrate();
    expect((await second.getAlias('T1', 'daily'))?.sessionId).toBe('S1');
    await second.close();
  });

  it('lets two processes on the same file migrate and share data', async () => {
    const path = join(dir, 'vidops.sqlite');
    const a = new SqliteStore(path);
    const b = new SqliteStore(path);
    await Promise.all([a.migrate(), b.migrate()]);
    await a.putSecret({ name: 'k', ciphertext: 'c', updatedAt: 1 });
    expect(await b.getSecret('k')).toEqual({ name: 'k', ciphertext: 'c', updatedAt: 1 });
    await Promise.all([a.close(), b.close()]);
  });
});

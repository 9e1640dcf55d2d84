import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteMigrations } from '../../src/store/migrations/sqlite';
import { MEMORY, SqliteStore } from '../../src/store/sqlite';
import { LEASE, PERIOD, T0, describeScheduleStoreContract, newSchedule } from './schedules-contract';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-sqlite-schedules-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function migrated(path: string): Promise<SqliteStore> {
  const store = new SqliteStore(path);
  await store.migrate();
  return store;
}

describeScheduleStoreContract(
  'SqliteStore (in memory)',
  () => migrated(MEMORY),
  (store) => (store as SqliteStore).close(),
);
describeScheduleStoreContract(
  'SqliteStore (file)',
  () => migrated(join(dir, 'vidops.sqlite')),
  (store) => (store as SqliteStore).close(),
);

describe('SqliteStore schedules', () => {
  it('gives a due schedule to one of two connections on the same file (two replicas)', async () => {
    const path = join(dir, 'vidops.sqlite');
    const [a, b] = [await migrated(path), await migrated(path)];
    try {
      const s = await a.addSchedule(newSchedule());
      const [fromA, fromB] = await Promise.all([a.claimDueSchedules('a', T0, PERIOD, 10, LEASE), b.claimDueSchedules('b', T0, PERIOD, 10, LEASE)]);
      expect([...fromA, ...fromB].map((x) => x.id)).toEqual([s.id]);
      const winner = fromA.length === 1 ? 'a' : 'b';
      const loser = winner === 'a' ? b : a;
      expect(await loser.completeScheduleRun(s.id, winner === 'a' ? 'b' : 'a', { period: PERIOD, at: T0, nextDueAt: T0 + 1, failures: 0 })).toBe(false);
      expect(await loser.completeScheduleRun(s.id, winner, { period: PERIOD, at: T0, nextDueAt: T0 + 1, failures: 0 })).toBe(true);
      expect((await a.getSchedule('T1', s.id))?.lastPeriod).toBe(PERIOD);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('adds the schedules table to a database created before it, keeping its data', async () => {
    const path = join(dir, 'vidops.sqlite');
    const before = new SqliteStore(
      path,
      sqliteMigrations.filter(({ version }) => version < 3),
    );
    await before.migrate();
    await before.putAlias({ teamId: 'T1', alias: 'daily', projectName: 'prod', sessionId: 'S1', createdBy: 'U1', createdAt: 1 });
    await before.close();

    const after = await migrated(path);
    try {
      expect((await after.getAlias('T1', 'daily'))?.sessionId).toBe('S1');
      expect((await after.addSchedule(newSchedule())).id).toBe(1);
    } finally {
      await after.close();
    }
  });
});

import type { PostgresStore } from '../../src/store/postgres';
import { describePostgres, freshSchema, storeIn } from './postgres-harness';
import { LEASE, PERIOD, T0, describeScheduleStoreContract, newSchedule } from './schedules-contract';

async function migrated(schema = freshSchema()): Promise<PostgresStore> {
  const store = storeIn(schema);
  await store.migrate();
  return store;
}

describePostgres('PostgresStore schedules', () => {
  describeScheduleStoreContract(
    'PostgresStore',
    () => migrated(),
    (store) => (store as PostgresStore).close(),
  );

  it('gives every due schedule to exactly one of two replicas claiming at once, round after round', async () => {
    const schema = freshSchema();
    const [a, b] = [await migrated(schema), await migrated(schema)];
    try {
      const ids: number[] = [];
      for (let i = 0; i < 60; i += 1) ids.push((await a.addSchedule(newSchedule({ nextDueAt: T0 - i }))).id);
      const delivered = new Map<number, string>();
      const doubles: string[] = [];
      for (let round = 0; round < 6; round += 1) {
        const claimers = [a, a, b, b].map((store, i) => ({ store, owner: `r${round}c${i}` }));
        const claims = await Promise.all(claimers.map(({ store, owner }) => store.claimDueSchedules(owner, T0 + round, PERIOD, 4, LEASE)));
        await Promise.all(
          claims.flatMap((schedules, i) =>
            schedules.map(async (s) => {
              const { store, owner } = claimers[i]!;
              if (await store.completeScheduleRun(s.id, owner, { period: PERIOD, at: T0, nextDueAt: T0 + 86_400_000, failures: 0 })) {
                if (delivered.has(s.id)) doubles.push(`${s.id} by ${owner} and ${delivered.get(s.id)}`);
                delivered.set(s.id, owner);
              }
            }),
          ),
        );
      }
      expect(doubles).toEqual([]);
      expect([...delivered.keys()].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});

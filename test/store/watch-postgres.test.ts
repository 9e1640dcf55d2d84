import type { Watch } from '../../src/poller/watch';
import type { PostgresStore } from '../../src/store/postgres';
import { describeWatchStoreContract } from '../poller/watch-store-contract';
import { LEASE_CHANGE_RETENTION_MS } from '../../src/store/watch-rows';
import { describePostgres, freshSchema, storeIn, withAdminClient } from './postgres-harness';
import { T0, newWatch, pollOutcome, reply } from './watch-fixtures';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Two replicas: separate pools on one schema. */
async function twoReplicas(schema = freshSchema()): Promise<[PostgresStore, PostgresStore]> {
  const replicas: [PostgresStore, PostgresStore] = [storeIn(schema), storeIn(schema)];
  await Promise.all(replicas.map((replica) => replica.migrate()));
  return replicas;
}

/**
 * Makes every outbox insert in `schema` linger up to 20 ms after its id was handed out, so
 * writers that do not serialise per channel would commit their rows out of id order.
 */
async function slowOutboxInserts(schema: string): Promise<void> {
  await withAdminClient((admin) =>
    admin.query(`
      CREATE FUNCTION ${schema}.linger() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(random() * 0.02); RETURN NULL; END $$;
      CREATE TRIGGER linger AFTER INSERT ON ${schema}.outbox FOR EACH ROW EXECUTE FUNCTION ${schema}.linger();`),
  );
}

describePostgres('PostgresStore watches', () => {
  let current: PostgresStore | undefined;
  describeWatchStoreContract(
    'PostgresStore',
    async () => {
      current = storeIn(freshSchema());
      await current.migrate();
      return current;
    },
    async () => current?.close(),
  );

  it('shows one replica the lease changes of another, answers incomplete past the history kept, and prunes it', async () => {
    const schema = freshSchema();
    const [a, b] = await twoReplicas(schema);
    try {
      await a.addWatch(newWatch('w'));
      const start = await a.leaseChanges();
      await a.claimDue('a', T0, 1, 30_000);
      await b.endWatch('w', T0 + 10);
      expect(await a.leaseChanges(start.cursor)).toMatchObject({ watchIds: ['w'], complete: true });
      expect(await a.leaseChanges(start.cursor - LEASE_CHANGE_RETENTION_MS)).toMatchObject({ watchIds: [], complete: false });

      await withAdminClient((admin) =>
        admin.query(`INSERT INTO ${schema}.lease_changes (watch_id, logged_at) VALUES ('old', $1)`, [start.cursor - LEASE_CHANGE_RETENTION_MS - 1_000]),
      );
      const fresh = storeIn(schema);
      await fresh.leaseChanges();
      const { rows } = await withAdminClient((admin) => admin.query<{ watch_id: string }>(`SELECT watch_id FROM ${schema}.lease_changes`));
      expect(rows.map((row) => row.watch_id)).toEqual(['w']);
      await fresh.close();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('never leases one watch to two replicas at once, and every due watch gets its turn', async () => {
    const WATCHES = 500;
    const ROUNDS = 40;
    const STEP = 1_000;
    const LEASE = 3 * STEP;
    const [a, b] = await twoReplicas();
    const random = seededRandom(20_261_122);
    try {
      const ids = Array.from({ length: WATCHES }, (_, i) => `w${String(i).padStart(3, '0')}`);
      for (let i = 0; i < WATCHES; i += 50) {
        await Promise.all(ids.slice(i, i + 50).map((id, j) => a.addWatch(newWatch(id, { projectName: `p${(i + j) % 5}`, nextPollAt: T0 - (i + j) }))));
      }

      const leases = new Map<string, { owner: string; until: number }>();
      const everClaimed = new Set<string>();
      const overlaps: string[] = [];
      const lateCompletionsAccepted: string[] = [];
      let abandoned: { store: PostgresStore; owner: string; id: string }[] = [];

      for (let round = 0; round < ROUNDS; round += 1) {
        const now = T0 + round * STEP;
        // Two claimers per replica, all four at once.
        const claimers = [a, a, b, b].map((store, i) => ({ store, owner: `r${round}c${i}` }));
        const claims = await Promise.all(claimers.map(({ store, owner }) => store.claimDue(owner, now, 30, LEASE, { perProjectLimit: 10 })));

        const claimed: { store: PostgresStore; owner: string; watch: Watch }[] = [];
        claims.forEach((watches, i) => {
          const { store, owner } = claimers[i]!;
          for (const watch of watches) {
            const held = leases.get(watch.id);
            if (held && held.until > now) overlaps.push(`${watch.id}: ${owner} at ${now} while ${held.owner} holds it until ${held.until}`);
            leases.set(watch.id, { owner, until: watch.leaseUntil! });
            everClaimed.add(watch.id);
            claimed.push({ store, owner, watch });
          }
        });

        // A poller whose lease ran out and was taken over answers late: it must be refused.
        const reclaimed = abandoned.filter(({ id, owner }) => leases.get(id)?.owner !== owner);
        abandoned = abandoned.filter((entry) => !reclaimed.includes(entry));
        for (const { store, owner, id } of reclaimed) {
          if (await store.completePoll(id, owner, pollOutcome({ polledAt: now }))) lateCompletionsAccepted.push(`${id} by ${owner}`);
        }

        await Promise.all(
          claimed.map(async ({ store, owner, watch }) => {
            const roll = random();
            if (roll < 0.7) {
              const nextPollAt = now + Math.ceil(roll * 10) * STEP;
              expect(await store.completePoll(watch.id, owner, pollOutcome({ polledAt: now, nextPollAt }))).toBe(true);
              leases.delete(watch.id);
            } else if (roll < 0.85) {
              expect(await store.releaseWatch(watch.id, owner)).toBe(true);
              leases.delete(watch.id);
            } else {
              abandoned.push({ store, owner, id: watch.id });
            }
          }),
        );
      }

      expect(overlaps).toEqual([]);
      expect(lateCompletionsAccepted).toEqual([]);
      expect(everClaimed.size).toBe(WATCHES);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);

  it('delivers each channel in id order while replicas write and drain the outbox at once', async () => {
    const CHANNELS = ['C1', 'C2'];
    const WATCHES = 40;
    const ITEMS_PER_POLL = 3;
    const LEASE = 60_000;
    const schema = freshSchema();
    const [a, b] = await twoReplicas(schema);
    // Deliverers on pools of their own, so they do not queue behind the writers for a connection.
    const [c, d] = await twoReplicas(schema);
    await slowOutboxInserts(schema);
    try {
      const ids = Array.from({ length: WATCHES }, (_, i) => `w${i}`);
      await Promise.all(ids.map((id, i) => a.addWatch(newWatch(id, { channelId: CHANNELS[i % CHANNELS.length]! }))));
      expect(await a.claimDue('poller', T0, WATCHES, LEASE)).toHaveLength(WATCHES);

      let writing = true;
      const writers = Promise.all(
        ids.map((id, i) =>
          (i % 2 === 0 ? a : b).completePoll(
            id,
            'poller',
            pollOutcome({
              outbox: Array.from({ length: ITEMS_PER_POLL }, (_, k) => reply(`${id}@${k}`, { channelId: CHANNELS[i % CHANNELS.length]! })),
            }),
          ),
        ),
      ).finally(() => {
        writing = false;
      });

      const claimOrder: { channelId: string; id: number }[] = [];
      const drain = async (store: PostgresStore, name: string): Promise<void> => {
        for (let round = 0; ; round += 1) {
          // Read before claiming: once the writers are done, this claim sees all they wrote.
          const writersDone = !writing;
          const owner = `${name}:${round}`;
          const rows = await store.claimOutbox(owner, T0 + 1, 10, LEASE);
          if (rows.length === 0 && writersDone) return;
          if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
          for (const row of rows) {
            claimOrder.push({ channelId: row.channelId, id: row.id });
            expect(await store.markDelivered(row.id, owner, { deliveredAt: T0 + 2 })).toBe(true);
          }
        }
      };

      const [completed] = await Promise.all([writers, drain(c, 'c'), drain(d, 'd')]);
      expect(completed.every(Boolean)).toBe(true);
      expect(claimOrder).toHaveLength(WATCHES * ITEMS_PER_POLL);
      for (const channelId of CHANNELS) {
        const order = claimOrder.filter((row) => row.channelId === channelId).map((row) => row.id);
        expect(order).toEqual([...order].sort((x, y) => x - y));
        expect(new Set(order).size).toBe(order.length);
      }
    } finally {
      await Promise.all([a, b, c, d].map((store) => store.close()));
    }
  }, 120_000);
});

import { postgresMigrations } from '../../src/store/migrations/postgres';
import { describeStoreContract } from './contract';
import { describePostgres, freshSchema, storeIn, withAdminClient } from './postgres-harness';

describePostgres('PostgresStore', () => {
  describeStoreContract(async () => storeIn(freshSchema()));

  it('lets two replicas migrate the same schema at once', async () => {
    const schema = freshSchema();
    const replicas = [storeIn(schema), storeIn(schema), storeIn(schema)];
    try {
      await Promise.all(replicas.map((replica) => replica.migrate()));

      const { rows } = await withAdminClient((admin) => admin.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`));
      expect(rows).toEqual(postgresMigrations.map(({ version }) => ({ version })));

      await replicas[0]?.putAlias({ teamId: 'T1', alias: 'daily', projectName: 'prod', sessionId: 'S1', createdBy: 'U1', createdAt: 1 });
      expect((await replicas[2]?.getAlias('T1', 'daily'))?.sessionId).toBe('S1');
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('keeps each schema to itself', async () => {
    const a = storeIn(freshSchema());
    const b = storeIn(freshSchema());
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      await a.putSecret({ name: 'k', ciphertext: 'c', updatedAt: 1 });
      expect(await b.getSecret('k')).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => storeIn('x; DROP TABLE y')).toThrow(/schema name/);
  });
});

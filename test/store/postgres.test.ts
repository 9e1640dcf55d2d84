import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { PostgresStore } from '../../src/store/postgres';
import { describeStoreContract } from './contract';

const DATABASE_URL = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? (process.env.DATABASE_URL as string)
  : 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Jest decides which tests exist before any of them runs, so reachability is probed
 * synchronously, in a child process, while the suite is being collected.
 */
function probePostgres(): string | undefined {
  const script = `
    const { Client } = require(process.env.PG_MODULE);
    const client = new Client({ connectionString: process.env.PROBE_URL, connectionTimeoutMillis: 3000 });
    client.connect().then(() => client.query('SELECT 1')).then(() => client.end())
      .then(() => process.exit(0), (error) => { process.stderr.write(String(error.message)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, PG_MODULE: require.resolve('pg'), PROBE_URL: DATABASE_URL },
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.status === 0) return undefined;
  return `PostgreSQL is not reachable at ${new URL(DATABASE_URL).host}: ${result.stderr || result.error?.message || 'no answer'}`;
}

const unreachable = probePostgres();
const runId = `vidops_test_${process.pid}_${Date.now().toString(36)}`;
const schemas: string[] = [];

function freshSchema(): string {
  const schema = `${runId}_${schemas.length}`;
  schemas.push(schema);
  return schema;
}

function storeIn(schema: string): PostgresStore {
  return new PostgresStore({ connectionString: DATABASE_URL, schema, maxConnections: 4 });
}

async function dropSchemas(): Promise<void> {
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

if (unreachable && process.env.CI === 'true') {
  describe('PostgresStore', () => {
    it('needs PostgreSQL when CI=true', () => {
      throw new Error(unreachable);
    });
  });
} else if (unreachable) {
  console.warn(`Skipping the PostgresStore suite. ${unreachable}`);
  describe.skip('PostgresStore (skipped: PostgreSQL unreachable)', () => {
    it('runs the store contract', () => undefined);
  });
} else {
  describe('PostgresStore', () => {
    afterAll(dropSchemas);

    describeStoreContract(async () => storeIn(freshSchema()));

    it('lets two replicas migrate the same schema at once', async () => {
      const schema = freshSchema();
      const replicas = [storeIn(schema), storeIn(schema), storeIn(schema)];
      try {
        await Promise.all(replicas.map((replica) => replica.migrate()));

        const admin = new Client({ connectionString: DATABASE_URL });
        await admin.connect();
        try {
          const { rows } = await admin.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
          expect(rows).toEqual([{ version: 1 }]);
        } finally {
          await admin.end();
        }

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
}

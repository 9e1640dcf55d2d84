/**
 * PostgreSQL for the store tests: DATABASE_URL when it is a postgres URL (a local server
 * otherwise), a fresh schema for every store a test asks for, all dropped after the suite.
 * When the server cannot be reached, `describePostgres` skips its suite locally and fails it
 * under CI=true.
 */
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { PostgresStore } from '../../src/store/postgres';

export const DATABASE_URL = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
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
// Test files share a worker process, so the pid and the clock alone could repeat.
const runId = `vidops_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const schemas: string[] = [];

export function freshSchema(): string {
  const schema = `${runId}_${schemas.length}`;
  schemas.push(schema);
  return schema;
}

export function storeIn(schema: string): PostgresStore {
  return new PostgresStore({ connectionString: DATABASE_URL, schema, maxConnections: 4 });
}

/** Runs `work` on a connection of its own, outside any test schema. */
export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

async function dropSchemas(): Promise<void> {
  await withAdminClient(async (admin) => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
}

/** A suite that needs PostgreSQL; its schemas are dropped once it is done. */
export function describePostgres(name: string, body: () => void): void {
  if (unreachable && process.env.CI === 'true') {
    describe(name, () => {
      it('needs PostgreSQL when CI=true', () => {
        throw new Error(unreachable);
      });
    });
  } else if (unreachable) {
    console.warn(`Skipping ${name}. ${unreachable}`);
    describe.skip(`${name} (skipped: PostgreSQL unreachable)`, () => {
      it('needs PostgreSQL', () => undefined);
    });
  } else {
    describe(name, () => {
      afterAll(dropSchemas);
      body();
    });
  }
}

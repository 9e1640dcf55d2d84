import type { Pool, PoolClient } from 'pg';

/** Runs `work` on one pooled connection inside BEGIN … COMMIT, rolling back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    // A connection that cannot even roll back is discarded rather than returned to the pool.
    client.release(broken);
  }
}

/** Picks the store for DATABASE_URL: PostgreSQL for postgres URLs, SQLite otherwise. */
import type { Logger } from '../log';
import { SqliteStore } from './sqlite';
import type { VidopsStore } from './types';
import { parseDatabaseUrl } from './url';
import { retryingWhenBusy } from './busy-retry';

export type * from './types';
export type { PostgresStore, PostgresStoreOptions } from './postgres';
export { SqliteStore } from './sqlite';
export { DEFAULT_SQLITE_PATH, parseDatabaseUrl, sharedAcrossConnections, type StoreLocation } from './url';

export interface CreateStoreOptions {
  logger?: Logger;
  /**
   * A second connection of this process (the poller's thread): it may wait for SQLite's locks,
   * and a SQLite file is checkpointed from it (the first connection hands its worker over).
   */
  secondary?: boolean;
}

/**
 * `postgres://` or `postgresql://` → PostgresStore; `sqlite:<path>` or unset → SqliteStore
 * (./data/vidops.sqlite by default). Call `migrate()` before use.
 */
export function createStore(databaseUrl?: string, options: CreateStoreOptions = {}): VidopsStore {
  const location = parseDatabaseUrl(databaseUrl);
  if (!location) {
    throw new Error('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
  }
  if (location.kind === 'sqlite') {
    // The poller's thread may block on a lock; the app's connection, serving Slack, must not.
    if (options.secondary) return new SqliteStore(location.path, undefined, { checkpoints: 'connection' });
    return retryingWhenBusy(new SqliteStore(location.path, undefined, { busyTimeoutMs: 0 }));
  }
  const log = options.logger?.child({ component: 'store' });
  // pg (and its 30 modules) is loaded only by a process that uses PostgreSQL: not by the SQLite default's two threads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PostgresStore } = require('./postgres') as typeof import('./postgres');
  return new PostgresStore({
    connectionString: location.connectionString,
    onIdleClientError: (error) => log?.warn('idle PostgreSQL connection failed; the pool replaces it', { error }),
  });
}

/** Where the store lives, read from DATABASE_URL. Pure, so config validation can use it too. */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; connectionString: string };

export const DEFAULT_SQLITE_PATH = './data/vidops.sqlite';

/**
 * `postgres://…` / `postgresql://…` → PostgreSQL; `sqlite:<path>` (also `sqlite:///abs/path`,
 * `sqlite::memory:`) or unset → SQLite. Undefined for anything else.
 */
export function parseDatabaseUrl(databaseUrl: string | undefined): StoreLocation | undefined {
  const url = databaseUrl?.trim() ?? '';
  if (url === '') return { kind: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', connectionString: url };
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(url);
  if (sqlite?.[1]) return { kind: 'sqlite', path: sqlite[1] };
  return undefined;
}

/** A SQLite file or PostgreSQL: a second connection (another thread, another process) sees the same data. */
export function sharedAcrossConnections(location: StoreLocation): boolean {
  return location.kind === 'postgres' || location.path !== ':memory:';
}

import { createStore, parseDatabaseUrl, SqliteStore } from '../../src/store';
import { PostgresStore } from '../../src/store/postgres';

describe('parseDatabaseUrl', () => {
  it.each([
    [undefined, { kind: 'sqlite', path: './data/vidops.sqlite' }],
    ['', { kind: 'sqlite', path: './data/vidops.sqlite' }],
    ['sqlite:./var/vidops.db', { kind: 'sqlite', path: './var/vidops.db' }],
    ['sqlite:///var/lib/vidops.db', { kind: 'sqlite', path: '/var/lib/vidops.db' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['postgres://u:p@db:5432/vidops', { kind: 'postgres', connectionString: 'postgres://u:p@db:5432/vidops' }],
    ['postgresql://db/vidops', { kind: 'postgres', connectionString: 'postgresql://db/vidops' }],
  ])('%s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it.each(['mysql://db/vidops', './vidops.db', 'sqlite:'])('rejects %s', (url) => {
    expect(parseDatabaseUrl(url)).toBeUndefined();
  });
});

describe('createStore', () => {
  it('uses SQLite for sqlite: URLs', async () => {
    const store = createStore('sqlite::memory:');
    expect(store).toBeInstanceOf(SqliteStore);
    await store.close();
  });

  it('uses PostgreSQL for postgres URLs (connecting lazily)', async () => {
    const store = createStore('postgresql://127.0.0.1:1/none');
    expect(store).toBeInstanceOf(PostgresStore);
    await store.close();
  });

  it('refuses other schemes without echoing the URL', () => {
    expect(() => createStore('mysql://user:hunter2@db/vidops')).toThrow(/postgres:\/\/, postgresql:\/\/ or sqlite:/);
    expect(() => createStore('mysql://user:hunter2@db/vidops')).not.toThrow(/hunter2/);
  });
});

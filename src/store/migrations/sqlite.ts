import type { Migration } from './migration';

export const sqliteMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'channel bindings, aliases, recent sessions, audit log, secrets',
    sql: `
      CREATE TABLE channel_bindings (
        team_id      TEXT    NOT NULL,
        channel_id   TEXT    NOT NULL,
        project_name TEXT,
        session_id   TEXT,
        updated_by   TEXT    NOT NULL,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (team_id, channel_id)
      );

      CREATE TABLE session_aliases (
        team_id      TEXT    NOT NULL,
        alias        TEXT    NOT NULL,
        project_name TEXT    NOT NULL,
        session_id   TEXT    NOT NULL,
        created_by   TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        PRIMARY KEY (team_id, alias)
      );

      -- seq orders uses that share a millisecond: the later touch wins.
      CREATE TABLE recent_sessions (
        team_id      TEXT    NOT NULL,
        project_name TEXT    NOT NULL,
        session_id   TEXT    NOT NULL,
        used_by      TEXT    NOT NULL,
        used_at      INTEGER NOT NULL,
        seq          INTEGER NOT NULL,
        PRIMARY KEY (team_id, project_name, session_id)
      );
      CREATE INDEX recent_sessions_newest ON recent_sessions (team_id, used_at DESC, seq DESC);

      CREATE TABLE audit_log (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        at           INTEGER NOT NULL,
        team_id      TEXT    NOT NULL,
        user_id      TEXT    NOT NULL,
        channel_id   TEXT    NOT NULL,
        project_name TEXT    NOT NULL,
        command      TEXT    NOT NULL,
        target       TEXT    NOT NULL,
        outcome      TEXT    NOT NULL CHECK (outcome IN ('ok', 'denied', 'error')),
        error        TEXT
      );
      CREATE INDEX audit_log_newest ON audit_log (team_id, at DESC, id DESC);

      CREATE TABLE secrets (
        name       TEXT    PRIMARY KEY,
        ciphertext TEXT    NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
];

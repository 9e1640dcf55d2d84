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
  {
    version: 2,
    name: 'poller watches and outbox',
    sql: `
      CREATE TABLE watches (
        id               TEXT    PRIMARY KEY,
        kind             TEXT    NOT NULL,
        resource_id      TEXT    NOT NULL,
        session_id       TEXT    NOT NULL,
        team_id          TEXT    NOT NULL,
        channel_id       TEXT    NOT NULL,
        message_ts       TEXT,
        thread_ts        TEXT,
        project_name     TEXT    NOT NULL,
        last_state       TEXT,
        last_change_at   INTEGER NOT NULL,
        next_poll_at     INTEGER NOT NULL,
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        ended_at         INTEGER,
        lease_owner      TEXT,
        lease_until      INTEGER,
        failures         INTEGER NOT NULL DEFAULT 0,
        revision         INTEGER NOT NULL DEFAULT 0,
        repoll_requested INTEGER NOT NULL DEFAULT 0 CHECK (repoll_requested IN (0, 1))
      );
      CREATE INDEX watches_due ON watches (next_poll_at, id) WHERE ended_at IS NULL;
      CREATE INDEX watches_by_resource ON watches (resource_id);
      CREATE INDEX watches_by_session ON watches (session_id);

      -- AUTOINCREMENT: ids are never reused, so id order stays insertion order.
      CREATE TABLE outbox (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key  TEXT    NOT NULL UNIQUE,
        watch_id         TEXT    NOT NULL,
        transition_key   TEXT    NOT NULL,
        team_id          TEXT    NOT NULL,
        channel_id       TEXT    NOT NULL,
        thread_ts        TEXT,
        payload          TEXT    NOT NULL,
        created_at       INTEGER NOT NULL,
        retry_at         INTEGER NOT NULL,
        attempts         INTEGER NOT NULL DEFAULT 0,
        first_attempt_at INTEGER,
        lease_owner      TEXT,
        lease_until      INTEGER,
        last_error       TEXT,
        delivered_at     INTEGER,
        message_ts       TEXT,
        discarded_at     INTEGER
      );
      CREATE INDEX outbox_pending_by_channel ON outbox (team_id, channel_id, id)
        WHERE delivered_at IS NULL AND discarded_at IS NULL;
      CREATE INDEX outbox_by_watch ON outbox (watch_id, id);
    `,
  },
  {
    version: 3,
    name: 'weekly usage report schedules',
    sql: `
      -- AUTOINCREMENT: a cancelled schedule's id is never handed out again.
      CREATE TABLE usage_schedules (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        team_id           TEXT    NOT NULL,
        channel_id        TEXT    NOT NULL,
        project_name      TEXT    NOT NULL,
        weekday           INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
        minute_of_day     INTEGER NOT NULL CHECK (minute_of_day BETWEEN 0 AND 1439),
        time_zone         TEXT    NOT NULL,
        breakdown         TEXT    CHECK (breakdown IN ('sdk', 'country', 'browser')),
        created_by        TEXT    NOT NULL,
        created_at        INTEGER NOT NULL,
        next_due_at       INTEGER NOT NULL,
        last_period       TEXT,
        last_delivered_at INTEGER,
        last_message_ts   TEXT,
        last_error        TEXT,
        failures          INTEGER NOT NULL DEFAULT 0,
        lease_owner       TEXT,
        lease_until       INTEGER,
        lease_period      TEXT,
        cancelled_at      INTEGER,
        cancelled_by      TEXT
      );
      CREATE INDEX usage_schedules_due ON usage_schedules (next_due_at, id) WHERE cancelled_at IS NULL;
      CREATE INDEX usage_schedules_by_team ON usage_schedules (team_id, id);
    `,
  },
  {
    version: 4,
    name: 'Slack deliveries seen (duplicate delivery check)',
    sql: `
      CREATE TABLE slack_deliveries (
        delivery_key TEXT    PRIMARY KEY,
        received_at  INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL
      );
      CREATE INDEX slack_deliveries_expiry ON slack_deliveries (expires_at);
    `,
  },
  {
    version: 5,
    name: 'card model stored with the watch',
    sql: `
      -- NULL on watches written before: their cards render with what the snapshot holds.
      ALTER TABLE watches ADD COLUMN card TEXT;
    `,
  },
  {
    version: 6,
    name: 'outbox deliveries by channel (pacing across replicas)',
    sql: `
      CREATE INDEX outbox_delivered_by_channel ON outbox (team_id, channel_id, delivered_at)
        WHERE delivered_at IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'what vidops muted, per session (the session console)',
    sql: `
      CREATE TABLE stream_mutes (
        team_id      TEXT    NOT NULL,
        project_name TEXT    NOT NULL,
        session_id   TEXT    NOT NULL,
        stream_id    TEXT    NOT NULL,
        muted_by     TEXT    NOT NULL,
        muted_at     INTEGER NOT NULL,
        via          TEXT    NOT NULL,
        PRIMARY KEY (team_id, project_name, session_id, stream_id)
      );
      CREATE TABLE session_mutes (
        team_id      TEXT    NOT NULL,
        project_name TEXT    NOT NULL,
        session_id   TEXT    NOT NULL,
        active       INTEGER NOT NULL,
        -- JSON array of stream IDs spared
        excluded     TEXT    NOT NULL,
        changed_by   TEXT    NOT NULL,
        changed_at   INTEGER NOT NULL,
        via          TEXT    NOT NULL,
        PRIMARY KEY (team_id, project_name, session_id)
      );
    `,
  },
  {
    version: 8,
    name: 'due watches without a lease, and leases by end (the claim skips kept leases)',
    sql: `
      -- A kept lease keeps its claim time as next_poll_at; the claim reads these two instead of
      -- walking past every leased row at the front of watches_due.
      CREATE INDEX watches_due_unleased ON watches (next_poll_at, id) WHERE ended_at IS NULL AND lease_until IS NULL;
      CREATE INDEX watches_lease_end ON watches (lease_until) WHERE ended_at IS NULL AND lease_until IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'watches by session and kind (a mute looks for the session console)',
    sql: `
      -- Every mute looks for the session's consoles among its watches (~100 recordings a session).
      DROP INDEX watches_by_session;
      CREATE INDEX watches_by_session_kind ON watches (session_id, kind);
    `,
  },
  {
    version: 10,
    name: 'lease changes (a poller checks only the kept leases others touched)',
    sql: `
      -- Appended where a lease is taken back, flagged or taken over; read by rowid (one writer at a
      -- time: commit order), pruned by logged_at, the database's clock in ms (see leaseChanges).
      CREATE TABLE lease_changes (
        watch_id  TEXT    NOT NULL,
        logged_at INTEGER NOT NULL
      );
      CREATE INDEX lease_changes_by_time ON lease_changes (logged_at);
    `,
  },
  {
    version: 11,
    name: 'pending outbox rows in claim order (a claim no longer scans every row ever delivered)',
    sql: `
      -- Delivered rows stay (pacing and recovery read them). Without statistics SQLite claimed by
      -- scanning the whole table in id order, which grew with every delivery (bench/README.md).
      CREATE INDEX outbox_pending ON outbox (id) WHERE delivered_at IS NULL AND discarded_at IS NULL;
    `,
  },
  {
    version: 12,
    name: 'finished history by age (pruneHistory)',
    sql: `
      -- Outbox rows are pruned some days after they were delivered or discarded, ended watches
      -- some weeks after they ended (HISTORY_RETENTION in src/poller/watch.ts).
      CREATE INDEX outbox_finished ON outbox (coalesce(delivered_at, discarded_at)) WHERE delivered_at IS NOT NULL OR discarded_at IS NOT NULL;
      CREATE INDEX watches_ended ON watches (ended_at) WHERE ended_at IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: 'pollers (a poller alone gives no kept watch back)',
    sql: `
      -- Each poller's latest announcement, in its own clock's ms (announcePoller; src/poller/replicas.ts).
      CREATE TABLE pollers (
        instance TEXT    PRIMARY KEY,
        seen_at  INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

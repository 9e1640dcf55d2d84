/** The poller backlog query, shared by SQLite and PostgreSQL (see `PollerBacklog`). */
import type { PollerBacklog } from './types';

/** One query's counts and oldest times → the backlog (SQLite and PostgreSQL share it). */
export function toBacklog(now: number, row: Record<string, unknown>): PollerBacklog {
  const count = (key: string) => Number(row[key] ?? 0);
  const since = (key: string) => (row[key] === null || row[key] === undefined ? 0 : Math.max(0, now - Number(row[key])));
  return {
    activeWatches: count('active'),
    claimedWatches: count('claimed'),
    dueWatches: count('due'),
    pollLagMs: since('oldest_due'),
    outboxDepth: count('outbox'),
    outboxOldestAgeMs: since('oldest_outbox'),
  };
}

/**
 * The backlog query; `now` is the placeholder of the current time's parameter. Every count reads
 * a partial index alone: the due watches are counted apart, unleased (`watches_due_unleased`) and
 * with a lease that ran out (`watches_lease_end`), because a kept watch's `next_poll_at` is its
 * claim time, in the past, and one count over both read the row of every kept watch (10,000 at
 * scale: 4–18 ms a scrape on the event loop with SQLite).
 */
export function backlogSql(now: string): string {
  const unleasedDue = `ended_at IS NULL AND lease_until IS NULL AND next_poll_at <= ${now}`;
  // The unary plus keeps SQLite from walking `watches_due` by `next_poll_at` for the lapsed leases' minimum.
  const lapsedDue = `ended_at IS NULL AND lease_until IS NOT NULL AND lease_until <= ${now} AND +next_poll_at <= ${now}`;
  const pending = 'delivered_at IS NULL AND discarded_at IS NULL';
  return `SELECT
    (SELECT COUNT(*) FROM watches WHERE ended_at IS NULL) AS active,
    (SELECT COUNT(*) FROM watches WHERE ended_at IS NULL AND lease_until IS NOT NULL AND lease_until > ${now}) AS claimed,
    (SELECT COUNT(*) FROM watches WHERE ${unleasedDue}) + (SELECT COUNT(*) FROM watches WHERE ${lapsedDue}) AS due,
    (SELECT MIN(next_poll_at) FROM (
      SELECT MIN(next_poll_at) AS next_poll_at FROM watches WHERE ${unleasedDue}
      UNION ALL
      SELECT MIN(next_poll_at) FROM watches WHERE ${lapsedDue}) AS due_times) AS oldest_due,
    (SELECT COUNT(*) FROM outbox WHERE ${pending}) AS outbox,
    (SELECT MIN(created_at) FROM outbox WHERE ${pending}) AS oldest_outbox`;
}

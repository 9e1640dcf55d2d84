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

/** The backlog query; `now` is the placeholder of the current time's parameter. */
export function backlogSql(now: string): string {
  const due = `ended_at IS NULL AND next_poll_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})`;
  const pending = 'delivered_at IS NULL AND discarded_at IS NULL';
  return `SELECT
    (SELECT COUNT(*) FROM watches WHERE ended_at IS NULL) AS active,
    (SELECT COUNT(*) FROM watches WHERE ended_at IS NULL AND lease_until > ${now}) AS claimed,
    (SELECT COUNT(*) FROM watches WHERE ${due}) AS due,
    (SELECT MIN(next_poll_at) FROM watches WHERE ${due}) AS oldest_due,
    (SELECT COUNT(*) FROM outbox WHERE ${pending}) AS outbox,
    (SELECT MIN(created_at) FROM outbox WHERE ${pending}) AS oldest_outbox`;
}

/**
 * Table rows as both backends return them, and their mapping to the domain types.
 * PostgreSQL returns BIGINT columns as strings, hence `number | string` for times and ids.
 */
import type { AuditEntry, AuditOutcome, ChannelBinding, RecentSession, SessionAlias, StoredSecret } from './types';

type DbInteger = number | string;

/** How many recent sessions each team keeps; older ones are pruned on every touch. */
export const RECENT_SESSIONS_KEPT = 50;

export const LIST_LIMITS = {
  aliases: { default: 100, max: 1000 },
  recentSessions: { default: 20, max: RECENT_SESSIONS_KEPT },
  audit: { default: 50, max: 1000 },
} as const;

export function clampLimit(limit: number | undefined, bounds: { default: number; max: number }): number {
  if (limit === undefined || !Number.isFinite(limit)) return bounds.default;
  return Math.min(Math.max(Math.trunc(limit), 1), bounds.max);
}

export function normalizeAlias(alias: string): string {
  return alias.trim().toLowerCase();
}

/** A LIKE pattern matching strings that start with `prefix`, used with `ESCAPE '\'`. */
export function prefixPattern(prefix: string): string {
  return `${normalizeAlias(prefix).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ChannelBindingRow {
  team_id: string;
  channel_id: string;
  project_name: string | null;
  session_id: string | null;
  updated_by: string;
  updated_at: DbInteger;
}

export function toChannelBinding(row: ChannelBindingRow): ChannelBinding {
  return {
    teamId: row.team_id,
    channelId: row.channel_id,
    ...(row.project_name !== null && { projectName: row.project_name }),
    ...(row.session_id !== null && { sessionId: row.session_id }),
    updatedBy: row.updated_by,
    updatedAt: Number(row.updated_at),
  };
}

export interface SessionAliasRow {
  team_id: string;
  alias: string;
  project_name: string;
  session_id: string;
  created_by: string;
  created_at: DbInteger;
}

export function toSessionAlias(row: SessionAliasRow): SessionAlias {
  return {
    teamId: row.team_id,
    alias: row.alias,
    projectName: row.project_name,
    sessionId: row.session_id,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
  };
}

export interface RecentSessionRow {
  team_id: string;
  project_name: string;
  session_id: string;
  used_by: string;
  used_at: DbInteger;
}

export function toRecentSession(row: RecentSessionRow): RecentSession {
  return {
    teamId: row.team_id,
    projectName: row.project_name,
    sessionId: row.session_id,
    usedBy: row.used_by,
    usedAt: Number(row.used_at),
  };
}

export interface AuditRow {
  id: DbInteger;
  at: DbInteger;
  team_id: string;
  user_id: string;
  channel_id: string;
  project_name: string;
  command: string;
  target: string;
  outcome: AuditOutcome;
  error: string | null;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    at: Number(row.at),
    teamId: row.team_id,
    userId: row.user_id,
    channelId: row.channel_id,
    projectName: row.project_name,
    command: row.command,
    target: row.target,
    outcome: row.outcome,
    ...(row.error !== null && { error: row.error }),
  };
}

export interface SecretRow {
  name: string;
  ciphertext: string;
  updated_at: DbInteger;
}

export function toStoredSecret(row: SecretRow): StoredSecret {
  return { name: row.name, ciphertext: row.ciphertext, updatedAt: Number(row.updated_at) };
}

/** Rows of `stream_mutes` and `session_mutes` (migration 7) as both backends return them, and their mapping. */
import type { MuteState, SessionMute, StreamMute } from './types';

type DbInteger = number | string;

export interface StreamMuteRow {
  stream_id: string;
  muted_by: string;
  muted_at: DbInteger;
  via: string;
}

export interface SessionMuteRow {
  /** SQLite: 0/1; PostgreSQL: boolean. */
  active: number | boolean;
  /** SQLite: JSON text; PostgreSQL: the parsed JSONB. */
  excluded: string | unknown;
  changed_by: string;
  changed_at: DbInteger;
  via: string;
}

function toStreamMute(row: StreamMuteRow): StreamMute {
  return { streamId: row.stream_id, by: row.muted_by, at: Number(row.muted_at), via: row.via };
}

function toSessionMute(row: SessionMuteRow): SessionMute {
  const excluded: unknown = typeof row.excluded === 'string' ? JSON.parse(row.excluded) : row.excluded;
  return {
    active: Boolean(row.active),
    excluded: Array.isArray(excluded) ? excluded.filter((id): id is string => typeof id === 'string') : [],
    by: row.changed_by,
    at: Number(row.changed_at),
    via: row.via,
  };
}

export function toMuteState(streams: readonly StreamMuteRow[], session: SessionMuteRow | undefined): MuteState {
  return { streams: streams.map(toStreamMute), ...(session && { session: toSessionMute(session) }) };
}

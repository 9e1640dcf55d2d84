/**
 * Who `/mute` and `/kick` mean: a participant's stream name (any case, a unique prefix), a
 * stream ID (or its first 8 characters, as the console shows unnamed streams) or a connection
 * ID. Pure: the caller lists the streams (with their connections when Insights gave them).
 */

export interface Participant {
  streamId: string;
  name?: string;
  videoType?: string;
  /** Known only through Advanced Insights. */
  connectionId?: string;
}

/** One person: the streams one connection publishes (or one stream when its connection is unknown). */
export interface Person {
  connectionId?: string;
  streams: Participant[];
}

export type PeopleMatch =
  | { type: 'person'; person: Person }
  | { type: 'ambiguous'; candidates: Participant[] }
  /** Shaped like an ID but no stream has it: read it as a connection ID (or an unknown stream). */
  | { type: 'id'; id: string }
  | { type: 'none' };

/** Stream and connection IDs are UUIDs; older sessions use other long tokens. */
export function looksLikeId(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) || /^[A-Za-z0-9_-]{24,}$/.test(text);
}

/** Shortest stream-ID prefix taken as an ID (the console shows 8). */
const MIN_ID_PREFIX = 6;

function people(streams: readonly Participant[]): Person[] {
  const byConnection = new Map<string, Person>();
  const result: Person[] = [];
  for (const stream of streams) {
    if (stream.connectionId === undefined) {
      result.push({ streams: [stream] });
      continue;
    }
    const known = byConnection.get(stream.connectionId);
    if (known) known.streams.push(stream);
    else {
      const person = { connectionId: stream.connectionId, streams: [stream] };
      byConnection.set(stream.connectionId, person);
      result.push(person);
    }
  }
  return result;
}

function oneOf(matches: readonly Participant[], all: readonly Participant[]): PeopleMatch | undefined {
  if (matches.length === 0) return undefined;
  const found = people(matches);
  if (found.length > 1) return { type: 'ambiguous', candidates: [...matches] };
  const person = found[0]!;
  // The person's other streams (a screen share beside the camera) go with them.
  const streams = person.connectionId === undefined ? person.streams : all.filter((s) => s.connectionId === person.connectionId);
  return { type: 'person', person: { ...person, streams } };
}

export function matchPeople(query: string, streams: readonly Participant[]): PeopleMatch {
  const q = query.trim();
  if (q === '') return { type: 'none' };
  const lower = q.toLowerCase();
  const byId = streams.filter((s) => s.streamId.toLowerCase() === lower);
  const byConnection = streams.filter((s) => s.connectionId?.toLowerCase() === lower);
  const exactName = streams.filter((s) => s.name !== undefined && s.name.toLowerCase() === lower);
  const namePrefix = streams.filter((s) => s.name !== undefined && s.name.toLowerCase().startsWith(lower));
  const idPrefix = q.length >= MIN_ID_PREFIX ? streams.filter((s) => s.streamId.toLowerCase().startsWith(lower)) : [];
  const found = oneOf(byId, streams) ?? oneOf(byConnection, streams) ?? oneOf(exactName, streams) ?? oneOf(namePrefix, streams) ?? oneOf(idPrefix, streams);
  if (found) return found;
  return looksLikeId(q) ? { type: 'id', id: q } : { type: 'none' };
}

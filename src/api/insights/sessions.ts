/** `project { sessionData { sessions(sessionIds) } }` (Advanced Insights): meetings, publishers,
 * subscribers and their 30-second stream statistics. */
import { z } from 'zod';
import { groupDigits } from '../validate';
import { invalid, pageSize, projectField } from './common';
import { estimateNodes, field, NODE_BUDGET, queryDocument } from './gql';
import { amount, connection, nullableString, timestamp } from './schemas';

export interface SessionDetailSizes {
  /** Meetings per session. */
  meetings?: number;
  /** Publishers and, separately, subscribers per meeting. */
  streams?: number;
  /** Statistics samples per publisher or subscriber (one every 30 s: 120 is an hour). */
  statsPerStream?: number;
}

const DEFAULTS: Required<SessionDetailSizes> = { meetings: 10, streams: 20, statsPerStream: 120 };
const MAX_PAGE = 10_000;

const STATS_FIELDS = ['createdAt', 'audioBitrateKbps', 'videoBitrateKbps'] as const;

function streamEndpoint(name: 'publishers' | 'subscribers', sizes: Required<SessionDetailSizes>) {
  return field(name, { first: sizes.streams }, [
    'totalCount',
    field('resources', {}, [
      'createdAt',
      'destroyedAt',
      'connectionId',
      field('stream', {}, ['streamId']),
      field('streamStatsCollection', { first: sizes.statsPerStream }, [field('resources', {}, STATS_FIELDS)]),
    ]),
  ]);
}

function resolveSizes(sizes: SessionDetailSizes): Required<SessionDetailSizes> {
  return {
    meetings: pageSize(sizes.meetings, DEFAULTS.meetings, MAX_PAGE, 'meetings'),
    streams: pageSize(sizes.streams, DEFAULTS.streams, MAX_PAGE, 'streams'),
    statsPerStream: pageSize(sizes.statsPerStream, DEFAULTS.statsPerStream, MAX_PAGE, 'statistics'),
  };
}

export function sessionsQuery(projectId: string, sessionIds: readonly string[], sizes: SessionDetailSizes = {}) {
  if (sessionIds.length === 0) invalid('Give at least one session ID.');
  const ids = sessionIds.map((id) => id.trim());
  if (ids.some((id) => id.length === 0)) invalid('Session IDs cannot be empty.');
  const s = resolveSizes(sizes);
  const meetings = field('meetings', { first: s.meetings }, [
    'totalCount',
    field('resources', {}, ['createdAt', 'destroyedAt', 'publisherMinutes', streamEndpoint('publishers', s), streamEndpoint('subscribers', s)]),
  ]);
  return queryDocument('Sessions', [
    projectField(projectId, [field('sessionData', {}, [field('sessions', { sessionIds: ids }, [field('resources', {}, ['sessionId', meetings])])])]),
  ]);
}

/** Splits session IDs into requests that each stay within the service's node budget. */
export function chunkSessionIds(projectId: string, sessionIds: readonly string[], sizes: SessionDetailSizes = {}): string[][] {
  if (sessionIds.length === 0) invalid('Give at least one session ID.');
  const perSession = estimateNodes(sessionsQuery(projectId, ['probe'], sizes));
  const perRequest = Math.floor(NODE_BUDGET / perSession);
  if (perRequest < 1) {
    invalid(`One session at these page sizes could return ${groupDigits(perSession)} items; Insights allows ${groupDigits(NODE_BUDGET)}.`);
  }
  const unique = [...new Set(sessionIds.map((id) => id.trim()))];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += perRequest) chunks.push(unique.slice(i, i + perRequest));
  return chunks;
}

const bitrate = z
  .number()
  .nullish()
  .transform((v) => v ?? null);

export const streamStatsSchema = z.looseObject({
  createdAt: timestamp,
  audioBitrateKbps: bitrate,
  videoBitrateKbps: bitrate,
});

export const streamEndpointSchema = z.looseObject({
  createdAt: timestamp,
  destroyedAt: timestamp,
  connectionId: nullableString,
  stream: z
    .looseObject({ streamId: nullableString })
    .nullish()
    .transform((s) => ({ streamId: s?.streamId ?? null })),
  streamStatsCollection: connection(streamStatsSchema),
});

export const meetingSchema = z.looseObject({
  createdAt: timestamp,
  destroyedAt: timestamp,
  publisherMinutes: amount,
  publishers: connection(streamEndpointSchema),
  subscribers: connection(streamEndpointSchema),
});

export const sessionSchema = z.looseObject({
  sessionId: z.string(),
  meetings: connection(meetingSchema),
});

export type StreamStats = z.infer<typeof streamStatsSchema>;
export type StreamEndpoint = z.infer<typeof streamEndpointSchema>;
export type Meeting = z.infer<typeof meetingSchema>;
export type Session = z.infer<typeof sessionSchema>;

export const sessionsResponse = z.looseObject({
  project: z.looseObject({
    sessionData: z.looseObject({
      sessions: z.looseObject({
        resources: z
          .array(sessionSchema)
          .nullish()
          .transform((r) => r ?? []),
      }),
    }),
  }),
});

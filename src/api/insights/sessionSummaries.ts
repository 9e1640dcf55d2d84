/** `project { sessionData { sessionSummaries } }` (Advanced Insights): per-session totals. */
import { z } from 'zod';
import { inclusiveEnd, invalid, pageSize, projectField, timeLiteral } from './common';
import { field, queryDocument } from './gql';
import { amount, connection, pageInfoSchema } from './schemas';

export interface SessionSummariesParams {
  /** Epoch ms: sessions with a meeting created at or after this time. */
  start: number;
  /** Epoch ms, exclusive. */
  end?: number;
  first?: number;
  /** Meetings per session; the summary's totals cover the whole session either way. */
  meetingsFirst?: number;
  endCursor?: string;
}

export const DEFAULT_SUMMARIES_PAGE = 500;
export const DEFAULT_SUMMARY_MEETINGS = 200;
const MAX_PAGE = 10_000;

export const MEETING_SUMMARY_FIELDS = [
  'maxConcurrentStreams',
  'maxConcurrentSubscribers',
  'totalStreams',
  'totalConnections',
  'publisherMinutes',
  'subscriberMinutes',
  'participantMinutes',
] as const;

export function sessionSummariesQuery(projectId: string, params: SessionSummariesParams) {
  if (params.end !== undefined && params.end <= params.start) invalid('The end of the range must come after its start.');
  const args = {
    start: timeLiteral(params.start, 'start'),
    end: params.end === undefined ? undefined : timeLiteral(inclusiveEnd(params.end), 'end'),
    first: pageSize(params.first, DEFAULT_SUMMARIES_PAGE, MAX_PAGE, 'session summaries'),
    endCursor: params.endCursor,
  };
  const meetings = field('meetings', { first: pageSize(params.meetingsFirst, DEFAULT_SUMMARY_MEETINGS, MAX_PAGE, 'meetings') }, [
    field('resources', {}, MEETING_SUMMARY_FIELDS),
  ]);
  return queryDocument('SessionSummaries', [
    projectField(projectId, [
      field('sessionData', {}, [
        field('sessionSummaries', args, [field('pageInfo', {}, ['hasNextPage', 'endCursor']), field('resources', {}, ['sessionId', meetings])]),
      ]),
    ]),
  ]);
}

export const meetingSummarySchema = z.looseObject({
  maxConcurrentStreams: amount,
  maxConcurrentSubscribers: amount,
  totalStreams: amount,
  totalConnections: amount,
  publisherMinutes: amount,
  subscriberMinutes: amount,
  participantMinutes: amount,
});

export const sessionSummarySchema = z.looseObject({
  sessionId: z.string(),
  meetings: connection(meetingSummarySchema),
});

export type MeetingSummary = z.infer<typeof meetingSummarySchema>;
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionSummariesResponse = z.looseObject({
  project: z.looseObject({
    sessionData: z.looseObject({
      sessionSummaries: z.looseObject({
        pageInfo: pageInfoSchema,
        resources: z
          .array(sessionSummarySchema)
          .nullish()
          .transform((r) => r ?? []),
      }),
    }),
  }),
});

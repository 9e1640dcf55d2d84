import { buildSchema, GraphQLError, Kind, type GraphQLScalarType, type GraphQLSchema, type ValueNode } from 'graphql';
import { BROWSERS, SDK_TYPES } from '../state/model';
import { CODES, codedGraphQLError } from './codes';
import { COUNTRY_CODES } from './countries';
import { PARTICIPANT_BUCKETS } from './metrics';
import { iso, parseTimestamp, TimestampError } from './time';

const pageArgs = 'first: Int, endCursor: String';
const clientFields = `
  sdkType: SdkType
  sdkVersion: String
  country: Country
  region: String
  browser: Browser
  browserVersion: String`;

/** The Insights schema: the names the spec, the dashboard sample and the blog use. */
export const INSIGHTS_SDL = `
"""
Input: epoch seconds (10 digits or fewer) or milliseconds (more), or an ISO-8601 string
(Pacific wall-clock time when it has no offset); 0 means the earliest available.
Output: ISO-8601 in UTC.
"""
scalar DateTime

enum Interval { DAILY WEEKLY MONTHLY AUTO }
enum SdkType { ${SDK_TYPES.join(' ')} }
enum Browser { ${BROWSERS.join(' ')} }
enum Country { ${COUNTRY_CODES.join(' ')} }
enum GroupBy { SDK_TYPE SDK_VERSION COUNTRY REGION BROWSER BROWSER_VERSION }

type Query {
  "One project per query; projectId may be written as an integer or a string."
  project(projectId: ID!): Project
}

type Project {
  projectId: ID!
  projectData(
    start: DateTime!
    end: DateTime
    interval: [Interval]
    sdkType: [SdkType]
    sdkVersion: [String]
    country: [Country]
    region: [String]
    browser: [Browser]
    browserVersion: [String]
    groupBy: [GroupBy]
    ${pageArgs}
  ): ProjectData
  "Advanced Insights add-on only."
  sessionData: SessionData
}

type PageInfo {
  hasNextPage: Boolean!
  endCursor: String
}

type ProjectData {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [Metric!]!
}

type Metric {
  intervalStart: DateTime!
  "Last millisecond of the interval."
  intervalEnd: DateTime!
  ${clientFields}
  usage: Usage!
  quality: Quality!
  errors: Errors!
}

type Usage {
  streamedPublishedMinutes: Float!
  streamedSubscribedMinutes: Float!
  participantMinutes: ParticipantMinutes
}

type ParticipantMinutes {
  ${PARTICIPANT_BUCKETS.map(([name]) => `${name}: Float!`).join('\n  ')}
}

type Quality {
  publisher: QualityStats!
  subscriber: QualityStats!
}

type QualityStats {
  samples: Int!
  audioBitrateKbpsAvg: Float
  videoBitrateKbpsAvg: Float
  audioLatencyMsAvg: Float
  videoLatencyMsAvg: Float
  audioPacketLossRatioAvg: Float
  videoPacketLossRatioAvg: Float
}

type Errors {
  connect: AttemptStats!
  publish: AttemptStats!
  subscribe: AttemptStats!
}

type AttemptStats {
  attempts: Int!
  failures: Int!
  failureRate: Float
}

type SessionData {
  sessions(sessionIds: [String]!): Sessions
  sessionSummaries(start: DateTime!, end: DateTime, ${pageArgs}): SessionSummaries
}

type Sessions {
  totalCount: Int!
  "In the order asked; null (with an error) for an unknown or expired session."
  resources: [Session]!
}

type Session {
  sessionId: String!
  publisherMinutes: Float!
  subscriberMinutes: Float!
  participantMinutes: Float!
  meetings(${pageArgs}): Meetings!
}

type Meetings {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [Meeting!]!
}

type Meeting {
  meetingId: ID!
  createdAt: DateTime!
  destroyedAt: DateTime
  publisherMinutes: Float!
  subscriberMinutes: Float!
  participantMinutes: Float!
  publishers(${pageArgs}): Publishers!
  subscribers(${pageArgs}): Subscribers!
}

type Publishers {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [Publisher!]!
}

type Subscribers {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [Subscriber!]!
}

type Publisher {
  createdAt: DateTime!
  destroyedAt: DateTime
  connectionId: ID!
  ${clientFields}
  stream: Stream!
  streamStatsCollection(${pageArgs}): StreamStatsCollection!
}

type Subscriber {
  createdAt: DateTime!
  destroyedAt: DateTime
  "The subscribing connection."
  connectionId: ID!
  ${clientFields}
  "The stream subscribed to."
  stream: Stream!
  streamStatsCollection(${pageArgs}): StreamStatsCollection!
}

type Stream {
  streamId: ID!
  videoType: String
}

type StreamStatsCollection {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [StreamStats!]!
}

type StreamStats {
  createdAt: DateTime!
  hasAudio: Boolean!
  hasVideo: Boolean!
  audioBitrateKbps: Float
  videoBitrateKbps: Float
  audioLatencyMs: Float
  videoLatencyMs: Float
  audioPacketLossRatio: Float
  videoPacketLossRatio: Float
  videoResolution: String
  audioCodec: String
  videoCodec: String
}

type SessionSummaries {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [SessionSummary!]!
}

type SessionSummary {
  sessionId: String!
  meetings(${pageArgs}): MeetingSummaries!
}

type MeetingSummaries {
  totalCount: Int!
  pageInfo: PageInfo!
  resources: [MeetingSummary!]!
}

type MeetingSummary {
  meetingId: ID!
  createdAt: DateTime!
  destroyedAt: DateTime
  maxConcurrentStreams: Int!
  maxConcurrentSubscribers: Int!
  totalStreams: Int!
  totalConnections: Int!
  publisherMinutes: Float!
  subscriberMinutes: Float!
  participantMinutes: Float!
}
`;

function timestamp(value: string | number, node?: ValueNode): number {
  try {
    return parseTimestamp(value);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    throw codedGraphQLError(CODES.invalidParameter, `Invalid date: ${error.message}`, node ? { nodes: node } : {});
  }
}

const notInteger = (shown: string, node?: ValueNode): GraphQLError =>
  codedGraphQLError(CODES.notAnInteger, `Invalid date ${shown}: parameter must be an integer or an ISO-8601 string`, node ? { nodes: node } : {});

/**
 * buildSchema gives scalars identity behaviour; DateTime gets its parsing (1005 invalid date,
 * 1006 non-integer number) and ISO output here, the way schema tools attach scalar resolvers.
 */
function installDateTime(schema: GraphQLSchema): void {
  const scalar = schema.getType('DateTime') as GraphQLScalarType;
  scalar.serialize = (value: unknown) => {
    if (typeof value !== 'number') throw new GraphQLError(`DateTime cannot represent ${String(value)}`);
    return iso(value);
  };
  scalar.parseValue = (value: unknown) => {
    if (typeof value === 'string') return timestamp(value);
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) throw notInteger(String(value));
      return timestamp(value);
    }
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: expected an integer or an ISO-8601 string`);
  };
  scalar.parseLiteral = (node: ValueNode) => {
    if (node.kind === Kind.INT || node.kind === Kind.STRING) return timestamp(node.value, node);
    if (node.kind === Kind.FLOAT) throw notInteger(node.value, node);
    throw new GraphQLError('DateTime must be an integer or an ISO-8601 string', { nodes: node });
  };
}

export function buildInsightsSchema(): GraphQLSchema {
  const schema = buildSchema(INSIGHTS_SDL);
  installDateTime(schema);
  return schema;
}

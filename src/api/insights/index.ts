export { InsightsClient, graphqlUrl, DEFAULT_INSIGHTS_TIMEOUT_MS, type InsightsClientOptions, type CallOptions } from './client';
export { signInsightsToken, INSIGHTS_TOKEN_LIFETIME_S } from './auth';
export { systemClock, type Clock } from './clock';
export { InsightsError, INSIGHTS_ERROR_TEXT, describeInsightsCode, type InsightsClientCode, type GraphqlErrorInfo } from './errors';
export { estimateNodes, NODE_BUDGET, printQuery } from './gql';
export { paginate, collectAll, type Page, type PageIterator } from './pagination';
export { PARTICIPANT_BUCKETS, type ParticipantBucket, type ParticipantMinutes } from './participantMinutes';
export {
  projectUsageQuery,
  participantMinutesAvailable,
  GROUP_BY_FIELD,
  INTERVALS,
  type Metric,
  type ProjectUsageParams,
  type UsageFilters,
  type GroupBy,
  type Dimension,
  type Interval,
} from './projectUsage';
export { SlidingWindowLimiter, sharedLimiter, INSIGHTS_RATE_LIMIT, type RateLimiter } from './rateLimiter';
export { INSIGHTS_RETRY, INSIGHTS_RETRY_FAST, INSIGHTS_RETRY_NONE, isRetryable, shouldRetry, retryDelayMs, type RetryPolicy } from './retry';
export { sessionSummariesQuery, type SessionSummariesParams, type SessionSummary, type MeetingSummary } from './sessionSummaries';
export { sessionsQuery, chunkSessionIds, type Session, type Meeting, type StreamEndpoint, type StreamStats, type SessionDetailSizes } from './sessions';

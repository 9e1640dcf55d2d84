export { VideoClient, type VideoClientOptions } from './client';
export {
  VideoApiError,
  VideoAuthError,
  VideoNotFoundError,
  VideoConflictError,
  VideoRateLimitError,
  VideoTimeoutError,
  VideoConnectionError,
  VideoAbortedError,
  VideoValidationError,
  SERVICE_ERROR_CODES,
  errorFromResponse,
  redact,
} from './errors';
export {
  RETRY_DEFAULT,
  RETRY_FAST,
  RETRY_NONE,
  type RetryPolicy,
  type AttemptFailure,
  type HttpMethod,
  isRetryable,
  shouldRetry,
  backoffDelayMs,
  retryDelayMs,
  parseRetryAfter,
} from './retry';
export { operationName, type VideoRequestEvent, type VideoRequestObserver } from './observer';
export { DEFAULT_TIMEOUTS, closeSharedPools, type CallOptions, type Timeouts } from './http';
export { REST_TOKEN_LIFETIME_S, DEFAULT_TOKEN_REUSE_MS, type IssuerType } from './auth';
export type { ListAllOptions } from './paging';
export type { VisitedPage } from './lists';
export * from './schemas';
export * from './sessions';
export * from './signals';
export * from './moderation';
export * from './streams';
export * from './archives';
export * from './broadcasts';
export * from './sip';
export * from './captions';
export * from './render';
export * from './connect';
export * from './projects';
export * from './tokens';

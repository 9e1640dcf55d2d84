/**
 * The poller: watches on everything with a lifecycle, polled in batches within per-project
 * budgets, diffed into transitions, and delivered to Slack exactly once through an outbox.
 */
export * from './watch';
export * from './snapshot';
export * from './resources';
export { type Severity, type Transition, type TransitionEvent, type DiffContext, diff, observe, isTerminal, deadlineOf } from './transitions';
export { messageFor, replyText, resourceLabel } from './messages';
export { type ScheduleConfig, DEFAULT_SCHEDULE, MAX_WATCH_AGE_MS } from './schedule';
export { type BucketConfig, DEFAULT_BUCKET, ProjectBudgets, TokenBucket } from './budget';
export { type BatchConfig, DEFAULT_BATCH } from './batch';
export { type CardRenderer, type CycleReport, type PollerOptions, Poller } from './poller';
export {
  type DelivererOptions,
  type DeliveryReport,
  type PostContext,
  type SlackPoster,
  NOTIFICATION_EVENT_TYPE,
  OutboxDeliverer,
  SlackDeliveryError,
  classifySlackError,
  findNotification,
  notificationMetadata,
} from './delivery';
export { MemoryWatchStore } from './memory-store';
export { type PollClient, videoPollSource } from './video-source';

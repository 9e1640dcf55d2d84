export {
  UsageScheduler,
  PermanentDeliveryError,
  reportedWeek,
  SCHEDULER_DEFAULTS,
  type DeliveryRun,
  type ScheduledDelivery,
  type SchedulerOptions,
  type RunSummary,
} from './scheduler';
export {
  DEFAULT_WEEKLY_TIME,
  describeWeekly,
  formatTimeOfDay,
  nextOccurrence,
  parseTimeOfDay,
  parseTimeZone,
  parseWeekday,
  weekdayName,
  type WeeklyTime,
} from './recurrence';
export type { NewUsageSchedule, ScheduleFilter, ScheduleRun, ScheduleStore, UsageSchedule } from './types';

import type { Project, RecordedSession } from '../state/model';
import { syntheticHistory } from './synthetic';
import { addDays, dayOf, HOUR_MS, MINUTE_MS, type Day } from './time';

/** Daily aggregates are kept for 90 days. */
export const AGGREGATE_RETENTION_DAYS = 90;
/** A day's aggregates appear once the day ended this long ago (the service says 36 to 48 hours). */
export const AGGREGATE_LATENCY_MS = 36 * HOUR_MS;
/** Advanced session data is kept for 21 days, counted from the meeting's creation. */
export const SESSION_RETENTION_MS = 21 * 24 * HOUR_MS;
/** Advanced session data lags 5 minutes: it shows sessions as they were 5 minutes ago. */
export const SESSION_DATA_LATENCY_MS = 5 * MINUTE_MS;

/** The first Pacific day whose aggregates are still kept at `now`. */
export function firstRetainedDay(now: number): Day {
  return addDays(dayOf(now), -AGGREGATE_RETENTION_DAYS);
}

/** Whether a day's aggregates are published at `now`. */
export const isAggregated = (day: Day, now: number): boolean => day.end + AGGREGATE_LATENCY_MS <= now;

interface SyntheticCache {
  sessions: RecordedSession[];
  byId: Map<string, RecordedSession>;
}

// Keyed by the project object: a reset or a new project with the same key starts afresh.
const syntheticCache = new WeakMap<Project, SyntheticCache>();

function synthetic(project: Project): SyntheticCache {
  let cache = syntheticCache.get(project);
  if (!cache) {
    const sessions = syntheticHistory(project.apiKey, project.createdAt);
    cache = { sessions, byId: new Map(sessions.map((s) => [s.sessionId, s])) };
    syntheticCache.set(project, cache);
  }
  return cache;
}

/** Every session Insights knows for the project: the synthetic history (when on) and the emulator's own. */
export function projectSessions(project: Project): RecordedSession[] {
  const own = [...project.insights.sessions.values()];
  return project.insights.syntheticHistory ? [...synthetic(project).sessions, ...own] : own;
}

export function findSession(project: Project, sessionId: string): RecordedSession | undefined {
  const own = project.insights.sessions.get(sessionId);
  if (own || !project.insights.syntheticHistory) return own;
  return synthetic(project).byId.get(sessionId);
}

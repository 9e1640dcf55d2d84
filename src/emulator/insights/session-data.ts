import type { Project } from '../state/model';
import { CODES, InsightsError } from './codes';
import { findSession, projectSessions, SESSION_DATA_LATENCY_MS, SESSION_RETENTION_MS } from './data';
import { viewSession, type MeetingView, type SessionView } from './meetings';

/** Sessions as advanced session data shows them: 5 minutes late, meetings of the last 21 days. */
function retained(view: SessionView, now: number): MeetingView[] {
  return view.meetings.filter((m) => m.createdAt >= now - SESSION_RETENTION_MS);
}

/**
 * One session for `sessions(sessionIds)`: 1017 when Insights has never seen it (unknown, or no
 * connection older than the 5-minute latency), 1016 when all its meetings are older than 21 days.
 */
export function sessionById(project: Project, sessionId: string, now: number): SessionView {
  const recorded = findSession(project, sessionId);
  const view = recorded ? viewSession(recorded, now - SESSION_DATA_LATENCY_MS) : undefined;
  if (!view || view.meetings.length === 0) throw new InsightsError(CODES.sessionNotFound, `Session ${sessionId} not found`);
  const meetings = retained(view, now);
  if (meetings.length === 0) throw new InsightsError(CODES.sessionExpired, `Session ${sessionId} has expired (session data is kept 21 days)`);
  return { sessionId, meetings };
}

/**
 * `sessionSummaries(start, end)`: every session with a meeting created in `[start, end]`, with
 * all its retained meetings (totals for the whole session), oldest first. A range entirely
 * outside the 21 days kept, or ending before it starts, is 1002.
 */
export function sessionsCreatedIn(project: Project, now: number, start: number, end: number | null | undefined): SessionView[] {
  const last = end ?? now;
  const oldest = now - SESSION_RETENTION_MS;
  if (last < start) throw new InsightsError(CODES.invalidDateRange, 'Invalid date range: end is before start');
  if (last < oldest || start > now) {
    throw new InsightsError(CODES.invalidDateRange, 'Invalid date range: session data is kept for 21 days');
  }
  const asOf = now - SESSION_DATA_LATENCY_MS;
  const found: Array<{ first: number; view: SessionView }> = [];
  for (const session of projectSessions(project)) {
    const meetings = retained(viewSession(session, asOf), now);
    const inRange = meetings.filter((m) => m.createdAt >= start && m.createdAt <= last);
    const first = inRange[0];
    if (first) found.push({ first: first.createdAt, view: { sessionId: session.sessionId, meetings } });
  }
  return found.sort((a, b) => a.first - b.first || a.view.sessionId.localeCompare(b.view.sessionId)).map((f) => f.view);
}

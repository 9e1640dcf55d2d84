/**
 * Which connection publishes which stream. The REST interface lists a session's streams without
 * their connections; Advanced Insights has both on each publisher (`connectionId` and
 * `stream.streamId`), about 5 minutes after the stream starts. `/kick` and the console's Kick use
 * it so that people can name a participant: the card then names every stream it will drop.
 */
import { InsightsError } from '../../api/insights';
import type { InsightsSource } from '../../services';
import { escapeAndTruncate } from '../../slack/mrkdwn';
import { INSIGHTS_NOT_CONFIGURED, insightsProblem } from '../../views/usage-report';

/** Enough for a long session: every publisher of its latest meetings, one sample each. */
const LOOKUP_SIZES = { meetings: 20, streams: 200, statsPerStream: 1 } as const;

/** A publisher Insights knows in the session: which connection published which stream, and whether it still does. */
export interface Publisher {
  connectionId: string;
  streamId: string;
  live: boolean;
  createdAt: number;
}

export type PublishersResolution = { ok: true; publishers: Publisher[] } | { ok: false; reason: string };

/** Every publisher of the session's latest meetings, newest first; or why Insights cannot tell. */
export async function sessionPublishers(source: InsightsSource | undefined, q: { projectName: string; sessionId: string }): Promise<PublishersResolution> {
  if (!source) return { ok: false, reason: `Finding a stream’s connection reads Insights. ${INSIGHTS_NOT_CONFIGURED}` };
  let sessions;
  try {
    sessions = await source.sessions([q.sessionId], LOOKUP_SIZES);
  } catch (error) {
    if (error instanceof InsightsError && error.code === 1014) {
      return {
        ok: false,
        reason:
          `Finding which connection publishes a stream needs Advanced Insights, and project *${escapeAndTruncate(q.projectName, 100)}* does not have it. ` +
          'Give the connection ID instead (your client app knows it; SIP and audio connections show it on their cards).',
      };
    }
    if (error instanceof InsightsError && error.code === 1017) {
      return {
        ok: false,
        reason: 'Insights does not have this session yet: it shows sessions about 5 minutes after they start. Try again shortly, or give the connection ID.',
      };
    }
    return { ok: false, reason: insightsProblem(error, { projectName: q.projectName }) };
  }
  const publishers = sessions
    .flatMap((s) => s.meetings.resources.flatMap((m) => m.publishers.resources))
    .filter((p) => p.connectionId !== null && p.stream.streamId !== null)
    .map((p) => ({ connectionId: p.connectionId!, streamId: p.stream.streamId!, live: p.destroyedAt === null, createdAt: p.createdAt ?? 0 }))
    .sort((a, b) => b.createdAt - a.createdAt);
  return { ok: true, publishers };
}

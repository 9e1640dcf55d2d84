/**
 * Which connection publishes a stream. The REST interface lists a session's streams without
 * their connections; Advanced Insights has both on each publisher (`connectionId` and
 * `stream.streamId`), about 5 minutes after the stream starts. `/kick` uses it so that people can
 * paste the stream ID `/streams` shows: the card then names the connection it will drop.
 */
import { InsightsError } from '../../api/insights';
import type { InsightsSource } from '../../services';
import { code, escapeAndTruncate } from '../../slack/mrkdwn';
import { type SlackMessage, context, warning } from '../../views/blocks';
import { kickConfirmCard } from '../../views/confirm';
import { INSIGHTS_NOT_CONFIGURED, insightsProblem } from '../../views/usage-report';
import type { CommandInvocation } from '../command';
import type { ResolvedSession } from '../../interaction/session-ref';

export type ConnectionResolution = { ok: true; connectionId: string; stillPublishing: boolean } | { ok: false; reason: string };

/** Enough for a long session: every publisher of its latest meetings, one sample each. */
const LOOKUP_SIZES = { meetings: 20, streams: 200, statsPerStream: 1 } as const;

export async function resolveConnectionOfStream(
  source: InsightsSource | undefined,
  q: { projectName: string; sessionId: string; streamId: string },
): Promise<ConnectionResolution> {
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
    .filter((p) => p.stream.streamId === q.streamId && p.connectionId !== null)
    .sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  const latest = publishers[0];
  if (!latest) {
    return {
      ok: false,
      reason: `Insights has no publisher of stream ${code(q.streamId)} in this session yet: it shows streams about 5 minutes after they start. Try again shortly, or give the connection ID.`,
    };
  }
  return { ok: true, connectionId: latest.connectionId!, stillPublishing: latest.destroyedAt === null };
}

/**
 * The `/kick` confirmation card for `id`: a connection ID as given, or — when `id` is one of the
 * session's current streams — the connection publishing it, found through Insights, with a line
 * saying so; or why it could not be found.
 */
export async function kickCard(ix: CommandInvocation, s: ResolvedSession, id: string): Promise<SlackMessage> {
  let isStream = false;
  try {
    const streams = await ix.services.projects.client(s.projectName).streams.list(s.sessionId);
    isStream = streams.items.some((stream) => stream.id === id);
  } catch (error) {
    // No stream list (nobody ever published, or the service failed): read `id` as a connection.
    ix.logger.info('could not list streams before a kick', { error });
  }
  if (!isStream) return kickConfirmCard(s, id);

  const resolved = await resolveConnectionOfStream(ix.services.insights(s.projectName), { projectName: s.projectName, sessionId: s.sessionId, streamId: id });
  if (!resolved.ok) return warning(`${code(id)} is a stream, not a connection, and I could not find who publishes it. ${resolved.reason}`);
  const card = kickConfirmCard(s, resolved.connectionId);
  const note = `${code(id)} is a stream; Insights says connection ${code(resolved.connectionId)} publishes it${resolved.stillPublishing ? '' : ' (or last published it)'}, so that is the connection this card disconnects.`;
  return { ...card, blocks: [context(note), ...card.blocks] };
}

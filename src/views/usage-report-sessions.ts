/**
 * Per-session usage (Advanced Insights): the top sessions of a range by participant minutes,
 * and one session's meetings with each publisher's connection, stream and bitrates.
 */
import type { Meeting, Session, StreamEndpoint } from '../api/insights';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { describeRange, formatMinutes, formatNumber, type DateRange, type TopSessions } from '../usage';
import { type KnownBlock, type SlackMessage, LIMITS, context, header, section } from './blocks';
import { fetchedLine, type ReportContext } from './usage-report';

const LATENCY_NOTE = 'Per-session data appears about 5 minutes after a meeting and is kept for 21 days.';

export function topSessionsMessage(top: Extract<TopSessions, { status: 'ok' }>, range: DateRange, ctx: ReportContext): SlackMessage {
  const blocks: KnownBlock[] = [
    header(`Top sessions · ${range.label}`),
    section(`*${escapeMrkdwn(describeRange(range))}* (Pacific days) · project *${escapeAndTruncate(ctx.projectName, 100)}* · ranked by participant minutes`),
  ];
  if (top.rows.length === 0) {
    blocks.push(section('No session had a meeting in this range.'));
  } else {
    const lines = top.rows.map(
      (r, i) =>
        `${i + 1}. ${code(r.sessionId)} — *${formatMinutes(r.participantMinutes)}* participant · ${formatMinutes(r.publisherMinutes)} published · ` +
        `${r.meetings === 1 ? '1 meeting' : `${r.meetings} meetings`} · up to ${r.maxConcurrentStreams} streams · ${r.totalConnections} connections`,
    );
    blocks.push(section(lines.join('\n')));
  }
  const count = top.sessionCount === 1 ? '1 session' : `${formatNumber(top.sessionCount)} sessions`;
  const notes = [`${count} had a meeting in this range.`, ...(top.note ? [escapeMrkdwn(top.note)] : []), LATENCY_NOTE, fetchedLine(ctx)];
  blocks.push(context(notes.join(' ')));
  blocks.push(
    context(`${ctx.askedBy ? `Asked by ${userMention(ctx.askedBy)} · ` : ''}\`/usage session <id>\` shows a session’s meetings, publishers and bitrates`),
  );
  const first = top.rows[0];
  const text = first
    ? `Top sessions ${range.label} (${ctx.projectName}): ${first.sessionId} with ${formatMinutes(first.participantMinutes)}`
    : `No sessions ${range.label} (${ctx.projectName})`;
  return { text, blocks };
}

/** `<!date^…>`: Slack shows it in the reader's own time zone. */
export function slackTime(epochMs: number | null, format = '{date_short_pretty} {time}'): string {
  if (epochMs === null) return 'still running';
  const iso = new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<!date^${Math.floor(epochMs / 1000)}^${format}|${iso}>`;
}

function kbps(values: readonly (number | null)[]): string | undefined {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return undefined;
  const avg = known.reduce((s, v) => s + v, 0) / known.length;
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  return `${Math.round(avg)} kbps avg (${Math.round(lo)}–${Math.round(hi)})`;
}

export function publisherLine(p: StreamEndpoint): string {
  const stats = p.streamStatsCollection.resources;
  const video = kbps(stats.map((s) => s.videoBitrateKbps));
  const audio = kbps(stats.map((s) => s.audioBitrateKbps));
  const rates = [video ? `video ${video}` : undefined, audio ? `audio ${audio}` : undefined].filter(Boolean).join(' · ') || 'no bitrate samples yet';
  const stream = p.stream.streamId ? `stream ${code(p.stream.streamId)}` : 'no stream ID';
  const connection = p.connectionId ? `connection ${code(p.connectionId)}` : 'unknown connection';
  return `• ${connection} → ${stream}\n    ${slackTime(p.createdAt, '{time}')} → ${p.destroyedAt === null ? 'still publishing' : slackTime(p.destroyedAt, '{time}')} · ${rates}`;
}

const MAX_PUBLISHERS = 8;

function meetingBlock(m: Meeting, index: number): KnownBlock {
  const minutes = m.createdAt !== null && m.destroyedAt !== null ? ` (${formatMinutes((m.destroyedAt - m.createdAt) / 60_000)})` : '';
  const pubs = m.publishers.resources;
  const pubCount = m.publishers.totalCount ?? pubs.length;
  const subCount = m.subscribers.totalCount ?? m.subscribers.resources.length;
  const head =
    `*Meeting ${index + 1}* · ${slackTime(m.createdAt)} → ${slackTime(m.destroyedAt)}${minutes} · ${formatMinutes(m.publisherMinutes)} published · ` +
    `${pubCount === 1 ? '1 publisher' : `${pubCount} publishers`} · ${subCount === 1 ? '1 subscription' : `${subCount} subscriptions`}`;
  const lines = pubs.slice(0, MAX_PUBLISHERS).map(publisherLine);
  if (pubCount > lines.length) lines.push(`… and ${pubCount - lines.length} more publishers`);
  return section([head, ...lines].join('\n'));
}

export function sessionDetailMessage(session: Session, ctx: ReportContext, sizes: { statsPerStream: number }): SlackMessage {
  const meetings = session.meetings.resources;
  const total = session.meetings.totalCount ?? meetings.length;
  const blocks: KnownBlock[] = [
    header('Session usage'),
    section(
      `${code(session.sessionId)} · project *${escapeAndTruncate(ctx.projectName, 100)}* · ${total === 1 ? '1 meeting' : `${total} meetings`}${total > meetings.length ? ` (the first ${meetings.length} shown)` : ''}`,
    ),
  ];
  if (meetings.length === 0) blocks.push(section('Insights has no meeting of this session yet.'));
  // Two blocks stay for the notes.
  meetings.slice(0, LIMITS.messageBlocks - blocks.length - 2).forEach((m, i) => blocks.push(meetingBlock(m, i)));
  blocks.push(
    context(
      `Bitrates from the samples Insights takes every 30 s (the first ${sizes.statsPerStream} of each stream). Times in your time zone. ${LATENCY_NOTE} ${fetchedLine(ctx)}`,
    ),
  );
  return { text: `Session ${session.sessionId}: ${total} meetings (${ctx.projectName})`, blocks };
}

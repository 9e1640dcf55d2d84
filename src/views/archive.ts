/**
 * Recordings (archives) in answers to one person: list pages, the `/record stop` choice, the
 * delete confirmation and the download answer. The recording card is the kind's
 * (src/kinds/recording.ts).
 *
 * Archive names and tags come from people, so they are escaped; download URLs are shown only
 * in the ephemeral download answer, never on a card.
 */
import {
  type ArchiveCardData,
  RUNNING_STATUSES,
  archiveTitle,
  deleteButton,
  downloadButton,
  durationText,
  sessionText,
  sizeText,
  statusIcon,
  statusLabel,
  stopButton,
  targetOf,
} from '../kinds/recording';
import { code, escapeAndTruncate, escapeMrkdwn } from '../slack/mrkdwn';
import { type ArchivePage } from './archive-values';
import { type KnownBlock, type SlackMessage, actions, button, context, fallbackText, section } from './blocks';
import { formatBytes, formatDuration, slackTime } from './format';
import { ACTION, RECORD_ACTION } from './ids';
import { encodeValue } from './values';

/** Recordings per list page. */
export const LIST_PAGE_SIZE = 20;

/** One line per recording in lists and choices. */
function listLine(archive: ArchiveCardData, showSession: boolean): string {
  const size = archive.size > 0 ? `, ${formatBytes(archive.size)}` : '';
  const session = showSession ? ` · session ${code(archive.sessionId)}` : '';
  const tag = archive.multiArchiveTag ? ` · tag ${code(archive.multiArchiveTag)}` : '';
  return (
    `${statusIcon(archive.status)} ${archiveTitle(archive, 100)} · ${statusLabel(archive.status)}\n` +
    `${code(archive.id)} · ${durationText(archive)}${size} · started ${slackTime(archive.createdAt)}${session}${tag}`
  );
}

export interface ArchiveListContext {
  projectName: string;
  /** Absent when listing every recording of the project. */
  sessionId?: string;
  alias?: string;
  offset: number;
  /** Recordings the listing holds in all (the service's `count`). */
  total: number;
}

/** A page of `/record list`: each recording with Stop or Download where it applies, and "More". */
export function archiveListMessage(items: readonly ArchiveCardData[], ctx: ArchiveListContext): SlackMessage {
  const where = ctx.sessionId ? `of session ${sessionText(ctx.sessionId, ctx.alias)}` : `in project *${escapeAndTruncate(ctx.projectName, 100)}*`;
  if (items.length === 0) {
    const text = ctx.offset > 0 ? `No more recordings ${where}.` : `No recordings ${where} yet. Start one with \`/record start\`.`;
    return { text: fallbackText(text), blocks: [section(text), context('Only you can see this.')] };
  }
  const shown = items.slice(0, LIST_PAGE_SIZE);
  const range = `${ctx.offset + 1}–${ctx.offset + shown.length} of ${ctx.total}`;
  const blocks: KnownBlock[] = [section(`:film_frames: Recordings ${where} — ${range}, newest first`)];
  for (const archive of shown) {
    const target = targetOf(archive, { projectName: ctx.projectName, alias: ctx.alias }, false);
    const accessory = RUNNING_STATUSES.includes(archive.status)
      ? stopButton(archive, target)
      : archive.status === 'available'
        ? downloadButton(target)
        : undefined;
    blocks.push(section(listLine(archive, ctx.sessionId === undefined), accessory));
  }
  const next = ctx.offset + shown.length;
  if (next < ctx.total) {
    const page: ArchivePage = { p: ctx.projectName, o: next, ...(ctx.sessionId ? { s: ctx.sessionId } : {}), ...(ctx.alias ? { a: ctx.alias } : {}) };
    blocks.push(actions([button({ actionId: RECORD_ACTION.more, text: `More (${ctx.total - next} left)`, value: encodeValue(page) })]));
  }
  blocks.push(context('Only you can see this. `/record show <recording-id>` shows one recording with its buttons.'));
  return { text: fallbackText(`Recordings ${where}: ${range}`), blocks };
}

/**
 * `/record stop`: the recording named, or the session's recordings in progress. The card is the
 * one question (confirmation policy): its Stop buttons act.
 */
export function stopChoiceMessage(items: readonly ArchiveCardData[], s: { projectName: string; sessionId: string; alias?: string }): SlackMessage {
  const shown = items.slice(0, 40);
  const question =
    shown.length === 1
      ? `:black_square_for_stop: *Stop the recording of session ${sessionText(s.sessionId, s.alias)}?*`
      : `:black_square_for_stop: *${shown.length} recordings of session ${sessionText(s.sessionId, s.alias)} are in progress.* Which one should stop?`;
  const blocks: KnownBlock[] = [section(question)];
  for (const archive of shown) blocks.push(section(listLine(archive, false), stopButton(archive, targetOf(archive, s, false), 'typed')));
  blocks.push(actions([button({ actionId: ACTION.cancel, text: 'Cancel' })]));
  blocks.push(context(s.alias ? `Only you can see this. Session ID ${code(s.sessionId)}` : 'Only you can see this.'));
  return { text: fallbackText(`Stop a recording of session ${escapeMrkdwn(s.alias ?? s.sessionId)}?`), blocks };
}

/** `/record delete <id>`: what will be deleted; the card is the one question, its Delete acts. */
export function deleteConfirmCard(archive: ArchiveCardData, ctx: { projectName: string }): SlackMessage {
  const what =
    archive.status === 'uploaded'
      ? 'Its record is removed from the video service; the file in your upload target stays.'
      : 'Its file is removed from the video service for good.';
  return {
    text: fallbackText(`Delete recording ${escapeMrkdwn(archive.name ?? archive.id)}?`),
    blocks: [
      section(
        `:warning: *Delete this recording?* ${archiveTitle(archive)} (${code(archive.id)}, ${statusLabel(archive.status).toLowerCase()}, ${sizeText(archive)}). ${what}`,
      ),
      actions([deleteButton(archive, targetOf(archive, ctx, false), 'typed'), button({ actionId: ACTION.cancel, text: 'Cancel' })]),
      context(`Project *${escapeAndTruncate(ctx.projectName, 100)}* · only you can see this.`),
    ],
  };
}

/** A link Slack will not re-interpret: `|` and `>` cannot end it early. */
function linkUrl(url: string): string {
  return url.replace(/&/g, '&amp;').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\|/g, '%7C');
}

/** The Download button's answer (ephemeral): a fresh link and when it stops working. */
export function downloadMessage(archive: ArchiveCardData, url: string, validUntil: number): SlackMessage {
  const label = archive.name ? escapeAndTruncate(archive.name, 100) : `recording ${archive.id}`;
  return {
    text: fallbackText(`Download ${label}`),
    blocks: [
      section(`:arrow_down: <${linkUrl(url)}|Download ${label}> (${formatBytes(archive.size)}, ${formatDuration(archive.duration)})`),
      context(`The link works for 10 minutes (until ${slackTime(validUntil)}); click *Download* again for a new one. Only you can see this.`),
    ],
  };
}

/** The Download button's answer when there is no file to download here. */
export function notDownloadableMessage(archive: ArchiveCardData): SlackMessage {
  const which = archive.name ? `*${escapeAndTruncate(archive.name, 100)}* (${code(archive.id)})` : code(archive.id);
  let why: string;
  switch (archive.status) {
    case 'uploaded':
      why = 'was uploaded to the project’s upload target; get the file from there';
      break;
    case 'expired':
      why = 'has expired: the video service no longer keeps its file';
      break;
    case 'deleted':
      why = 'was deleted';
      break;
    case 'failed':
      why = 'failed, so there is no file';
      break;
    default:
      why = `is not ready yet (${statusLabel(archive.status).toLowerCase()}); try again once it is available`;
  }
  return {
    text: fallbackText(`Recording ${escapeMrkdwn(archive.name ?? archive.id)} cannot be downloaded`),
    blocks: [section(`:warning: Recording ${which} ${why}.`)],
  };
}

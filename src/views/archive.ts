/**
 * Recordings (archives) as Slack shows them: the recording card (posted in the channel, kept up
 * to date by the poller, so it is a pure function of the archive and its context), list pages,
 * the `/record stop` choice, the delete confirmation and the download answer.
 *
 * Archive names and tags come from people, so they are escaped; download URLs are shown only
 * in the ephemeral download answer, never on a card.
 */
import { formatBytes, formatDuration } from '../poller/messages';
import type { ArchiveSnapshot, GoneSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, LIMITS, actions, button, clampPlain, context, fields, section } from './blocks';
import { type ArchivePage, type ArchiveTarget } from './archive-values';
import { ACTION, RECORD_ACTION, RECORD_BLOCK } from './ids';
import { encodeValue } from './values';

/** The fields of an archive the views read; the adapter's `Archive` has them all. */
export interface ArchiveCardData {
  id: string;
  status: string;
  sessionId: string;
  /** ms since epoch */
  createdAt: number;
  /** seconds; 0 while started */
  duration: number;
  /** bytes; 0 until a file exists */
  size: number;
  name?: string | null;
  reason?: string | null;
  outputMode?: string;
  resolution?: string | null;
  streamMode?: string;
  hasAudio?: boolean;
  hasVideo?: boolean;
  multiArchiveTag?: string | null;
}

export interface ArchiveCardContext {
  projectName: string;
  /** The alias the session was named by, if any. */
  alias?: string;
  /** The Slack user who started the recording, when known. */
  startedBy?: string;
  /** First line (mrkdwn, already escaped), e.g. "<@U1> started recording session `standup`." */
  headline?: string;
}

/** Statuses during which a recording is in progress (Stop is offered). */
export const RUNNING_STATUSES: readonly string[] = ['started', 'paused'];
/** The only statuses from which the service deletes a recording. */
export const DELETABLE_STATUSES: readonly string[] = ['available', 'uploaded'];
/** Recordings per list page. */
export const LIST_PAGE_SIZE = 20;

const STATUS: Readonly<Record<string, { icon: string; label: string }>> = {
  started: { icon: ':red_circle:', label: 'Recording' },
  paused: { icon: ':double_vertical_bar:', label: 'Paused — nobody is publishing' },
  stopped: { icon: ':black_square_for_stop:', label: 'Stopped — the file is being processed' },
  available: { icon: ':white_check_mark:', label: 'Available to download' },
  uploaded: { icon: ':outbox_tray:', label: 'Uploaded to the upload target' },
  expired: { icon: ':hourglass:', label: 'Expired — no longer downloadable' },
  failed: { icon: ':x:', label: 'Failed' },
  deleted: { icon: ':wastebasket:', label: 'Deleted' },
  gone: { icon: ':grey_question:', label: 'No longer known to the video service' },
};

const STOP_REASONS: Readonly<Record<string, string>> = {
  'user initiated': 'stopped by a person',
  'maximum duration exceeded': 'maximum duration reached (4 h per file)',
  'maximum idle time exceeded': 'nobody published for too long',
  'session ended': 'everyone left the session',
  failure: 'the recording failed',
};

export function statusIcon(status: string): string {
  return STATUS[status]?.icon ?? ':grey_question:';
}

export function statusLabel(status: string): string {
  return STATUS[status]?.label ?? escapeAndTruncate(status, 50);
}

/**
 * Notification text from mrkdwn: bold, code and strike marks dropped, underscores kept (session
 * IDs are full of them); escapes stay, since Slack reads `text` as mrkdwn too.
 */
export function fallbackText(mrkdwnText: string): string {
  return clampPlain(mrkdwnText.replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2').replace(/[*`~]/g, ''), LIMITS.messageText);
}

/** A time Slack shows in each reader's own time zone; the fallback is UTC. */
export function slackTime(ms: number): string {
  const fallback = `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}

function sessionText(sessionId: string, alias?: string): string {
  return alias ? code(alias) : code(sessionId);
}

function archiveTitle(archive: Pick<ArchiveCardData, 'name'>, max = 200): string {
  return archive.name ? `*${escapeAndTruncate(archive.name, max)}*` : '_untitled_';
}

function durationText(archive: ArchiveCardData): string {
  if (archive.status === 'started') return 'recording…';
  return formatDuration(archive.duration);
}

function sizeText(archive: ArchiveCardData): string {
  if (archive.size > 0) return formatBytes(archive.size);
  return RUNNING_STATUSES.includes(archive.status) || archive.status === 'stopped' ? 'no file yet' : '—';
}

function outputText(archive: ArchiveCardData): string {
  if (archive.outputMode === 'individual') return 'One file per stream';
  return `Composed, ${archive.resolution ?? '640x480'}`;
}

function streamsText(archive: ArchiveCardData): string {
  const mode = archive.streamMode === 'manual' ? 'Chosen streams (manual)' : 'All streams (auto)';
  const media = archive.hasVideo === false ? ' · audio only' : archive.hasAudio === false ? ' · video only' : '';
  return mode + media;
}

function reasonText(reason: string): string {
  return STOP_REASONS[reason] ?? escapeAndTruncate(reason, 200);
}

function targetOf(archive: ArchiveCardData, ctx: { projectName: string; alias?: string; startedBy?: string }, onCard: boolean): ArchiveTarget {
  return {
    p: ctx.projectName,
    r: archive.id,
    s: archive.sessionId,
    ...(ctx.alias ? { a: ctx.alias } : {}),
    ...(ctx.startedBy ? { u: ctx.startedBy } : {}),
    ...(onCard ? { o: 'card' as const } : {}),
  };
}

export function stopButton(archive: ArchiveCardData, target: ArchiveTarget): Button {
  const title = archive.name ? `*${escapeAndTruncate(archive.name, 100)}*` : code(archive.id);
  return button({
    actionId: RECORD_ACTION.stop,
    text: 'Stop recording',
    style: 'danger',
    value: encodeValue(target),
    confirm: {
      title: 'Stop this recording?',
      text: `Recording ${title} of session ${sessionText(archive.sessionId, target.a)} stops now; the file is processed next.`,
      confirm: 'Stop recording',
      deny: 'Keep recording',
      danger: true,
    },
  });
}

export function downloadButton(target: ArchiveTarget): Button {
  return button({ actionId: RECORD_ACTION.download, text: 'Download', style: 'primary', value: encodeValue(target) });
}

export function deleteButton(archive: ArchiveCardData, target: ArchiveTarget): Button {
  const what = archive.status === 'uploaded' ? 'The record is removed; the file in your upload target stays.' : 'The file is removed from the video service for good.';
  return button({
    actionId: RECORD_ACTION.delete,
    text: 'Delete',
    style: 'danger',
    value: encodeValue(target),
    confirm: {
      title: 'Delete this recording?',
      text: `${archive.name ? `*${escapeAndTruncate(archive.name, 100)}* ` : ''}(${code(archive.id)}): ${what}`,
      confirm: 'Delete',
      deny: 'Keep it',
      danger: true,
    },
  });
}

/** The buttons a recording in this status offers (the role is checked on the click). */
function cardButtons(archive: ArchiveCardData, target: ArchiveTarget): Button[] {
  const buttons: Button[] = [];
  if (RUNNING_STATUSES.includes(archive.status)) buttons.push(stopButton(archive, target));
  if (archive.status === 'available') buttons.push(downloadButton(target));
  if (DELETABLE_STATUSES.includes(archive.status)) buttons.push(deleteButton(archive, target));
  return buttons;
}

/**
 * The recording card: status, name, duration, size, output, streams, who started it, and the
 * buttons its status allows. Pure, so the poller can redraw it from a fresh read.
 */
export function archiveCard(archive: ArchiveCardData, ctx: ArchiveCardContext): SlackMessage {
  const icon = statusIcon(archive.status);
  const first = ctx.headline ?? `Recording ${archive.name ? `${archiveTitle(archive)} ` : ''}of session ${sessionText(archive.sessionId, ctx.alias)}`;
  const facts = [
    `*Status*\n${icon} ${statusLabel(archive.status)}`,
    `*Name*\n${archive.name ? escapeAndTruncate(archive.name, 300) : '_none_'}`,
    `*Duration*\n${durationText(archive)}`,
    `*Size*\n${sizeText(archive)}`,
  ];
  // A redraw from the poller's snapshot does not know these; the card then leaves them out.
  if (archive.outputMode !== undefined) facts.push(`*Output*\n${outputText(archive)}`);
  if (archive.streamMode !== undefined) facts.push(`*Streams*\n${streamsText(archive)}`);
  if (ctx.startedBy) facts.push(`*Started by*\n${userMention(ctx.startedBy)}`);
  if (archive.multiArchiveTag) facts.push(`*Tag*\n${code(archive.multiArchiveTag)}`);
  if (archive.reason && (archive.status === 'stopped' || archive.status === 'failed')) facts.push(`*Why it stopped*\n${reasonText(archive.reason)}`);
  const blocks: KnownBlock[] = [
    section(`${icon} ${first}`),
    fields(facts),
    context(
      `Session ${sessionText(archive.sessionId, ctx.alias)}${ctx.alias ? ` (${code(archive.sessionId)})` : ''} · project *${escapeAndTruncate(ctx.projectName, 100)}* · recording ID ${code(archive.id)}${archive.createdAt > 0 ? ` · started ${slackTime(archive.createdAt)}` : ''}`,
    ),
  ];
  const buttons = cardButtons(archive, targetOf(archive, ctx, true));
  if (buttons.length > 0) blocks.push(actions(buttons, RECORD_BLOCK.cardActions));
  const name = archive.name ? ` ${archive.name}` : '';
  return {
    text: fallbackText(escapeMrkdwn(`Recording${name} of session ${ctx.alias ?? archive.sessionId}: `) + statusLabel(archive.status)),
    blocks,
  };
}

/**
 * The card redrawn from what the poller keeps of a recording (its snapshot and the watch), for
 * the poller's card builders: the facts the snapshot does not hold are left out.
 */
export function archiveCardFromSnapshot(
  watch: { resourceId: string; sessionId: string; projectName: string },
  snapshot: ArchiveSnapshot | GoneSnapshot,
): SlackMessage {
  const known = 'createdAt' in snapshot ? snapshot : undefined;
  return archiveCard(
    {
      id: watch.resourceId,
      sessionId: watch.sessionId,
      status: snapshot.status,
      createdAt: known?.createdAt ?? 0,
      duration: known?.durationS ?? 0,
      size: known?.sizeBytes ?? 0,
      name: known?.name,
      reason: known?.reason,
    },
    { projectName: watch.projectName },
  );
}

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
    const accessory = RUNNING_STATUSES.includes(archive.status) ? stopButton(archive, target) : archive.status === 'available' ? downloadButton(target) : undefined;
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

/** `/record stop` without an ID: the session's recordings in progress, each with a confirmed Stop. */
export function stopChoiceMessage(items: readonly ArchiveCardData[], s: { projectName: string; sessionId: string; alias?: string }): SlackMessage {
  const shown = items.slice(0, 40);
  const question =
    shown.length === 1
      ? `:black_square_for_stop: *Stop the recording of session ${sessionText(s.sessionId, s.alias)}?*`
      : `:black_square_for_stop: *${shown.length} recordings of session ${sessionText(s.sessionId, s.alias)} are in progress.* Which one should stop?`;
  const blocks: KnownBlock[] = [section(question)];
  for (const archive of shown) blocks.push(section(listLine(archive, false), stopButton(archive, targetOf(archive, s, false))));
  blocks.push(actions([button({ actionId: ACTION.cancel, text: 'Cancel' })]));
  blocks.push(context('Only you can see this. `/record stop <recording-id>` stops one at once.'));
  return { text: fallbackText(`Stop a recording of session ${escapeMrkdwn(s.alias ?? s.sessionId)}?`), blocks };
}

/** `/record delete <id>`: what will be deleted, behind Slack's confirm dialog. */
export function deleteConfirmCard(archive: ArchiveCardData, ctx: { projectName: string }): SlackMessage {
  const what = archive.status === 'uploaded' ? 'Its record is removed from the video service; the file in your upload target stays.' : 'Its file is removed from the video service for good.';
  return {
    text: fallbackText(`Delete recording ${escapeMrkdwn(archive.name ?? archive.id)}?`),
    blocks: [
      section(`:warning: *Delete this recording?* ${archiveTitle(archive)} (${code(archive.id)}, ${statusLabel(archive.status).toLowerCase()}, ${sizeText(archive)}). ${what}`),
      actions([deleteButton(archive, targetOf(archive, ctx, false)), button({ actionId: ACTION.cancel, text: 'Cancel' })]),
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
  return { text: fallbackText(`Recording ${escapeMrkdwn(archive.name ?? archive.id)} cannot be downloaded`), blocks: [section(`:warning: Recording ${which} ${why}.`)] };
}

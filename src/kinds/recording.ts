/**
 * The recording (archive) kind: its words (statuses, icons, why it stopped, which statuses run
 * or may be deleted), its card model (what was asked for when it started, who did what since),
 * the one renderer of its card and its buttons. Every redraw (first post, poll, click, a command
 * typed elsewhere) comes through `recordingKind.render`.
 *
 * Archive names and tags come from people, so they are escaped; download URLs never reach a card.
 */
import { z } from 'zod';
import type { ArchiveResource } from '../poller/resources';
import type { ArchiveSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import type { ArchiveTarget } from '../views/archive-values';
import { type Button, type KnownBlock, type SlackMessage, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { formatBytes, formatDuration, slackTime } from '../views/format';
import { RECORD_ACTION, RECORD_BLOCK } from '../views/ids';
import { type Via, dialogFor } from '../views/confirmation-policy';
import { recordingStartedHeadline } from '../views/archive-notices';
import { encodeValue } from '../views/values';
import { type ActionRecord, type CardView, type ResourceKind, actionsContext } from './kind';

/** The fields of an archive the card reads (the poller's resource plus the output settings); the adapter's `Archive` has them all. */
export interface ArchiveCardData extends ArchiveResource {
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
  /** Who did what to it since, oldest first. */
  actions?: readonly ActionRecord[];
}

/** Statuses during which a recording is in progress (Stop is offered). */
export const RUNNING_STATUSES: readonly string[] = ['started', 'paused'];
/** The only statuses from which the service deletes a recording. */
export const DELETABLE_STATUSES: readonly string[] = ['available', 'uploaded'];
/** Statuses after which nothing more happens to a recording: its watch ends. */
export const FINAL_STATUSES: readonly string[] = ['available', 'uploaded', 'expired', 'failed', 'deleted', 'gone'];
/** The longest a single recording file runs (spec: 4 hours). */
export const MAX_DURATION_S = 4 * 3600;

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

/** Why a recording stopped, in the same words on its card and in its thread. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  'user initiated': 'on request',
  'maximum duration exceeded': `maximum duration reached (${formatDuration(MAX_DURATION_S)})`,
  'maximum idle time exceeded': 'nobody published for too long',
  'session ended': 'everyone left the session',
  failure: 'the recording failed',
};

/** The words for the service's stop reason (escaped when it is not one vidops knows). */
export function stopReasonWords(reason: string): string {
  return STOP_REASONS[reason] ?? escapeAndTruncate(reason, 200);
}

export function statusIcon(status: string): string {
  return STATUS[status]?.icon ?? ':grey_question:';
}

export function statusLabel(status: string): string {
  return STATUS[status]?.label ?? escapeAndTruncate(status, 50);
}

export function sessionText(sessionId: string, alias?: string): string {
  return alias ? code(alias) : code(sessionId);
}

export function archiveTitle(archive: Pick<ArchiveCardData, 'name'>, max = 200): string {
  return archive.name ? `*${escapeAndTruncate(archive.name, max)}*` : '_untitled_';
}

export function durationText(archive: ArchiveCardData): string {
  if (archive.status === 'started') return 'recording…';
  return formatDuration(archive.duration);
}

export function sizeText(archive: ArchiveCardData): string {
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

export function targetOf(archive: ArchiveCardData, ctx: { projectName: string; alias?: string; startedBy?: string }, onCard: boolean): ArchiveTarget {
  return {
    p: ctx.projectName,
    r: archive.id,
    s: archive.sessionId,
    ...(ctx.alias ? { a: ctx.alias } : {}),
    ...(ctx.startedBy ? { u: ctx.startedBy } : {}),
    ...(onCard ? { o: 'card' as const } : {}),
  };
}

/** `via`: `typed` on the card answering `/record stop` (the card was the question), else `clicked`. */
export function stopButton(archive: ArchiveCardData, target: ArchiveTarget, via: Via = 'clicked'): Button {
  const title = archive.name ? `*${escapeAndTruncate(archive.name, 100)}*` : code(archive.id);
  return button({
    actionId: RECORD_ACTION.stop,
    text: 'Stop recording',
    style: 'danger',
    value: encodeValue(target),
    ...dialogFor('record-stop', via, {
      title: 'Stop this recording?',
      text: `Recording ${title} of session ${sessionText(archive.sessionId, target.a)} stops now; the file is processed next.`,
      confirm: 'Stop recording',
      deny: 'Keep recording',
      danger: true,
    }),
  });
}

export function downloadButton(target: ArchiveTarget): Button {
  return button({ actionId: RECORD_ACTION.download, text: 'Download', style: 'primary', value: encodeValue(target) });
}

export function deleteButton(archive: ArchiveCardData, target: ArchiveTarget, via: Via = 'clicked'): Button {
  const what =
    archive.status === 'uploaded' ? 'The record is removed; the file in your upload target stays.' : 'The file is removed from the video service for good.';
  return button({
    actionId: RECORD_ACTION.delete,
    text: 'Delete',
    style: 'danger',
    value: encodeValue(target),
    ...dialogFor('record-delete', via, {
      title: 'Delete this recording?',
      text: `${archive.name ? `*${escapeAndTruncate(archive.name, 100)}* ` : ''}(${code(archive.id)}): ${what}`,
      confirm: 'Delete',
      deny: 'Keep it',
      danger: true,
    }),
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
  const first = ctx.startedBy
    ? recordingStartedHeadline(ctx.startedBy, { sessionId: archive.sessionId, alias: ctx.alias })
    : `Recording ${archive.name ? `${archiveTitle(archive)} ` : ''}of session ${sessionText(archive.sessionId, ctx.alias)}`;
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
  if (archive.reason && (archive.status === 'stopped' || archive.status === 'failed')) facts.push(`*Why it stopped*\n${stopReasonWords(archive.reason)}`);
  const blocks: KnownBlock[] = [
    section(`${icon} ${first}`),
    fields(facts),
    context(
      `Session ${sessionText(archive.sessionId, ctx.alias)}${ctx.alias ? ` (${code(archive.sessionId)})` : ''} · project *${escapeAndTruncate(ctx.projectName, 100)}* · recording ID ${code(archive.id)}${archive.createdAt > 0 ? ` · started ${slackTime(archive.createdAt)}` : ''}`,
    ),
  ];
  const done = actionsContext(recordingKind, ctx.actions ?? []);
  if (done) blocks.push(context(done));
  const buttons = cardButtons(archive, targetOf(archive, ctx, true));
  if (buttons.length > 0) blocks.push(actions(buttons, RECORD_BLOCK.cardActions));
  const name = archive.name ? ` ${archive.name}` : '';
  return {
    text: fallbackText(escapeMrkdwn(`Recording${name} of session ${ctx.alias ?? archive.sessionId}: `) + statusLabel(archive.status)),
    blocks,
  };
}

/** What a recording card keeps from its start: the options asked for, who, and the alias used. */
export const RecordingContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  name: z.string().optional(),
  outputMode: z.string().optional(),
  resolution: z.string().optional(),
  streamMode: z.string().optional(),
  hasAudio: z.boolean().optional(),
  hasVideo: z.boolean().optional(),
  tag: z.string().optional(),
});
export type RecordingContext = z.output<typeof RecordingContextSchema>;

/** The context captured from the start response (what the service says was started) and the asker. */
export function recordingContext(
  archive: Pick<ArchiveCardData, 'name' | 'outputMode' | 'resolution' | 'streamMode' | 'hasAudio' | 'hasVideo' | 'multiArchiveTag'>,
  who: { startedBy?: string; alias?: string },
): RecordingContext {
  return RecordingContextSchema.parse({
    ...who,
    name: archive.name || undefined,
    outputMode: archive.outputMode,
    resolution: archive.resolution ?? undefined,
    streamMode: archive.streamMode,
    hasAudio: archive.hasAudio,
    hasVideo: archive.hasVideo,
    tag: archive.multiArchiveTag ?? undefined,
  });
}

const ACTION_WORDS: Readonly<Record<string, string>> = {
  stop: 'Stopped',
  delete: 'Deleted',
  layout: 'Layout changed',
  'add-stream': 'Stream added',
  'remove-stream': 'Stream removed',
};

function cardData(view: CardView<ArchiveSnapshot, RecordingContext>): ArchiveCardData {
  const state = view.state;
  const known = state && 'createdAt' in state ? state : undefined;
  const c = view.context;
  return {
    id: view.resourceId,
    sessionId: view.sessionId,
    status: state?.status ?? 'gone',
    createdAt: known?.createdAt ?? 0,
    duration: known?.durationS ?? 0,
    size: known?.sizeBytes ?? 0,
    name: known?.name ?? c.name,
    reason: known?.reason,
    outputMode: c.outputMode,
    resolution: c.resolution,
    streamMode: c.streamMode,
    hasAudio: c.hasAudio,
    hasVideo: c.hasVideo,
    multiArchiveTag: c.tag,
  };
}

export const recordingKind: ResourceKind<ArchiveSnapshot, RecordingContext> = {
  kind: 'archive',
  nouns: { one: 'Recording', many: 'Recordings' },
  context: RecordingContextSchema,
  render: (view) =>
    archiveCard(cardData(view), { projectName: view.projectName, alias: view.context.alias, startedBy: view.context.startedBy, actions: view.actions }),
  actionWords: (record) => {
    const words = ACTION_WORDS[record.action] ?? escapeMrkdwn(record.action);
    return record.detail ? `${words} (${escapeAndTruncate(record.detail, 60)})` : words;
  },
};

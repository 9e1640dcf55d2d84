/** In-channel notices for changes to recordings: who did what to which recording. */
import type { Layout } from '../api';
import { code, escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, context, section } from './blocks';
import { fallbackText } from './blocks';

export interface ArchiveRef {
  projectName: string;
  archiveId: string;
  name?: string;
  sessionId?: string;
  alias?: string;
}

function recordingText(a: ArchiveRef): string {
  return a.name ? `recording *${escapeAndTruncate(a.name, 200)}* (${code(a.archiveId)})` : `recording ${code(a.archiveId)}`;
}

function ofSession(a: ArchiveRef): string {
  if (a.alias) return ` of session ${code(a.alias)}`;
  return a.sessionId ? ` of session ${code(a.sessionId)}` : '';
}

function notice(icon: string, sentence: string, a: ArchiveRef, extra?: string): SlackMessage {
  const blocks: KnownBlock[] = [section(`${icon} ${sentence}`)];
  if (extra) blocks.push(section(extra));
  blocks.push(context(`Project *${escapeAndTruncate(a.projectName, 100)}* · recording ID ${code(a.archiveId)}`));
  return { text: fallbackText(sentence), blocks };
}

/** The first line of a new recording's card. */
export function recordingStartedHeadline(actor: string, s: { sessionId: string; alias?: string }): string {
  return `${userMention(actor)} started recording session ${code(s.alias ?? s.sessionId)}.`;
}

export function recordingStoppedNotice(actor: string, a: ArchiveRef): SlackMessage {
  return notice(
    ':black_square_for_stop:',
    `${userMention(actor)} stopped ${recordingText(a)}${ofSession(a)}.`,
    a,
    `The file is processed next; I will say in this channel when it can be downloaded (or see \`/record show ${a.archiveId}\`).`,
  );
}

export function recordingDeletedNotice(actor: string, a: ArchiveRef, wasUploaded: boolean): SlackMessage {
  const extra = wasUploaded ? 'The copy in the upload target is not touched.' : undefined;
  return notice(':wastebasket:', `${userMention(actor)} deleted ${recordingText(a)}${ofSession(a)}.`, a, extra);
}

/** `bestFit`, `bestFit, pip while a screen is shared`, `custom stylesheet`. */
export function layoutText(layout: Layout): string {
  if (layout.type === 'custom') return '`custom` (own stylesheet)';
  const share = layout.screenshareType ? `, ${code(layout.screenshareType)} while a screen is shared` : '';
  return `${code(layout.type)}${share}`;
}

/** No Undo: the service does not tell which layout a recording had, so the notice says how to go back. */
export function recordingLayoutNotice(actor: string, a: ArchiveRef, layout: Layout): SlackMessage {
  return notice(
    ':art:',
    `${userMention(actor)} changed the layout of ${recordingText(a)}${ofSession(a)} to ${layoutText(layout)}.`,
    a,
    `To undo it, set the layout it had with \`/record layout ${a.archiveId} --layout <layout>\`: vidops cannot read the one before.`,
  );
}

export function recordingStreamNotice(
  actor: string,
  a: ArchiveRef,
  change: { streamId: string; action: 'add' | 'remove'; hasAudio?: boolean; hasVideo?: boolean },
): SlackMessage {
  if (change.action === 'remove') {
    return notice(':heavy_minus_sign:', `${userMention(actor)} removed stream ${code(change.streamId)} from ${recordingText(a)}.`, a);
  }
  const media = change.hasVideo === false ? ' (audio only)' : change.hasAudio === false ? ' (video only)' : '';
  return notice(
    ':heavy_plus_sign:',
    `${userMention(actor)} added stream ${code(change.streamId)}${media} to ${recordingText(a)}.`,
    a,
    'Adding the same stream again with other media switches its audio or video.',
  );
}

/**
 * What the asker reads while the video service is slow: the waiting line, the honest answer when
 * a request's bound passes, and what the Check button found.
 */
import { z } from 'zod';
import { statusIcon, statusLabel } from '../kinds/recording';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { type SlackMessage, LIMITS, actions, button, section, textMessage } from './blocks';
import { ACTION } from './ids';
import { encodeValue } from './values';

const id = z.string().min(1);

/**
 * What the Check button reads again: `rerun` types a read command again; the others read the
 * resource a change touched. `o` is the command the change was (`/mute`), for the wording.
 */
export const CheckValueSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('rerun'), c: id, t: z.string() }),
  z.object({ k: z.literal('archive'), p: id, r: id, o: id }),
  z.object({ k: z.literal('broadcast'), p: id, b: id, o: id }),
  z.object({ k: z.literal('stream'), p: id, s: id, a: z.string().optional(), t: id, o: id }),
  z.object({ k: z.literal('session'), p: id, s: id, a: z.string().optional(), o: id }),
  z.object({ k: z.literal('recordings'), p: id, s: id, a: z.string().optional(), o: id }),
]);
export type CheckValue = z.output<typeof CheckValueSchema>;
/** What a change names to be checked; the change path adds its project and command. */
export type CheckTarget =
  | { k: 'archive'; r: string }
  | { k: 'broadcast'; b: string }
  | { k: 'stream'; s: string; a?: string; t: string }
  | { k: 'session'; s: string; a?: string }
  | { k: 'recordings'; s: string; a?: string };

export function stillWaitingMessage(): SlackMessage {
  return textMessage(':hourglass: Still waiting for the video service…', 'Still waiting for the video service…');
}

/** In place of the waiting line when the answer went to the channel (a change's notice). */
export function answeredElsewhereMessage(): SlackMessage {
  return textMessage(
    ':white_check_mark: The video service answered; the result is in the channel.',
    'The video service answered; the result is in the channel.',
  );
}

function checkButton(value: string) {
  return button({ actionId: ACTION.checkVideo, text: 'Check', value, accessibilityLabel: 'Ask the video service again' });
}

function withCheck(sentence: string, check: CheckValue | undefined, without: string): SlackMessage {
  const value = check === undefined ? undefined : encodeValue(check);
  if (value === undefined || value.length > LIMITS.buttonValue) return textMessage(`:warning: ${sentence} ${without}`);
  return {
    text: textMessage(`:warning: ${sentence}`).text,
    blocks: [section(`:warning: ${sentence}`), actions([checkButton(value)])],
  };
}

/** A failure whose outcome is unknown (the answer was lost or unreadable) gets the same Check button, when there is room. */
export function withCheckButton(message: SlackMessage, check: CheckValue | undefined): SlackMessage {
  const value = check === undefined ? undefined : encodeValue(check);
  if (value === undefined || value.length > LIMITS.buttonValue || message.blocks.length >= LIMITS.messageBlocks) return message;
  return { ...message, blocks: [...message.blocks, actions([checkButton(value)])] };
}

/** The bound passed on a read: nothing to show; Check asks again. */
export function readNoAnswerMessage(seconds: number, rerun?: { command: string; text: string }): SlackMessage {
  return withCheck(
    `The video service did not answer within ${seconds} s, so there is nothing to show yet.`,
    rerun && { k: 'rerun', c: rerun.command, t: rerun.text },
    'Try again in a moment.',
  );
}

/** The bound passed on a change: it may or may not have been made; Check reads the resource. */
export function changeNoAnswerMessage(seconds: number, command: string, check: CheckValue | undefined): SlackMessage {
  return withCheck(
    `The video service did not answer within ${seconds} s: the ${code(escapeAndTruncate(command, 60))} may or may not have taken effect.`,
    check,
    'Look before trying again.',
  );
}

function sessionWords(value: { s: string; a?: string }): string {
  return value.a ? code(escapeAndTruncate(value.a, 40)) : code(value.s);
}

export function archiveCheckMessage(archiveId: string, status: string): SlackMessage {
  return textMessage(
    `${statusIcon(status)} Recording ${code(archiveId)}: *${escapeAndTruncate(statusLabel(status), 100)}* (the video service says \`${escapeAndTruncate(status, 40)}\`).`,
  );
}

export function broadcastCheckMessage(broadcastId: string, status: string): SlackMessage {
  return textMessage(`Broadcast ${code(broadcastId)}: the video service says *${escapeAndTruncate(status, 40)}*.`);
}

/** A stream a change touched is still there. The service keeps no mute state, so a mute cannot be read back. */
export function streamCheckMessage(value: { s: string; a?: string; t: string; o: string }, stream: { name: string; videoType?: string }): SlackMessage {
  const who = stream.name ? ` (${escapeAndTruncate(stream.name, 80)}${stream.videoType ? `, ${stream.videoType}` : ''})` : '';
  const mute =
    value.o === '/mute' ? ' The video service does not report whether a stream is muted, so the mute cannot be read back; muting again does no harm.' : '';
  return textMessage(`Stream ${code(value.t)}${who} is publishing in session ${sessionWords(value)}.${mute}`);
}

export function streamGoneMessage(value: { s: string; a?: string; t: string }): SlackMessage {
  return textMessage(`Stream ${code(value.t)} is no longer publishing in session ${sessionWords(value)}.`);
}

/** The session a change touched: who is publishing now. */
export function sessionCheckMessage(value: { s: string; a?: string; o: string }, streams: readonly { id: string; name: string }[]): SlackMessage {
  const names = streams.slice(0, 10).map((s) => (s.name ? escapeAndTruncate(s.name, 40) : code(s.id)));
  const more = streams.length > names.length ? ` and ${streams.length - names.length} more` : '';
  const who =
    streams.length === 0
      ? 'Nobody is publishing'
      : `${streams.length} ${streams.length === 1 ? 'stream is' : 'streams are'} publishing (${names.join(', ')}${more})`;
  const mute =
    value.o === '/mute-all' || value.o === '/unmute-all'
      ? ' The video service does not report mute state, so the change cannot be read back; doing it again does no harm.'
      : '';
  return textMessage(`${who} in session ${sessionWords(value)}.${mute}`);
}

/** The recordings of a session a `/record start` may have started, newest first. */
export function recordingsCheckMessage(
  value: { s: string; a?: string },
  archives: readonly { id: string; status: string; createdAt?: number }[],
): SlackMessage {
  if (archives.length === 0) return textMessage(`Session ${sessionWords(value)} has no recordings: nothing was started.`);
  const lines = archives.slice(0, 5).map((a) => `${statusIcon(a.status)} ${code(a.id)}: ${escapeAndTruncate(statusLabel(a.status), 100)}`);
  const more = archives.length > lines.length ? `\n…and ${archives.length - lines.length} more (\`/record list\`)` : '';
  return textMessage(`Recordings of session ${sessionWords(value)}, newest first:\n${lines.join('\n')}${more}`);
}

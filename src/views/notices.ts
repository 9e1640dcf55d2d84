/**
 * In-channel notices for state changes: who did what to which session, so the channel sees
 * every change made through the app.
 */
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, actions, button, context, section, stripMrkdwn } from './blocks';
import { ACTION } from './ids';
import { type UndoLayoutClasses, type UndoMuteAll, encodeValue, sessionTarget } from './values';

export interface SessionRef {
  projectName: string;
  sessionId: string;
  alias?: string;
}

/** "session `standup`": the alias when there is one, else the ID. */
export function sessionText(s: SessionRef): string {
  return s.alias ? `session ${code(s.alias)}` : `session ${code(s.sessionId)}`;
}

/** The context line of a card or notice: the project, and the raw session ID when an alias named it. */
export function footer(s: SessionRef): string {
  const id = s.alias ? ` · session ID ${code(s.sessionId)}` : '';
  return `Project *${escapeAndTruncate(s.projectName, 100)}*${id}`;
}

function notice(icon: string, sentence: string, s: SessionRef, extra?: string, buttons?: KnownBlock): SlackMessage {
  const blocks = [section(`${icon} ${sentence}`)];
  if (extra) blocks.push(section(extra));
  if (buttons) blocks.push(buttons);
  blocks.push(context(footer(s)));
  return { text: stripMrkdwn(sentence), blocks };
}

/** vidops cannot unmute a stream (the service has no such call): the notice says who can. */
export function muteStreamNotice(actor: string, s: SessionRef, streamId: string, streamName?: string): SlackMessage {
  const name = streamName ? ` (*${escapeAndTruncate(streamName, 200)}*)` : '';
  return notice(
    ':mute:',
    `${userMention(actor)} muted stream ${code(streamId)}${name} in ${sessionText(s)}.`,
    s,
    'To undo it, the participant unmutes themselves: vidops cannot unmute a stream.',
  );
}

function exceptText(excluded: readonly string[]): string {
  return excluded.length > 0 ? ` except ${excluded.slice(0, 20).map(code).join(', ')}${excluded.length > 20 ? ` and ${excluded.length - 20} more` : ''}` : '';
}

/** The notice of a mute-everyone, with its Undo (the role is checked again on the click). */
export function muteAllNotice(actor: string, s: SessionRef, excluded: readonly string[]): SlackMessage {
  const value: UndoMuteAll = { ...sessionTarget(s), x: [...excluded], m: actor };
  return notice(
    ':mute:',
    `${userMention(actor)} muted everyone in ${sessionText(s)}${exceptText(excluded)}.`,
    s,
    'Streams that start publishing from now on are muted too, until someone clicks *Undo* or runs `/unmute-all`.',
    actions([button({ actionId: ACTION.undoMuteAll, text: 'Undo', value: encodeValue(value), accessibilityLabel: 'Undo: stop muting everyone' })]),
  );
}

/** The mute-everyone notice once undone: no Undo, and what the undo did and did not do. */
export function muteAllUndoneNotice(mutedBy: string, undoneBy: string, s: SessionRef, excluded: readonly string[]): SlackMessage {
  return notice(
    ':loud_sound:',
    `${userMention(mutedBy)} muted everyone in ${sessionText(s)}${exceptText(excluded)}. Undone by ${userMention(undoneBy)}.`,
    s,
    'The session’s mute state is lifted: people who join are no longer muted. Those already muted stay muted until they unmute themselves.',
  );
}

export function unmuteAllNotice(actor: string, s: SessionRef): SlackMessage {
  return notice(
    ':loud_sound:',
    `${userMention(actor)} turned off mute-everyone in ${sessionText(s)}.`,
    s,
    'New streams will join unmuted. Streams that are already muted stay muted; their owners unmute themselves.',
  );
}

export function kickNotice(actor: string, s: SessionRef, connectionId: string): SlackMessage {
  return notice(':door:', `${userMention(actor)} disconnected ${code(connectionId)} from ${sessionText(s)}.`, s);
}

export function signalNotice(actor: string, s: SessionRef, signal: { type: string; data: string; to?: string }): SlackMessage {
  const who = signal.to ? `connection ${code(signal.to)} in ${sessionText(s)}` : `everyone in ${sessionText(s)}`;
  const preview = signal.data.length > 0 ? `> ${escapeAndTruncate(signal.data, 300).replace(/\n/g, '\n> ')}` : undefined;
  return notice(':satellite_antenna:', `${userMention(actor)} sent a ${code(signal.type)} signal to ${who}.`, s, preview);
}

type ClassChange = { id: string; layoutClassList: readonly string[] };

function classLines(changes: readonly ClassChange[]): string {
  const lines = changes.slice(0, 20).map((c) => `• ${code(c.id)} → ${c.layoutClassList.length > 0 ? c.layoutClassList.map(code).join(' ') : '_no classes_'}`);
  if (changes.length > 20) lines.push(`… and ${changes.length - 20} more`);
  return lines.join('\n');
}

const streamCount = (n: number) => (n === 1 ? '1 stream' : `${n} streams`);

/**
 * Layout classes changed. With `previous` (each changed stream's classes before), an Undo puts
 * them back, when they fit in a button's value; otherwise the notice says how to set them again.
 */
export function layoutClassesNotice(actor: string, s: SessionRef, changes: readonly ClassChange[], previous?: readonly ClassChange[]): SlackMessage {
  const sentence = `${userMention(actor)} changed the layout classes of ${streamCount(changes.length)} in ${sessionText(s)}.`;
  if (!previous || previous.length === 0) return notice(':art:', sentence, s, classLines(changes));
  const value: UndoLayoutClasses = { ...sessionTarget(s), m: actor, l: previous.map((p) => ({ id: p.id, c: [...p.layoutClassList] })) };
  const encoded = encodeValue(value);
  if (encoded.length > LIMITS.buttonValue) {
    return notice(
      ':art:',
      sentence,
      s,
      `${classLines(changes)}\nToo many streams to undo from here: set them again with \`/streams\` → *Edit layout classes*.`,
    );
  }
  return notice(':art:', sentence, s, classLines(changes), actions([button({ actionId: ACTION.undoLayoutClasses, text: 'Undo', value: encoded })]));
}

/** The layout-classes notice once undone: what was changed, by whom undone, no Undo. */
export function layoutClassesUndoneNotice(changedBy: string, undoneBy: string, s: SessionRef, restored: readonly ClassChange[]): SlackMessage {
  return notice(
    ':art:',
    `${userMention(changedBy)} changed the layout classes of ${streamCount(restored.length)} in ${sessionText(s)}. Undone by ${userMention(undoneBy)}:`,
    s,
    classLines(restored),
  );
}

export interface CreatedSession extends SessionRef {
  mediaMode: 'routed' | 'relayed';
  archiveAlways: boolean;
  e2ee: boolean;
  boundToChannel: boolean;
}

export function sessionCreatedNotice(actor: string, s: CreatedSession): SlackMessage {
  const traits = [s.mediaMode, s.archiveAlways ? 'archived automatically' : undefined, s.e2ee ? 'end-to-end encrypted' : undefined].filter(Boolean).join(', ');
  const lines = [`Session ID: ${code(s.sessionId)}`];
  if (s.alias) lines.push(`Alias: ${code(s.alias)} (use it in place of the ID)`);
  if (s.boundToChannel) lines.push('It is now this channel’s default session.');
  return {
    text: `New session ${escapeMrkdwn(s.alias ?? s.sessionId)}`,
    blocks: [
      section(`:movie_camera: ${userMention(actor)} created a ${traits} session${s.alias ? ` ${code(s.alias)}` : ''}.`),
      section(lines.join('\n')),
      context(`Project *${escapeAndTruncate(s.projectName, 100)}*`),
    ],
  };
}

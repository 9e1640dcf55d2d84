/** The `/streams` card and the modal that edits the layout classes of several streams at once. */
import { code, escapeAndTruncate, escapeMrkdwn } from '../slack/mrkdwn';
import { type KnownBlock, type ModalView, type SlackMessage, LIMITS, actions, button, context, header, plain, section } from './blocks';
import { echo } from '../commands/grammar';
import { ACTION, BLOCK, CALLBACK } from './ids';
import type { SessionRef } from './notices';
import { encodeValue, sessionTarget } from './values';

export interface StreamRow {
  id: string;
  videoType?: string;
  name: string;
  layoutClassList: readonly string[];
}

/** Streams shown with their buttons in one message (2 blocks each; a message holds 50). */
export const MAX_STREAMS_IN_CARD = 20;
/** Streams editable in one modal (1 block each; a modal holds 100). */
export const MAX_STREAMS_IN_MODAL = 50;

const VIDEO_TYPE_LABEL: Record<string, string> = {
  camera: ':movie_camera: camera',
  screen: ':desktop_computer: screen share',
  custom: ':frame_with_picture: custom video',
};

function sessionTitle(s: SessionRef): string {
  return s.alias ?? s.sessionId;
}

function classesText(classes: readonly string[]): string {
  return classes.length > 0 ? classes.map(code).join(' ') : '_none_';
}

function streamText(stream: StreamRow): string {
  const name = stream.name ? `*${escapeAndTruncate(stream.name, 200)}*` : '_unnamed_';
  const type = stream.videoType ? (VIDEO_TYPE_LABEL[stream.videoType] ?? escapeAndTruncate(stream.videoType, 40)) : 'unknown type';
  return `${name} · ${type}\n${code(stream.id)}\nLayout classes: ${classesText(stream.layoutClassList)}`;
}

export function streamsMessage(s: SessionRef, streams: readonly StreamRow[]): SlackMessage {
  const title = `Streams in ${sessionTitle(s)}`;
  const blocks: KnownBlock[] = [header(title)];
  const project = `Project *${escapeAndTruncate(s.projectName, 100)}*${s.alias ? ` · session ID ${code(s.sessionId)}` : ''}`;
  if (streams.length === 0) {
    blocks.push(section('Nobody is publishing in this session right now.'));
    blocks.push(context(project));
    return { text: `No streams in ${escapeMrkdwn(sessionTitle(s))}`, blocks };
  }
  const count = streams.length === 1 ? '1 stream' : `${streams.length} streams`;
  blocks.push(context(`${count} · ${project}`));
  for (const stream of streams.slice(0, MAX_STREAMS_IN_CARD)) {
    blocks.push(section(streamText(stream)));
    blocks.push(
      actions([
        button({
          actionId: ACTION.muteStream,
          text: 'Mute',
          value: encodeValue({ ...sessionTarget(s), t: stream.id, ...(stream.name ? { n: stream.name.slice(0, 200) } : {}) }),
          accessibilityLabel: `Mute ${stream.name || stream.id}`,
        }),
        button({
          actionId: ACTION.editLayoutClasses,
          text: 'Edit layout classes',
          value: encodeValue({ ...sessionTarget(s), t: stream.id }),
        }),
      ]),
    );
  }
  if (streams.length > MAX_STREAMS_IN_CARD) {
    blocks.push(context(`… and ${streams.length - MAX_STREAMS_IN_CARD} more streams not shown. Mute them by ID: \`/mute <stream-id>\`.`));
  }
  return { text: `${count} in ${escapeMrkdwn(sessionTitle(s))}`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

/** What the layout modal carries in `private_metadata`. */
export interface LayoutModalMetadata {
  p: string;
  s: string;
  a?: string;
  /** Channel whose card opened the modal (where the notice goes). */
  c?: string;
}

export function parseLayoutMetadata(raw: string | undefined): LayoutModalMetadata | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<LayoutModalMetadata>;
    if (typeof value.p !== 'string' || typeof value.s !== 'string') return undefined;
    return {
      p: value.p,
      s: value.s,
      ...(typeof value.a === 'string' ? { a: value.a } : {}),
      ...(typeof value.c === 'string' ? { c: value.c } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Modal listing the session's streams, each with its classes as editable text; the focused stream first. */
export function layoutClassesModal(s: SessionRef, streams: readonly StreamRow[], channelId?: string, focusStreamId?: string): ModalView {
  const ordered = [...streams].sort((a, b) => Number(b.id === focusStreamId) - Number(a.id === focusStreamId));
  const metadata: LayoutModalMetadata = { ...sessionTarget(s), ...(channelId ? { c: channelId } : {}) };
  const blocks: KnownBlock[] = [
    section(
      `Layout classes of the streams in ${s.alias ? code(s.alias) : code(s.sessionId)}: separate classes with spaces (e.g. \`focus full\`); leave a field empty to clear it. Only the streams you change are sent.`,
    ),
  ];
  for (const stream of ordered.slice(0, MAX_STREAMS_IN_MODAL)) {
    const label = stream.name ? `${stream.name} (${stream.videoType ?? 'stream'})` : `${stream.videoType ?? 'stream'} ${stream.id}`;
    const initial = stream.layoutClassList.join(' ');
    blocks.push({
      type: 'input',
      block_id: `${BLOCK.layoutStreamPrefix}${stream.id}`,
      optional: true,
      label: plain(label, LIMITS.label),
      hint: plain(`Stream ${stream.id}`, LIMITS.hint),
      element: {
        type: 'plain_text_input',
        action_id: ACTION.layoutClassesInput,
        ...(initial ? { initial_value: initial } : {}),
        placeholder: plain('no classes', LIMITS.placeholder),
        max_length: 1000,
      },
    });
  }
  if (ordered.length > MAX_STREAMS_IN_MODAL) {
    blocks.push(context(`${ordered.length - MAX_STREAMS_IN_MODAL} more streams are not shown here.`));
  }
  return {
    type: 'modal',
    callback_id: CALLBACK.layoutClassesModal,
    title: plain('Layout classes', LIMITS.modalTitle),
    submit: plain('Save', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
}

/** Splits what was typed into class names (spaces or commas). */
export function parseClassList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** A class name problem, or undefined when every class is acceptable. */
export function classListProblem(classes: readonly string[]): string | undefined {
  const bad = classes.find((c) => !/^[A-Za-z0-9_-]{1,100}$/.test(c));
  if (bad !== undefined) {
    // Quoting `<!channel>` or a control character back, even in a field error, is asking for trouble.
    const quotable = /^[\p{L}\p{N}\p{P}\p{S}]+$/u.test(bad) && !/[<>&]/.test(bad);
    const which = quotable ? `“${echo(bad)}” is not a class name` : 'One of the classes is not a class name';
    return `${which}: use letters, digits, “-” and “_”.`;
  }
  if (new Set(classes).size !== classes.length) return 'A class is listed twice.';
  return undefined;
}

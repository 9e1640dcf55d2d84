/** The modal that edits the layout classes of several streams at once (from the session console). */
import { code } from '../slack/mrkdwn';
import { type KnownBlock, type ModalView, LIMITS, context, plain, section } from './blocks';
import { echo } from '../commands/grammar';
import { ACTION, BLOCK, CALLBACK } from './ids';
import type { SessionRef } from './notices';
import { sessionTarget } from './values';

export interface StreamRow {
  id: string;
  videoType?: string;
  name: string;
  layoutClassList: readonly string[];
}

/** Streams editable in one modal (1 block each; a modal holds 100). */
export const MAX_STREAMS_IN_MODAL = 50;

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

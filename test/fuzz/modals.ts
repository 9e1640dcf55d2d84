/**
 * Every modal the app accepts submissions of, with its real view (from the app's own builder)
 * and its submission parser as the listener runs it, in the listener's order: the
 * private_metadata check first (a form it cannot read is "stale": the listener answers with an
 * info modal), then the form. `fuzzedSubmission` fills each input block of the real view with
 * hostile values of the element's kind, for the pure fuzz and for the end-to-end one.
 */
import fc from 'fast-check';
import { checkStartForm, presentBlocks, readStartForm as readRecordForm } from '../../src/actions/record-start';
import { checkStorageForm } from '../../src/actions/record-storage';
import { readStartForm as readBroadcastForm } from '../../src/actions/broadcast-form';
import { readDialCredentials } from '../../src/actions/dial';
import { readMuteEveryoneForm } from '../../src/actions/mute-everyone';
import { readLayoutChanges } from '../../src/actions/streams';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import type { ModalView } from '../../src/views/blocks';
import { EMPTY_START_FORM, recordStartModal } from '../../src/views/archive-modal';
import { MAX_RTMP_ROWS, broadcastStartModal, parseStartMetadata as parseBroadcastMetadata } from '../../src/views/broadcast-modal';
import { CALLBACK, RECORD_CALLBACK } from '../../src/views/ids';
import { muteEveryoneModal } from '../../src/views/modals';
import { encodeDialMetadata, parseDialMetadata, sipAuthModal } from '../../src/views/sip';
import { parseStorageMetadata, storageModal } from '../../src/views/storage';
import { layoutClassesModal, parseLayoutMetadata } from '../../src/views/streams';
import { Hostile, hostileText } from './hostile';

export type Values = Record<string, Record<string, Record<string, unknown>>>;

export interface Submitted {
  blocks: readonly unknown[];
  private_metadata: string;
  state: { values: Values };
}

/** What the listener does with a submission before any call: refuse a stale form, show field errors, or go on. */
export type ModalOutcome = { kind: 'stale' } | { kind: 'errors'; errors: Record<string, string> } | { kind: 'accepted' };

export interface ModalCase {
  callbackId: string;
  /** The view as the app opens it, in the given channel, for a session of project `prod`. */
  view(channelId: string, sessionId: string): ModalView;
  parse(view: Submitted, hasProject: (name: string) => boolean): ModalOutcome;
}

const fromErrors = (result: { ok: true } | { ok: false; errors: Record<string, string> }): ModalOutcome =>
  result.ok ? { kind: 'accepted' } : { kind: 'errors', errors: result.errors };

type AnyValues = never;

export const MODALS: readonly ModalCase[] = [
  {
    callbackId: RECORD_CALLBACK.startModal,
    view: (channelId) => recordStartModal(EMPTY_START_FORM, { c: channelId }),
    parse: (view, hasProject) => fromErrors(checkStartForm(readRecordForm(view.state.values as AnyValues), presentBlocks(view), hasProject)),
  },
  {
    callbackId: RECORD_CALLBACK.storageModal,
    view: (channelId) => storageModal({ type: 's3', fallback: 'none' }, { p: 'prod', c: channelId }),
    parse: (view, hasProject) => {
      const metadata = parseStorageMetadata(view.private_metadata);
      if (!metadata || !hasProject(metadata.p)) return { kind: 'stale' };
      return fromErrors(checkStorageForm(view.state.values as AnyValues, presentBlocks(view)));
    },
  },
  {
    callbackId: CALLBACK.broadcastStartModal,
    view: (channelId) => broadcastStartModal({ metadata: { c: channelId, r: MAX_RTMP_ROWS } }),
    parse: (view, hasProject) => {
      const metadata = parseBroadcastMetadata(view.private_metadata);
      if (!metadata) return { kind: 'stale' };
      return fromErrors(readBroadcastForm(view.state.values as AnyValues, metadata.r, hasProject));
    },
  },
  {
    callbackId: CALLBACK.layoutClassesModal,
    view: (channelId, sessionId) =>
      layoutClassesModal(
        { projectName: 'prod', sessionId },
        [
          { id: 'stream-a', name: 'Alice', layoutClassList: ['focus'] },
          { id: 'stream-b', name: 'Bob', layoutClassList: [] },
        ],
        channelId,
      ),
    parse: (view) => {
      if (!parseLayoutMetadata(view.private_metadata)) return { kind: 'stale' };
      const read = readLayoutChanges(view as never);
      return 'errors' in read ? { kind: 'errors', errors: read.errors } : { kind: 'accepted' };
    },
  },
  {
    callbackId: CALLBACK.sipAuthModal,
    view: (channelId, sessionId) => sipAuthModal({ p: 'prod', s: sessionId, c: channelId, u: 'sip:+15551234567@sip.example.com' }),
    parse: (view, hasProject) => {
      const metadata = parseDialMetadata(view.private_metadata);
      if (!metadata || !hasProject(metadata.p)) return { kind: 'stale' };
      return fromErrors(readDialCredentials(view.state.values as AnyValues));
    },
  },
  {
    callbackId: CALLBACK.muteEveryoneModal,
    view: () => muteEveryoneModal(),
    parse: (view, hasProject) => fromErrors(readMuteEveryoneForm(view.state.values as AnyValues, hasProject)),
  },
];

export { encodeDialMetadata };

interface InputBlock {
  type: string;
  block_id?: string;
  element?: { type: string; action_id?: string; options?: { value: string; text: unknown }[]; initial_value?: string; max_length?: number };
}

const hostile = (): fc.Arbitrary<string> => hostileText().map((h) => h.text);

/** A hostile value for one input element, of the shape Slack gives that kind of element. */
function elementValue(element: NonNullable<InputBlock['element']>, sessionId: string): fc.Arbitrary<Record<string, unknown>> {
  const options = element.options ?? [];
  const anOption = options.length > 0 ? fc.constantFrom(...options) : fc.constant(undefined);
  const forgedOption = hostile().map((value) => ({ text: { type: 'plain_text', text: value.slice(0, 75) || 'x' }, value }));
  switch (element.type) {
    case 'plain_text_input':
    case 'number_input':
    case 'url_text_input':
    case 'email_text_input':
      // Slack enforces an input's max_length before a submission reaches the app.
      return fc
        .oneof(hostile(), fc.constant(null), fc.constant(element.initial_value ?? ''))
        .map((value) => ({ type: element.type, value: value !== null && element.max_length ? value.slice(0, element.max_length) : value }));
    case 'static_select':
    case 'radio_buttons':
      return fc.oneof(anOption, anOption, forgedOption, fc.constant(null)).map((selected) => ({ type: element.type, selected_option: selected ?? null }));
    case 'checkboxes':
    case 'multi_static_select':
      return fc
        .tuple(fc.subarray(options), fc.array(forgedOption, { maxLength: 2 }))
        .map(([chosen, forged]) => ({ type: element.type, selected_options: [...chosen, ...forged] }));
    case 'external_select': {
      const real = fc
        .oneof(fc.constant(sessionId), hostile())
        .map((id) => ({ text: { type: 'plain_text', text: 'Session' }, value: encodeSessionOption('prod', id) }));
      const otherProject = hostile().map((p) => ({ text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption(p, sessionId) }));
      return fc.oneof(real, real, otherProject, forgedOption, fc.constant(null)).map((selected) => ({ type: element.type, selected_option: selected }));
    }
    case 'conversations_select':
    case 'channels_select':
      return fc.oneof(fc.constant('C0OPS'), hostile(), fc.constant(null)).map((id) => ({ type: element.type, selected_conversation: id }));
    default:
      return fc.constant({ type: element.type });
  }
}

/** A submission of `view`: every input block filled with hostile values; sometimes a hostile private_metadata or a junk block. */
export function fuzzedSubmission(view: ModalView, sessionId: string): fc.Arbitrary<Submitted> {
  const inputs = (view.blocks as InputBlock[]).filter((b) => b.type === 'input' && b.block_id && b.element?.action_id);
  const fields = inputs.map((b) => fc.tuple(fc.constant(b.block_id!), fc.constant(b.element!.action_id!), elementValue(b.element!, sessionId), fc.boolean()));
  const metadata = fc.oneof({ weight: 6, arbitrary: fc.constant(view.private_metadata ?? '') }, { weight: 1, arbitrary: hostile() });
  const junk = fc.option(fc.tuple(hostile(), hostile()), { freq: 5 });
  return fc.tuple(fc.tuple(...fields), metadata, junk).map(([filled, privateMetadata, extra]) => {
    const values: Values = {};
    for (const [blockId, actionId, value, present] of filled) if (present || filled.length === 1) values[blockId] = { [actionId]: value };
    if (extra) values[extra[0]] = { [extra[1]]: { type: 'plain_text_input', value: extra[1] } };
    const submitted: Submitted = { blocks: view.blocks, private_metadata: privateMetadata, state: { values } };
    return Object.assign(submitted, {
      [fc.toStringMethod]: () => new Hostile(JSON.stringify({ private_metadata: privateMetadata, values }))[fc.toStringMethod](),
    });
  });
}

/** The block ids of a view (errors may only name these: Slack refuses the ack otherwise). */
export function blockIds(view: { blocks: readonly unknown[] }): Set<string> {
  return presentBlocks(view);
}

/**
 * The `/record start` form (opened when the command is given no arguments). It offers only
 * what can be combined: resolution and layout appear for composed recordings, the screen-share
 * layout next to best fit, the stylesheet next to a custom layout — choosing an output mode or a
 * layout redraws the form (views.update keeps what was typed: same block and action IDs).
 */
import {
  LAYOUT_TYPES,
  type LayoutType,
  OUTPUT_MODES,
  type OutputMode,
  RESOLUTIONS,
  type Resolution,
  SCREENSHARE_LAYOUT_TYPES,
  type ScreenshareLayoutType,
  type StreamMode,
} from '../api';
import { channelMention } from '../slack/mrkdwn';
import { type KnownBlock, type ModalView, type PlainTextOption, LIMITS, context, option, plain, section } from './blocks';
import { ACTION, BLOCK, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from './ids';

export interface StartForm {
  /** The picked session option (its value encodes project and session). */
  session?: PlainTextOption;
  name?: string;
  outputMode: OutputMode;
  resolution?: Resolution;
  /** Unset: best fit, the service's default. */
  layoutType?: LayoutType;
  screenshare?: ScreenshareLayoutType;
  stylesheet?: string;
  streamMode: StreamMode;
  audio: boolean;
  video: boolean;
  tag?: string;
}

export const EMPTY_START_FORM: StartForm = { outputMode: 'composed', streamMode: 'auto', audio: true, video: true };

/** What the form carries in `private_metadata`: the channel the card goes to. */
export interface StartModalMetadata {
  c?: string;
}

export const OUTPUT_LABELS: Readonly<Record<OutputMode, string>> = {
  composed: 'Composed — one video of everyone',
  individual: 'Individual — one file per stream',
};

export const RESOLUTION_LABELS: Readonly<Record<Resolution, string>> = {
  '640x480': '640x480 (SD, default)',
  '1280x720': '1280x720 (HD)',
  '1920x1080': '1920x1080 (Full HD)',
  '480x640': '480x640 (SD, portrait)',
  '720x1280': '720x1280 (HD, portrait)',
  '1080x1920': '1080x1920 (Full HD, portrait)',
};

export const LAYOUT_LABELS: Readonly<Record<LayoutType, string>> = {
  bestFit: 'Best fit (default)',
  custom: 'Custom stylesheet',
  horizontalPresentation: 'Horizontal presentation',
  pip: 'Picture in picture',
  verticalPresentation: 'Vertical presentation',
};

const STREAM_MODE_LABELS: Readonly<Record<StreamMode, string>> = {
  auto: 'Every stream (auto)',
  manual: 'Streams I choose (manual, with /record add)',
};

const outputOption = (mode: OutputMode) => option(OUTPUT_LABELS[mode], mode);
const resolutionOption = (r: Resolution) => option(RESOLUTION_LABELS[r], r);
const layoutOption = (t: LayoutType) => option(LAYOUT_LABELS[t], t);
const screenshareOption = (t: ScreenshareLayoutType) => option(LAYOUT_LABELS[t].replace(' (default)', ''), t);
const streamModeOption = (m: StreamMode) => option(STREAM_MODE_LABELS[m], m);
const mediaOptions = { audio: option('Audio', 'audio'), video: option('Video', 'video') };

/** Screen-share layouts go with best fit (chosen, or the default); stylesheets with custom. */
export function showsScreenshare(form: Pick<StartForm, 'outputMode' | 'layoutType'>): boolean {
  return form.outputMode === 'composed' && (form.layoutType === undefined || form.layoutType === 'bestFit');
}

export function showsStylesheet(form: Pick<StartForm, 'outputMode' | 'layoutType'>): boolean {
  return form.outputMode === 'composed' && form.layoutType === 'custom';
}

function textInput(
  blockId: string,
  label: string,
  opts: { initial?: string; optional?: boolean; hint?: string; placeholder?: string; multiline?: boolean; maxLength?: number },
): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: opts.optional ?? true,
    label: plain(label, LIMITS.label),
    ...(opts.hint ? { hint: plain(opts.hint, LIMITS.hint) } : {}),
    element: {
      type: 'plain_text_input',
      action_id: RECORD_ACTION.field,
      ...(opts.multiline ? { multiline: true } : {}),
      ...(opts.maxLength ? { max_length: opts.maxLength } : {}),
      ...(opts.initial ? { initial_value: opts.initial } : {}),
      ...(opts.placeholder ? { placeholder: plain(opts.placeholder, LIMITS.placeholder) } : {}),
    },
  };
}

/**
 * The picked session shown again after a redraw or a refusal. Slack refuses a whole view whose
 * option value is over 150 characters, so such a value (never one the picker offered) is left
 * out rather than sent back, and the text is cut to an option's 75.
 */
function shownSession(session: PlainTextOption | undefined): PlainTextOption | undefined {
  if (!session?.value || session.value.length > LIMITS.optionValue) return undefined;
  return option(session.text.text, session.value);
}

export function recordStartModal(form: StartForm, metadata: StartModalMetadata, problem?: string): ModalView {
  const blocks: KnownBlock[] = [];
  if (problem) blocks.push(section(problem, undefined, RECORD_BLOCK.problem));
  blocks.push({
    type: 'input',
    block_id: BLOCK.sessionPicker,
    label: plain('Session'),
    hint: plain('Aliases and sessions used lately; type to search.'),
    element: {
      type: 'external_select',
      action_id: ACTION.sessionPicker,
      min_query_length: 0,
      placeholder: plain('Pick a session', LIMITS.placeholder),
      ...(shownSession(form.session) ? { initial_option: shownSession(form.session) } : {}),
    },
  });
  blocks.push(
    textInput(RECORD_BLOCK.name, 'Name', {
      initial: form.name,
      maxLength: 255,
      placeholder: 'e.g. Weekly review',
      hint: 'Up to 255 characters; shown on the card and in lists.',
    }),
  );
  blocks.push({
    type: 'input',
    block_id: RECORD_BLOCK.outputMode,
    dispatch_action: true,
    label: plain('Output'),
    element: {
      type: 'radio_buttons',
      action_id: RECORD_ACTION.outputMode,
      options: OUTPUT_MODES.map(outputOption),
      initial_option: outputOption(form.outputMode),
    },
  });
  if (form.outputMode === 'composed') {
    blocks.push({
      type: 'input',
      block_id: RECORD_BLOCK.resolution,
      optional: true,
      label: plain('Resolution'),
      element: {
        type: 'static_select',
        action_id: RECORD_ACTION.field,
        placeholder: plain('640x480 (default)', LIMITS.placeholder),
        options: RESOLUTIONS.map(resolutionOption),
        ...(form.resolution ? { initial_option: resolutionOption(form.resolution) } : {}),
      },
    });
    blocks.push({
      type: 'input',
      block_id: RECORD_BLOCK.layoutType,
      optional: true,
      dispatch_action: true,
      label: plain('Layout'),
      hint: plain('Layouts other than best fit need layout classes on the streams (/streams → Edit layout classes).'),
      element: {
        type: 'static_select',
        action_id: RECORD_ACTION.layoutType,
        placeholder: plain('Best fit (default)', LIMITS.placeholder),
        options: LAYOUT_TYPES.map(layoutOption),
        ...(form.layoutType ? { initial_option: layoutOption(form.layoutType) } : {}),
      },
    });
    if (showsScreenshare(form)) {
      blocks.push({
        type: 'input',
        block_id: RECORD_BLOCK.screenshare,
        optional: true,
        label: plain('While a screen is shared'),
        hint: plain('The layout used while someone shares a screen (goes with best fit only).'),
        element: {
          type: 'static_select',
          action_id: RECORD_ACTION.field,
          placeholder: plain('Keep best fit', LIMITS.placeholder),
          options: SCREENSHARE_LAYOUT_TYPES.map(screenshareOption),
          ...(form.screenshare ? { initial_option: screenshareOption(form.screenshare) } : {}),
        },
      });
    }
    if (showsStylesheet(form)) {
      blocks.push(
        textInput(RECORD_BLOCK.stylesheet, 'Stylesheet', {
          initial: form.stylesheet,
          optional: false,
          multiline: true,
          placeholder: 'stream.focus { position: absolute; width: 100%; height: 100%; }',
          hint: 'CSS for the custom layout, using the streams’ layout classes.',
        }),
      );
    }
  }
  blocks.push({
    type: 'input',
    block_id: RECORD_BLOCK.streamMode,
    label: plain('Streams'),
    element: {
      type: 'radio_buttons',
      action_id: RECORD_ACTION.field,
      options: (['auto', 'manual'] as const).map(streamModeOption),
      initial_option: streamModeOption(form.streamMode),
    },
  });
  const media = [...(form.audio ? [mediaOptions.audio] : []), ...(form.video ? [mediaOptions.video] : [])];
  blocks.push({
    type: 'input',
    block_id: RECORD_BLOCK.media,
    label: plain('Record'),
    element: {
      type: 'checkboxes',
      action_id: RECORD_ACTION.field,
      options: [mediaOptions.audio, mediaOptions.video],
      ...(media.length > 0 ? { initial_options: media } : {}),
    },
  });
  blocks.push(
    textInput(RECORD_BLOCK.tag, 'Tag', {
      initial: form.tag,
      placeholder: 'e.g. second',
      hint: 'Needed to record a session that is already being recorded (one tag per parallel recording).',
    }),
  );
  blocks.push(
    context(
      metadata.c
        ? `The recording's card is posted in ${channelMention(metadata.c)}; it is updated as the recording changes.`
        : 'The recording’s card is sent to you.',
    ),
  );
  return {
    type: 'modal',
    callback_id: RECORD_CALLBACK.startModal,
    title: plain('Start a recording', LIMITS.modalTitle),
    submit: plain('Start recording', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
}

export function parseStartMetadata(raw: string | undefined): StartModalMetadata {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as { c?: unknown };
    return typeof value.c === 'string' ? { c: value.c } : {};
  } catch {
    return {};
  }
}

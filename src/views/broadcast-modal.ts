/**
 * The broadcast start form: session, HLS (off, standard, DVR or low latency — one choice, so
 * never DVR and low latency together), up to five RTMP outputs (one row at first, "Add an RTMP
 * output" adds rows with views.update), and the options. The channel to post the card in and
 * the number of rows travel in `private_metadata`.
 *
 * Stream keys typed here are never put back into a view: rows are added by views.update with
 * the same block and action ids, and Slack keeps what was typed.
 */
import { LAYOUT_TYPES, RESOLUTIONS, SCREENSHARE_LAYOUT_TYPES } from '../api';
import { RTMP_URL_EXAMPLE } from '../kinds/broadcast';
import { type KnownBlock, type ModalView, type PlainTextOption, LIMITS, actions, button, context, option, plain, section } from './blocks';
import { ACTION, BROADCAST_BLOCK, CALLBACK } from './ids';

export const MAX_RTMP_ROWS = 5;

export const HLS_CHOICES = ['off', 'standard', 'dvr', 'low-latency'] as const;
export type HlsChoice = (typeof HLS_CHOICES)[number];

export const LAYOUT_LABELS: Record<(typeof LAYOUT_TYPES)[number], string> = {
  bestFit: 'Best fit',
  pip: 'Picture in picture',
  horizontalPresentation: 'Horizontal presentation',
  verticalPresentation: 'Vertical presentation',
  custom: 'Custom (stylesheet)',
};

export interface StartModalMetadata {
  /** Channel the card goes to. */
  c?: string;
  /** RTMP rows shown. */
  r: number;
}

export function parseStartMetadata(raw: string | undefined): StartModalMetadata | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<StartModalMetadata>;
    if (typeof value.r !== 'number' || !Number.isInteger(value.r) || value.r < 1 || value.r > MAX_RTMP_ROWS) return undefined;
    return { r: value.r, ...(typeof value.c === 'string' ? { c: value.c } : {}) };
  } catch {
    return undefined;
  }
}

const HLS_OPTIONS: Record<HlsChoice, PlainTextOption> = {
  off: option('No HLS', 'off', 'RTMP outputs only'),
  standard: option('HLS', 'standard', 'a playlist URL anyone can watch'),
  dvr: option('HLS with DVR', 'dvr', 'viewers can rewind'),
  'low-latency': option('HLS, low latency', 'low-latency', 'a few seconds behind live'),
};

function textInput(
  blockId: string,
  label: string,
  opts: { placeholder?: string; hint?: string; multiline?: boolean; maxLength?: number; optional?: boolean } = {},
): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: opts.optional ?? true,
    label: plain(label, LIMITS.label),
    ...(opts.hint ? { hint: plain(opts.hint, LIMITS.hint) } : {}),
    element: {
      type: 'plain_text_input',
      action_id: ACTION.broadcastInput,
      ...(opts.placeholder ? { placeholder: plain(opts.placeholder, LIMITS.placeholder) } : {}),
      ...(opts.multiline ? { multiline: true } : {}),
      ...(opts.maxLength ? { max_length: opts.maxLength } : {}),
    },
  };
}

function numberInput(blockId: string, label: string, min: number, max: number, hint: string, placeholder: string): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plain(label, LIMITS.label),
    hint: plain(hint, LIMITS.hint),
    element: {
      type: 'number_input',
      action_id: ACTION.broadcastInput,
      is_decimal_allowed: false,
      min_value: String(min),
      max_value: String(max),
      placeholder: plain(placeholder, LIMITS.placeholder),
    },
  };
}

function staticSelect(blockId: string, label: string, options: PlainTextOption[], placeholder: string, hint?: string): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plain(label, LIMITS.label),
    ...(hint ? { hint: plain(hint, LIMITS.hint) } : {}),
    element: { type: 'static_select', action_id: ACTION.broadcastInput, placeholder: plain(placeholder, LIMITS.placeholder), options },
  };
}

function rtmpRow(n: number): KnownBlock[] {
  return [
    textInput(`${BROADCAST_BLOCK.rtmpUrlPrefix}${n}`, `RTMP output ${n}: server URL`, {
      placeholder: RTMP_URL_EXAMPLE,
      hint: 'rtmp:// or rtmps://, with the port (e.g. :443 or :1935) and the application path, without the stream key.',
      maxLength: 1000,
    }),
    textInput(`${BROADCAST_BLOCK.rtmpKeyPrefix}${n}`, `RTMP output ${n}: stream key`, {
      placeholder: 'from your streaming service',
      hint: 'Sent to the video service only; vidops never shows it again.',
      maxLength: 1000,
    }),
    textInput(`${BROADCAST_BLOCK.rtmpIdPrefix}${n}`, `RTMP output ${n}: name`, { placeholder: 'e.g. youtube', maxLength: 64 }),
  ];
}

export interface StartModalInput {
  metadata: StartModalMetadata;
  /** The session pre-selected (the one named, or the channel's). */
  initialSession?: PlainTextOption;
}

/** The start form with `metadata.r` RTMP rows. */
export function broadcastStartModal({ metadata, initialSession }: StartModalInput): ModalView {
  const rows = Math.min(Math.max(metadata.r, 1), MAX_RTMP_ROWS);
  const blocks: KnownBlock[] = [
    {
      type: 'input',
      block_id: BROADCAST_BLOCK.session,
      label: plain('Session'),
      hint: plain('Aliases and sessions used lately; type to search. Someone must be connected to it.'),
      element: {
        type: 'external_select',
        action_id: ACTION.sessionPicker,
        min_query_length: 0,
        placeholder: plain('Pick a session', LIMITS.placeholder),
        ...(initialSession ? { initial_option: initialSession } : {}),
      },
    },
    {
      type: 'input',
      block_id: BROADCAST_BLOCK.hls,
      label: plain('HLS'),
      hint: plain('The HLS URL is usable about 20 s after the start. DVR and low latency cannot be combined.'),
      element: {
        type: 'radio_buttons',
        action_id: ACTION.broadcastInput,
        options: HLS_CHOICES.map((c) => HLS_OPTIONS[c]),
        initial_option: HLS_OPTIONS.standard,
      },
    },
    section(`*RTMP outputs* — up to ${MAX_RTMP_ROWS} (YouTube, Twitch, your own server). Leave a row empty to skip it.`),
  ];
  for (let n = 1; n <= rows; n++) blocks.push(...rtmpRow(n));
  if (rows < MAX_RTMP_ROWS) {
    blocks.push(actions([button({ actionId: ACTION.broadcastAddOutput, text: 'Add an RTMP output', value: String(rows + 1) })], 'broadcast.add_output'));
  }
  blocks.push(
    staticSelect(
      BROADCAST_BLOCK.resolution,
      'Resolution',
      RESOLUTIONS.map((r) => option(r, r)),
      '640x480 (default)',
    ),
    staticSelect(
      BROADCAST_BLOCK.layout,
      'Layout',
      LAYOUT_TYPES.map((t) => option(LAYOUT_LABELS[t], t)),
      'Best fit (default)',
      'Layouts other than best fit need layout classes on the streams (/streams → Edit layout classes).',
    ),
    staticSelect(
      BROADCAST_BLOCK.screenshare,
      'While someone shares a screen',
      SCREENSHARE_LAYOUT_TYPES.map((t) => option(LAYOUT_LABELS[t], t)),
      'Same layout',
      'Only with the best-fit layout.',
    ),
    textInput(BROADCAST_BLOCK.stylesheet, 'Stylesheet', {
      multiline: true,
      placeholder: 'stream.focus { width: 100%; height: 100%; }',
      hint: 'Only with the custom layout, which needs one.',
      maxLength: 3000,
    }),
    numberInput(BROADCAST_BLOCK.maxDuration, 'Maximum duration (minutes)', 1, 600, '1 to 600 minutes; it stops by itself then. Default 240 (4 h).', '240'),
    numberInput(BROADCAST_BLOCK.maxBitrate, 'Maximum bitrate (kbit/s)', 100, 6000, '100 to 6000 kbit/s. Default: the service’s choice.', '2500'),
    {
      type: 'input',
      block_id: BROADCAST_BLOCK.streamMode,
      label: plain('Streams'),
      element: {
        type: 'radio_buttons',
        action_id: ACTION.broadcastInput,
        options: [option('Everyone publishing', 'auto'), option('Chosen by hand', 'manual', 'add them with /broadcast add')],
        initial_option: option('Everyone publishing', 'auto'),
      },
    },
    textInput(BROADCAST_BLOCK.tag, 'Tag', {
      placeholder: 'e.g. main',
      hint: 'Needed only to run several broadcasts of one session at once: each needs its own tag.',
      maxLength: 100,
    }),
    {
      type: 'input',
      block_id: BROADCAST_BLOCK.media,
      optional: true,
      label: plain('Media'),
      hint: plain('Without video, RTMP outputs carry black frames.'),
      element: {
        type: 'checkboxes',
        action_id: ACTION.broadcastInput,
        options: [option('Audio', 'audio'), option('Video', 'video')],
        initial_options: [option('Audio', 'audio'), option('Video', 'video')],
      },
    },
    context('The card is posted in the channel where you ran `/broadcast start`. Stream keys never appear in Slack.'),
  );
  return {
    type: 'modal',
    callback_id: CALLBACK.broadcastStartModal,
    title: plain('Start a broadcast', LIMITS.modalTitle),
    submit: plain('Start', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    private_metadata: JSON.stringify({ ...(metadata.c ? { c: metadata.c } : {}), r: rows }),
    blocks: blocks.slice(0, LIMITS.modalBlocks),
  };
}

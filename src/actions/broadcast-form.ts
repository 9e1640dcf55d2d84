/**
 * Reads a submitted broadcast start form into start options, or into per-field errors for
 * `ack({ response_action: 'errors', errors })`. The form's own checks come first (ports, stream
 * keys, layout rules, audio/video), then the adapter's validation of the whole request, whose
 * `VideoValidationError.field` is mapped back to the block it came from. Error texts never
 * quote a stream key.
 */
import {
  type Layout,
  LAYOUT_TYPES,
  type LayoutType,
  RESOLUTIONS,
  type Resolution,
  type RtmpOutput,
  SCREENSHARE_LAYOUT_TYPES,
  type ScreenshareLayoutType,
  VideoValidationError,
  startBroadcastBody,
} from '../api';
import { outputIdProblem, serverUrlProblem } from '../commands/broadcast/rtmp';
import type { BroadcastSettings } from '../commands/broadcast/start';
import { layoutProblem } from '../commands/broadcast/values';
import { decodeSessionOption } from '../interaction/session-ref';
import { validationSentence } from '../views/broadcast-errors';
import { HLS_CHOICES, type HlsChoice } from '../views/broadcast-modal';
import { ACTION, BROADCAST_BLOCK } from '../views/ids';

interface StateValue {
  type?: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[] | null;
}

export type FormValues = Record<string, Record<string, StateValue | undefined> | undefined>;

export interface StartForm {
  session: { projectName: string; sessionId: string };
  settings: BroadcastSettings;
  /** The form row (1-based) of each RTMP output sent, in order. */
  rows: number[];
}

export type FormResult = { ok: true; form: StartForm } | { ok: false; errors: Record<string, string> };

function input(values: FormValues, blockId: string, actionId: string = ACTION.broadcastInput): StateValue | undefined {
  return values[blockId]?.[actionId];
}

function text(values: FormValues, blockId: string): string {
  return (input(values, blockId)?.value ?? '').trim();
}

function selected(values: FormValues, blockId: string, actionId?: string): string | undefined {
  return input(values, blockId, actionId)?.selected_option?.value ?? undefined;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return value !== undefined && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** Whole number from a number input; undefined when empty, NaN when unreadable. */
function whole(values: FormValues, blockId: string): number | undefined {
  const raw = text(values, blockId);
  if (raw === '') return undefined;
  return /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
}

/** The block a validation field belongs to (`rows` maps RTMP output indexes to form rows). */
export function blockForField(field: string, rows: readonly number[]): string | undefined {
  const rtmp = /^outputs\.rtmp\[(\d+)\]\.(serverUrl|streamName|id)$/.exec(field);
  if (rtmp) {
    const row = rows[Number(rtmp[1])];
    if (row === undefined) return undefined;
    const prefix =
      rtmp[2] === 'serverUrl' ? BROADCAST_BLOCK.rtmpUrlPrefix : rtmp[2] === 'streamName' ? BROADCAST_BLOCK.rtmpKeyPrefix : BROADCAST_BLOCK.rtmpIdPrefix;
    return `${prefix}${row}`;
  }
  if (field === 'sessionId') return BROADCAST_BLOCK.session;
  if (field === 'outputs' || field.startsWith('outputs.hls')) return BROADCAST_BLOCK.hls;
  if (field === 'outputs.rtmp') return `${BROADCAST_BLOCK.rtmpUrlPrefix}1`;
  if (field === 'layout.stylesheet') return BROADCAST_BLOCK.stylesheet;
  if (field === 'layout.screenshareType') return BROADCAST_BLOCK.screenshare;
  if (field.startsWith('layout')) return BROADCAST_BLOCK.layout;
  const direct: Record<string, string> = {
    maxBitrate: BROADCAST_BLOCK.maxBitrate,
    maxDuration: BROADCAST_BLOCK.maxDuration,
    resolution: BROADCAST_BLOCK.resolution,
    streamMode: BROADCAST_BLOCK.streamMode,
    multiBroadcastTag: BROADCAST_BLOCK.tag,
    hasAudio: BROADCAST_BLOCK.media,
    hasVideo: BROADCAST_BLOCK.media,
  };
  return direct[field];
}

function sentence(text: string): string {
  const s = /^[a-z]+:\/\//.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** Reads the form; `rowCount` is the number of RTMP rows the form showed. */
export function readStartForm(values: FormValues, rowCount: number, knownProject: (name: string) => boolean): FormResult {
  const errors: Record<string, string> = {};

  const picked = selected(values, BROADCAST_BLOCK.session, ACTION.sessionPicker);
  const session = picked ? decodeSessionOption(picked) : undefined;
  if (!session || !knownProject(session.projectName)) errors[BROADCAST_BLOCK.session] = 'Pick a session from the list.';

  const hlsChoice: HlsChoice = oneOf(selected(values, BROADCAST_BLOCK.hls), HLS_CHOICES) ?? 'standard';

  const outputs: RtmpOutput[] = [];
  const rows: number[] = [];
  const ids = new Map<string, number>();
  for (let n = 1; n <= rowCount; n++) {
    const urlBlock = `${BROADCAST_BLOCK.rtmpUrlPrefix}${n}`;
    const keyBlock = `${BROADCAST_BLOCK.rtmpKeyPrefix}${n}`;
    const idBlock = `${BROADCAST_BLOCK.rtmpIdPrefix}${n}`;
    const serverUrl = text(values, urlBlock);
    const streamName = text(values, keyBlock);
    const id = text(values, idBlock);
    if (serverUrl === '' && streamName === '' && id === '') continue;
    let rowOk = true;
    if (serverUrl === '') {
      errors[urlBlock] = 'Enter the server URL of this output, e.g. rtmps://live.example.com:443/app.';
      rowOk = false;
    } else {
      const problem = serverUrlProblem(serverUrl);
      if (problem) {
        errors[urlBlock] = sentence(problem);
        rowOk = false;
      }
    }
    if (streamName === '') {
      errors[keyBlock] = 'Enter the stream key of this output.';
      rowOk = false;
    } else if (/\s/.test(streamName)) {
      errors[keyBlock] = 'A stream key has no spaces; paste it again.';
      rowOk = false;
    }
    if (id !== '') {
      const problem = outputIdProblem(id);
      const earlier = ids.get(id);
      if (problem) {
        errors[idBlock] = sentence(problem);
        rowOk = false;
      } else if (earlier !== undefined) {
        errors[idBlock] = `Output ${earlier} has this name already; names must be unique.`;
        rowOk = false;
      } else {
        ids.set(id, n);
      }
    }
    if (rowOk) {
      outputs.push({ ...(id !== '' ? { id } : {}), serverUrl, streamName });
      rows.push(n);
    }
  }
  const anyRtmpRow = rows.length > 0 || Object.keys(errors).some((k) => k.startsWith('broadcast.rtmp_'));
  if (hlsChoice === 'off' && !anyRtmpRow) errors[BROADCAST_BLOCK.hls] = 'Choose HLS, fill in an RTMP output, or both.';

  const resolution = oneOf<Resolution>(selected(values, BROADCAST_BLOCK.resolution), RESOLUTIONS);
  const layoutType = oneOf<LayoutType>(selected(values, BROADCAST_BLOCK.layout), LAYOUT_TYPES);
  const screenshareType = oneOf<ScreenshareLayoutType>(selected(values, BROADCAST_BLOCK.screenshare), SCREENSHARE_LAYOUT_TYPES);
  const stylesheet = text(values, BROADCAST_BLOCK.stylesheet);
  let layout: Layout | undefined;
  if (layoutType !== undefined || screenshareType !== undefined || stylesheet !== '') {
    const candidate: Layout = {
      type: layoutType ?? (stylesheet !== '' ? 'custom' : 'bestFit'),
      ...(stylesheet !== '' ? { stylesheet } : {}),
      ...(screenshareType !== undefined ? { screenshareType } : {}),
    };
    const problem = layoutProblem(candidate);
    if (problem) {
      const block = problem.includes('screen-share') ? BROADCAST_BLOCK.screenshare : BROADCAST_BLOCK.stylesheet;
      errors[block] = sentence(problem);
    } else {
      layout = candidate;
    }
  }

  const minutes = whole(values, BROADCAST_BLOCK.maxDuration);
  if (minutes !== undefined && !(minutes >= 1 && minutes <= 600)) errors[BROADCAST_BLOCK.maxDuration] = 'Enter 1 to 600 minutes.';
  const kbps = whole(values, BROADCAST_BLOCK.maxBitrate);
  if (kbps !== undefined && !(kbps >= 100 && kbps <= 6000)) errors[BROADCAST_BLOCK.maxBitrate] = 'Enter 100 to 6000 kbit/s.';

  const streamMode = selected(values, BROADCAST_BLOCK.streamMode) === 'manual' ? 'manual' : 'auto';
  const tag = text(values, BROADCAST_BLOCK.tag);
  const media = input(values, BROADCAST_BLOCK.media)?.selected_options;
  const chosen = new Set((media ?? []).map((o) => o.value));
  const hasAudio = media === undefined || media === null ? true : chosen.has('audio');
  const hasVideo = media === undefined || media === null ? true : chosen.has('video');
  if (!hasAudio && !hasVideo) errors[BROADCAST_BLOCK.media] = 'A broadcast needs audio, video or both.';

  if (Object.keys(errors).length > 0 || !session) return { ok: false, errors };

  const hls = hlsChoice === 'off' ? undefined : hlsChoice === 'dvr' ? { dvr: true } : hlsChoice === 'low-latency' ? { lowLatency: true } : {};
  const settings: BroadcastSettings = {
    outputs: { ...(hls ? { hls } : {}), ...(outputs.length > 0 ? { rtmp: outputs } : {}) },
    ...(resolution ? { resolution } : {}),
    ...(layout ? { layout } : {}),
    ...(minutes !== undefined ? { maxDuration: minutes * 60 } : {}),
    ...(kbps !== undefined ? { maxBitrate: kbps * 1000 } : {}),
    ...(streamMode === 'manual' ? { streamMode } : {}),
    ...(tag !== '' ? { multiBroadcastTag: tag } : {}),
    ...(!hasAudio ? { hasAudio: false } : {}),
    ...(!hasVideo ? { hasVideo: false } : {}),
  };

  // The adapter's own checks of the whole request, mapped back to the form.
  try {
    startBroadcastBody({ ...settings, sessionId: session.sessionId });
  } catch (error) {
    if (!(error instanceof VideoValidationError)) throw error;
    const block = blockForField(error.field, rows) ?? BROADCAST_BLOCK.session;
    return { ok: false, errors: { [block]: sentence(validationSentence(error)) } };
  }
  return { ok: true, form: { session, settings, rows } };
}

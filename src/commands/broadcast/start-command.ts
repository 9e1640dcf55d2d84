/**
 * `/broadcast start [session] --rtmp [id=]rtmps://host:443/app/KEY … --hls [--dvr|--low-latency]
 * [--resolution R] [--max-duration S] [--max-bitrate B] [--manual] [--tag T] [--layout L
 * [--screenshare L] [--stylesheet CSS]] [--audio-only|--video-only]` — the typed fast path.
 * Without any output it opens the start form instead.
 *
 * Every problem is reported before anything is sent, and no problem quotes a stream key.
 */
import { z } from 'zod';
import type { Layout, RtmpOutput } from '../../api';
import { replyEphemeral } from '../../slack/respond';
import { warning } from '../../views/blocks';
import { defineSubcommand } from '../command';
import { projectFlag, projectName, sessionRef } from '../grammar';
import { resolveSession } from '../../interaction/session-ref';
import { openStartModal } from './modal';
import { MAX_RTMP_OUTPUTS, RTMP_SPEC_EXAMPLE, outputsProblem, parseRtmpSpec, tooManyOutputs } from './rtmp';
import { type BroadcastSettings, startBroadcast } from './start';
import {
  LAYOUT_TYPE_LIST,
  MAX_BITRATE_RANGE,
  MAX_DURATION_RANGE,
  RESOLUTION_LIST,
  SCREENSHARE_TYPE_LIST,
  layoutProblem,
  parseBitrate,
  parseDurationSeconds,
  parseLayoutType,
  parseResolution,
  parseScreenshareType,
} from './values';

type Ctx = z.RefinementCtx;

function issue(ctx: Ctx, path: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message });
}

const rawStart = z.object({
  session: sessionRef.optional(),
  rtmp: z.array(z.string()).optional(),
  hls: z.boolean().optional(),
  dvr: z.boolean().optional(),
  lowLatency: z.boolean().optional(),
  resolution: z.string().optional(),
  maxDuration: z.string().optional(),
  maxBitrate: z.string().optional(),
  manual: z.boolean().optional(),
  tag: z.string().min(1, { error: 'the tag cannot be empty' }).max(100, { error: 'a tag has at most 100 characters' }).optional(),
  layout: z.string().optional(),
  screenshare: z.string().optional(),
  stylesheet: z.string().optional(),
  audioOnly: z.boolean().optional(),
  videoOnly: z.boolean().optional(),
  project: projectName.optional(),
});
type RawStart = z.output<typeof rawStart>;

export interface StartArgs {
  session?: string;
  project?: string;
  /** Undefined when no output was given: the form opens. */
  settings?: BroadcastSettings;
}

/** Flags that only make sense with outputs (everything but the session and the project). */
const SETTING_KEYS = [
  'dvr',
  'lowLatency',
  'resolution',
  'maxDuration',
  'maxBitrate',
  'manual',
  'tag',
  'layout',
  'screenshare',
  'stylesheet',
  'audioOnly',
  'videoOnly',
] as const;

function readOutputs(raw: RawStart, ctx: Ctx): RtmpOutput[] {
  const specs = raw.rtmp ?? [];
  const outputs: RtmpOutput[] = [];
  // Checked before the URLs: more than five is refused whatever they say.
  if (specs.length > MAX_RTMP_OUTPUTS) {
    issue(ctx, 'rtmp', tooManyOutputs(specs.length));
    return outputs;
  }
  specs.forEach((spec, i) => {
    const parsed = parseRtmpSpec(spec);
    if (parsed.ok) outputs.push(parsed.output);
    else issue(ctx, 'rtmp', specs.length > 1 ? `output ${i + 1}: ${parsed.problem}` : parsed.problem);
  });
  const problem = outputsProblem(outputs);
  if (problem) issue(ctx, 'rtmp', problem);
  return outputs;
}

function readLayout(raw: RawStart, ctx: Ctx): Layout | undefined {
  if (raw.layout === undefined && raw.screenshare === undefined && raw.stylesheet === undefined) return undefined;
  const type = raw.layout === undefined ? (raw.stylesheet !== undefined ? 'custom' : 'bestFit') : parseLayoutType(raw.layout);
  if (type === undefined) {
    issue(ctx, 'layout', `use ${LAYOUT_TYPE_LIST}`);
    return undefined;
  }
  const screenshareType = raw.screenshare === undefined ? undefined : parseScreenshareType(raw.screenshare);
  if (raw.screenshare !== undefined && screenshareType === undefined) {
    issue(ctx, 'screenshare', `use ${SCREENSHARE_TYPE_LIST}`);
    return undefined;
  }
  const layout: Layout = { type, ...(raw.stylesheet !== undefined ? { stylesheet: raw.stylesheet } : {}), ...(screenshareType ? { screenshareType } : {}) };
  const problem = layoutProblem(layout);
  if (problem) {
    issue(ctx, problem.includes('screen-share') ? 'screenshare' : problem.startsWith('a stylesheet') ? 'stylesheet' : 'layout', problem);
    return undefined;
  }
  return layout;
}

export const startSchema = rawStart.transform((raw, ctx): StartArgs => {
  const base = { ...(raw.session !== undefined ? { session: raw.session } : {}), ...(raw.project !== undefined ? { project: raw.project } : {}) };
  const hasOutputs = raw.hls === true || (raw.rtmp ?? []).length > 0;
  if (!hasOutputs) {
    const given = SETTING_KEYS.find((k) => raw[k] !== undefined);
    if (given) {
      issue(ctx, 'hls', 'say where to broadcast: add --hls, one or more --rtmp, or both (or run `/broadcast start` alone for a form)');
      return z.NEVER;
    }
    return base;
  }
  const rtmp = readOutputs(raw, ctx);
  if (raw.dvr && raw.lowLatency) issue(ctx, 'lowLatency', 'HLS can have DVR or low latency, not both');
  if ((raw.dvr || raw.lowLatency) && raw.hls !== true) issue(ctx, raw.dvr ? 'dvr' : 'lowLatency', 'applies to the HLS output: add --hls');
  if (raw.audioOnly && raw.videoOnly) issue(ctx, 'videoOnly', 'a broadcast needs audio, video or both: give --audio-only or --video-only, not both');

  let resolution: BroadcastSettings['resolution'];
  if (raw.resolution !== undefined) {
    resolution = parseResolution(raw.resolution);
    if (!resolution) issue(ctx, 'resolution', `use one of ${RESOLUTION_LIST} (or 480p, 720p, 1080p)`);
  }
  let maxDuration: number | undefined;
  if (raw.maxDuration !== undefined) {
    maxDuration = parseDurationSeconds(raw.maxDuration);
    if (maxDuration === undefined) issue(ctx, 'maxDuration', 'give seconds, or a duration like 90m or 2h');
    else if (maxDuration < MAX_DURATION_RANGE.min || maxDuration > MAX_DURATION_RANGE.max) {
      issue(ctx, 'maxDuration', 'must be 1 minute to 10 hours (60 to 36000 seconds), e.g. 2h');
    }
  }
  let maxBitrate: number | undefined;
  if (raw.maxBitrate !== undefined) {
    maxBitrate = parseBitrate(raw.maxBitrate);
    if (maxBitrate === undefined) issue(ctx, 'maxBitrate', 'give bits per second, or e.g. 2500k or 2.5M');
    else if (maxBitrate < MAX_BITRATE_RANGE.min || maxBitrate > MAX_BITRATE_RANGE.max) {
      issue(ctx, 'maxBitrate', 'must be 100k to 6M bits per second, e.g. 2500k');
    }
  }
  const layout = readLayout(raw, ctx);

  const hls = raw.hls ? (raw.dvr ? { dvr: true } : raw.lowLatency ? { lowLatency: true } : {}) : undefined;
  const settings: BroadcastSettings = {
    outputs: { ...(hls ? { hls } : {}), ...(rtmp.length > 0 ? { rtmp } : {}) },
    ...(resolution ? { resolution } : {}),
    ...(maxDuration !== undefined ? { maxDuration } : {}),
    ...(maxBitrate !== undefined ? { maxBitrate } : {}),
    ...(raw.manual ? { streamMode: 'manual' as const } : {}),
    ...(raw.tag !== undefined ? { multiBroadcastTag: raw.tag } : {}),
    ...(layout ? { layout } : {}),
    ...(raw.audioOnly ? { hasVideo: false } : {}),
    ...(raw.videoOnly ? { hasAudio: false } : {}),
  };
  return { ...base, settings };
});

export const startSubcommand = defineSubcommand({
  name: 'start',
  summary: 'Start a live broadcast (HLS and up to five RTMP outputs); alone, it opens a form',
  role: 'moderator',
  args: {
    positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
    flags: [
      {
        name: 'rtmp',
        kind: 'list',
        valueLabel: '[id=]rtmps://host:port/app/key',
        description: `an RTMP/RTMPS output, the stream key last (${RTMP_SPEC_EXAMPLE}); \`yt=rtmps://…\` names it; repeat for up to five`,
      },
      { name: 'hls', kind: 'boolean', description: 'an HLS output (a playlist URL anyone can watch, usable about 20 s after start)' },
      { name: 'dvr', kind: 'boolean', description: 'HLS viewers can rewind (not with --low-latency)' },
      { name: 'low-latency', kind: 'boolean', description: 'HLS a few seconds behind live (not with --dvr)' },
      { name: 'resolution', kind: 'value', valueLabel: 'WxH', description: `${RESOLUTION_LIST}; default 640x480` },
      { name: 'max-duration', kind: 'value', valueLabel: 'seconds', description: 'stops by itself after this: 60 to 36000 s, or e.g. 90m, 2h; default 4 h' },
      { name: 'max-bitrate', kind: 'value', valueLabel: 'bps', description: '100k to 6M bits per second, e.g. 2500k' },
      { name: 'manual', kind: 'boolean', description: 'choose the streams by hand with `/broadcast add` (default: everyone publishing)' },
      { name: 'tag', kind: 'value', valueLabel: 'tag', description: 'needed to run several broadcasts of one session at once (one tag each)' },
      { name: 'layout', kind: 'value', valueLabel: 'type', description: `${LAYOUT_TYPE_LIST}; default bestFit` },
      { name: 'screenshare', kind: 'value', valueLabel: 'type', description: 'layout while a screen is shared (with bestFit only)' },
      { name: 'stylesheet', kind: 'value', valueLabel: 'css', description: 'the custom layout’s stylesheet, in quotes' },
      { name: 'audio-only', kind: 'boolean', description: 'no video (RTMP outputs carry black frames)' },
      { name: 'video-only', kind: 'boolean', description: 'no audio' },
      projectFlag,
    ],
    schema: startSchema,
    examples: [
      'standup --hls',
      'standup --rtmp yt=rtmps://a.rtmp.youtube.com:443/live2/STREAM-KEY --hls --dvr',
      '',
      'townhall --hls --low-latency --resolution 1280x720 --max-duration 2h --tag main',
    ],
  },
  target: (args) => args.session ?? '',
  async run(ix, args) {
    if (!args.settings) return openStartModal(ix, args.session, args.project);
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const outcome = await startBroadcast(ix, resolved.value, args.settings);
    if (!outcome.ok) await replyEphemeral(ix, outcome.message);
  },
});

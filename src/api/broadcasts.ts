import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { type PageItems, type PageMemory, type VisitedPage, lazyList, visitPage } from './lists';
import { type ListAllOptions, paginate } from './paging';
import {
  type Known,
  type Layout,
  type Page,
  RESOLUTIONS,
  type Resolution,
  STREAM_MODES,
  type StreamMode,
  addStreamBody,
  epochMs,
  optionalEpochMs,
  projectIdOf,
  removeStreamBody,
  resourceSchema,
  streamSelectionsOf,
  text,
  validateLayout,
  validateMediaFlags,
  wireId,
  wireStreamSelection,
  wireTime,
} from './schemas';
import {
  compact,
  describeValue,
  fail,
  optionalBoolean,
  optionalIntInRange,
  optionalOneOf,
  optionalString,
  pagingQuery,
  requireId,
  requireObject,
  requireString,
} from './validate';

export const BROADCAST_STATUSES = ['started', 'stopped'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export const HLS_STATUSES = ['connecting', 'ready', 'live', 'ended', 'error'] as const;
export type HlsStatus = (typeof HLS_STATUSES)[number];
export const RTMP_STATUSES = ['connecting', 'live', 'offline', 'error'] as const;
export type RtmpStatus = (typeof RTMP_STATUSES)[number];

export const MAX_RTMP_OUTPUTS = 5;

const wireRtmpOutputSchema = z.object({
  id: z.string().optional(),
  serverUrl: z.string(),
  streamName: z.string(),
  status: z.string().optional(),
});
type WireRtmpOutput = z.output<typeof wireRtmpOutputSchema>;

const wireBroadcastSchema = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  projectId: wireId.nullish(),
  partnerId: wireId.nullish(),
  createdAt: wireTime,
  updatedAt: wireTime.optional(),
  resolution: z.string().optional(),
  status: z.string(),
  streamMode: z.string().optional(),
  streams: z.array(wireStreamSelection).nullish(),
  hasAudio: z.boolean().optional(),
  hasVideo: z.boolean().optional(),
  maxDuration: z.number().optional(),
  maxBitrate: z.number().optional(),
  /** Some bodies spell it this way. */
  maxBitRate: z.number().optional(),
  multiBroadcastTag: z.string().nullish(),
  broadcastUrls: z
    .object({
      hls: z.string().optional(),
      hlsStatus: z.string().optional(),
      rtmp: z.union([z.array(wireRtmpOutputSchema), z.record(z.string(), wireRtmpOutputSchema)]).nullish(),
    })
    .nullish(),
  settings: z
    .object({
      hls: z.object({ dvr: z.boolean().optional(), lowLatency: z.boolean().optional() }).optional(),
    })
    .optional(),
});

export interface RtmpOutputStatus {
  /** Absent only if an array-form body left it out. */
  id?: string;
  serverUrl: string;
  streamName: string;
  status?: Known<RtmpStatus>;
}

/**
 * Start responses list RTMP outputs as an array, list/get responses as an object keyed by
 * output id. Both become one array of `{id, serverUrl, streamName, status}`.
 */
function rtmpOutputsOf(rtmp: WireRtmpOutput[] | Record<string, WireRtmpOutput> | null | undefined): RtmpOutputStatus[] {
  if (!rtmp) return [];
  const outputs = Array.isArray(rtmp)
    ? rtmp.map((output) => [output.id, output] as const)
    : Object.entries(rtmp).map(([id, output]) => [output.id ?? id, output] as const);
  return outputs.map(([id, output]) => ({
    id,
    serverUrl: output.serverUrl,
    streamName: output.streamName,
    status: output.status as Known<RtmpStatus> | undefined,
  }));
}

export const broadcastSchema = resourceSchema(wireBroadcastSchema, (raw) => {
  const { broadcastUrls, settings } = raw;
  return {
    id: raw.id,
    sessionId: raw.sessionId,
    projectId: projectIdOf(raw),
    /** ms since epoch; the stop response's seconds are converted. */
    createdAt: epochMs(raw.createdAt),
    updatedAt: optionalEpochMs(raw.updatedAt),
    resolution: raw.resolution as Known<Resolution> | undefined,
    status: raw.status as Known<BroadcastStatus>,
    streamMode: (raw.streamMode ?? 'auto') as Known<StreamMode>,
    streams: streamSelectionsOf(raw.streams),
    hasAudio: raw.hasAudio ?? true,
    hasVideo: raw.hasVideo ?? true,
    maxDuration: raw.maxDuration,
    maxBitrate: raw.maxBitrate ?? raw.maxBitRate,
    multiBroadcastTag: text(raw.multiBroadcastTag),
    /** null once stopped. */
    broadcastUrls: broadcastUrls
      ? {
          hls: broadcastUrls.hls,
          hlsStatus: broadcastUrls.hlsStatus as Known<HlsStatus> | undefined,
          rtmp: rtmpOutputsOf(broadcastUrls.rtmp),
        }
      : null,
    settings: settings && {
      hls: settings.hls && { dvr: settings.hls.dvr ?? false, lowLatency: settings.hls.lowLatency ?? false },
    },
  };
});
export type Broadcast = z.output<typeof broadcastSchema>;

const parseBroadcast = json(broadcastSchema);

/** A page of broadcasts; each is validated when first read (lists.ts). */
export const parseBroadcastList = lazyList(broadcastSchema);

export interface RtmpOutput {
  /** Optional; unique among the outputs. */
  id?: string;
  /** rtmp:// or rtmps:// URL with an explicit port. */
  serverUrl: string;
  streamName: string;
}

export interface BroadcastOutputs {
  hls?: { dvr?: boolean; lowLatency?: boolean };
  /** Up to 5. */
  rtmp?: RtmpOutput | RtmpOutput[];
}

export interface StartBroadcastOptions {
  sessionId: string;
  outputs: BroadcastOutputs;
  hasAudio?: boolean;
  hasVideo?: boolean;
  layout?: Layout;
  multiBroadcastTag?: string;
  /** 100,000–6,000,000 bits per second. */
  maxBitrate?: number;
  /** 60–36,000 seconds, default 14,400. */
  maxDuration?: number;
  resolution?: Resolution;
  streamMode?: StreamMode;
}

export interface ListBroadcastsOptions {
  offset?: number;
  count?: number;
  sessionId?: string;
}

const RTMP_EXAMPLE = '{ id: "youtube", serverUrl: "rtmps://live.example.com:443/app", streamName: "abcd-1234" }';

function rtmpOutputsBody(value: unknown): RtmpOutput[] {
  const outputs = Array.isArray(value) ? value : [value];
  if (outputs.length > MAX_RTMP_OUTPUTS) {
    fail('outputs.rtmp', `allows at most ${MAX_RTMP_OUTPUTS} outputs (got ${outputs.length})`, `up to five entries like ${RTMP_EXAMPLE}`);
  }
  const ids = new Set<string>();
  return outputs.map((item, index) => {
    const field = `outputs.rtmp[${index}]`;
    const output = requireObject(field, item, RTMP_EXAMPLE);
    const id = optionalString(`${field}.id`, output.id, '"youtube"');
    if (id !== undefined) {
      if (id === '') fail(`${field}.id`, 'must not be empty when given', '"youtube"');
      if (ids.has(id)) fail(`${field}.id`, `must be unique among the RTMP outputs ("${id}" is used twice)`, '"youtube" and "twitch"');
      ids.add(id);
    }
    const serverUrl = rtmpServerUrl(`${field}.serverUrl`, output.serverUrl);
    const streamName = requireString(`${field}.streamName`, output.streamName, '"abcd-1234"');
    return compact({ id, serverUrl, streamName }) as RtmpOutput;
  });
}

function rtmpServerUrl(field: string, value: unknown): string {
  const example = '"rtmps://live.example.com:443/app" or "rtmp://live.example.com:1935/app"';
  const text = requireString(field, value, example);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'rtmp:' && url.protocol !== 'rtmps:') || url.hostname === '') {
    fail(field, `must be an rtmp:// or rtmps:// URL (got ${describeValue(text)})`, example);
  }
  if (url.port === '') fail(field, `must include the port (got ${describeValue(text)})`, example);
  return text;
}

export function startBroadcastBody(options: StartBroadcastOptions): Record<string, unknown> {
  const opts = requireObject('options', options, '{ sessionId: "2_MX4xMjM0NTZ-fg", outputs: { hls: {} } }');
  const sessionId = requireId('sessionId', opts.sessionId);
  const outputs = requireObject('outputs', opts.outputs, '{ hls: {} } or { rtmp: [' + RTMP_EXAMPLE + '] }');
  if (outputs.hls === undefined && outputs.rtmp === undefined) {
    fail('outputs', 'needs an hls output, rtmp outputs, or both', `{ hls: {}, rtmp: [${RTMP_EXAMPLE}] }`);
  }
  let hls: { dvr?: boolean; lowLatency?: boolean } | undefined;
  if (outputs.hls !== undefined) {
    const hlsOptions = requireObject('outputs.hls', outputs.hls, '{ dvr: false, lowLatency: true }');
    const dvr = optionalBoolean('outputs.hls.dvr', hlsOptions.dvr);
    const lowLatency = optionalBoolean('outputs.hls.lowLatency', hlsOptions.lowLatency);
    if (dvr === true && lowLatency === true) {
      fail('outputs.hls.lowLatency', 'cannot be combined with dvr', '{ dvr: true } or { lowLatency: true }');
    }
    hls = compact({ dvr, lowLatency });
  }
  const rtmp = outputs.rtmp === undefined ? undefined : rtmpOutputsBody(outputs.rtmp);
  const multiBroadcastTag = optionalString('multiBroadcastTag', opts.multiBroadcastTag, '"broadcast-1"');
  if (multiBroadcastTag === '') fail('multiBroadcastTag', 'must not be empty when given', '"broadcast-1"');
  return compact({
    sessionId,
    ...validateMediaFlags(opts.hasAudio, opts.hasVideo),
    layout: opts.layout === undefined ? undefined : validateLayout('layout', opts.layout),
    multiBroadcastTag,
    maxBitrate: optionalIntInRange('maxBitrate', opts.maxBitrate, 100_000, 6_000_000, 2_000_000),
    maxDuration: optionalIntInRange('maxDuration', opts.maxDuration, 60, 36_000, 7200),
    outputs: compact({ hls, rtmp }),
    resolution: optionalOneOf('resolution', opts.resolution, RESOLUTIONS),
    streamMode: optionalOneOf('streamMode', opts.streamMode, STREAM_MODES),
  });
}

const BROADCAST_ID_EXAMPLE = '"6706b658-2eba-42cc-b4d2-7d01a104d182"';

export class Broadcasts {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  async start(options: StartBroadcastOptions, call?: CallOptions): Promise<Broadcast> {
    const body = startBroadcastBody(options);
    // RTMP stream names are stream keys: scrubbed from anything the service echoes.
    const secrets = ((body.outputs as { rtmp?: RtmpOutput[] }).rtmp ?? []).map((output) => output.streamName);
    return this.#ctx.http.request({ method: 'POST', path: this.#path(), json: body, secrets, parse: parseBroadcast }, call);
  }

  async stop(broadcastId: string, call?: CallOptions): Promise<Broadcast> {
    const path = this.#path(this.#id(broadcastId), 'stop');
    return this.#ctx.http.request({ method: 'POST', path, parse: parseBroadcast }, call);
  }

  /** Broadcasts in progress, newest first. */
  async list(options: ListBroadcastsOptions = {}, call?: CallOptions): Promise<Page<Broadcast>> {
    return this.#ctx.http.request({ ...this.#listRequest(options), parse: parseBroadcastList }, call);
  }

  /**
   * As `list`, the page's items handed to `visit` as it is parsed, and not kept; with `memory`,
   * compared with what the same request answered last time (`visitPage`).
   */
  async listEach(
    options: ListBroadcastsOptions,
    visit: (items: PageItems<Broadcast>) => void,
    call?: CallOptions,
    memory?: PageMemory,
  ): Promise<VisitedPage<Broadcast>> {
    const request = this.#listRequest(options);
    return visitPage((parse) => this.#ctx.http.request({ ...request, parse }, call), broadcastSchema, visit, memory);
  }

  #listRequest(options: ListBroadcastsOptions) {
    const { offset, count } = pagingQuery(options.offset, options.count);
    const sessionId = options.sessionId === undefined ? undefined : requireId('sessionId', options.sessionId);
    return { method: 'GET', path: this.#path(), query: { offset, count, sessionId } } as const;
  }

  listAll(options: { sessionId?: string } & ListAllOptions = {}, call?: CallOptions): AsyncGenerator<Broadcast, void, undefined> {
    return paginate((offset, count) => this.list({ offset, count, sessionId: options.sessionId }, call), options.pageSize);
  }

  async get(broadcastId: string, call?: CallOptions): Promise<Broadcast> {
    return this.#ctx.http.request({ method: 'GET', path: this.#path(this.#id(broadcastId)), parse: parseBroadcast }, call);
  }

  async setLayout(broadcastId: string, layout: Layout, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(broadcastId), 'layout');
    return this.#ctx.http.request({ method: 'PUT', path, json: validateLayout('layout', layout) }, call);
  }

  async addStream(broadcastId: string, streamId: string, media: { hasAudio?: boolean; hasVideo?: boolean } = {}, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(broadcastId), 'streams');
    return this.#ctx.http.request({ method: 'PATCH', path, json: addStreamBody(streamId, media) }, call);
  }

  async removeStream(broadcastId: string, streamId: string, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(broadcastId), 'streams');
    return this.#ctx.http.request({ method: 'PATCH', path, json: removeStreamBody(streamId) }, call);
  }

  #id(broadcastId: string): string {
    return requireId('broadcastId', broadcastId, BROADCAST_ID_EXAMPLE);
  }

  #path(...segments: string[]): string {
    return projectPath(this.#ctx.apiKey(), 'broadcast', ...segments);
  }
}

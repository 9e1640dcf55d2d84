import { z } from 'zod';
import type { ResourceContext } from './context';
import { REDACTED } from './errors';
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
import { compact, fail, maxChars, optionalOneOf, optionalString, pagingQuery, requireId, requireObject, requireString, requireUrl } from './validate';

export const ARCHIVE_STATUSES = ['started', 'paused', 'stopped', 'available', 'uploaded', 'expired', 'failed', 'deleted'] as const;
export type ArchiveStatus = (typeof ARCHIVE_STATUSES)[number];
export const OUTPUT_MODES = ['composed', 'individual'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

const wireArchiveSchema = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  createdAt: wireTime,
  duration: z.number().optional(),
  hasAudio: z.boolean().optional(),
  hasVideo: z.boolean().optional(),
  multiArchiveTag: z.string().nullish(),
  name: z.string().nullish(),
  outputMode: z.string().optional(),
  projectId: wireId.nullish(),
  partnerId: wireId.nullish(),
  reason: z.string().nullish(),
  resolution: z.string().optional(),
  size: z.number().optional(),
  status: z.string(),
  streamMode: z.string().optional(),
  streams: z.array(wireStreamSelection).nullish(),
  url: z.string().nullish(),
});

export const archiveSchema = resourceSchema(wireArchiveSchema, (raw) => ({
  id: raw.id,
  sessionId: raw.sessionId,
  projectId: projectIdOf(raw),
  createdAt: epochMs(raw.createdAt),
  /** Seconds; 0 while started. */
  duration: raw.duration ?? 0,
  hasAudio: raw.hasAudio ?? true,
  hasVideo: raw.hasVideo ?? true,
  multiArchiveTag: text(raw.multiArchiveTag),
  name: text(raw.name),
  outputMode: (raw.outputMode ?? 'composed') as Known<OutputMode>,
  reason: text(raw.reason),
  resolution: raw.resolution as Known<Resolution> | undefined,
  size: raw.size ?? 0,
  status: raw.status as Known<ArchiveStatus>,
  streamMode: (raw.streamMode ?? 'auto') as Known<StreamMode>,
  streams: streamSelectionsOf(raw.streams),
  /** Download URL, only while status is `available`; valid for 10 minutes. */
  url: raw.url ?? null,
}));
export type Archive = z.output<typeof archiveSchema>;

const parseArchive = json(archiveSchema);

/** A page of archives; each is validated when first read (lists.ts). */
export const parseArchiveList = lazyList(archiveSchema);

export interface StartArchiveOptions {
  sessionId: string;
  hasAudio?: boolean;
  hasVideo?: boolean;
  /** Composed archives only. */
  layout?: Layout;
  multiArchiveTag?: string;
  /** At most 255 characters. */
  name?: string;
  outputMode?: OutputMode;
  /** Composed archives only; default 640x480. */
  resolution?: Resolution;
  streamMode?: StreamMode;
}

export interface ListArchivesOptions {
  offset?: number;
  /** 1–1000, default 50. */
  count?: number;
  sessionId?: string;
}

export type UploadFallback = 'service' | 'none';

export type UploadTarget =
  | {
      type: 's3';
      config: { accessKey: string; secretKey: string; bucket: string; endpoint?: string };
      fallback?: UploadFallback;
    }
  | {
      type: 'blobstore';
      config: { accountName: string; accountKey: string; container: string; domain?: string };
      fallback?: UploadFallback;
    };

export function startArchiveBody(options: StartArchiveOptions): Record<string, unknown> {
  const opts = requireObject('options', options, '{ sessionId: "2_MX4xMjM0NTZ-fg" }');
  const sessionId = requireId('sessionId', opts.sessionId);
  const media = validateMediaFlags(opts.hasAudio, opts.hasVideo);
  const outputMode = optionalOneOf('outputMode', opts.outputMode, OUTPUT_MODES);
  const resolution = optionalOneOf('resolution', opts.resolution, RESOLUTIONS);
  const layout = opts.layout === undefined ? undefined : validateLayout('layout', opts.layout);
  if (outputMode === 'individual') {
    if (resolution !== undefined)
      fail('resolution', 'applies only to composed archives (outputMode is "individual")', '{ outputMode: "composed", resolution: "1280x720" }');
    if (layout !== undefined)
      fail('layout', 'applies only to composed archives (outputMode is "individual")', '{ outputMode: "composed", layout: { type: "bestFit" } }');
  }
  const name = optionalString('name', opts.name, '"Quarterly review"');
  maxChars('name', name, 255, '"Quarterly review"');
  const multiArchiveTag = optionalString('multiArchiveTag', opts.multiArchiveTag, '"archive-1"');
  if (multiArchiveTag === '') fail('multiArchiveTag', 'must not be empty when given', '"archive-1"');
  return compact({
    sessionId,
    ...media,
    layout,
    multiArchiveTag,
    name,
    outputMode,
    resolution,
    streamMode: optionalOneOf('streamMode', opts.streamMode, STREAM_MODES),
  });
}

const FALLBACKS = ['service', 'none'] as const;

export function uploadTargetBody(target: UploadTarget): { body: UploadTarget; secrets: string[] } {
  const t = requireObject('target', target, '{ type: "s3", config: { accessKey, secretKey, bucket } }');
  const fallback = optionalOneOf('fallback', t.fallback, FALLBACKS);
  if (t.type === 's3') {
    const c = requireObject('config', t.config, '{ accessKey: "AKIA...", secretKey: "...", bucket: "recordings" }');
    if (c.endpoint !== undefined) requireUrl('config.endpoint', c.endpoint, ['http', 'https'], '"https://s3.eu-central-1.example.com"');
    const config = {
      accessKey: requireString('config.accessKey', c.accessKey, '"AKIAIOSFODNN7EXAMPLE"'),
      secretKey: requireString('config.secretKey', c.secretKey, 'the secret key of that access key'),
      bucket: requireString('config.bucket', c.bucket, '"meeting-recordings"'),
      ...(c.endpoint !== undefined && { endpoint: c.endpoint as string }),
    };
    return { body: compact({ type: 's3' as const, config, fallback }) as UploadTarget, secrets: [config.accessKey, config.secretKey] };
  }
  if (t.type === 'blobstore') {
    const c = requireObject('config', t.config, '{ accountName: "acme", accountKey: "...", container: "recordings" }');
    const config = {
      accountName: requireString('config.accountName', c.accountName, '"acmestorage"'),
      accountKey: requireString('config.accountKey', c.accountKey, 'the storage account key'),
      container: requireString('config.container', c.container, '"meeting-recordings"'),
      ...(c.domain !== undefined && { domain: requireString('config.domain', c.domain, '"acmestorage.blob.example.net"') }),
    };
    return { body: compact({ type: 'blobstore' as const, config, fallback }) as UploadTarget, secrets: [config.accountKey] };
  }
  fail('type', `must be "s3" or "blobstore" (got ${JSON.stringify(t.type)})`, '"s3"');
}

const SECRET_CONFIG_FIELDS = ['accessKey', 'secretKey', 'accountKey'];

/** The stored target as the service echoes it, with its keys masked. */
export const uploadTargetSchema = z
  .looseObject({
    type: z.string(),
    config: z.record(z.string(), z.unknown()).optional(),
    fallback: z.string().optional(),
  })
  .transform((target) => ({
    ...target,
    config: Object.fromEntries(Object.entries(target.config ?? {}).map(([key, value]) => [key, SECRET_CONFIG_FIELDS.includes(key) ? REDACTED : value])),
  }));
export type StoredUploadTarget = z.output<typeof uploadTargetSchema>;

const ARCHIVE_ID_EXAMPLE = '"b40ef09b-3811-4726-b508-e41a0f96c68f"';

export class Archives {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  async start(options: StartArchiveOptions, call?: CallOptions): Promise<Archive> {
    const body = startArchiveBody(options);
    return this.#ctx.http.request({ method: 'POST', path: this.#path(), json: body, parse: parseArchive }, call);
  }

  async stop(archiveId: string, call?: CallOptions): Promise<Archive> {
    const path = this.#path(this.#id(archiveId), 'stop');
    return this.#ctx.http.request({ method: 'POST', path, parse: parseArchive }, call);
  }

  /** One page, newest first. `count` is the total number of archives. */
  async list(options: ListArchivesOptions = {}, call?: CallOptions): Promise<Page<Archive>> {
    return this.#ctx.http.request({ ...this.#listRequest(options), parse: parseArchiveList }, call);
  }

  /**
   * As `list`, the page's items handed to `visit` as it is parsed, and not kept; with `memory`,
   * compared with what the same request answered last time (`visitPage`).
   */
  async listEach(
    options: ListArchivesOptions,
    visit: (items: PageItems<Archive>) => void,
    call?: CallOptions,
    memory?: PageMemory,
  ): Promise<VisitedPage<Archive>> {
    const request = this.#listRequest(options);
    return visitPage((parse) => this.#ctx.http.request({ ...request, parse }, call), archiveSchema, visit, memory);
  }

  #listRequest(options: ListArchivesOptions) {
    const { offset, count } = pagingQuery(options.offset, options.count);
    const sessionId = options.sessionId === undefined ? undefined : requireId('sessionId', options.sessionId);
    return { method: 'GET', path: this.#path(), query: { offset, count, sessionId } } as const;
  }

  /** Every archive (optionally of one session), fetching pages of `pageSize` as iteration proceeds. */
  listAll(options: { sessionId?: string } & ListAllOptions = {}, call?: CallOptions): AsyncGenerator<Archive, void, undefined> {
    return paginate((offset, count) => this.list({ offset, count, sessionId: options.sessionId }, call), options.pageSize);
  }

  async get(archiveId: string, call?: CallOptions): Promise<Archive> {
    return this.#ctx.http.request({ method: 'GET', path: this.#path(this.#id(archiveId)), parse: parseArchive }, call);
  }

  /** Only `available` or `uploaded` archives can be deleted. */
  async delete(archiveId: string, call?: CallOptions): Promise<void> {
    return this.#ctx.http.request({ method: 'DELETE', path: this.#path(this.#id(archiveId)) }, call);
  }

  /** Changes the layout of a composed archive being recorded. */
  async setLayout(archiveId: string, layout: Layout, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(archiveId), 'layout');
    return this.#ctx.http.request({ method: 'PUT', path, json: validateLayout('layout', layout) }, call);
  }

  /** Adds a stream to a manual-mode archive; repeating it toggles audio/video of that stream. */
  async addStream(archiveId: string, streamId: string, media: { hasAudio?: boolean; hasVideo?: boolean } = {}, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(archiveId), 'streams');
    return this.#ctx.http.request({ method: 'PATCH', path, json: addStreamBody(streamId, media) }, call);
  }

  async removeStream(archiveId: string, streamId: string, call?: CallOptions): Promise<void> {
    const path = this.#path(this.#id(archiveId), 'streams');
    return this.#ctx.http.request({ method: 'PATCH', path, json: removeStreamBody(streamId) }, call);
  }

  /** Registers where completed archives are uploaded. The returned echo has its keys masked. */
  async setUploadTarget(target: UploadTarget, call?: CallOptions): Promise<StoredUploadTarget> {
    const { body, secrets } = uploadTargetBody(target);
    return this.#ctx.http.request({ method: 'PUT', path: this.#path('storage'), json: body, secrets, parse: json(uploadTargetSchema) }, call);
  }

  async deleteUploadTarget(call?: CallOptions): Promise<void> {
    return this.#ctx.http.request({ method: 'DELETE', path: this.#path('storage') }, call);
  }

  #id(archiveId: string): string {
    return requireId('archiveId', archiveId, ARCHIVE_ID_EXAMPLE);
  }

  #path(...segments: string[]): string {
    return projectPath(this.#ctx.apiKey(), 'archive', ...segments);
  }
}

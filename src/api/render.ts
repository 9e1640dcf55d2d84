import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { type PageItems, type PageMemory, type VisitedPage, lazyList, visitPage } from './lists';
import { type ListAllOptions, paginate } from './paging';
import { callerToken } from './participant';
import { type Known, type Page, RESOLUTIONS, type Resolution, epochMs, optionalEpochMs, projectIdOf, resourceSchema, text, wireId, wireTime } from './schemas';
import { charRange, compact, optionalIntInRange, optionalOneOf, optionalString, pagingQuery, requireId, requireObject, requireUrl } from './validate';

export const RENDER_STATUSES = ['starting', 'started', 'stopped', 'failed'] as const;
export type RenderStatus = (typeof RENDER_STATUSES)[number];

const wireRenderSchema = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  projectId: wireId.nullish(),
  partnerId: wireId.nullish(),
  createdAt: wireTime,
  updatedAt: wireTime.optional(),
  callbackUrl: z.string().nullish(),
  name: z.string().nullish(),
  url: z.string(),
  resolution: z.string().optional(),
  status: z.string(),
  reason: z.string().nullish(),
  streamId: z.string().nullish(),
});

/** A composed web-page stream (Experience Composer). */
export const renderSchema = resourceSchema(wireRenderSchema, (raw) => ({
  id: raw.id,
  sessionId: raw.sessionId,
  projectId: projectIdOf(raw),
  createdAt: epochMs(raw.createdAt),
  updatedAt: optionalEpochMs(raw.updatedAt),
  callbackUrl: text(raw.callbackUrl),
  name: text(raw.name),
  url: raw.url,
  resolution: raw.resolution as Known<Resolution> | undefined,
  status: raw.status as Known<RenderStatus>,
  /** For stopped (`Max Duration Exceeded`, `Stop Requested`) or failed. */
  reason: text(raw.reason),
  /** Absent while starting. */
  streamId: text(raw.streamId),
}));
export type Render = z.output<typeof renderSchema>;

const parseRender = json(renderSchema);

/** A page of renders; each is validated when first read (lists.ts). */
export const parseRenderList = lazyList(renderSchema);

export interface StartRenderOptions {
  sessionId: string;
  /** Publisher token; minted when omitted (with `tokenData` as connection data). */
  token?: string;
  tokenData?: string;
  /** Public http(s) page, 15–2048 characters. */
  url: string;
  /** 60–36,000 seconds, default 7,200. */
  maxDuration?: number;
  /** Default 1280x720. */
  resolution?: Resolution;
  /** Name of the published stream, 1–200 characters. */
  properties?: { name?: string };
}

const URL_EXAMPLE = '"https://meet.example.com/board/42"';

export function startRenderBody(options: StartRenderOptions): { sessionId: string } & Record<string, unknown> {
  const opts = requireObject('options', options, `{ sessionId: "2_MX4xMjM0NTZ-fg", url: ${URL_EXAMPLE} }`);
  const sessionId = requireId('sessionId', opts.sessionId);
  requireUrl('url', opts.url, ['http', 'https'], URL_EXAMPLE);
  const urlText = opts.url as string;
  charRange('url', urlText, 15, 2048, URL_EXAMPLE);
  let properties: { name: string } | undefined;
  if (opts.properties !== undefined) {
    const props = requireObject('properties', opts.properties, '{ name: "Whiteboard" }');
    const name = optionalString('properties.name', props.name, '"Whiteboard"');
    if (name !== undefined) {
      charRange('properties.name', name, 1, 200, '"Whiteboard"');
      properties = { name };
    }
  }
  return compact({
    sessionId,
    url: urlText,
    maxDuration: optionalIntInRange('maxDuration', opts.maxDuration, 60, 36_000, 7200),
    resolution: optionalOneOf('resolution', opts.resolution, RESOLUTIONS),
    properties,
  }) as { sessionId: string } & Record<string, unknown>;
}

const RENDER_ID_EXAMPLE = '"80abaf0d-25a3-4efc-968f-6268d620668d"';

export class RenderStreams {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Starts rendering a web page into the session. Accepts the service's 200 or 202. */
  async start(options: StartRenderOptions, call?: CallOptions): Promise<Render> {
    const body = startRenderBody(options);
    const data = optionalString('tokenData', options.tokenData, '"whiteboard"');
    const token =
      callerToken(options.token, 'publisher', body.sessionId) ?? (await this.#ctx.tokens.client({ sessionId: body.sessionId, role: 'publisher', data }));
    return this.#ctx.http.request({ method: 'POST', path: this.#path(), json: { ...body, token }, secrets: [token], parse: parseRender }, call);
  }

  async get(renderId: string, call?: CallOptions): Promise<Render> {
    return this.#ctx.http.request({ method: 'GET', path: this.#path(this.#id(renderId)), parse: parseRender }, call);
  }

  async list(options: { offset?: number; count?: number } = {}, call?: CallOptions): Promise<Page<Render>> {
    return this.#ctx.http.request({ ...this.#listRequest(options), parse: parseRenderList }, call);
  }

  /**
   * As `list`, the page's items handed to `visit` as it is parsed, and not kept; with `memory`,
   * compared with what the same request answered last time (`visitPage`).
   */
  async listEach(
    options: { offset?: number; count?: number },
    visit: (items: PageItems<Render>) => void,
    call?: CallOptions,
    memory?: PageMemory,
  ): Promise<VisitedPage<Render>> {
    const request = this.#listRequest(options);
    return visitPage((parse) => this.#ctx.http.request({ ...request, parse }, call), renderSchema, visit, memory);
  }

  #listRequest(options: { offset?: number; count?: number }) {
    return { method: 'GET', path: this.#path(), query: pagingQuery(options.offset, options.count) } as const;
  }

  listAll(options: ListAllOptions = {}, call?: CallOptions): AsyncGenerator<Render, void, undefined> {
    return paginate((offset, count) => this.list({ offset, count }, call), options.pageSize);
  }

  async stop(renderId: string, call?: CallOptions): Promise<void> {
    // The spec's path ends with a slash.
    return this.#ctx.http.request({ method: 'DELETE', path: this.#path(this.#id(renderId), '') }, call);
  }

  #id(renderId: string): string {
    return requireId('renderId', renderId, RENDER_ID_EXAMPLE);
  }

  #path(...segments: string[]): string {
    return projectPath(this.#ctx.apiKey(), 'render', ...segments);
  }
}

import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { type Known, type Page, listSchema } from './schemas';
import { describeValue, fail, requireId, requireObject } from './validate';

export const VIDEO_TYPES = ['camera', 'screen', 'custom'] as const;

export type VideoType = (typeof VIDEO_TYPES)[number];

export const streamInfoSchema = z
  .looseObject({
    id: z.string(),
    videoType: z.string().optional(),
    name: z.string().nullish(),
    layoutClassList: z.array(z.string()).nullish(),
  })
  .transform((raw) => ({
    ...raw,
    videoType: raw.videoType as Known<VideoType> | undefined,
    /** Empty when none was set. */
    name: raw.name ?? '',
    layoutClassList: raw.layoutClassList ?? [],
  }));
export type StreamInfo = z.output<typeof streamInfoSchema>;

export const streamListSchema = listSchema(streamInfoSchema);

export interface StreamLayoutClasses {
  id: string;
  layoutClassList: string[];
}

const STREAM_ID_EXAMPLE = '"8b732909-0a06-46a2-8ea8-074e64d43422"';

export function layoutClassesBody(items: unknown): { items: StreamLayoutClasses[] } {
  if (!Array.isArray(items) || items.length === 0) {
    fail('items', `must be a non-empty array (got ${describeValue(items)})`, `[{ id: ${STREAM_ID_EXAMPLE}, layoutClassList: ["focus"] }]`);
  }
  return {
    items: items.map((item, index) => {
      const entry = requireObject(`items[${index}]`, item, `{ id: ${STREAM_ID_EXAMPLE}, layoutClassList: ["focus"] }`);
      const id = requireId(`items[${index}].id`, entry.id, STREAM_ID_EXAMPLE);
      const classes = entry.layoutClassList;
      if (!Array.isArray(classes) || classes.some((c) => typeof c !== 'string' || c === '')) {
        fail(
          `items[${index}].layoutClassList`,
          `must be an array of non-empty class names (got ${describeValue(classes)})`,
          '["focus", "full"] or [] to clear',
        );
      }
      return { id, layoutClassList: classes as string[] };
    }),
  };
}

export class Streams {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  async list(sessionId: string, call?: CallOptions): Promise<Page<StreamInfo>> {
    const path = projectPath(this.#ctx.apiKey(), 'session', requireId('sessionId', sessionId), 'stream', '');
    return this.#ctx.http.request({ method: 'GET', path, parse: json(streamListSchema) }, call);
  }

  async get(sessionId: string, streamId: string, call?: CallOptions): Promise<StreamInfo> {
    const path = projectPath(this.#ctx.apiKey(), 'session', requireId('sessionId', sessionId), 'stream', requireId('streamId', streamId, STREAM_ID_EXAMPLE));
    return this.#ctx.http.request({ method: 'GET', path, parse: json(streamInfoSchema) }, call);
  }

  /** Assigns layout classes to one or more streams (used by composed archive/broadcast layouts). */
  async setLayoutClasses(sessionId: string, items: StreamLayoutClasses[], call?: CallOptions): Promise<void> {
    const path = projectPath(this.#ctx.apiKey(), 'session', requireId('sessionId', sessionId), 'stream');
    return this.#ctx.http.request({ method: 'PUT', path, json: layoutClassesBody(items) }, call);
  }
}

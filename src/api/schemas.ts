/**
 * Shared pieces of the request and response models, and the one place where quirks of real
 * service bodies are normalised (project ids, timestamps in seconds, open status sets).
 */
import { z } from 'zod';
import { transform } from 'zod/mini';
import { describeValue, fail, optionalBoolean, optionalString, requireId, requireObject } from './validate';

export const RESOLUTIONS = ['640x480', '1280x720', '1920x1080', '480x640', '720x1280', '1080x1920'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const STREAM_MODES = ['auto', 'manual'] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

export const LAYOUT_TYPES = ['bestFit', 'custom', 'horizontalPresentation', 'pip', 'verticalPresentation'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];
/** Custom needs a stylesheet, which a screen-share layout may not have, so it is not offered here. */
export const SCREENSHARE_LAYOUT_TYPES = ['bestFit', 'horizontalPresentation', 'pip', 'verticalPresentation'] as const;
export type ScreenshareLayoutType = (typeof SCREENSHARE_LAYOUT_TYPES)[number];

export interface Layout {
  type: LayoutType;
  /** Only with type `custom`. */
  stylesheet?: string;
  /** Only with type `bestFit` and no stylesheet: the layout used while a screen share is present. */
  screenshareType?: ScreenshareLayoutType;
}

/**
 * Layout rules 1–3 of the spec. Rule 4 (no layout means best fit) needs no check; rule 5
 * (non-best-fit layouts need layout classes on streams) depends on live session state that
 * only the service sees.
 */
export function validateLayout(field: string, value: unknown): Layout {
  const layout = requireObject(field, value, '{ type: "bestFit", screenshareType: "pip" }');
  if (!(LAYOUT_TYPES as readonly unknown[]).includes(layout.type)) {
    fail(`${field}.type`, `must be one of ${LAYOUT_TYPES.join(', ')} (got ${describeValue(layout.type)})`, '"bestFit"');
  }
  const type = layout.type as LayoutType;
  const stylesheet = optionalString(`${field}.stylesheet`, layout.stylesheet, '"stream.focus { width: 100%; }"');
  if (stylesheet !== undefined && type !== 'custom') {
    fail(`${field}.stylesheet`, `is allowed only with type "custom" (type is "${type}")`, '{ type: "custom", stylesheet: "stream { float: left; }" }');
  }
  const screenshareType = layout.screenshareType;
  if (screenshareType !== undefined) {
    if (!(SCREENSHARE_LAYOUT_TYPES as readonly unknown[]).includes(screenshareType)) {
      fail(
        `${field}.screenshareType`,
        `must be one of ${SCREENSHARE_LAYOUT_TYPES.join(', ')} (got ${describeValue(screenshareType)})`,
        '"verticalPresentation"',
      );
    }
    if (type !== 'bestFit' || stylesheet !== undefined) {
      fail(
        `${field}.screenshareType`,
        `needs type "bestFit" and no stylesheet (type is "${type}"${stylesheet !== undefined ? ', stylesheet is set' : ''})`,
        '{ type: "bestFit", screenshareType: "verticalPresentation" }',
      );
    }
  }
  return {
    type,
    ...(stylesheet !== undefined && { stylesheet }),
    ...(screenshareType !== undefined && { screenshareType: screenshareType as ScreenshareLayoutType }),
  };
}

/** hasAudio / hasVideo flags where both false is an error (archives, broadcasts, stream selection). */
export function validateMediaFlags(hasAudio: unknown, hasVideo: unknown, prefix = ''): { hasAudio?: boolean; hasVideo?: boolean } {
  const audio = optionalBoolean(`${prefix}hasAudio`, hasAudio);
  const video = optionalBoolean(`${prefix}hasVideo`, hasVideo);
  if (audio === false && video === false) {
    fail(`${prefix}hasVideo`, 'hasAudio and hasVideo cannot both be false', '{ hasAudio: true, hasVideo: false } for audio only');
  }
  return { hasAudio: audio, hasVideo: video };
}

/** Body of a manual-mode stream selection change (archives and broadcasts). */
export type StreamChange = { addStream: string; hasAudio?: boolean; hasVideo?: boolean } | { removeStream: string };

export function addStreamBody(streamId: unknown, media: { hasAudio?: boolean; hasVideo?: boolean } = {}): StreamChange {
  const flags = validateMediaFlags(media.hasAudio, media.hasVideo);
  return {
    addStream: requireId('streamId', streamId, '"8b732909-0a06-46a2-8ea8-074e64d43422"'),
    ...(flags.hasAudio !== undefined && { hasAudio: flags.hasAudio }),
    ...(flags.hasVideo !== undefined && { hasVideo: flags.hasVideo }),
  };
}

export function removeStreamBody(streamId: unknown): StreamChange {
  return { removeStream: requireId('streamId', streamId, '"8b732909-0a06-46a2-8ea8-074e64d43422"') };
}

// ---------------------------------------------------------------------------------------------
// Response normalisation
//
// zod checks each wire shape with plain field schemas (its fast path); one transform per object
// then applies the quirks below and builds the result field by field, adding unknown fields after
// (`withUnknownFields`): a spread of the wire object (`{ ...raw, createdAt: … }`) cost 4–13 µs per
// archive, the explicit object about 1 µs.

/**
 * A resource the service returns: `wire` (a loose object) checks the fields it names, `build`
 * makes the resource of them, and the fields `wire` does not name are kept as received.
 *
 * The transform is zod/mini's: zod's own `.transform()` gives every parse an `addIssue` closure,
 * and with it the objects of each parse survived young-generation collections (an archive parsed
 * in 3.8 µs instead of 2.3, most of the difference in GC).
 */
export function resourceSchema<W extends z.ZodObject<z.core.$ZodLooseShape, z.core.$loose>, T extends object>(wire: W, build: (raw: z.output<W>) => T) {
  const named = namedFields(wire);
  return wire.pipe(transform((raw: z.output<W>) => withUnknownFields(build(raw), raw as Record<string, unknown>, named)));
}

/**
 * `known` plus the fields of `raw` that its wire schema does not name: a resource keeps what a
 * newer service sends beyond the spec.
 */
export function withUnknownFields<T extends object>(known: T, raw: Record<string, unknown>, named: ReadonlySet<string>): T {
  for (const key in raw) {
    if (!named.has(key)) (known as Record<string, unknown>)[key] = raw[key];
  }
  return known;
}

/** The field names a wire schema checks. */
export function namedFields(schema: { shape: object }): ReadonlySet<string> {
  return new Set(Object.keys(schema.shape));
}

/** Ids that arrive as integer or string (`projectId`, `partnerId`). */
export const wireId = z.union([z.string(), z.number()]);

/** Timestamps: numbers, or numeric strings in some SDK mocks. */
export const wireTime = z.union([z.number(), z.string().regex(/^\d+$/)]);

/** Values below this are taken as seconds: as milliseconds they would fall before March 1973. */
const SECONDS_THRESHOLD = 1e11;

/** Milliseconds since epoch, also from seconds (stop-broadcast bodies) or numeric strings. */
export function epochMs(value: number | string): number {
  const number = Number(value);
  return Math.abs(number) < SECONDS_THRESHOLD ? number * 1000 : number;
}

export function optionalEpochMs(value: number | string | undefined): number | undefined {
  return value === undefined ? undefined : epochMs(value);
}

/** `projectId` as a string, taken from `partnerId` in older bodies. */
export function projectIdOf(raw: { projectId?: string | number | null; partnerId?: string | number | null }): string | undefined {
  const id = raw.projectId ?? raw.partnerId;
  return id === undefined || id === null ? undefined : String(id);
}

/** Optional strings that bodies sometimes send as null. */
export function text(value: string | null | undefined): string | undefined {
  return value ?? undefined;
}

/**
 * A status field: the documented values are typed, and an undocumented one (e.g. RTMP
 * `started` in real list bodies) is kept as a string rather than failing the whole response.
 */
export type Known<T extends string> = T | (string & {});

export const wireStreamSelection = z.object({
  streamId: z.string(),
  hasAudio: z.boolean().optional(),
  hasVideo: z.boolean().optional(),
});

export interface StreamSelection {
  streamId: string;
  hasAudio: boolean;
  hasVideo: boolean;
}

export function streamSelectionsOf(raw: readonly z.output<typeof wireStreamSelection>[] | null | undefined): StreamSelection[] {
  return (raw ?? []).map((s) => ({ streamId: s.streamId, hasAudio: s.hasAudio ?? true, hasVideo: s.hasVideo ?? true }));
}

export function listSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ count: z.number().int(), items: z.array(item) });
}

export interface Page<T> {
  count: number;
  items: T[];
}

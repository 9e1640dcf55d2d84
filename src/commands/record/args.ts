/**
 * Argument types of `/record`: recording IDs, layout options (with the spec's layout rules
 * checked while parsing, so a bad combination is a usage error before anything is sent) and the
 * media switches.
 */
import { z } from 'zod';
import { LAYOUT_TYPES, type Layout, type LayoutType, RESOLUTIONS, type Resolution, SCREENSHARE_LAYOUT_TYPES, type ScreenshareLayoutType } from '../../api';
import type { FlagSpec } from '../grammar';
import { identifier } from '../grammar';

export const archiveId = identifier('a recording ID');
export const streamId = identifier('a stream ID');

/** Archive names: at most 255 characters (spec), counted as people count them. */
export const archiveName = z
  .string()
  .min(1, { error: 'a recording name cannot be empty' })
  .refine((s) => [...s].length <= 255, { error: 'a recording name has at most 255 characters' });

export const archiveTag = z
  .string()
  .min(1, { error: 'a tag cannot be empty' })
  .max(200, { error: 'a tag has at most 200 characters' })
  .regex(/^\S+$/, { error: 'a tag is one word (no spaces)' });

/** Typed forms people use for layout types: case and dashes do not matter; short names work. */
const LAYOUT_ALIASES: Readonly<Record<string, LayoutType>> = {
  bestfit: 'bestFit',
  best: 'bestFit',
  custom: 'custom',
  horizontal: 'horizontalPresentation',
  horizontalpresentation: 'horizontalPresentation',
  vertical: 'verticalPresentation',
  verticalpresentation: 'verticalPresentation',
  pip: 'pip',
  pictureinpicture: 'pip',
};

export function layoutTypeOf(text: string): LayoutType | undefined {
  return LAYOUT_ALIASES[text.toLowerCase().replace(/[-_\s]/g, '')];
}

export const layoutType = z.string().transform((text, ctx): LayoutType => {
  const type = layoutTypeOf(text);
  if (type) return type;
  ctx.addIssue({ code: 'custom', message: `use one of ${LAYOUT_TYPES.join(', ')}` });
  return z.NEVER;
});

export const screenshareType = z.string().transform((text, ctx): ScreenshareLayoutType => {
  const type = layoutTypeOf(text);
  if (type && (SCREENSHARE_LAYOUT_TYPES as readonly string[]).includes(type)) return type as ScreenshareLayoutType;
  ctx.addIssue({ code: 'custom', message: `use one of ${SCREENSHARE_LAYOUT_TYPES.join(', ')} (custom is not possible while a screen is shared)` });
  return z.NEVER;
});

export const resolution = z.string().transform((text, ctx): Resolution => {
  const value = text.toLowerCase().replace('×', 'x');
  if ((RESOLUTIONS as readonly string[]).includes(value)) return value as Resolution;
  ctx.addIssue({ code: 'custom', message: `use one of ${RESOLUTIONS.join(', ')}` });
  return z.NEVER;
});

export const layoutFlags: readonly FlagSpec[] = [
  {
    name: 'layout',
    kind: 'value',
    valueLabel: 'type',
    description: `layout: ${LAYOUT_TYPES.join(', ')} (others than bestFit need layout classes on the streams)`,
  },
  { name: 'screenshare', kind: 'value', valueLabel: 'type', description: 'layout while someone shares a screen; goes with bestFit (the default)' },
  { name: 'stylesheet', kind: 'value', valueLabel: 'css', description: 'CSS of a custom layout, in quotes; goes with --layout custom' },
];

export const mediaFlags: readonly FlagSpec[] = [
  { name: 'audio-only', kind: 'boolean', description: 'record sound only' },
  { name: 'video-only', kind: 'boolean', description: 'record pictures only' },
];

export interface LayoutArgs {
  layout?: LayoutType;
  screenshare?: ScreenshareLayoutType;
  stylesheet?: string;
}

export interface MediaArgs {
  audioOnly?: boolean;
  videoOnly?: boolean;
}

type Ctx = z.RefinementCtx;

/** Layout rules 1–3 of the spec, worded for the flags. */
export function checkLayoutArgs(args: LayoutArgs, ctx: Ctx): void {
  if (args.screenshare !== undefined) {
    if (args.layout !== undefined && args.layout !== 'bestFit') {
      ctx.addIssue({ code: 'custom', path: ['screenshare'], message: `goes only with --layout bestFit (the layout is ${args.layout})` });
    } else if (args.stylesheet !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['screenshare'], message: 'cannot be combined with --stylesheet (a screen-share layout needs bestFit)' });
    }
  }
  if (args.stylesheet !== undefined && args.layout !== undefined && args.layout !== 'custom') {
    ctx.addIssue({ code: 'custom', path: ['stylesheet'], message: `goes only with --layout custom (the layout is ${args.layout})` });
  }
  if (args.stylesheet !== undefined && args.stylesheet.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['stylesheet'], message: 'is empty; give the CSS in quotes' });
  }
  if (args.layout === 'custom' && args.stylesheet === undefined) {
    ctx.addIssue({ code: 'custom', path: ['layout'], message: 'custom needs --stylesheet "<css>"' });
  }
}

export function checkMediaArgs(args: MediaArgs, ctx: Ctx): void {
  if (args.audioOnly && args.videoOnly) {
    ctx.addIssue({ code: 'custom', path: ['audioOnly'], message: 'cannot be combined with --video-only (a recording needs sound or pictures)' });
  }
}

/**
 * The layout object the flags describe: `--screenshare` alone means best fit with that
 * screen-share layout, `--stylesheet` alone means custom.
 */
export function layoutFrom(args: LayoutArgs): Layout | undefined {
  if (args.layout === undefined && args.screenshare === undefined && args.stylesheet === undefined) return undefined;
  const type: LayoutType = args.layout ?? (args.stylesheet !== undefined ? 'custom' : 'bestFit');
  return {
    type,
    ...(args.stylesheet !== undefined ? { stylesheet: args.stylesheet } : {}),
    ...(args.screenshare !== undefined ? { screenshareType: args.screenshare } : {}),
  };
}

export function mediaFrom(args: MediaArgs): { hasAudio?: boolean; hasVideo?: boolean } {
  if (args.audioOnly) return { hasAudio: true, hasVideo: false };
  if (args.videoOnly) return { hasAudio: false, hasVideo: true };
  return {};
}

/** A single word that could be a session ID or alias (as `identifier` accepts them). */
export function looksLikeSessionRef(text: string): boolean {
  return /^[A-Za-z0-9_\-.:~=+/]+$/.test(text) && text.length <= 256;
}

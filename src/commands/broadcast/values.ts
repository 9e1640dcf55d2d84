/**
 * Values of the broadcast options as people write them: durations (`90m`, `2h`, `3600`),
 * bitrates (`2500k`, `2.5M`, `2500000`), resolutions (`1280x720`, `720p`) and layout types
 * (`bestfit`, `pip`, `vertical`). Each parser returns undefined for text it cannot read; the
 * ranges are the service's (see the Limits of the spec).
 */
import { LAYOUT_TYPES, type LayoutType, RESOLUTIONS, type Resolution, SCREENSHARE_LAYOUT_TYPES, type ScreenshareLayoutType } from '../../api';

export const MAX_DURATION_RANGE = { min: 60, max: 36_000, default: 14_400 } as const;
export const MAX_BITRATE_RANGE = { min: 100_000, max: 6_000_000 } as const;

const DURATION_UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hr: 3600 };

/** Seconds from `3600`, `45s`, `90m`, `2h`, `1h30m`; undefined when unreadable. */
export function parseDurationSeconds(text: string): number | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d+$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(h|hr|min|m|sec|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) return undefined;
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * DURATION_UNITS[p[2]!]!, 0);
  return Number.isInteger(seconds) ? seconds : Math.round(seconds);
}

/** Bits per second from `2500000`, `2500k`, `2.5M`, `2.5mbps`, `800kbps`; undefined when unreadable. */
export function parseBitrate(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(k|m)?(?:bps|bit\/s|b\/s)?$/i.exec(text.trim());
  if (!m) return undefined;
  const scale = m[2] === undefined ? 1 : m[2].toLowerCase() === 'k' ? 1000 : 1_000_000;
  return Math.round(Number(m[1]) * scale);
}

const RESOLUTION_ALIASES: Record<string, Resolution> = { '480p': '640x480', '720p': '1280x720', '1080p': '1920x1080' };

export function parseResolution(text: string): Resolution | undefined {
  const t = text.trim().toLowerCase().replace('×', 'x');
  if ((RESOLUTIONS as readonly string[]).includes(t)) return t as Resolution;
  return RESOLUTION_ALIASES[t];
}

const LAYOUT_ALIASES: Record<string, LayoutType> = {
  bestfit: 'bestFit',
  'best-fit': 'bestFit',
  custom: 'custom',
  horizontalpresentation: 'horizontalPresentation',
  'horizontal-presentation': 'horizontalPresentation',
  horizontal: 'horizontalPresentation',
  pip: 'pip',
  verticalpresentation: 'verticalPresentation',
  'vertical-presentation': 'verticalPresentation',
  vertical: 'verticalPresentation',
};

export function parseLayoutType(text: string): LayoutType | undefined {
  const found = LAYOUT_ALIASES[text.trim().toLowerCase()];
  return found !== undefined && (LAYOUT_TYPES as readonly string[]).includes(found) ? found : undefined;
}

export function parseScreenshareType(text: string): ScreenshareLayoutType | undefined {
  const type = parseLayoutType(text);
  return type !== undefined && (SCREENSHARE_LAYOUT_TYPES as readonly string[]).includes(type) ? (type as ScreenshareLayoutType) : undefined;
}

export const LAYOUT_TYPE_LIST = 'bestFit, pip, horizontalPresentation, verticalPresentation or custom';
export const SCREENSHARE_TYPE_LIST = 'bestFit, pip, horizontalPresentation or verticalPresentation';
export const RESOLUTION_LIST = RESOLUTIONS.join(', ');

/** Layout rules 1–3 of the spec as one problem sentence (flags named as typed), or undefined. */
export function layoutProblem(layout: { type: LayoutType; stylesheet?: string; screenshareType?: ScreenshareLayoutType }): string | undefined {
  if (layout.stylesheet !== undefined && layout.type !== 'custom') return 'a stylesheet goes only with the custom layout';
  if (layout.type === 'custom' && (layout.stylesheet === undefined || layout.stylesheet.trim() === '')) return 'the custom layout needs a stylesheet';
  if (layout.screenshareType !== undefined && layout.type !== 'bestFit') return 'a screen-share layout goes only with the bestFit layout';
  return undefined;
}

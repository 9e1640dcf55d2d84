/**
 * One mechanism for every secret a user or the configuration gave the app — RTMP stream keys,
 * upload-target keys, SIP passwords, client tokens, project and account secrets, Slack
 * credentials: they are remembered here, and every sink that may echo them (video API error
 * texts, log lines, audit rows, replies and notices) passes its text through `scrub`.
 *
 * - Configured secrets (`rememberConfigured`) are scrubbed for the life of the process.
 * - Secrets sent with a video API call (`rememberSent`, called by the API client for every
 *   request's secret fields) are scrubbed for the rest of the Slack request that sent them,
 *   and, when long enough to never be an ordinary word (8+ characters), for a day after in the
 *   whole process — the poller's later lines about the same broadcast included.
 */
import { currentRequest } from './request-context';

export const SCRUBBED = '[redacted]';

/** Shorter values are not remembered: a 3-letter "secret" would blank ordinary words. */
const MIN_LENGTH = 4;
const PROCESS_WIDE_MIN_LENGTH = 8;
const RECENT_TTL_MS = 24 * 60 * 60_000;
const RECENT_MAX = 1_000;

const configured = new Set<string>();
/** Secrets sent lately, with the time they may be forgotten (insertion order = oldest first). */
const recent = new Map<string, number>();
const requestSecrets = new WeakMap<object, Set<string>>();
/** One pattern for the process-wide secrets, rebuilt when they change (log lines go through it). */
let processPattern: RegExp | undefined;
let patternStale = true;

function spellings(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return encoded === secret ? [secret] : [secret, encoded];
}

function patternOf(secrets: Iterable<string>): RegExp | undefined {
  const alternatives = [...secrets]
    .flatMap(spellings)
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'g') : undefined;
}

function usable(value: unknown): value is string {
  return typeof value === 'string' && value.length >= MIN_LENGTH;
}

/** Secrets of the configuration (and rotated project secrets): scrubbed for the life of the process. */
export function rememberConfigured(values: readonly (string | undefined)[]): void {
  for (const value of values) {
    if (usable(value) && !configured.has(value)) {
      configured.add(value);
      patternStale = true;
    }
  }
}

/** Secrets a request carries to the video service (from the user, or made for them). */
export function rememberSent(values: readonly (string | undefined)[], now = Date.now()): void {
  const context = currentRequest();
  let mine = context ? requestSecrets.get(context) : undefined;
  if (context && !mine) requestSecrets.set(context, (mine = new Set()));
  for (const value of values) {
    if (!usable(value)) continue;
    mine?.add(value);
    if (value.length >= PROCESS_WIDE_MIN_LENGTH) {
      if (!recent.has(value)) patternStale = true;
      recent.delete(value);
      recent.set(value, now + RECENT_TTL_MS);
    }
  }
  for (const [value, until] of recent) {
    if (until > now && recent.size <= RECENT_MAX) break;
    recent.delete(value);
    patternStale = true;
  }
}

/** `text` with every remembered secret (and its URL-encoded spelling) replaced by `[redacted]`. */
export function scrub(text: string): string {
  if (text.length < MIN_LENGTH) return text;
  if (patternStale) {
    processPattern = patternOf([...configured, ...recent.keys()]);
    patternStale = false;
  }
  let out = processPattern ? text.replace(processPattern, SCRUBBED) : text;
  const context = currentRequest();
  const mine = context ? requestSecrets.get(context) : undefined;
  if (mine) {
    for (const secret of mine) for (const spelling of spellings(secret)) if (out.includes(spelling)) out = out.split(spelling).join(SCRUBBED);
  }
  return out;
}

/** A copy of `value` (a Slack message, an audit row) with every string scrubbed. */
export function scrubDeep<T>(value: T): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = scrubDeep(item);
    return out as T;
  }
  return value;
}

/** Forgets every remembered secret (tests). */
export function forgetSecrets(): void {
  configured.clear();
  recent.clear();
  patternStale = true;
}

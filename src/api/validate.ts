/**
 * Client-side checks of request options against the spec. Each helper throws a
 * VideoValidationError naming the field, saying what was wrong and showing a right value.
 */
import { isIP } from 'node:net';
import { VideoValidationError } from './errors';

export function fail(field: string, problem: string, example: string): never {
  throw new VideoValidationError(field, `${problem}. Example: ${example}`);
}

/** A short, safe rendering of a rejected value for messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Identifiers become path segments: non-empty strings without `/`. */
export function requireId(field: string, value: unknown, example = '"2_MX4xMjM0NTZ-fg"'): string {
  if (typeof value !== 'string' || value.trim() === '') {
    fail(field, `is required and must be a non-empty string (got ${describeValue(value)})`, example);
  }
  if (value.includes('/')) fail(field, `must not contain "/" (got ${describeValue(value)})`, example);
  return value;
}

export function requireString(field: string, value: unknown, example: string): string {
  if (typeof value !== 'string' || value === '') fail(field, `is required and must be a non-empty string (got ${describeValue(value)})`, example);
  return value;
}

export function optionalString(field: string, value: unknown, example: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(field, `must be a string (got ${describeValue(value)})`, example);
  return value;
}

export function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') fail(field, `must be true or false (got ${describeValue(value)})`, 'true');
  return value;
}

export function requireBoolean(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(field, `is required and must be true or false (got ${describeValue(value)})`, 'true');
  return value;
}

export function maxChars(field: string, value: string | undefined, max: number, example: string): void {
  if (value !== undefined && [...value].length > max) {
    fail(field, `must be at most ${max} characters (got ${[...value].length})`, example);
  }
}

export function charRange(field: string, value: string | undefined, min: number, max: number, example: string): void {
  if (value === undefined) return;
  const length = [...value].length;
  if (length < min || length > max) fail(field, `must be ${min} to ${max} characters long (got ${length})`, example);
}

export function maxBytes(field: string, value: string, max: number, example: string): void {
  const bytes = utf8Bytes(value);
  if (bytes > max) fail(field, `must be at most ${max} bytes in UTF-8 (got ${bytes} bytes)`, example);
}

/**
 * A whole number with its thousands grouped, as a message shows it ("1,000,000"). Not
 * `toLocaleString`: the first use of ICU maps its data into the process for good (~10 MB).
 */
export const groupDigits = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

export function optionalIntInRange(field: string, value: unknown, min: number, max: number, example: number = min): number | undefined {
  if (value === undefined) return undefined;
  const range = () => `${groupDigits(min)} to ${groupDigits(max)}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    fail(field, `must be a whole number from ${range()} (got ${describeValue(value)})`, String(example));
  }
  if (value < min || value > max) {
    fail(field, `must be from ${range()} (got ${groupDigits(value)})`, String(example));
  }
  return value;
}

export function oneOf<T extends string | number>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    fail(field, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(value)})`, JSON.stringify(allowed[0]));
  }
  return value as T;
}

export function optionalOneOf<T extends string | number>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
  return value === undefined ? undefined : oneOf(field, value, allowed);
}

export function optionalStringArray(field: string, value: unknown, example: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    fail(field, `must be an array of strings (got ${describeValue(value)})`, example);
  }
  return value as string[];
}

export function optionalIdArray(field: string, value: unknown, example: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) fail(field, `must be an array of IDs (got ${describeValue(value)})`, example);
  return value.map((item, index) => requireId(`${field}[${index}]`, item, example));
}

export function optionalStringRecord(field: string, value: unknown, example: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    fail(field, `must be an object of string values (got ${describeValue(value)})`, example);
  }
  return value as Record<string, string>;
}

export function requireObject(field: string, value: unknown, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(field, `is required and must be an object (got ${describeValue(value)})`, example);
  }
  return value as Record<string, unknown>;
}

/** A URL with one of the given schemes; returns the parsed URL. */
export function requireUrl(field: string, value: unknown, schemes: readonly string[], example: string): URL {
  const text = requireString(field, value, example);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(field, `must be a valid URL (got ${describeValue(text)})`, example);
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    fail(field, `must start with ${schemes.map((s) => `${s}://`).join(' or ')} (got ${describeValue(text)})`, example);
  }
  if (url.hostname === '') fail(field, `must include a host (got ${describeValue(text)})`, example);
  return url;
}

export function optionalIpAddress(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || isIP(value) === 0) fail(field, `must be an IPv4 or IPv6 address (got ${describeValue(value)})`, '"203.0.113.7"');
  return value;
}

/** Paging: `offset` ≥ 0 and `count` 1..1000. */
export function pagingQuery(offset: unknown, count: unknown): { offset?: number; count?: number } {
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)) {
    fail('offset', `must be a whole number, 0 or more (got ${describeValue(offset)})`, '0');
  }
  return { offset, count: optionalIntInRange('count', count, 1, 1000, 100) };
}

/** Copies defined values only, so optional options are omitted from the wire body. */
export function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== undefined) out[key as keyof T] = value as T[keyof T];
  }
  return out;
}

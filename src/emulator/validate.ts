import { badRequest } from './errors';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

interface RangeRule {
  min?: number;
  max?: number;
}

/**
 * Typed readers over a JSON object. Each failure is a 400 with a message naming the field;
 * `code` (e.g. the composer's 5000x codes) replaces the default `code: 400` in the body.
 */
export class Fields {
  constructor(
    private readonly obj: JsonObject,
    private readonly prefix = '',
  ) {}

  static of(value: unknown, what = 'body'): Fields {
    if (!isObject(value)) throw badRequest(`Invalid ${what}: expected a JSON object`);
    return new Fields(value);
  }

  has(name: string): boolean {
    return this.obj[name] !== undefined;
  }

  raw(name: string): unknown {
    return this.obj[name];
  }

  label(name: string): string {
    return `${this.prefix}${name}`;
  }

  string(name: string, rule: RangeRule & { code?: number } = {}): string | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw badRequest(`Invalid '${this.label(name)}': expected a string`, rule.code);
    const length = [...value].length;
    if (rule.min !== undefined && length < rule.min) {
      throw badRequest(`Invalid '${this.label(name)}': at least ${rule.min} characters`, rule.code);
    }
    if (rule.max !== undefined && length > rule.max) {
      throw badRequest(`Invalid '${this.label(name)}': at most ${rule.max} characters`, rule.code);
    }
    return value;
  }

  requiredString(name: string, rule: RangeRule & { code?: number } = {}): string {
    const value = this.string(name, rule);
    if (value === undefined || value === '') throw badRequest(`Missing '${this.label(name)}'`, rule.code);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw badRequest(`Invalid '${this.label(name)}': expected true or false`);
    return value;
  }

  integer(name: string, rule: RangeRule & { code?: number } = {}): number | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    const ok =
      typeof value === 'number' && Number.isInteger(value) && (rule.min === undefined || value >= rule.min) && (rule.max === undefined || value <= rule.max);
    if (!ok) {
      const range = rule.min !== undefined && rule.max !== undefined ? ` between ${rule.min} and ${rule.max}` : '';
      throw badRequest(`Invalid '${this.label(name)}': expected an integer${range}`, rule.code);
    }
    return value;
  }

  oneOf<T extends string | number>(name: string, values: readonly T[], code?: number): T | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    const found = values.find((v) => v === value);
    if (found === undefined) {
      throw badRequest(`Invalid '${this.label(name)}': expected one of ${values.join(', ')}`, code);
    }
    return found;
  }

  object(name: string): Fields | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    if (!isObject(value)) throw badRequest(`Invalid '${this.label(name)}': expected an object`);
    return new Fields(value, `${this.label(name)}.`);
  }

  stringArray(name: string): string[] | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
      throw badRequest(`Invalid '${this.label(name)}': expected an array of strings`);
    }
    return value;
  }

  stringMap(name: string): Record<string, string> | undefined {
    const value = this.obj[name];
    if (value === undefined) return undefined;
    if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
      throw badRequest(`Invalid '${this.label(name)}': expected an object of string values`);
    }
    return value as Record<string, string>;
  }
}

/** Parses an optional non-negative integer query parameter. */
export function queryInteger(query: URLSearchParams, name: string, rule: { min: number; max: number }): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`Invalid '${name}': expected an integer`);
  const n = Number(value);
  if (n < rule.min || n > rule.max) throw badRequest(`Invalid '${name}': expected an integer between ${rule.min} and ${rule.max}`);
  return n;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

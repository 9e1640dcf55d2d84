import { InsightsError } from './errors';
import { field, gqlEnum, type GqlEnum, type GqlInput, type Selection } from './gql';

const INT32_MAX = 2_147_483_647;

/**
 * `project(projectId: ...)`. The spec types projectId as an integer while real clients also send
 * it as a string: numeric keys go out as integers, anything else as a string.
 */
export function projectField(projectId: string, selections: readonly Selection[]) {
  const numeric = /^\d+$/.test(projectId) && Number(projectId) <= INT32_MAX;
  return field('project', { projectId: numeric ? Number(projectId) : projectId }, selections);
}

/** `start`/`end` values: ISO-8601 in UTC, except 0, which the service reads as "earliest available". */
export function timeLiteral(epochMs: number, what: string): GqlInput {
  if (!Number.isSafeInteger(epochMs) || epochMs < 0) invalid(`The ${what} time must be a date (epoch milliseconds).`);
  return epochMs === 0 ? 0 : new Date(epochMs).toISOString();
}

/** The last millisecond of a half-open range: the service's `end` is read as inclusive. */
export function inclusiveEnd(endExclusive: number): number {
  return endExclusive - 1;
}

export function enumList(values: readonly string[] | undefined, what: string, pattern: RegExp, example: string): GqlEnum[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  return values.map((raw) => {
    const value = raw.trim().toUpperCase();
    if (!pattern.test(value)) invalid(`“${raw}” is not a valid ${what}; for example ${example}.`);
    return gqlEnum(value);
  });
}

export function pageSize(first: number | undefined, fallback: number, max: number, what: string): number {
  const size = first ?? fallback;
  if (!Number.isSafeInteger(size) || size < 1 || size > max) invalid(`The ${what} page size must be a whole number from 1 to ${max}.`);
  return size;
}

export function invalid(message: string): never {
  throw new InsightsError(message, { code: 'INVALID_ARGUMENT' });
}

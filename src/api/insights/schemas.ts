/**
 * Building blocks shared by the Insights result schemas. Objects are loose (unknown fields pass),
 * and the service's looser encodings are normalised here once: numbers that arrive as null,
 * timestamps as ISO strings or epoch numbers.
 */
import { z } from 'zod';

/** Minutes and counts: null or absent means none. */
export const amount = z
  .number()
  .nullish()
  .transform((v) => v ?? 0);

/** ISO-8601 string, epoch seconds (≤ 10 digits) or epoch milliseconds → epoch ms; null stays null. */
export const timestamp = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === '') return null;
    const ms = toEpochMs(v);
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: `not a timestamp: ${String(v)}` });
      return z.NEVER;
    }
    return ms;
  });

function toEpochMs(v: number | string): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? (Math.abs(v) < 1e10 ? v * 1000 : v) : null;
  if (/^-?\d+$/.test(v)) return toEpochMs(Number(v));
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

export const nullableString = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined || v === '' ? null : String(v)));

export const pageInfoSchema = z
  .looseObject({ hasNextPage: z.boolean().nullish(), endCursor: z.string().nullish() })
  .nullish()
  .transform((p) => ({ hasNextPage: p?.hasNextPage ?? false, endCursor: p?.endCursor ?? null }));

export type PageInfo = z.infer<typeof pageInfoSchema>;

/** A connection `{ totalCount?, resources: [...] }`; a missing connection reads as empty. */
export function connection<T extends z.ZodType>(item: T) {
  return z
    .looseObject({ totalCount: z.number().nullish(), resources: z.array(item).nullish() })
    .nullish()
    .transform((c) => ({ totalCount: c?.totalCount ?? null, resources: (c?.resources ?? []) as z.output<T>[] }));
}

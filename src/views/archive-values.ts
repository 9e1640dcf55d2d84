/**
 * What the `/record` buttons carry in their `value`: the project and the recording, and for
 * list pages where to continue. Compact JSON, validated on the way back (see `values.ts`).
 */
import { z } from 'zod';

export const ArchiveTargetSchema = z.object({
  /** project name */
  p: z.string().min(1),
  /** archive ID */
  r: z.string().min(1),
  /** session ID, when known (notices name it) */
  s: z.string().optional(),
  /** alias the session was named by */
  a: z.string().optional(),
  /** who started the recording, kept when the card is redrawn */
  u: z.string().optional(),
  /** `card`: the button sits on a recording card, which is redrawn after the click */
  o: z.literal('card').optional(),
});
export type ArchiveTarget = z.output<typeof ArchiveTargetSchema>;

export const ArchivePageSchema = z.object({
  p: z.string().min(1),
  /** offset of the page to show */
  o: z.number().int().min(0),
  /** session ID; absent for every recording of the project (`--all`) */
  s: z.string().optional(),
  a: z.string().optional(),
});
export type ArchivePage = z.output<typeof ArchivePageSchema>;

export const StorageTargetSchema = z.object({ p: z.string().min(1) });
export type StorageTarget = z.output<typeof StorageTargetSchema>;

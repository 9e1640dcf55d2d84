/**
 * What buttons carry in their `value` (at most 2000 characters): the project and session they
 * act on and the target, as compact JSON. Decoding validates the shape; an unreadable value
 * (e.g. from an older version of a card) is reported instead of acted upon.
 */
import { z } from 'zod';

export const SessionTargetSchema = z.object({
  /** project name */
  p: z.string().min(1),
  /** session ID */
  s: z.string().min(1),
  /** alias the session was named by */
  a: z.string().optional(),
});
export type SessionTarget = z.output<typeof SessionTargetSchema>;

export const StreamTargetSchema = SessionTargetSchema.extend({ t: z.string().min(1), n: z.string().optional() });
export type StreamTarget = z.output<typeof StreamTargetSchema>;

export const MuteAllTargetSchema = SessionTargetSchema.extend({ x: z.array(z.string()).default([]) });
export type MuteAllTarget = z.output<typeof MuteAllTargetSchema>;

/** The Undo of a layout-classes notice: each changed stream's classes before the change, and who changed them (only to redraw the notice). */
export const UndoLayoutClassesSchema = SessionTargetSchema.extend({
  m: z.string().min(1),
  l: z.array(z.object({ id: z.string().min(1), c: z.array(z.string()) })).min(1),
});
export type UndoLayoutClasses = z.output<typeof UndoLayoutClassesSchema>;

/** The Undo of a mute-everyone notice: the mute, and who made it (only to redraw the notice). */
export const UndoMuteAllSchema = MuteAllTargetSchema.extend({ m: z.string().min(1) });
export type UndoMuteAll = z.output<typeof UndoMuteAllSchema>;

export const KickTargetSchema = SessionTargetSchema.extend({ c: z.string().min(1) });
export type KickTarget = z.output<typeof KickTargetSchema>;

export function encodeValue(value: object): string {
  return JSON.stringify(value);
}

export function decodeValue<S extends z.ZodType>(schema: S, raw: string | undefined): z.output<S> | undefined {
  if (!raw) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `{p, s, a}` from a resolved session. */
export function sessionTarget(s: { projectName: string; sessionId: string; alias?: string }): SessionTarget {
  return { p: s.projectName, s: s.sessionId, ...(s.alias ? { a: s.alias } : {}) };
}

export function targetSession(t: SessionTarget): { projectName: string; sessionId: string; alias?: string } {
  return { projectName: t.p, sessionId: t.s, ...(t.a ? { alias: t.a } : {}) };
}

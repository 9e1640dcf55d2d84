/**
 * The bodies the page posts under `/local/` (PROTOCOL.md), as zod schemas: the server parses
 * each request with one, and the bridge takes the inferred types.
 */
import { z } from 'zod';

const id = z.string().min(1);
/** Slack's `state.values`: `{[blockId]: {[actionId]: {type, value | selected_option | …}}}`. */
export const stateValues = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())));

export const commandBody = z.object({ channel: id, text: z.string() });

export const actionBody = z.object({
  container: z.discriminatedUnion('type', [z.object({ type: z.literal('message'), channel: id, ts: id }), z.object({ type: z.literal('view'), viewId: id })]),
  actionId: id,
  blockId: z.string().optional(),
  value: z.string().optional(),
  selectedOption: z.unknown().optional(),
  selectedOptions: z.array(z.unknown()).optional(),
  values: stateValues.optional(),
});

export const submitBody = z.object({ viewId: id, values: stateValues.default({}) });

export const closeBody = z.object({ viewId: id });

export const optionsBody = z.object({
  viewId: id.optional(),
  channel: id.optional(),
  ts: id.optional(),
  actionId: id,
  blockId: z.string().default(''),
  value: z.string().default(''),
});

export const shortcutBody = z.object({ callbackId: id, channel: id.optional(), ts: id.optional() });

export type CommandBody = z.output<typeof commandBody>;
export type ActionBody = z.output<typeof actionBody>;
export type SubmitBody = z.output<typeof submitBody>;
export type CloseBody = z.output<typeof closeBody>;
export type OptionsBody = z.output<typeof optionsBody>;
export type ShortcutBody = z.output<typeof shortcutBody>;

/** The first problems of a body, for a 400 answer (field paths, never values). */
export function describeProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

/**
 * The shape a Slack request must have before Bolt and the listeners see it: a body that is an
 * object, strings where Slack sends strings, each form field once. Bolt's receiver assumes all of
 * this (a `payload=null` makes it throw outside any handler), and the listeners read `user_id`,
 * `text`, `user.id`, `action_id`… as strings. A request that fails gets a 400 from the signature
 * guard (HTTP) or is acknowledged and ignored (Socket Mode, src/slack/shape-middleware.ts).
 *
 * Only the fields the app reads are checked; anything else Slack adds passes untouched.
 */
import { z } from 'zod';

const text = z.string();
const idOf = z.object({ id: text }).passthrough();

const SlashCommandForm = z
  .object({ command: text, text: text, user_id: text, channel_id: text, team_id: text, trigger_id: text.optional(), response_url: text.optional() })
  .passthrough();

const withUser = { user: idOf, team: idOf.nullish(), channel: idOf.nullish() };

const Interaction = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('block_actions'),
      ...withUser,
      actions: z.array(z.object({ action_id: text, value: text.optional(), block_id: text.optional() }).passthrough()).min(1),
      response_url: text.optional(),
      trigger_id: text.optional(),
      container: z.object({ channel_id: text.optional() }).passthrough().optional(),
      view: z.object({ id: text, private_metadata: text.optional() }).passthrough().optional(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal('view_submission'),
      ...withUser,
      view: z.object({ id: text, callback_id: text, private_metadata: text.optional(), state: z.object({ values: z.record(text, z.record(text, z.object({}).passthrough())) }).passthrough() }).passthrough(),
    })
    .passthrough(),
  z.object({ type: z.literal('view_closed'), ...withUser, view: z.object({ id: text, callback_id: text }).passthrough() }).passthrough(),
  z.object({ type: z.literal('shortcut'), ...withUser, callback_id: text, trigger_id: text }).passthrough(),
  z.object({ type: z.literal('message_action'), ...withUser, callback_id: text, trigger_id: text }).passthrough(),
  z
    .object({
      type: z.literal('block_suggestion'),
      ...withUser,
      action_id: text,
      value: text,
      view: z.object({ id: text, private_metadata: text.optional() }).passthrough().optional(),
    })
    .passthrough(),
]);

const INTERACTION_TYPES: ReadonlySet<string> = new Set(['block_actions', 'view_submission', 'view_closed', 'shortcut', 'message_action', 'block_suggestion']);

/** A kind the app does not listen to: Bolt drops it, so only the user it names is checked. */
const OtherPayload = z.object({ type: text, user: idOf.optional() }).passthrough();

const EventEnvelope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: text }).passthrough(),
  z
    .object({
      type: z.literal('event_callback'),
      team_id: text.optional(),
      event_id: text.optional(),
      event: z.object({ type: text, user: text.optional(), channel: text.optional(), tab: text.optional() }).passthrough(),
    })
    .passthrough(),
  z.object({ type: z.literal('app_rate_limited') }).passthrough(),
]);

export type ShapeVerdict = { ok: true } | { ok: false; problem: string };

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a Slack request';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

function checked(schema: z.ZodType, value: unknown, what: string): ShapeVerdict {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true } : { ok: false, problem: `${what}: ${problemOf(parsed.error)}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An already parsed request body (Bolt's ReceiverEvent body, Socket Mode's payload). */
export function checkParsedBody(body: unknown): ShapeVerdict {
  if (!isObject(body)) return { ok: false, problem: 'the body is not an object' };
  if (body.command !== undefined) return checked(SlashCommandForm, body, 'slash command');
  if (typeof body.type !== 'string') return { ok: false, problem: 'type: not a string' };
  if (body.type === 'url_verification' || body.type === 'event_callback' || body.type === 'app_rate_limited') return checked(EventEnvelope, body, 'event');
  if (!INTERACTION_TYPES.has(body.type)) return checked(OtherPayload, body, body.type);
  return checked(Interaction, body, body.type);
}

/** A raw request body as Slack posts it: a form (slash command, or `payload` JSON) or JSON (events), read as Bolt reads it. */
export function checkRawBody(contentType: string, body: Buffer): ShapeVerdict {
  const raw = body.toString('utf8');
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw);
    const fields: Record<string, string> = {};
    for (const [key, value] of form) {
      if (key in fields) return { ok: false, problem: `${key}: sent more than once` };
      fields[key] = value;
    }
    if (fields.payload === undefined) return checkParsedBody(fields);
    let payload: unknown;
    try {
      payload = JSON.parse(fields.payload);
    } catch {
      return { ok: false, problem: 'payload: not JSON' };
    }
    return checkParsedBody(payload);
  }
  // Bolt reads anything that is not a form as JSON (events).
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  return checkParsedBody(parsed);
}

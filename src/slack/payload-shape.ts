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

// Bolt reads `channel.id` whenever `channel` is not undefined: null would throw in it.
const withUser = { user: idOf, team: idOf.nullish(), channel: idOf.optional() };

const optionValue = z.object({ value: text }).passthrough();
/** One input's state in a submitted view, as the form readers use it. */
const StateElement = z
  .object({
    type: text.optional(),
    value: text.nullish(),
    selected_option: optionValue.nullish(),
    selected_options: z.array(optionValue).nullish(),
    selected_conversation: text.nullish(),
    selected_channel: text.nullish(),
    selected_user: text.nullish(),
    selected_date: text.nullish(),
    selected_time: text.nullish(),
  })
  .passthrough();
const ViewState = z.object({ values: z.record(text, z.record(text, StateElement)) }).passthrough();

const Interaction = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('block_actions'),
      ...withUser,
      actions: z.array(z.object({ action_id: text, value: text.optional(), block_id: text.optional() }).passthrough()).min(1),
      response_url: text.optional(),
      trigger_id: text.optional(),
      container: z.object({ channel_id: text.optional() }).passthrough().optional(),
      view: z.object({ id: text, private_metadata: text.optional(), state: ViewState.optional() }).passthrough().optional(),
      state: ViewState.optional(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal('view_submission'),
      ...withUser,
      view: z.object({ id: text, callback_id: text, private_metadata: text.optional(), state: ViewState }).passthrough(),
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

const EventEnvelope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: text }).passthrough(),
  z
    .object({
      type: z.literal('event_callback'),
      team_id: text.optional(),
      event_id: text.optional(),
      authorizations: z.array(z.object({}).passthrough()).optional(),
      event: z.object({ type: text, user: text.optional(), channel: text.optional(), tab: text.optional() }).passthrough(),
    })
    .passthrough(),
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

/**
 * An already parsed request body (Bolt's ReceiverEvent body, Socket Mode's payload). It is
 * classified the way Bolt classifies it (by `event`, `command`, `name`, `actions`, then `type`),
 * so a body Bolt would route somewhere is checked as what Bolt will take it for, and one Bolt
 * could not route (it would wait 3 s for an ack nobody sends) is refused.
 */
export function checkParsedBody(body: unknown): ShapeVerdict {
  if (!isObject(body)) return { ok: false, problem: 'the body is not an object' };
  if (body.event !== undefined) return checked(EventEnvelope, body, 'event');
  if (body.command !== undefined) return checked(SlashCommandForm, body, 'slash command');
  if (body.type === 'url_verification') return checked(EventEnvelope, body, 'url_verification');
  if (body.name !== undefined || body.type === 'block_suggestion') return checked(Interaction, body, 'options request');
  if (body.actions !== undefined || body.type === 'dialog_submission') return checked(Interaction, body, 'action');
  if (typeof body.type === 'string' && INTERACTION_TYPES.has(body.type)) return checked(Interaction, body, body.type);
  return { ok: false, problem: 'not a kind of request this app serves' };
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

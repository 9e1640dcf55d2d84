/**
 * What "safe to send back to Slack" means for the fuzz and role-matrix tests: no active mention
 * (`<!channel>`, `<!here>`, `<@U…>`, `<#C…>`, `<!subteam^…>`), no `<url|label>` link, and the
 * payload within Slack's Block Kit limits (test/harness/block-kit.ts).
 *
 * Mentions the app writes on purpose (the asker, the channel the command came from) are
 * allowed by passing them in `allowed`; nothing the user typed may produce one.
 */
import { messageProblems, modalProblems } from '../harness/block-kit';

/** Every text Slack parses as mrkdwn in a payload: mrkdwn objects and a message's top-level `text`. */
export function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, topLevel: boolean): void => {
    if (Array.isArray(value)) return value.forEach((v) => walk(v, false));
    if (value === null || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if (obj.type === 'mrkdwn' && typeof obj.text === 'string') out.push(obj.text);
    if (topLevel && typeof obj.text === 'string') out.push(obj.text);
    for (const [key, child] of Object.entries(obj)) {
      if (key === 'value' || key === 'private_metadata' || key === 'action_id' || key === 'block_id' || key === 'metadata') continue;
      walk(child, false);
    }
  };
  walk(payload, true);
  return out;
}

/** `<…>` control sequences Slack turns into a ping, a mention or a link. */
const CONTROL_SEQUENCE = /<([!@#][^>]*|[a-z][a-z0-9+.-]*:[^>]*)>/gi;

/** The active mentions and links in one mrkdwn text that are not in `allowed`. */
export type Allowed = readonly (string | RegExp)[];

export function activeSequences(text: string, allowed: Allowed = []): string[] {
  const isAllowed = (seq: string) => allowed.some((a) => (typeof a === 'string' ? a === seq : a.test(seq)));
  return [...text.matchAll(CONTROL_SEQUENCE)].map((m) => m[0]).filter((seq) => !isAllowed(seq));
}

/** The dates the app itself formats (`<!date^…^{date_short_pretty} {time}|2026-11-02 21:00 UTC>`); a date pings nobody. */
export const APP_DATE = /^<!date\^\d+\^[{}a-z_ ]+\|[0-9T:Z -]+(?: UTC)?>$/;

/** Problems with a message the app sends: Block Kit limits, then pings and forged links. */
export function unsafeMessage(message: unknown, allowed: Allowed = []): string[] {
  const problems = messageProblems(message);
  const text = (message as { text?: unknown }).text;
  if (typeof text === 'string' && text.length > 40_000) problems.push(`text: ${text.length} characters, Slack cuts at 40000`);
  for (const t of mrkdwnTexts(message)) for (const seq of activeSequences(t, allowed)) problems.push(`active sequence ${seq.slice(0, 80)}`);
  return problems;
}

export function unsafeModal(view: unknown, allowed: Allowed = []): string[] {
  const problems = modalProblems(view);
  for (const t of mrkdwnTexts((view as { blocks?: unknown }).blocks ?? []))
    for (const seq of activeSequences(t, allowed)) problems.push(`active sequence ${seq.slice(0, 80)}`);
  return problems;
}

/**
 * Per-field errors of `response_action: 'errors'`: Slack shows them under the inputs (plain
 * text); they must name a field, be short sentences, and never carry a control sequence.
 */
export function unsafeFieldErrors(errors: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [block, message] of Object.entries(errors)) {
    if (typeof message !== 'string' || message.length === 0) problems.push(`${block}: error is not a sentence`);
    else {
      if (message.length > 2000) problems.push(`${block}: ${message.length} characters`);
      for (const seq of activeSequences(message)) problems.push(`${block}: active sequence ${seq.slice(0, 80)}`);
    }
  }
  return problems;
}

/**
 * The identity of one Slack delivery, the same on every retry of it. Slack re-sends the very
 * same payload (only the `X-Slack-Retry-*` headers and the signature differ) when the first ack
 * was late, so the payload's digest names the delivery: it carries what makes each interaction
 * unique (trigger_id, response_url, action_ts, view id and hash, the submitted values), and two
 * different taps never share it. Pure; `undefined` means "never deduplicate".
 */
import { createHash } from 'node:crypto';

type Body = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Body | undefined => (value !== null && typeof value === 'object' ? (value as Body) : undefined);

/** Kinds of delivery that may change state. Options requests (block_suggestion) are reads that
 * must be answered every time, and the one event the app handles (app_home_opened) redraws the
 * Home tab, harmless twice: neither is deduplicated. */
function kindOf(body: Body): string | undefined {
  if (text(body.command) !== undefined) return 'command';
  switch (body.type) {
    case 'block_actions':
      return 'action';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'shortcut':
    case 'message_action':
      return 'shortcut';
    default:
      return undefined;
  }
}

/**
 * Deliveries whose listeners ack before doing anything (commands, clicks, shortcuts): they are
 * claimed after the ack. A form submission may act before its ack, so it is claimed before.
 */
export function claimedAfterAck(body: Body): boolean {
  const kind = kindOf(body);
  return kind === 'command' || kind === 'action' || kind === 'shortcut';
}

export function deliveryKey(body: Body): string | undefined {
  const kind = kindOf(body);
  if (kind === undefined) return undefined;
  const team = text(body.team_id) ?? text(record(body.team)?.id) ?? text(record(body.user)?.team_id) ?? '-';
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
  return `${kind}:${team}:${digest}`;
}

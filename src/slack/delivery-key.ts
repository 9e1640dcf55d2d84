/**
 * The identity of one Slack delivery, the same on every retry of it: Slack re-sends the very
 * same payload (with `X-Slack-Retry-Num`) when the first ack was late, so a field that is
 * unique per interaction names the delivery. Pure; `undefined` means "never deduplicate".
 */

type Body = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Body | undefined => (value !== null && typeof value === 'object' ? (value as Body) : undefined);

function teamOf(body: Body): string {
  return text(body.team_id) ?? text(record(body.team)?.id) ?? text(record(body.user)?.team_id) ?? '-';
}

/**
 * - slash commands, shortcuts: the trigger_id (one per invocation);
 * - block actions: the trigger_id, else action_ts + user + action_id;
 * - view submissions and closes: view id + trigger_id (a resubmission after validation errors
 *   has the same view id and hash but a new trigger_id, and must run);
 * Options requests (block_suggestion) are reads that must be answered each time, and the one
 * event the app handles (app_home_opened) redraws the Home tab, harmless twice: no key.
 */
export function deliveryKey(body: Body): string | undefined {
  const team = teamOf(body);
  const trigger = text(body.trigger_id);
  if (text(body.command) !== undefined) return trigger && `command:${team}:${trigger}`;
  switch (body.type) {
    case 'block_actions': {
      if (trigger) return `action:${team}:${trigger}`;
      const action = record((body.actions as unknown[] | undefined)?.[0]);
      const user = text(record(body.user)?.id);
      const ts = text(action?.action_ts);
      const id = text(action?.action_id);
      return user && ts && id ? `action:${team}:${user}:${id}:${ts}` : undefined;
    }
    case 'view_submission':
    case 'view_closed': {
      const view = text(record(body.view)?.id);
      return view && trigger ? `view:${team}:${view}:${trigger}` : undefined;
    }
    case 'shortcut':
    case 'message_action':
      return trigger && `shortcut:${team}:${trigger}`;
    default:
      return undefined;
  }
}

/**
 * Slack's own failures (after the Web API client's retries) as a short clause people read: what
 * Slack did. Never the raw error, the request or the token.
 */

/** Slack lets a trigger_id open a view for 3 s from the click or command. */
export const TRIGGER_LIFE_MS = 3_000;
/** How long vidops waits for views.open: the trigger's life, less the time already spent. */
export const OPEN_FORM_WITHIN_MS = 2_500;

interface SlackErrorShape {
  code?: unknown;
  statusCode?: unknown;
  retryAfter?: unknown;
  data?: { error?: unknown };
}

/** Why a Slack call failed, as a short clause ("Slack answered with error 503"); undefined when the error is not Slack's. */
export function slackFailureReason(err: unknown): string | undefined {
  const e = (err ?? {}) as SlackErrorShape;
  switch (e.code) {
    case 'vidops_trigger_window_passed':
      return `Slack did not answer within the ${TRIGGER_LIFE_MS / 1000} s it gives a form to open`;
    case 'slack_webapi_rate_limited_error':
      return typeof e.retryAfter === 'number' ? `Slack is rate-limiting vidops for ${e.retryAfter} s` : 'Slack is rate-limiting vidops';
    case 'slack_webapi_http_error':
      return e.statusCode === 429 ? 'Slack is rate-limiting vidops' : `Slack answered with error ${typeof e.statusCode === 'number' ? e.statusCode : 'HTTP'}`;
    case 'slack_webapi_request_error':
      return 'Slack could not be reached';
    case 'slack_webapi_platform_error':
      return typeof e.data?.error === 'string' ? `Slack refused it: \`${e.data.error.replace(/[^\w.-]/g, '').slice(0, 60)}\`` : 'Slack refused it';
    default:
      return undefined;
  }
}

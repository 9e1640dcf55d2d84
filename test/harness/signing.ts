/**
 * Requests signed exactly like Slack signs them: `v0=` + hex HMAC-SHA256 of `v0:{ts}:{body}`
 * with the signing secret, in `X-Slack-Signature`, with `X-Slack-Request-Timestamp` in seconds.
 */
import { createHmac } from 'node:crypto';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

export function slackSignature(signingSecret: string, timestampSeconds: number, body: string): string {
  return 'v0=' + createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${body}`).digest('hex');
}

export function signBody(
  signingSecret: string,
  body: string,
  contentType: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
): SignedRequest {
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestampSeconds),
      'x-slack-signature': slackSignature(signingSecret, timestampSeconds, body),
    },
  };
}

/** A slash command as Slack posts it: `application/x-www-form-urlencoded` fields. */
export function signedSlashCommand(signingSecret: string, fields: Record<string, string>, timestampSeconds?: number): SignedRequest {
  return signBody(signingSecret, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', timestampSeconds);
}

/** An interaction (block action, view submission, shortcut, options): form field `payload` with JSON. */
export function signedInteraction(signingSecret: string, payload: unknown, timestampSeconds?: number): SignedRequest {
  return signBody(
    signingSecret,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    'application/x-www-form-urlencoded',
    timestampSeconds,
  );
}

/** An Events API callback (JSON body). */
export function signedEvent(signingSecret: string, envelope: unknown, timestampSeconds?: number): SignedRequest {
  return signBody(signingSecret, JSON.stringify(envelope), 'application/json', timestampSeconds);
}

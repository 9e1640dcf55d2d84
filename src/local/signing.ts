/**
 * Requests signed the way Slack signs them: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`
 * with the signing secret, sent in `X-Slack-Signature` with `X-Slack-Request-Timestamp`.
 */
import { createHmac } from 'node:crypto';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

export function slackSignature(signingSecret: string, timestampSeconds: number, body: string): string {
  return 'v0=' + createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${body}`).digest('hex');
}

export function signRequest(signingSecret: string, body: string, contentType: string, timestampSeconds = Math.floor(Date.now() / 1000)): SignedRequest {
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestampSeconds),
      'x-slack-signature': slackSignature(signingSecret, timestampSeconds, body),
    },
  };
}

/** Slash commands: form fields. */
export function signForm(signingSecret: string, fields: Record<string, string>): SignedRequest {
  return signRequest(signingSecret, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
}

/** Interactions (block actions, view submissions, shortcuts, options): form field `payload` holding JSON. */
export function signInteraction(signingSecret: string, payload: unknown): SignedRequest {
  return signForm(signingSecret, { payload: JSON.stringify(payload) });
}

/** Events API callbacks: a JSON body. */
export function signEvent(signingSecret: string, envelope: unknown): SignedRequest {
  return signRequest(signingSecret, JSON.stringify(envelope), 'application/json');
}

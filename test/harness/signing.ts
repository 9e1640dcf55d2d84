/**
 * Requests signed exactly like Slack signs them (src/local/signing.ts, which local mode's bridge
 * uses too), shaped as the tests send them.
 */
import { type SignedRequest, signRequest as signBody } from '../../src/local/signing';

export { type SignedRequest, slackSignature, signRequest as signBody } from '../../src/local/signing';

/** A slash command as Slack posts it: `application/x-www-form-urlencoded` fields. */
export function signedSlashCommand(signingSecret: string, fields: Record<string, string>, timestampSeconds?: number): SignedRequest {
  return signBody(signingSecret, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', timestampSeconds);
}

/** An interaction (block action, view submission, shortcut, options): form field `payload` with JSON. */
export function signedInteraction(signingSecret: string, payload: unknown, timestampSeconds?: number): SignedRequest {
  return signBody(signingSecret, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded', timestampSeconds);
}

/** An Events API callback (JSON body). */
export function signedEvent(signingSecret: string, envelope: unknown, timestampSeconds?: number): SignedRequest {
  return signBody(signingSecret, JSON.stringify(envelope), 'application/json', timestampSeconds);
}

import { decodeJwt } from 'jose';
import type { ClientRole } from './tokens';
import { fail, optionalString } from './validate';

/**
 * A participant token passed by the caller. When it is a JWT that names a role, the role must be
 * the one the feature needs (captions: moderator; composed streams: publisher); tokens the
 * adapter cannot read are left for the service to judge.
 */
export function callerToken(value: unknown, requiredRole: ClientRole | undefined, sessionId: string): string | undefined {
  const example = `a token from client.tokens.client({ sessionId, role: "${requiredRole ?? 'publisher'}" })`;
  const token = optionalString('token', value, example);
  if (token === undefined) return undefined;
  if (token === '') fail('token', 'must not be empty when given', example);
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch {
    return token;
  }
  if (requiredRole !== undefined && claims.role !== undefined && claims.role !== requiredRole) {
    fail('token', `has role "${String(claims.role)}" but this feature needs role "${requiredRole}"`, example);
  }
  if (typeof claims.session_id === 'string' && claims.session_id !== sessionId) {
    fail('token', `was issued for another session ("${claims.session_id}")`, example);
  }
  return token;
}

import type { Project } from '../state/model';
import { JwtError, peekClaims, verifyHs256, wallClockSeconds } from './jwt';

export const CLIENT_ROLES = ['publisher', 'subscriber', 'moderator'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

/** Why a participant token was refused; render maps these to 10001 / 10002 / 10007 / 10012. */
export type ClientTokenFailure = 'format' | 'unauthorized' | 'session' | 'expired';

export class ClientTokenError extends Error {
  override readonly name = 'ClientTokenError';

  constructor(
    readonly failure: ClientTokenFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface ClientToken {
  role: ClientRole;
  /** Connection data (`connection_data` claim), '' when absent. */
  data: string;
}

/**
 * Verifies a participant token: HS256 with the project secret, `iss` = API key, `ist` = project,
 * `scope` = session.connect, `session_id` = the request's session, a known `role`, not expired.
 */
export async function verifyClientToken(token: string, project: Project, sessionId: string): Promise<ClientToken> {
  let claims;
  try {
    peekClaims(token);
    claims = await verifyHs256(token, project.secret);
  } catch (error) {
    if (!(error instanceof JwtError)) throw error;
    throw new ClientTokenError(error.failure === 'expired' ? 'expired' : 'format', `Invalid token: ${error.message}`);
  }
  if (claims.iss !== project.apiKey || claims.ist !== 'project') {
    throw new ClientTokenError('unauthorized', 'Token was not issued for this project');
  }
  if (claims.scope !== 'session.connect') throw new ClientTokenError('unauthorized', "Token scope must be 'session.connect'");
  if (typeof claims.exp === 'number' && claims.exp <= wallClockSeconds()) throw new ClientTokenError('expired', 'Token has expired');
  if (claims.session_id !== sessionId) throw new ClientTokenError('session', 'Token does not match the session');
  const role = CLIENT_ROLES.find((r) => r === claims.role);
  if (role === undefined) throw new ClientTokenError('unauthorized', 'Token role must be publisher, subscriber or moderator');
  const data = typeof claims.connection_data === 'string' ? claims.connection_data : '';
  return { role, data };
}

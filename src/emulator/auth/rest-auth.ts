import { ApiError } from '../errors';
import type { Project } from '../state/model';
import type { EmulatorState } from '../state/store';
import { JwtError, peekClaims, verifyHs256, wallClockSeconds } from './jwt';

export const AUTH_HEADER = 'x-service-auth';
export const MAX_TOKEN_LIFETIME_S = 300;

/** How a route authenticates: project JWT for the path's key, account JWT, or the session-create form. */
export type AuthMode = 'project' | 'account' | 'session-create' | 'none';

/** A 403 from the auth header; `malformed` tells header-format problems from refused credentials. */
export class AuthError extends ApiError {
  constructor(
    message: string,
    readonly malformed: boolean,
  ) {
    super(403, message, 403);
  }
}

export interface AuthResult {
  /** The authenticated project (absent for account calls). */
  project?: Project;
}

/**
 * Checks `X-SERVICE-AUTH` the way the spec describes: HS256 with the issuer's secret, `iss`,
 * `ist`, `iat`, and `exp` at most 5 minutes after `iat` and still in the future.
 */
export async function authenticate(state: EmulatorState, header: string | undefined, mode: Exclude<AuthMode, 'none'>, pathKey?: string): Promise<AuthResult> {
  if (header === undefined || header.trim() === '') throw new AuthError('Missing X-SERVICE-AUTH header', true);
  const token = header.trim();
  const claims = peekOrFail(token);
  const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
  if (iss === undefined) throw new AuthError("JWT has no 'iss' claim", true);

  let secret: string;
  let project: Project | undefined;
  if (mode === 'account') {
    if (iss !== state.account.key) throw new AuthError('Issuer not found', false);
    secret = state.account.secret;
  } else {
    project = state.projects.get(iss);
    if (!project) throw new AuthError('Issuer not found', false);
    secret = project.secret;
  }

  try {
    await verifyHs256(token, secret);
  } catch (error) {
    if (error instanceof JwtError) throw new AuthError(error.message, error.failure === 'format');
    throw error;
  }

  const expectedIst = mode === 'account' ? 'account' : 'project';
  if (claims.ist !== expectedIst) throw new AuthError(`JWT 'ist' must be '${expectedIst}' for this operation`, false);
  if (mode === 'project' && iss !== pathKey) throw new AuthError("JWT 'iss' does not match the API key in the path", false);
  checkTimes(claims.iat, claims.exp);
  if (project && project.status === 'SUSPENDED') throw new AuthError(`Project ${project.apiKey} is suspended`, false);
  return project ? { project } : {};
}

function peekOrFail(token: string): ReturnType<typeof peekClaims> {
  try {
    return peekClaims(token);
  } catch (error) {
    throw new AuthError(error instanceof Error ? error.message : 'Malformed JWT', true);
  }
}

function checkTimes(iat: unknown, exp: unknown): void {
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new AuthError("JWT has no valid 'iat' claim", true);
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new AuthError("JWT has no valid 'exp' claim", true);
  if (exp <= wallClockSeconds()) throw new AuthError('JWT has expired', false);
  if (exp < iat) throw new AuthError("JWT 'exp' is before 'iat'", false);
  if (exp - iat > MAX_TOKEN_LIFETIME_S) throw new AuthError('JWT lifetime (exp - iat) exceeds 5 minutes', false);
}

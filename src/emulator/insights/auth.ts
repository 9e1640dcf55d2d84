import { JwtError, peekClaims, verifyHs256, wallClockSeconds } from '../auth/jwt';
import { MAX_TOKEN_LIFETIME_S } from '../auth/rest-auth';
import type { Project } from '../state/model';
import type { EmulatorState } from '../state/store';
import { CODES, type ErrorCode } from './codes';

export class InsightsAuthError extends Error {
  override readonly name = 'InsightsAuthError';

  constructor(
    readonly errorCode: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The token's issuer without verifying anything (rate limits count per API key). */
export function peekIssuer(header: string | undefined): string | undefined {
  if (!header?.trim()) return undefined;
  try {
    const iss = peekClaims(header.trim()).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The project of an Insights request, checked like the REST side (HS256 with the project
 * secret, `iss` = project ID, `ist` = project, `iat`/`exp` at most 5 minutes apart, not expired,
 * wall clock) but answered with Insights codes: 1001 no header, 1011 not a valid JWT (format,
 * signature, expiry), 1000 unknown issuer, 1020 times that cannot be validated, 1021 not a
 * project token or a suspended project.
 */
export async function authenticateInsights(state: EmulatorState, header: string | undefined): Promise<Project> {
  const token = header?.trim();
  if (!token) throw new InsightsAuthError(CODES.noAuthentication, 'No valid authentication: missing X-SERVICE-AUTH header');
  let claims;
  try {
    claims = peekClaims(token);
  } catch (error) {
    throw new InsightsAuthError(CODES.invalidToken, `Invalid token: ${error instanceof Error ? error.message : 'malformed'}`);
  }
  const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
  if (iss === undefined) throw new InsightsAuthError(CODES.invalidApiKey, "Invalid API key: the token has no 'iss' claim");
  const project = state.projects.get(iss);
  if (!project) throw new InsightsAuthError(CODES.invalidApiKey, `Invalid API key ${iss}`);
  try {
    await verifyHs256(token, project.secret);
  } catch (error) {
    if (error instanceof JwtError) throw new InsightsAuthError(CODES.invalidToken, `Invalid token: ${error.message}`);
    throw error;
  }
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) {
    throw new InsightsAuthError(CODES.tokenUnverifiable, "Unable to validate the token: 'iat' and 'exp' are required");
  }
  if (exp <= wallClockSeconds()) throw new InsightsAuthError(CODES.invalidToken, 'Invalid token: expired');
  if (exp < iat || exp - iat > MAX_TOKEN_LIFETIME_S) {
    throw new InsightsAuthError(CODES.tokenUnverifiable, 'Unable to validate the token: exp must be at most 5 minutes after iat');
  }
  if (claims.ist !== 'project') throw new InsightsAuthError(CODES.notAuthorized, "Not authorized: the token's 'ist' must be 'project'");
  if (project.status === 'SUSPENDED') throw new InsightsAuthError(CODES.notAuthorized, `Not authorized to view data of project ${iss}: suspended`);
  return project;
}

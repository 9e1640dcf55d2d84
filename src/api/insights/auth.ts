import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

export const INSIGHTS_TOKEN_LIFETIME_S = 180;

export interface InsightsTokenInput {
  /** The project ID (its API key): Insights expects it as `iss`. */
  projectId: string;
  /** Signing key: the project secret, already encoded. */
  key: Uint8Array;
  nowMs: number;
}

/** A fresh X-SERVICE-AUTH token for one Insights request (Authentication, point 5). */
export async function signInsightsToken({ projectId, key, nowMs }: InsightsTokenInput): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ ist: 'project' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(projectId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + INSIGHTS_TOKEN_LIFETIME_S)
    .setJti(randomUUID())
    .sign(key);
}

import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';

export type JwtFailure = 'format' | 'signature' | 'expired';

export class JwtError extends Error {
  override readonly name = 'JwtError';

  constructor(
    readonly failure: JwtFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the claims of an HS256 JWT without trusting them (to find the issuer's secret). */
export function peekClaims(token: string): JWTPayload {
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'HS256') throw new JwtError('format', `JWT must be signed with HS256, not ${String(header.alg)}`);
    return decodeJwt(token);
  } catch (error) {
    if (error instanceof JwtError) throw error;
    throw new JwtError('format', 'Malformed JWT');
  }
}

/**
 * Verifies the HS256 signature with `secret`. Expiry is judged against the wall clock, not the
 * emulator clock: callers mint tokens with their own clock, and tests move emulator time by hours.
 */
export async function verifyHs256(token: string, secret: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new JwtError('expired', 'JWT has expired');
    if (error instanceof errors.JWSSignatureVerificationFailed) throw new JwtError('signature', 'JWT signature verification failed');
    throw new JwtError('format', error instanceof Error ? `Invalid JWT: ${error.message}` : 'Invalid JWT');
  }
}

export const wallClockSeconds = (): number => Math.floor(Date.now() / 1000);

import { randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';

/** `project` for normal calls, `account` for project administration. */
export type IssuerType = 'project' | 'account';

export const REST_TOKEN_LIFETIME_S = 180;

/**
 * How long one REST token may be reused. Signing through jose (WebCrypto HMAC, async, key
 * imported once) costs 0.1–0.3 ms of CPU per token (3,500–10,000 tokens/s on the shared bench
 * machine). Against the in-process emulator, get-archive at concurrency 32 ran at ~1,540 calls/s
 * with a fresh token per call and ~1,840 calls/s with reuse: signing took ~16% of throughput,
 * and reuse brought the adapter to the bare-undici floor (bench/README.md). So a token is reused
 * for at most 30 s: every token sent still has ≥ 150 s of its 180 s lifetime left, far inside
 * the 5-minute limit and any plausible clock skew. (`jti` is optional in the spec; the emulator
 * accepts a repeated one, see test/api/against-emulator-resilience.test.ts.)
 * Pass `tokenReuseMs: 0` for strictly one token per call, as the spec recommends.
 */
export const DEFAULT_TOKEN_REUSE_MS = 30_000;
const EXPIRY_MARGIN_MS = 60_000;

/** Holds one HMAC key (imported once) and signs HS256 JWTs with it. The secret is never exposed. */
export class HmacSigner {
  readonly #key: Promise<webcrypto.CryptoKey>;

  constructor(secret: string) {
    this.#key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  }

  async sign(claims: JWTPayload): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(await this.#key);
  }
}

export interface RestTokenOptions {
  reuseMs?: number;
  now?: () => number;
}

interface CurrentToken {
  token: Promise<string>;
  issuedAtMs: number;
  /** Set once signing succeeded. */
  signed?: string;
}

/**
 * Mints the X-SERVICE-AUTH token for REST calls: claims `iss`, `ist`, `iat`, `exp` = iat + 180,
 * `jti`. Concurrent callers share one in-flight signing, and a token is reused for at most
 * `reuseMs` and never closer than a minute to its expiry.
 */
export class RestTokenSource {
  readonly apiKey: string;
  readonly issuerType: IssuerType;
  readonly #signer: HmacSigner;
  readonly #reuseMs: number;
  readonly #now: () => number;
  #current?: CurrentToken;
  #minted = 0;

  constructor(apiKey: string, signer: HmacSigner, issuerType: IssuerType, options: RestTokenOptions = {}) {
    this.apiKey = apiKey;
    this.issuerType = issuerType;
    this.#signer = signer;
    this.#reuseMs = Math.min(options.reuseMs ?? DEFAULT_TOKEN_REUSE_MS, REST_TOKEN_LIFETIME_S * 1000 - EXPIRY_MARGIN_MS);
    this.#now = options.now ?? Date.now;
  }

  /** Tokens signed so far (for the benchmark's tokens-per-second figure). */
  get minted(): number {
    return this.#minted;
  }

  /**
   * The token `token()` would answer with, when that is one already signed: callers skip the
   * await (most calls, with reuse on). Undefined when a token must be signed or is being signed.
   */
  reusable(): string | undefined {
    const current = this.#current;
    return current?.signed !== undefined && this.#fresh(current.issuedAtMs, this.#now()) ? current.signed : undefined;
  }

  token(): Promise<string> {
    const nowMs = this.#now();
    const current = this.#current;
    if (current && this.#fresh(current.issuedAtMs, nowMs)) return current.token;
    const token = this.#mint(nowMs);
    const entry: CurrentToken = { token, issuedAtMs: nowMs };
    this.#current = entry;
    token.then(
      (signed) => {
        entry.signed = signed;
      },
      () => {
        if (this.#current === entry) this.#current = undefined;
      },
    );
    return token;
  }

  #fresh(issuedAtMs: number, nowMs: number): boolean {
    return this.#reuseMs > 0 && nowMs - issuedAtMs < this.#reuseMs && nowMs >= issuedAtMs;
  }

  #mint(nowMs: number): Promise<string> {
    this.#minted += 1;
    const iat = Math.floor(nowMs / 1000);
    return this.#signer.sign({
      iss: this.apiKey,
      ist: this.issuerType,
      iat,
      exp: iat + REST_TOKEN_LIFETIME_S,
      jti: randomUUID(),
    });
  }
}

/**
 * Participant (client) tokens: what SIP dial, captions, render and the Audio Connector hand to
 * the service so their virtual participant can join the session. Signed with the project secret.
 */
import { randomUUID } from 'node:crypto';
import type { HmacSigner } from './auth';
import { describeValue, fail, optionalIntInRange, optionalString, optionalStringArray, oneOf, requireId } from './validate';

export const CLIENT_ROLES = ['subscriber', 'publisher', 'moderator', 'publisheronly'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

export interface ClientTokenOptions {
  sessionId: string;
  role: ClientRole;
  /** Connection data other participants see (e.g. which SIP endpoint this is). */
  data?: string;
  initialLayoutClassList?: string[];
  /** Default 24 hours. */
  expiresInSeconds?: number;
}

export const DEFAULT_CLIENT_TOKEN_TTL_S = 24 * 60 * 60;
const MAX_CLIENT_TOKEN_TTL_S = 30 * 24 * 60 * 60;

export interface ClientTokenClaims {
  iss: string;
  ist: 'project';
  iat: number;
  exp: number;
  jti: string;
  scope: 'session.connect';
  session_id: string;
  role: ClientRole;
  connection_data?: string;
  initial_layout_class_list?: string;
}

export function clientTokenClaims(apiKey: string, options: ClientTokenOptions, nowMs = Date.now()): ClientTokenClaims {
  const sessionId = requireId('sessionId', options.sessionId);
  const role = oneOf('role', options.role, CLIENT_ROLES);
  const data = optionalString('data', options.data, '"sip:alice@example.com"');
  const classes = optionalStringArray('initialLayoutClassList', options.initialLayoutClassList, '["focus", "full"]');
  classes?.forEach((layoutClass, index) => {
    if (layoutClass === '' || /\s/.test(layoutClass)) {
      fail(`initialLayoutClassList[${index}]`, `must be a non-empty class name without spaces (got ${describeValue(layoutClass)})`, '"focus"');
    }
  });
  const ttl = optionalIntInRange('expiresInSeconds', options.expiresInSeconds, 1, MAX_CLIENT_TOKEN_TTL_S, 3600) ?? DEFAULT_CLIENT_TOKEN_TTL_S;
  const iat = Math.floor(nowMs / 1000);
  return {
    iss: apiKey,
    ist: 'project',
    iat,
    exp: iat + ttl,
    jti: randomUUID(),
    scope: 'session.connect',
    session_id: sessionId,
    role,
    ...(data !== undefined && { connection_data: data }),
    ...(classes !== undefined && classes.length > 0 && { initial_layout_class_list: classes.join(' ') }),
  };
}

export interface ProjectSigner {
  apiKey(): string;
  signer(): HmacSigner;
}

export class Tokens {
  readonly #project: ProjectSigner;

  constructor(project: ProjectSigner) {
    this.#project = project;
  }

  /** A participant token for the session, signed with the project secret. */
  client(options: ClientTokenOptions): Promise<string> {
    return this.#project.signer().sign({ ...clientTokenClaims(this.#project.apiKey(), options) });
  }
}

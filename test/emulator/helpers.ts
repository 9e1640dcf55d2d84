import { SignJWT } from 'jose';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator';

export interface Claims {
  [claim: string]: unknown;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** An HS256 JWT; `claims` override the defaults (set a claim to undefined to drop it). */
export async function jwt(secret: string, claims: Claims): Promise<string> {
  const payload: Claims = {};
  for (const [name, value] of Object.entries(claims)) if (value !== undefined) payload[name] = value;
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

export function projectToken(apiKey: string, secret: string, overrides: Claims = {}): Promise<string> {
  const iat = nowSeconds();
  return jwt(secret, { iss: apiKey, ist: 'project', iat, exp: iat + 180, jti: `${Math.random()}`, ...overrides });
}

export function accountToken(key: string, secret: string, overrides: Claims = {}): Promise<string> {
  return projectToken(key, secret, { ist: 'account', ...overrides });
}

export function clientToken(apiKey: string, secret: string, sessionId: string, role: string, overrides: Claims = {}): Promise<string> {
  const iat = nowSeconds();
  return jwt(secret, {
    iss: apiKey,
    ist: 'project',
    iat,
    exp: iat + 3600,
    scope: 'session.connect',
    session_id: sessionId,
    role,
    ...overrides,
  });
}

export interface CallResult {
  status: number;
  json: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  form?: Record<string, string>;
  token?: string | null;
  headers?: Record<string, string>;
}

/** A test harness: a running emulator, one project, and raw HTTP calls signed for it. */
export class Harness {
  private constructor(
    readonly emu: RunningEmulator,
    readonly apiKey: string,
    readonly apiSecret: string,
  ) {}

  static async start(options: EmulatorOptions = {}): Promise<Harness> {
    const emu = await startEmulator(options);
    const { apiKey, apiSecret } = emu.control.createProject({ name: 'Test project' });
    return new Harness(emu, apiKey, apiSecret);
  }

  get control() {
    return this.emu.control;
  }

  /** A routed session with `clients` connected clients, each publishing a camera stream when `publish`. */
  room(opts: { clients?: number; publish?: boolean; mediaMode?: 'routed' | 'relayed'; archiveMode?: 'manual' | 'always' } = {}) {
    const { control, apiKey } = this;
    const sessionOpts = { mediaMode: opts.mediaMode ?? 'routed', archiveMode: opts.archiveMode ?? 'manual' } as const;
    const sessionId = control.createSession(apiKey, sessionOpts);
    const connections: string[] = [];
    const streams: string[] = [];
    for (let i = 0; i < (opts.clients ?? 1); i += 1) {
      const connectionId = control.connect(apiKey, sessionId, { data: `user=${i}` });
      connections.push(connectionId);
      if (opts.publish ?? true) streams.push(control.publish(apiKey, sessionId, connectionId));
    }
    return { sessionId, connections, streams };
  }

  /** `path` is relative to `/v2/project/{apiKey}` unless it starts with `//` (then raw from base). */
  async call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
    const url = path.startsWith('//') ? `${this.emu.baseUrl}${path.slice(1)}` : `${this.emu.baseUrl}/v2/project/${this.apiKey}${path}`;
    const token = opts.token === undefined ? await projectToken(this.apiKey, this.apiSecret) : opts.token;
    const headers: Record<string, string> = { ...opts.headers };
    if (token !== null) headers['X-SERVICE-AUTH'] = token;
    let body: string | undefined;
    if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    } else if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  }

  clientToken(sessionId: string, role = 'publisher', overrides: Claims = {}): Promise<string> {
    return clientToken(this.apiKey, this.apiSecret, sessionId, role, overrides);
  }

  close(): Promise<void> {
    return this.emu.close();
  }
}

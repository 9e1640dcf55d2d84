import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { RETRY_FAST, VideoClient, type VideoClientOptions, closeSharedPools } from '../../../src/api';
import { type RunningEmulator, startEmulator } from '../../../src/emulator';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** A running emulator, one project in it, and adapter clients pointed at it. */
export class EmulatorWorld {
  readonly delays: number[] = [];

  private constructor(
    readonly emulator: RunningEmulator,
    readonly apiKey: string,
    readonly apiSecret: string,
  ) {}

  static async start(): Promise<EmulatorWorld> {
    const emulator = await startEmulator();
    const { apiKey, apiSecret } = emulator.control.createProject({ name: 'adapter tests' });
    return new EmulatorWorld(emulator, apiKey, apiSecret);
  }

  get control() {
    return this.emulator.control;
  }

  client(options: Partial<VideoClientOptions> = {}): VideoClient {
    return new VideoClient({
      baseUrl: this.emulator.baseUrl,
      apiKey: this.apiKey,
      apiSecret: this.apiSecret,
      accountApiKey: this.control.account.key,
      accountApiSecret: this.control.account.secret,
      retry: RETRY_FAST,
      timeouts: { headersMs: 3_000 },
      sleep: async (ms) => {
        this.delays.push(ms);
      },
      ...options,
    });
  }

  /** A routed session (via the control plane) with one connected client publishing a camera. */
  session(options: { mediaMode?: 'routed' | 'relayed'; publish?: boolean } = {}) {
    const sessionId = this.control.createSession(this.apiKey, { mediaMode: options.mediaMode ?? 'routed' });
    const connectionId = this.control.connect(this.apiKey, sessionId);
    const streamId = options.publish === false ? undefined : this.control.publish(this.apiKey, sessionId, connectionId, { videoType: 'camera', name: 'cam' });
    return { sessionId, connectionId, streamId: streamId as string };
  }

  /** Number of logged public requests whose path contains `fragment`. */
  requestsTo(fragment: string, method?: string): number {
    return this.control.requestLog().filter((entry) => entry.path.includes(fragment) && (!method || entry.method === method)).length;
  }

  /** A REST token with arbitrary claims, for checks the adapter itself would never send. */
  async token(claims: Record<string, unknown> = {}, secret = this.apiSecret): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.apiKey, ist: 'project', iat, exp: iat + 180, jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
  }

  /** A bare HTTP call, bypassing the adapter's validation. */
  async raw(method: string, path: string, body?: unknown, token?: string): Promise<RawResponse> {
    const response = await request(`${this.emulator.baseUrl}${path}`, {
      method: method as 'GET',
      headers: {
        'x-service-auth': token ?? (await this.token()),
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text, json: () => JSON.parse(text) };
  }

  path(...segments: string[]): string {
    return `/v2/project/${this.apiKey}/${segments.join('/')}`;
  }

  async close(): Promise<void> {
    await closeSharedPools();
    await this.emulator.close();
  }
}

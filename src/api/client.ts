import { Archives } from './archives';
import { type IssuerType, HmacSigner, RestTokenSource } from './auth';
import { Broadcasts } from './broadcasts';
import { Captions } from './captions';
import { AudioConnector } from './connect';
import type { ResourceContext } from './context';
import { DEFAULT_TIMEOUTS, HttpTransport } from './http';
import { Moderation } from './moderation';
import type { VideoRequestObserver } from './observer';
import { Projects } from './projects';
import { RenderStreams } from './render';
import { RETRY_DEFAULT, type RetryPolicy } from './retry';
import { Sessions } from './sessions';
import { Signals } from './signals';
import { Sip } from './sip';
import { Streams } from './streams';
import { Tokens } from './tokens';
import { fail, optionalIntInRange, requireString, requireUrl } from './validate';

export interface VideoClientOptions {
  /** e.g. "https://video.example.com" (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Account-level credentials, needed only for `projects`. */
  accountApiKey?: string;
  accountApiSecret?: string;
  /** Defaults: connect 5 s, headers 15 s, body 15 s. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Default RETRY_DEFAULT; RETRY_FAST for tests, RETRY_NONE to disable. */
  retry?: RetryPolicy;
  userAgent?: string;
  /** How long one REST JWT may be reused (0–120000 ms, default 30000). See auth.ts. */
  tokenReuseMs?: number;
  /** Replaces the wait between retries (tests use it to observe delays without sleeping). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told the secret values (stream keys, passwords, client tokens) each request carries, before it is sent. */
  secretsSent?: (values: readonly string[]) => void;
  /** Told about every HTTP exchange: operation, status, duration (metrics subscribe here). */
  observer?: VideoRequestObserver;
  /** The id sent as `X-Request-Id` with each call, read when the call is made. */
  requestId?: () => string | undefined;
}

const DEFAULT_USER_AGENT = `vidops-video-client/0.1 node/${process.versions.node}`;

interface SigningCredentials {
  rest: RestTokenSource;
  signer: HmacSigner;
  secret: string;
}

export class VideoClient {
  readonly sessions: Sessions;
  readonly signals: Signals;
  readonly moderation: Moderation;
  readonly streams: Streams;
  readonly archives: Archives;
  readonly broadcasts: Broadcasts;
  readonly sip: Sip;
  readonly captions: Captions;
  readonly render: RenderStreams;
  readonly connect: AudioConnector;
  readonly projects: Projects;
  readonly tokens: Tokens;

  readonly #tokenReuseMs: number | undefined;
  #project: SigningCredentials;
  readonly #account: SigningCredentials | undefined;

  constructor(options: VideoClientOptions) {
    const baseUrl = requireUrl('baseUrl', options.baseUrl, ['http', 'https'], '"https://video.example.com"').href;
    this.#tokenReuseMs = optionalIntInRange('tokenReuseMs', options.tokenReuseMs, 0, 120_000);
    this.#project = this.#credentials('project', options.apiKey, options.apiSecret);
    if ((options.accountApiKey === undefined) !== (options.accountApiSecret === undefined)) {
      fail('accountApiSecret', 'accountApiKey and accountApiSecret must be given together', '{ accountApiKey: "1234", accountApiSecret: "…" }');
    }
    this.#account = options.accountApiKey === undefined ? undefined : this.#credentials('account', options.accountApiKey, options.accountApiSecret);

    const http = new HttpTransport({
      baseUrl,
      timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      retry: options.retry ?? RETRY_DEFAULT,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      tokenSource: (issuer) => this.#tokenSource(issuer),
      credentialSecrets: () => [this.#project.secret, ...(this.#account ? [this.#account.secret] : [])],
      sleep: options.sleep,
      observer: options.observer,
      secretsSent: options.secretsSent,
      requestId: options.requestId,
    });
    this.tokens = new Tokens({ apiKey: () => this.apiKey, signer: () => this.#project.signer });
    const ctx: ResourceContext = { http, tokens: this.tokens, apiKey: () => this.apiKey };
    this.sessions = new Sessions(ctx);
    this.signals = new Signals(ctx);
    this.moderation = new Moderation(ctx);
    this.streams = new Streams(ctx);
    this.archives = new Archives(ctx);
    this.broadcasts = new Broadcasts(ctx);
    this.sip = new Sip(ctx);
    this.captions = new Captions(ctx);
    this.render = new RenderStreams(ctx);
    this.connect = new AudioConnector(ctx);
    this.projects = new Projects(ctx);
  }

  get apiKey(): string {
    return this.#project.rest.apiKey;
  }

  /** Switches project credentials, e.g. after `projects.refreshSecret`. */
  setCredentials(apiKey: string, apiSecret: string): void {
    this.#project = this.#credentials('project', apiKey, apiSecret);
  }

  /** Tokens signed so far by this client (REST calls; participant tokens excluded). */
  get restTokensMinted(): number {
    return this.#project.rest.minted + (this.#account?.rest.minted ?? 0);
  }

  #credentials(issuer: IssuerType, apiKey: unknown, apiSecret: unknown): SigningCredentials {
    const keyField = issuer === 'project' ? 'apiKey' : 'accountApiKey';
    const secretField = issuer === 'project' ? 'apiSecret' : 'accountApiSecret';
    const key = requireString(keyField, apiKey, '"46123456"');
    const secret = requireString(secretField, apiSecret, 'the secret shown with that key');
    const signer = new HmacSigner(secret);
    return { rest: new RestTokenSource(key, signer, issuer, { reuseMs: this.#tokenReuseMs }), signer, secret };
  }

  #tokenSource(issuer: IssuerType): RestTokenSource {
    if (issuer === 'project') return this.#project.rest;
    if (this.#account) return this.#account.rest;
    fail(
      'accountApiKey',
      'project administration needs account credentials (accountApiKey and accountApiSecret)',
      'new VideoClient({ ..., accountApiKey: "1234", accountApiSecret: "…" })',
    );
  }
}

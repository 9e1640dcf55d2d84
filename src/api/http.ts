/**
 * The one request path of the adapter: token, undici pool, timeouts, retries, typed errors,
 * and response parsing.
 */
import { type Dispatcher, Pool } from './undici';
import { ResponseBody, readBody } from './body';
import type { z } from 'zod';
import type { IssuerType, RestTokenSource } from './auth';
import { VideoAbortedError, VideoApiError, VideoConnectionError, VideoTimeoutError, NOT_SENT_CODES, errorFromResponse, redact } from './errors';
import { type VideoRequestObserver, operationName } from './observer';
import { type AttemptFailure, type HttpMethod, type RetryPolicy, parseRetryAfter, retryDelayMs, shouldRetry } from './retry';

export interface Timeouts {
  /** Opening a TCP/TLS connection. */
  connectMs: number;
  /** From sending the request until the response headers arrive. */
  headersMs: number;
  /** Maximum gap between two chunks of the response body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({ connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 });

/** Per-call options, accepted as the last argument of every method. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Budget for the whole call, retries and backoff included. */
  timeoutMs?: number;
  /** Overrides the client's retry policy for this call. */
  maxRetries?: number;
}

/** The answer a parser reads, and how to report a body that does not match (also later, see lists.ts). */
export interface ResponseContext {
  method: HttpMethod;
  path: string;
  status: number;
  /** The error the call fails with when (part of) its body is malformed; `raw` is that part. */
  unexpected(cause: unknown, raw: string): VideoApiError;
}

export type ResponseParser<T> = (body: ResponseBody, contentType: string, response: ResponseContext) => T;

export interface ApiRequest<T> {
  method: HttpMethod;
  /** Path below the base URL, segments already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** Which credentials sign the call; `project` unless stated. */
  issuer?: IssuerType;
  /** Omitted: the body is ignored and the call resolves to undefined. */
  parse?: ResponseParser<T>;
  /** Values in the request (keys, passwords, tokens) that must never be echoed into errors. */
  secrets?: readonly string[];
}

export interface TransportConfig {
  baseUrl: string;
  timeouts: Timeouts;
  retry: RetryPolicy;
  userAgent: string;
  tokenSource(issuer: IssuerType): RestTokenSource;
  /** Current API secrets, scrubbed from anything an error carries. */
  credentialSecrets(): readonly string[];
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Told the secret values each request carries, so the app can scrub them wherever it may echo them. */
  secretsSent?: (values: readonly string[]) => void;
  /** Told about every attempt (metrics, logs); its errors are ignored. */
  observer?: VideoRequestObserver;
  /** Sent as `X-Request-Id` when it returns one (the Slack request the call serves). */
  requestId?: () => string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Connection pools: one per origin (and connect timeout, a pool-level setting), shared by every
// client in the process so keep-alive connections are reused across VideoClient instances.

const pools = new Map<string, Pool>();
/**
 * Calls beyond this many wait in the pool for a socket, and that wait counts against the
 * request's patience bound (20 s, interaction/still-waiting.ts). With 64, a burst of 1,000
 * `/mute`s (two calls each) against an 800 ms service queued for 25 s: 464 passed the bound,
 * muted late with their notices dropped (bench:ack). With 256, a burst of 2,000 drains in 14 s.
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 256;
const KEEP_ALIVE_MS = 10_000;

export function sharedPool(origin: string, connectTimeoutMs: number): Pool {
  const key = `${origin} ${connectTimeoutMs}`;
  const existing = pools.get(key);
  if (existing && !existing.closed && !existing.destroyed) return existing;
  const pool = new Pool(origin, {
    connections: MAX_CONNECTIONS_PER_ORIGIN,
    keepAliveTimeout: KEEP_ALIVE_MS,
    connect: { timeout: connectTimeoutMs },
  });
  pools.set(key, pool);
  return pool;
}

/** Closes every shared pool (process shutdown, end of a test run). */
export async function closeSharedPools(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((pool) => pool.close().catch(() => undefined)));
}

// ---------------------------------------------------------------------------------------------

const EMPTY_BODY = new ResponseBody([]);

type Attempt<T> = { ok: true; value: T; status: number } | { ok: false; failure: AttemptFailure; error: VideoApiError };

export class HttpTransport {
  readonly #config: TransportConfig;
  readonly #origin: string;
  readonly #basePath: string;
  #currentPool: Pool | undefined;

  constructor(config: TransportConfig) {
    const base = new URL(config.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new VideoApiError(`baseUrl must be an http(s) URL, e.g. "https://video.example.com" (got ${base.protocol})`);
    }
    this.#config = config;
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
  }

  request<T>(req: ApiRequest<T> & { parse: ResponseParser<T> }, options?: CallOptions): Promise<T>;
  request(req: ApiRequest<never>, options?: CallOptions): Promise<void>;
  async request<T>(req: ApiRequest<T>, options: CallOptions = {}): Promise<T | void> {
    const policy = options.maxRetries === undefined ? this.#config.retry : { ...this.#config.retry, maxRetries: options.maxRetries };
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    // Only a call that can be cut short gets a signal: undici listens on every signal it is given.
    const controller = deadline !== undefined || options.signal ? new AbortController() : undefined;
    const timer = deadline === undefined ? undefined : setTimeout(() => controller!.abort(), options.timeoutMs);
    const forwardAbort = options.signal && (() => controller!.abort());
    if (forwardAbort) options.signal!.addEventListener('abort', forwardAbort, { once: true });
    const { contentType, body } = requestBody(req);
    const path = this.#basePath + req.path + queryString(req.query);
    try {
      // One async frame for the whole call, retries included: each attempt's steps are inline.
      for (let retriesDone = 0; ; retriesDone++) {
        if (options.signal?.aborted) throw this.#aborted(req, options.signal.reason);
        const requestId = this.#config.requestId?.();
        const started = this.#config.observer ? performance.now() : 0; // timed only for an observer
        if (req.secrets?.length) this.#config.secretsSent?.(req.secrets);
        let token: string | undefined;
        let response: Dispatcher.ResponseData | undefined;
        let received = EMPTY_BODY;
        let attempt: Attempt<T | void> | undefined;
        try {
          const source = this.#config.tokenSource(req.issuer ?? 'project');
          token = source.reusable() ?? (await source.token());
          response = await this.#pool().request({
            method: req.method,
            path,
            headers: this.#headers(token, requestId, contentType),
            body,
            signal: controller?.signal,
            headersTimeout: this.#config.timeouts.headersMs,
            bodyTimeout: this.#config.timeouts.bodyMs,
          });
          received = await readBody(response.body);
        } catch (cause) {
          attempt = this.#transportFailure(req, cause, controller?.signal, options);
        }
        attempt ??= this.#answer(req, response!, received, token);
        this.#observe(req, attempt, started, retriesDone, requestId);
        if (attempt.ok) return attempt.value;
        if (!shouldRetry(req.method, attempt.failure, retriesDone, policy)) throw attempt.error;
        const delay = retryDelayMs(retriesDone, policy, attempt.error.retryAfterMs, this.#config.random);
        if (delay === undefined) throw attempt.error;
        if (deadline !== undefined && Date.now() + delay >= deadline) throw attempt.error;
        await this.#sleep(delay, controller?.signal ?? NEVER_ABORTED);
      }
    } finally {
      clearTimeout(timer);
      if (forwardAbort) options.signal!.removeEventListener('abort', forwardAbort);
    }
  }

  #headers(token: string, requestId: string | undefined, contentType: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#config.userAgent, 'x-service-auth': token };
    if (requestId !== undefined) headers['x-request-id'] = requestId;
    if (contentType !== undefined) headers['content-type'] = contentType;
    return headers;
  }

  /** What an answer that arrived whole means: the parsed value, or the error to fail or retry with. */
  #answer<T>(req: ApiRequest<T>, response: Dispatcher.ResponseData, body: ResponseBody, token: string | undefined): Attempt<T | void> {
    const { statusCode } = response;
    const contentType = headerValue(response.headers['content-type']) ?? '';
    if (statusCode < 200 || statusCode >= 300) {
      const error = errorFromResponse({
        method: req.method,
        path: req.path,
        status: statusCode,
        body: body.text,
        contentType,
        retryAfterMs: parseRetryAfter(headerValue(response.headers['retry-after'])),
        secrets: this.#secrets(req, token),
      });
      return { ok: false, failure: { kind: 'status', status: statusCode }, error };
    }
    if (req.parse === undefined) return { ok: true, value: undefined, status: statusCode };
    const context = responseContext(req.method, req.path, statusCode, () => this.#secrets(req, token));
    try {
      return { ok: true, value: req.parse(body, contentType, context), status: statusCode };
    } catch (cause) {
      return { ok: false, failure: { kind: 'final' }, error: context.unexpected(cause, body.text) };
    }
  }

  /** Everything an error about this request must not echo. */
  #secrets(req: ApiRequest<unknown>, token: string | undefined): readonly string[] {
    return [...(req.secrets ?? []), ...this.#config.credentialSecrets(), ...(token === undefined ? [] : [token])];
  }

  #observe(req: ApiRequest<unknown>, attempt: Attempt<unknown>, started: number, retry: number, requestId: string | undefined): void {
    const observer = this.#config.observer;
    if (!observer) return;
    const durationMs = performance.now() - started;
    try {
      observer({
        operation: operationName(req.method, req.path),
        method: req.method,
        status: attempt.ok ? String(attempt.status) : failureStatus(attempt.failure, attempt.error),
        durationMs,
        retry,
        ...(requestId === undefined ? {} : { requestId }),
      });
    } catch {
      // An observer's bug must not fail the call it watches.
    }
  }

  #transportFailure(req: ApiRequest<unknown>, cause: unknown, signal: AbortSignal | undefined, options: CallOptions): Attempt<never> {
    if (cause instanceof VideoApiError) return { ok: false, failure: { kind: 'final' }, error: cause };
    const where = `${req.method} ${req.path}`;
    const details = { method: req.method, path: req.path, cause };
    if (options.signal?.aborted) return { ok: false, failure: { kind: 'final' }, error: this.#aborted(req, cause) };
    if (signal?.aborted) {
      const error = new VideoTimeoutError(`${where} did not complete within ${options.timeoutMs} ms`, { ...details, code: 'ETIMEDOUT' });
      return { ok: false, failure: { kind: 'timeout', phase: 'deadline' }, error };
    }
    const code = errorCode(cause);
    const { timeouts } = this.#config;
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return timeoutFailure('connect', `${where} could not connect within ${timeouts.connectMs} ms`);
      case 'UND_ERR_HEADERS_TIMEOUT':
        return timeoutFailure('headers', `${where} got no response headers within ${timeouts.headersMs} ms`);
      case 'UND_ERR_BODY_TIMEOUT':
        return timeoutFailure('body', `${where} response body stalled for ${timeouts.bodyMs} ms`);
    }
    const requestSent = !NOT_SENT_CODES.has(code ?? '');
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new VideoConnectionError(`${where} failed: ${requestSent ? 'connection lost' : 'could not connect'} (${code ?? reason})`, {
      ...details,
      code,
    });
    return { ok: false, failure: { kind: 'network', requestSent }, error };

    function timeoutFailure(phase: 'connect' | 'headers' | 'body', message: string): Attempt<never> {
      return { ok: false, failure: { kind: 'timeout', phase }, error: new VideoTimeoutError(message, { ...details, code }) };
    }
  }

  /** The shared pool of this origin, looked up again once it was closed (closeSharedPools). */
  #pool(): Pool {
    const pool = this.#currentPool;
    if (pool && !pool.closed && !pool.destroyed) return pool;
    return (this.#currentPool = sharedPool(this.#origin, this.#config.timeouts.connectMs));
  }

  #aborted(req: ApiRequest<unknown>, cause: unknown): VideoAbortedError {
    return new VideoAbortedError(`${req.method} ${req.path} was aborted by the caller`, {
      method: req.method,
      path: req.path,
      code: 'ABORTED',
      cause,
    });
  }

  #sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#config.sleep) return this.#config.sleep(ms, signal);
    return abortableSleep(ms, signal);
  }
}

const NEVER_ABORTED = new AbortController().signal;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    // The next attempt notices the abort and reports it with the right error class.
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** How an answer to `method path` with `status` reports a malformed body; `secrets()` are scrubbed from it. */
export function responseContext(method: HttpMethod, path: string, status: number, secrets: () => readonly string[]): ResponseContext {
  return {
    method,
    path,
    status,
    unexpected(cause, raw) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return new VideoApiError(`${method} ${path} returned ${status} with ${/^[aeiou]/i.test(reason) ? 'an' : 'a'} ${reason}`, {
        status,
        code: cause instanceof VideoApiError ? cause.code : 'UNEXPECTED_RESPONSE',
        method,
        path,
        raw: redact(raw, secrets()).slice(0, 2000),
        cause,
      });
    },
  };
}

/** The status label of a failed attempt: the HTTP status when one came back, else what went wrong. */
function failureStatus(failure: AttemptFailure, error: VideoApiError): string {
  if (error instanceof VideoAbortedError) return 'aborted';
  if (failure.kind === 'timeout') return 'timeout';
  if (failure.kind === 'network') return 'network';
  return error.status === undefined ? 'error' : String(error.status);
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function requestBody(req: ApiRequest<unknown>): { contentType?: string; body?: string } {
  if (req.form !== undefined) return { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(req.form).toString() };
  if (req.json !== undefined) return { contentType: 'application/json', body: JSON.stringify(req.json) };
  return NO_BODY;
}

const NO_BODY: { contentType?: string; body?: string } = Object.freeze({});

function queryString(query: ApiRequest<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

// ---------------------------------------------------------------------------------------------
// Response parsers

function malformed(message: string): VideoApiError {
  return new VideoApiError(message, { code: 'MALFORMED_RESPONSE' });
}

/** Parses a JSON body with a zod schema. Invalid JSON or an unexpected shape → VideoApiError. */
export function parseJson<S extends z.ZodType>(schema: S, body: string): z.output<S> {
  return parseData(schema, jsonValue(body));
}

/** `JSON.parse`, failing with the VideoApiError a malformed body gets. */
export function jsonValue(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw body.trim() === '' ? malformed('malformed response: empty body where JSON was expected') : notJson();
  }
}

/** What a body that is not JSON fails with. */
export function notJson(): VideoApiError {
  return malformed('malformed response: body is not valid JSON');
}

/** Checks already-decoded data with a zod schema; an unexpected shape → VideoApiError about `what`. */
export function parseData<S extends z.ZodType>(schema: S, data: unknown, what = 'response'): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new VideoApiError(`unexpected ${what}: ${issues}`, { code: 'UNEXPECTED_RESPONSE' });
  }
  return result.data;
}

export function json<S extends z.ZodType>(schema: S): ResponseParser<z.output<S>> {
  return (body) => parseJson(schema, body.text);
}

/** For endpoints whose success body the spec leaves open: empty is fine, JSON is parsed. */
export function optionalJson<S extends z.ZodType>(schema: S): ResponseParser<z.output<S> | undefined> {
  return ({ text }) => (text.trim() === '' ? undefined : parseJson(schema, text));
}

/** `/v2/project/{apiKey}/...segments`, each segment encoded. */
export function projectPath(apiKey: string, ...segments: string[]): string {
  let path = `/v2/project/${pathSegment(apiKey)}`;
  for (const segment of segments) path += `/${pathSegment(segment)}`;
  return path;
}

/** Characters `encodeURIComponent` leaves as they are: most ids and keys need no encoding. */
const UNRESERVED = /^[\w.~-]*$/;

function pathSegment(segment: string): string {
  return UNRESERVED.test(segment) ? segment : encodeURIComponent(segment);
}

/**
 * The HTTP transport for Slack's Web API and `response_url`s: a `fetch` for WebClient's `fetch`
 * option and Bolt's `respond`, made on undici's request API instead of WHATWG fetch.
 *
 * Every follow-up, notification and card update goes through it, on the thread that acks Slack.
 * Node's fetch builds a Request, two Headers lists, a ReadableStream and an AbortSignal per call
 * and copies a string body into a well-formed one: about three times the CPU of a plain request
 * (bench/README.md), and objects that outlive a young-generation collection while the call is
 * in flight. Slack's calls need none of it: a string body out, a small JSON body back.
 *
 * What it takes the short way: a string or byte body (or none), headers as a plain object, the
 * `redirect` and `signal` options. Anything else (WebClient's multipart file uploads, a Request
 * object, Headers) goes to the platform's fetch, as does a redirect the caller asked to follow.
 * The body is read whole before the call resolves. Failures keep fetch's shape: a dropped
 * connection is `TypeError('fetch failed')` with the cause, an aborted call rejects with the
 * signal's reason.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from '../api/undici';

/** The part of a fetch `Response` that WebClient and Bolt read. */
class SlackResponse {
  readonly ok: boolean;
  readonly statusText = '';
  readonly headers: Headers;
  #bytes: Buffer;

  constructor(
    readonly status: number,
    headers: IncomingHttpHeaders,
    bytes: Buffer,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new ReceivedHeaders(headers) as unknown as Headers;
    this.#bytes = bytes;
  }

  async text(): Promise<string> {
    return this.#bytes.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#bytes.toString('utf8'));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes;
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

/** Read-only `Headers` over what undici received (names already lower-case). */
class ReceivedHeaders {
  constructor(readonly received: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.received[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.received[name.toLowerCase()] !== undefined;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.received).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.entries()) callback(value, name);
  }
}

type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

function isPlainHeaders(headers: FetchInit['headers']): headers is Record<string, string> | undefined {
  return headers === undefined || (typeof headers === 'object' && Object.getPrototypeOf(headers) === Object.prototype);
}

function isPlainBody(body: FetchInit['body']): body is string | Uint8Array | null | undefined {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}

/**
 * A `fetch` for Slack's calls on the connection pool `dispatcher`. `fallback` serves what it does
 * not take (the platform's fetch).
 */
export function slackTransport(dispatcher: Agent, fallback: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) return fallback(input, init);
    const { method = 'GET', headers, body, redirect = 'follow', signal } = init;
    if (!isPlainHeaders(headers) || !isPlainBody(body)) return fallback(input, init);
    const url = new URL(input);
    let status: number, received: IncomingHttpHeaders, bytes: Buffer;
    try {
      const answer = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal: signal ?? undefined,
      });
      ({ statusCode: status, headers: received } = answer);
      bytes = Buffer.from(await answer.body.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    if (status >= 300 && status < 400 && received.location !== undefined) {
      if (redirect === 'error') throw new TypeError('fetch failed', { cause: new Error(`redirected (${status})`) });
      // The platform's fetch makes the call again and follows where it points.
      if (redirect === 'follow') return fallback(input, init);
    }
    return new SlackResponse(status, received, bytes, url.href) as unknown as Response;
  };
}

let threadTransport: typeof fetch | undefined;

/** This thread's transport: one connection pool for every Slack call made from it. */
export function threadSlackTransport(): typeof fetch {
  return (threadTransport ??= slackTransport(new Agent()));
}

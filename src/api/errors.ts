/**
 * Every failure of the adapter is a VideoApiError (or a subclass callers can branch on).
 * Errors never carry the X-SERVICE-AUTH header, API secrets, participant tokens or
 * upload-target keys: the factory scrubs every body it copies into `message` or `raw`.
 */

export interface VideoApiErrorDetails {
  status?: number;
  code?: number | string;
  method?: string;
  path?: string;
  raw?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class VideoApiError extends Error {
  override readonly name: string;
  /** HTTP status; undefined when no response was received (network, timeout, validation). */
  readonly status?: number;
  /** Service error code from the body (e.g. 50002), or an adapter code such as `MALFORMED_RESPONSE`. */
  readonly code?: number | string;
  readonly method?: string;
  readonly path?: string;
  /** Response body as received (redacted, truncated). */
  readonly raw?: string;
  /** Server hint from Retry-After, in ms. */
  readonly retryAfterMs?: number;

  constructor(message: string, details: VideoApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.method = details.method;
    this.path = details.path;
    this.raw = details.raw;
    this.retryAfterMs = details.retryAfterMs;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      method: this.method,
      path: this.path,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

export class VideoAuthError extends VideoApiError {}
export class VideoNotFoundError extends VideoApiError {}
export class VideoConflictError extends VideoApiError {}
export class VideoRateLimitError extends VideoApiError {}
export class VideoTimeoutError extends VideoApiError {}
export class VideoConnectionError extends VideoApiError {}
/** The caller's AbortSignal fired. */
export class VideoAbortedError extends VideoApiError {}

/** A request rejected before it was sent; `field` names the offending option. */
export class VideoValidationError extends VideoApiError {
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`, { code: 'INVALID_REQUEST' });
    this.field = field;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field };
  }
}

/** Connection errors raised before any byte of the request was written: the service never saw it. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Whether a failed call may nevertheless have changed something on the service: a request that
 * changes state, reached the service, and whose answer was lost (connection cut, no answer in
 * time) or could not be read (a 2xx with a malformed body: the change was most likely made).
 * False for reads, for requests that never left, and for answers that said what happened.
 */
export function mayHaveTakenEffect(err: VideoApiError): boolean {
  if (err.method === undefined || READS.has(err.method)) return false;
  if (err instanceof VideoTimeoutError || err instanceof VideoConnectionError) {
    return typeof err.code !== 'string' || !NOT_SENT_CODES.has(err.code);
  }
  return err.status !== undefined && err.status >= 200 && err.status < 300;
}

const STATUS_MEANINGS: Record<number, string> = {
  400: 'invalid request',
  403: 'invalid API key or JWT, or action not authorized',
  404: 'not found (or not connected, or already stopped)',
  408: 'invalid stream ID',
  409: 'conflict with the current state',
  413: 'request too large',
  429: 'rate limited',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/** Codes the composed web-page stream (render) endpoint adds to 400 and 403 bodies. */
export const SERVICE_ERROR_CODES: Readonly<Record<number, string>> = {
  50001: 'invalid URL structure',
  50002: 'URL unreachable',
  50005: 'invalid maxDuration',
  50006: 'invalid resolution',
  50007: 'invalid stream name',
  50008: 'invalid sessionId',
  10001: 'invalid token format or signature',
  10002: 'unauthorized token',
  10003: 'invalid partner auth format',
  10004: 'unauthorized partner auth',
  10007: 'token does not match session',
  10012: 'expired token',
};

const RAW_LIMIT = 2000;
const MESSAGE_LIMIT = 300;
export const REDACTED = '[redacted]';
const SECRET_FIELDS = ['secretKey', 'accountKey', 'accessKey', 'password', 'secret', 'apiSecret', 'token'];
const SECRET_JSON_FIELD = new RegExp(`("(?:${SECRET_FIELDS.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
const SECRET_ESCAPED_JSON_FIELD = new RegExp(`(\\\\"(?:${SECRET_FIELDS.join('|')})\\\\"\\s*:\\s*)\\\\"(?:[^"\\\\]|\\\\[^"])*\\\\"`, 'g');
const SECRET_XML_FIELD = new RegExp(`<(${SECRET_FIELDS.join('|')})>[^<]*</\\1>`, 'g');

/** Removes known secret values and secret-named fields from text that may end up in logs. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(SECRET_JSON_FIELD, `$1"${REDACTED}"`)
    .replace(SECRET_ESCAPED_JSON_FIELD, `$1\\"${REDACTED}\\"`)
    .replace(SECRET_XML_FIELD, `<$1>${REDACTED}</$1>`);
}

export interface ErrorResponse {
  method: string;
  path: string;
  status: number;
  body: string;
  contentType?: string;
  retryAfterMs?: number;
  /** Values sent with the request that must not be echoed back (keys, passwords, tokens). */
  secrets?: readonly string[];
}

interface ParsedErrorBody {
  code?: number | string;
  message?: string;
}

/** Builds the typed error for a non-2xx response, whatever the body format (JSON, XML, HTML, empty). */
export function errorFromResponse(res: ErrorResponse): VideoApiError {
  const raw = truncate(redact(res.body, res.secrets), RAW_LIMIT);
  const parsed = parseErrorBody(raw);
  if (parsed.message !== undefined) parsed.message = redact(parsed.message, res.secrets);
  const codeMeaning = typeof parsed.code === 'number' ? SERVICE_ERROR_CODES[parsed.code] : undefined;
  const summary = parsed.message || codeMeaning || STATUS_MEANINGS[res.status] || 'request failed';
  const codeNote =
    parsed.code !== undefined && parsed.code !== res.status ? ` (code ${parsed.code}${codeMeaning && codeMeaning !== summary ? `: ${codeMeaning}` : ''})` : '';
  const message = `${res.method} ${res.path} failed with ${res.status}: ${truncate(summary, MESSAGE_LIMIT)}${codeNote}`;
  const details: VideoApiErrorDetails = {
    status: res.status,
    code: parsed.code,
    method: res.method,
    path: res.path,
    raw,
    retryAfterMs: res.retryAfterMs,
  };
  const ErrorClass = errorClassForStatus(res.status);
  return new ErrorClass(message, details);
}

function errorClassForStatus(status: number): typeof VideoApiError {
  switch (status) {
    case 401:
    case 403:
      return VideoAuthError;
    case 404:
      return VideoNotFoundError;
    case 409:
      return VideoConflictError;
    case 429:
      return VideoRateLimitError;
    default:
      return VideoApiError;
  }
}

export function parseErrorBody(body: string): ParsedErrorBody {
  const text = body.trim();
  if (text === '') return {};
  if (text.startsWith('{')) return parseJsonErrorBody(text);
  if (text.startsWith('<')) return /<html|<!doctype html/i.test(text) ? parseHtmlErrorBody(text) : parseXmlErrorBody(text);
  return { message: collapseWhitespace(text) };
}

function parseJsonErrorBody(text: string): ParsedErrorBody {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return { message: collapseWhitespace(text) };
    const record = body as Record<string, unknown>;
    const message = [record.message, record.description, record.error].find((value): value is string => typeof value === 'string' && value !== '');
    return { code: toCode(record.code), message };
  } catch {
    return { message: collapseWhitespace(text) };
  }
}

function parseXmlErrorBody(text: string): ParsedErrorBody {
  const element = (name: string) => text.match(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`))?.[1];
  const message = element('message') ?? element('description');
  return {
    code: toCode(element('code')),
    message: message === undefined ? collapseWhitespace(stripTags(text)) : decodeEntities(message.trim()),
  };
}

function parseHtmlErrorBody(text: string): ParsedErrorBody {
  const title = text.match(/<title>([\s\S]*?)<\/title>/i)?.[1];
  const bodyText = collapseWhitespace(stripTags(text.replace(/<(script|style|title)[\s\S]*?<\/\1>/gi, ' ')));
  return { message: decodeEntities(collapseWhitespace(title ?? '') || bodyText) || undefined };
}

function toCode(value: unknown): number | string | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const numeric = Number(value);
  return Number.isInteger(numeric) ? numeric : value.trim();
}

function stripTags(text: string): string {
  return text.replace(/<\?xml[\s\S]*?\?>/g, ' ').replace(/<[^>]*>/g, ' ');
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

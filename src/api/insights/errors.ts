/**
 * Every Insights failure is an InsightsError: GraphQL `errors` (with the service's errorCode),
 * HTTP failures, network failures, malformed answers and requests refused before sending.
 * Messages are sentences a Slack user can act on; they never contain the API secret or a token.
 */

/** Adapter-side codes for failures that carry no service errorCode. */
export type InsightsClientCode = 'HTTP_ERROR' | 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'MALFORMED_RESPONSE' | 'QUERY_TOO_LARGE' | 'INVALID_ARGUMENT';

export interface GraphqlErrorInfo {
  message: string;
  errorCode?: number;
  path?: readonly (string | number)[];
}

export interface InsightsErrorDetails {
  code?: number | InsightsClientCode;
  status?: number;
  /** The service's own message, redacted and shortened. */
  serverMessage?: string;
  errors?: readonly GraphqlErrorInfo[];
  retryAfterMs?: number;
  cause?: unknown;
}

export class InsightsError extends Error {
  override readonly name: string;
  /** Service errorCode 1000–1022, or an adapter code. */
  readonly code?: number | InsightsClientCode;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  readonly serverMessage?: string;
  readonly errors: readonly GraphqlErrorInfo[];
  readonly retryAfterMs?: number;
  readonly method = 'POST';
  readonly path = '/graphql';

  constructor(message: string, details: InsightsErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = details.code;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.errors = details.errors ?? [];
    this.retryAfterMs = details.retryAfterMs;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, code: this.code, status: this.status, method: this.method, path: this.path };
  }
}

interface CodeText {
  /** Sentence shown alone, or followed by `: <server detail>` when `detail` is set and one exists. */
  text: string;
  detail?: boolean;
  /** Shown instead of `text` when `detail` is set but the server gave none. */
  fallback?: string;
}

/** Insights errorCode → person-readable sentence (spec, Errors point 2). */
export const INSIGHTS_ERROR_TEXT: Readonly<Record<number, CodeText>> = {
  1000: { text: 'Insights does not accept this API key. Check the project ID configured for this workspace' },
  1001: { text: 'Insights found no valid authentication on the request. Check the project ID and secret' },
  1002: {
    text: 'The date range is invalid',
    detail: true,
    fallback: 'The date range is invalid: the start must come before the end, and daily data goes back 90 days only',
  },
  1003: { text: 'Only one date interval is allowed in a query: choose daily, weekly or monthly' },
  1004: { text: 'The query parameters are invalid', detail: true },
  1005: { text: 'A query parameter is invalid', detail: true },
  1006: { text: 'A parameter must be a whole number', detail: true },
  1007: { text: 'The SDK version is invalid: use the format 0.0.0, for example 2.27.1' },
  1008: { text: 'Insights needs a valid project ID (the project API key)' },
  1009: { text: 'A parameter value is not accepted', detail: true },
  1010: { text: 'A parameter accepts only one value', detail: true },
  1011: { text: 'Insights rejected the token. Check the project secret' },
  1012: { text: 'Insights had an internal error. Try again in a few minutes' },
  1013: { text: 'A mandatory parameter is missing', detail: true },
  1014: { text: 'Per-session data needs the Advanced Insights add-on on this project' },
  1015: { text: 'Insights does not know this project ID. Check the API key' },
  1016: { text: 'That session has expired: Insights keeps per-session data for 21 days' },
  1017: { text: 'Session not found. Check the session ID: per-session data appears a few minutes after a meeting and is kept for 21 days' },
  1018: { text: 'Give at least one session ID' },
  1019: { text: 'The token does not match the API key: it must be issued for this project ID and signed with its secret' },
  1020: { text: 'Insights could not validate the token. Check the project secret and this server’s clock' },
  1021: { text: 'These credentials may not view this project’s data' },
  1022: { text: 'Insights rejected a value of the wrong type', detail: true },
};

/** The sentence for one service errorCode, with the server's detail where it helps. */
export function describeInsightsCode(code: number | undefined, serverMessage?: string): string {
  const entry = code === undefined ? undefined : INSIGHTS_ERROR_TEXT[code];
  const detail = serverMessage?.trim().replace(/[.\s]+$/, '');
  if (!entry) return detail ? `Insights returned an error: ${detail}.` : 'Insights returned an error without a message.';
  if (!entry.detail) return `${entry.text}.`;
  if (detail) return `${entry.text}: ${detail}.`;
  return `${entry.fallback ?? entry.text}.`;
}

const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const MAX_SERVER_MESSAGE = 300;

/** Removes secrets and anything token-shaped from text the service sent back. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(JWT_LIKE, '[token]');
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[secret]');
  return out.length > MAX_SERVER_MESSAGE ? `${out.slice(0, MAX_SERVER_MESSAGE - 1)}…` : out;
}

export function fromGraphqlErrors(errors: readonly GraphqlErrorInfo[], status: number, secrets: readonly string[]): InsightsError {
  const clean = errors.map((e) => ({ ...e, message: redact(e.message, secrets) }));
  // The first coded error explains the failure best; the rest ride along on `errors`.
  const first = clean.find((e) => e.errorCode !== undefined) ?? clean[0];
  return new InsightsError(describeInsightsCode(first?.errorCode, first?.message), {
    code: first?.errorCode,
    status,
    serverMessage: first?.message,
    errors: clean,
  });
}

export function fromHttpStatus(status: number, body: string, secrets: readonly string[], retryAfterMs?: number): InsightsError {
  const message =
    status === 401 || status === 403
      ? `Insights refused the credentials (HTTP ${status}). Check the project ID and secret.`
      : status === 429
        ? `Insights is rate-limiting this project (HTTP 429). Try again in a minute.`
        : status >= 500
          ? `Insights is unavailable right now (HTTP ${status}). Try again in a few minutes.`
          : `Insights answered HTTP ${status}.`;
  return new InsightsError(message, {
    code: 'HTTP_ERROR',
    status,
    serverMessage: body ? redact(body, secrets) : undefined,
    retryAfterMs,
  });
}

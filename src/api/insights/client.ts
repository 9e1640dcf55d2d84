import { type Dispatcher, Pool } from '../undici';
import type { DocumentNode } from 'graphql';
import { z } from 'zod';
import { groupDigits } from '../validate';
import { signInsightsToken } from './auth';
import { systemClock, type Clock } from './clock';
import { fromGraphqlErrors, fromHttpStatus, InsightsError, type GraphqlErrorInfo } from './errors';
import { estimateNodes, NODE_BUDGET, printQuery } from './gql';
import { paginate, type Page, type PageIterator } from './pagination';
import { projectUsageQuery, projectUsageResponse, type Metric, type ProjectUsageParams } from './projectUsage';
import { sharedLimiter, type RateLimiter } from './rateLimiter';
import { INSIGHTS_RETRY, parseRetryAfter, retryDelayMs, shouldRetry, type AttemptFailure, type RetryPolicy } from './retry';
import { sessionSummariesQuery, sessionSummariesResponse, type SessionSummariesParams, type SessionSummary } from './sessionSummaries';
import { chunkSessionIds, sessionsQuery, sessionsResponse, type Session, type SessionDetailSizes } from './sessions';

export interface InsightsClientOptions {
  /** Base URL; requests go to `{insightsUrl}/graphql`. */
  insightsUrl: string;
  /** The project ID (its API key). */
  projectId: string;
  /** The project secret: signs each request, never leaves this object. */
  apiSecret: string;
  /** Defaults to a keep-alive pool for the Insights origin, closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Defaults to the process-wide limiter of this project ID. */
  limiter?: RateLimiter;
  clock?: Clock;
  retry?: RetryPolicy;
  timeoutMs?: number;
  /** Jitter source for back-off. */
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export const DEFAULT_INSIGHTS_TIMEOUT_MS = 30_000;

type Attempt = { ok: true; data: unknown } | { ok: false; error: InsightsError; failure?: AttemptFailure };

const graphqlErrorSchema = z.looseObject({
  message: z.string().nullish(),
  errorCode: z.union([z.number(), z.string()]).nullish(),
  path: z.array(z.union([z.string(), z.number()])).nullish(),
  extensions: z.looseObject({ errorCode: z.union([z.number(), z.string()]).nullish() }).nullish(),
});
const envelopeSchema = z.looseObject({ data: z.unknown().optional(), errors: z.array(graphqlErrorSchema).nullish() });

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

export class InsightsClient {
  readonly projectId: string;
  private readonly url: URL;
  private readonly key: Uint8Array;
  private readonly secrets: readonly string[];
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RateLimiter;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly random: () => number;

  constructor(options: InsightsClientOptions) {
    if (!options.projectId.trim()) throw new InsightsError('Insights needs the project ID (API key).', { code: 'INVALID_ARGUMENT' });
    if (!options.apiSecret) throw new InsightsError('Insights needs the project secret.', { code: 'INVALID_ARGUMENT' });
    this.projectId = options.projectId.trim();
    this.url = graphqlUrl(options.insightsUrl);
    this.key = new TextEncoder().encode(options.apiSecret);
    this.secrets = [options.apiSecret];
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Pool(this.url.origin, { connections: 4, keepAliveTimeout: 10_000 });
    this.limiter = options.limiter ?? sharedLimiter(this.projectId);
    this.clock = options.clock ?? systemClock;
    this.retry = options.retry ?? INSIGHTS_RETRY;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_INSIGHTS_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
  }

  /** Usage metrics, every page; `.pages()` for page-at-a-time. */
  projectUsage(params: ProjectUsageParams, options?: CallOptions): PageIterator<Metric> {
    return paginate((endCursor) => this.projectUsagePage({ ...params, endCursor }, options), params.endCursor);
  }

  async projectUsagePage(params: ProjectUsageParams, options?: CallOptions): Promise<Page<Metric>> {
    const data = await this.query(projectUsageQuery(this.projectId, params), projectUsageResponse, options);
    const { pageInfo, resources } = data.project.projectData;
    return { items: resources, ...pageInfo };
  }

  /** Per-session totals of sessions with a meeting in the range (Advanced Insights). */
  sessionSummaries(params: SessionSummariesParams, options?: CallOptions): PageIterator<SessionSummary> {
    return paginate((endCursor) => this.sessionSummariesPage({ ...params, endCursor }, options), params.endCursor);
  }

  async sessionSummariesPage(params: SessionSummariesParams, options?: CallOptions): Promise<Page<SessionSummary>> {
    const data = await this.query(sessionSummariesQuery(this.projectId, params), sessionSummariesResponse, options);
    const { pageInfo, resources } = data.project.sessionData.sessionSummaries;
    return { items: resources, ...pageInfo };
  }

  /** Meetings, publishers and subscribers of the given sessions (Advanced Insights), fetched in
   * as many requests as the node budget needs. */
  async sessions(sessionIds: readonly string[], sizes: SessionDetailSizes = {}, options?: CallOptions): Promise<Session[]> {
    const out: Session[] = [];
    for (const chunk of chunkSessionIds(this.projectId, sessionIds, sizes)) {
      const data = await this.query(sessionsQuery(this.projectId, chunk, sizes), sessionsResponse, options);
      out.push(...data.project.sessionData.sessions.resources);
    }
    return out;
  }

  /** Sends one query document and parses `data` with `schema`. */
  async query<S extends z.ZodType>(document: DocumentNode, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
    const nodes = estimateNodes(document);
    if (nodes > NODE_BUDGET) {
      throw new InsightsError(`This query could return ${groupDigits(nodes)} items; Insights allows ${groupDigits(NODE_BUDGET)}. Ask for smaller pages.`, {
        code: 'QUERY_TOO_LARGE',
      });
    }
    const body = JSON.stringify({ query: printQuery(document) });
    const policy = { ...this.retry, maxRetries: options.maxRetries ?? this.retry.maxRetries };
    try {
      for (let retries = 0; ; retries++) {
        const attempt = await this.attempt(body, options);
        if (attempt.ok) return parseData(attempt.data, schema);
        if (!attempt.failure || !shouldRetry(attempt.failure, retries, policy)) throw attempt.error;
        await this.clock.sleep(retryDelayMs(attempt.failure, retries, policy, this.random), options.signal);
      }
    } catch (error) {
      // Cancelled while queued for the rate limit or between retries.
      if (error instanceof InsightsError || !options.signal?.aborted) throw error;
      throw new InsightsError('The Insights request was cancelled.', { code: 'ABORTED', cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async attempt(body: string, options: CallOptions): Promise<Attempt> {
    const { signal } = options;
    await this.limiter.acquire(signal);
    const token = await signInsightsToken({ projectId: this.projectId, key: this.key, nowMs: this.clock.now() });
    const timeout = options.timeoutMs ?? this.timeoutMs;
    let status: number;
    let text: string;
    let retryAfterHeader: string | undefined;
    try {
      const res = await this.dispatcher.request({
        origin: this.url.origin,
        path: this.url.pathname + this.url.search,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-service-auth': token },
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal,
      });
      status = res.statusCode;
      const header = res.headers['retry-after'];
      retryAfterHeader = Array.isArray(header) ? header[0] : header;
      text = await res.body.text();
    } catch (cause) {
      return this.transportFailure(cause, signal);
    }

    const envelope = envelopeSchema.safeParse(parseJson(text));
    const errors = envelope.success ? toErrorInfos(envelope.data.errors ?? []) : [];
    const transient = status === 429 || status >= 500;
    const retryAfterMs = parseRetryAfter(retryAfterHeader, this.clock.now());
    if (errors.length > 0) {
      const error = fromGraphqlErrors(errors, status, this.secrets);
      const code = typeof error.code === 'number' ? error.code : undefined;
      return { ok: false, error, failure: transient ? { kind: 'status', status, retryAfterMs } : { kind: 'graphql', errorCode: code } };
    }
    if (status >= 400) {
      return { ok: false, error: fromHttpStatus(status, text, this.secrets, retryAfterMs), failure: { kind: 'status', status, retryAfterMs } };
    }
    const data = envelope.success ? envelope.data.data : undefined;
    if (data === null || typeof data !== 'object') {
      return { ok: false, error: new InsightsError('Insights answered without any data.', { code: 'MALFORMED_RESPONSE', status }) };
    }
    return { ok: true, data };
  }

  private transportFailure(cause: unknown, signal: AbortSignal | undefined): Attempt {
    if (signal?.aborted) {
      return { ok: false, error: new InsightsError('The Insights request was cancelled.', { code: 'ABORTED', cause }) };
    }
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
      return {
        ok: false,
        error: new InsightsError('Insights did not answer in time. Try a shorter date range or try again.', { code: 'TIMEOUT', cause }),
        failure: { kind: 'timeout' },
      };
    }
    const reason = typeof code === 'string' ? ` (${code})` : '';
    return {
      ok: false,
      error: new InsightsError(`Could not reach Insights at ${this.url.origin}${reason}.`, { code: 'NETWORK_ERROR', cause }),
      failure: { kind: 'network' },
    };
  }
}

/** `{insightsUrl}/graphql`, tolerating a trailing slash or a URL that already ends in /graphql. */
export function graphqlUrl(insightsUrl: string): URL {
  let url: URL;
  try {
    url = new URL(insightsUrl);
  } catch {
    throw new InsightsError(`The Insights URL “${insightsUrl}” is not a valid URL.`, { code: 'INVALID_ARGUMENT' });
  }
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = base.endsWith('/graphql') ? base : `${base}/graphql`;
  url.search = '';
  url.hash = '';
  return url;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toErrorInfos(errors: z.infer<typeof graphqlErrorSchema>[]): GraphqlErrorInfo[] {
  return errors.map((e) => {
    const raw = e.errorCode ?? e.extensions?.errorCode;
    const code = raw === null || raw === undefined ? undefined : Number(raw);
    return {
      message: e.message ?? '',
      errorCode: code !== undefined && Number.isInteger(code) ? code : undefined,
      path: e.path ?? undefined,
    };
  });
}

function parseData<S extends z.ZodType>(data: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new InsightsError('Insights sent an answer this app does not understand.', { code: 'MALFORMED_RESPONSE', cause: parsed.error });
  }
  return parsed.data;
}

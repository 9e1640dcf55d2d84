import type { IncomingHttpHeaders } from 'node:http';
import { execute, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import type { BackendContext } from '../backends/context';
import type { ProjectsBackend } from '../backends/projects';
import { isObject } from '../validate';
import { authenticateInsights, InsightsAuthError, peekIssuer } from './auth';
import { CODES, requestError, toWire, type WireError } from './codes';
import { projectSessions } from './data';
import { countNodes, MAX_NODES, RATE_LIMIT_REQUESTS, RATE_LIMIT_WINDOW_MS, RateLimiter } from './limits';
import { usage, type ParticipantMinutes } from './metrics';
import { projectDataRows } from './project-data';
import { QueryRoot, type InsightsContext } from './resolvers';
import { buildInsightsSchema } from './schema';
import { dayOf, iso, parseTimestamp } from './time';

export interface InsightsRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface InsightsResponse {
  status: number;
  json: { data?: unknown; errors?: WireError[] };
  headers?: Record<string, string>;
}

/** The exact daily totals `projectData(interval: DAILY)` answers without filters, for tests. */
export interface GroundTruthDay {
  /** Pacific calendar day, `YYYY-MM-DD`. */
  day: string;
  intervalStart: string;
  intervalEnd: string;
  streamedPublishedMinutes: number;
  streamedSubscribedMinutes: number;
  participantMinutes: ParticipantMinutes;
}

const schema = buildInsightsSchema();
const root = new QueryRoot();

const failure = (status: number, errors: WireError[], headers?: Record<string, string>): InsightsResponse =>
  headers ? { status, json: { errors }, headers } : { status, json: { errors } };

/**
 * `POST {insightsUrl}/graphql`: body checks, rate limit, token, then parse / validate / execute
 * against the schema. Statuses: 400 for a body or document that cannot run (and for the two
 * refusals of a whole query: several projects, too many nodes), 403 for authentication, 429 for
 * the rate limit, 200 once executed (field errors sit beside partial data).
 */
export class InsightsBackend {
  private enforceLimits = false;
  private readonly rate = new RateLimiter();

  constructor(
    private readonly ctx: BackendContext,
    private readonly projects: ProjectsBackend,
  ) {}

  setLimits(opts: { enforce: boolean }): void {
    this.enforceLimits = opts.enforce;
    this.rate.reset();
  }

  limits(): { enforce: boolean } {
    return { enforce: this.enforceLimits };
  }

  reset(): void {
    this.setLimits({ enforce: false });
  }

  async graphql(req: InsightsRequest): Promise<InsightsResponse> {
    const body = this.readBody(req);
    if ('status' in body) return body;
    const header = firstHeader(req.headers['x-service-auth']);
    const now = this.ctx.clock.now();

    const issuer = peekIssuer(header);
    if (this.enforceLimits && issuer !== undefined) {
      const decision = this.rate.hit(issuer, now);
      if (!decision.allowed) {
        const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        return failure(
          429,
          [
            requestError(undefined, `Too many requests for API key ${issuer}: at most ${RATE_LIMIT_REQUESTS} per ${RATE_LIMIT_WINDOW_MS / 1000} seconds`, {
              code: 'TOO_MANY_REQUESTS',
            }),
          ],
          {
            'retry-after': String(seconds),
          },
        );
      }
    }

    let project;
    try {
      project = await authenticateInsights(this.ctx.state, header);
    } catch (error) {
      if (error instanceof InsightsAuthError) return failure(403, [requestError(error.errorCode, error.message)]);
      throw error;
    }

    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (error) {
      if (error instanceof GraphQLError) return failure(400, [toWire(error, 'validation')]);
      throw error;
    }
    const invalid = validate(schema, document, specifiedRules);
    if (invalid.length > 0)
      return failure(
        400,
        invalid.map((e) => toWire(e, 'validation')),
      );

    const context: InsightsContext = {
      project,
      now,
      projectExists: (id) => this.ctx.state.projects.has(id),
      projectIds: new Set(),
    };
    const result: ExecutionResult = await execute({
      schema,
      document,
      rootValue: root,
      contextValue: context,
      variableValues: body.variables,
      operationName: body.operationName,
    });
    if (context.projectIds.size > 1) {
      return failure(400, [requestError(CODES.invalidParameters, 'Invalid parameters: only one project per query')]);
    }
    const executionErrors = (result.errors ?? []).map((e) => toWire(e, result.data === undefined ? 'validation' : 'execution'));
    if (result.data === undefined) return failure(400, executionErrors);
    if (this.enforceLimits) {
      const nodes = countNodes(result.data);
      if (nodes > MAX_NODES) {
        return failure(400, [
          requestError(CODES.invalidParameters, `Query too large: ${nodes} nodes, at most ${MAX_NODES}; ask for fewer fields or smaller pages`),
        ]);
      }
    }
    return { status: 200, json: executionErrors.length > 0 ? { data: result.data, errors: executionErrors } : { data: result.data } };
  }

  /** Per Pacific day, what the emulator answers now for `projectData(start, end, interval: DAILY)`. */
  groundTruth(apiKey: string, range: { start: number | string; end?: number | string }): GroundTruthDay[] {
    const project = this.projects.get(apiKey);
    const rows = projectDataRows(projectSessions(project), this.ctx.clock.now(), {
      start: parseTimestamp(range.start),
      end: range.end === undefined ? undefined : parseTimestamp(range.end),
      interval: ['DAILY'],
      filters: {},
      wantsQuality: false,
      wantsParticipantMinutes: true,
    });
    return rows.map((row) => ({
      day: dayOf(row.intervalStart).key,
      intervalStart: iso(row.intervalStart),
      intervalEnd: iso(row.intervalEnd),
      ...usage(row.facts),
    }));
  }

  private readBody(req: InsightsRequest): InsightsResponse | { query: string; variables?: Record<string, unknown>; operationName?: string } {
    const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
    if (!contentType.startsWith('application/json')) {
      return failure(400, [requestError(CODES.invalidParameters, 'Content-Type must be application/json')]);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.rawBody);
    } catch {
      return failure(400, [requestError(CODES.invalidParameters, 'The body must be JSON: {"query": "..."}')]);
    }
    if (!isObject(parsed) || parsed.query === undefined || parsed.query === null || parsed.query === '') {
      return failure(400, [requestError(CODES.missingParameter, "Mandatory parameter missing: 'query'")]);
    }
    const { query, variables, operationName } = parsed;
    if (typeof query !== 'string') return failure(400, [requestError(CODES.typeError, "'query' must be a string")]);
    if (variables !== undefined && variables !== null && !isObject(variables)) {
      return failure(400, [requestError(CODES.typeError, "'variables' must be an object")]);
    }
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return failure(400, [requestError(CODES.typeError, "'operationName' must be a string")]);
    }
    const body: { query: string; variables?: Record<string, unknown>; operationName?: string } = { query };
    if (isObject(variables)) body.variables = variables;
    if (typeof operationName === 'string') body.operationName = operationName;
    return body;
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

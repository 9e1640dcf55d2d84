import type { IncomingHttpHeaders } from 'node:http';
import type { AuthMode } from '../auth/rest-auth';
import { ApiError, badRequest } from '../errors';
import type { Project } from '../state/model';

export interface RouteRequest {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The authenticated project (project and session-create routes). */
  project?: Project;
}

export interface RouteResponse {
  status: number;
  /** Serialized as JSON unless `text` is given. */
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** Path with `:name` segments, e.g. `/v2/project/:apiKey/archive/:archiveId`. */
  pattern: string;
  auth: AuthMode;
  /** Error codes replacing 403 for auth-header failures (the composer's 10003 / 10004). */
  authCodes?: { malformed: number; refused: number };
  /** Renders errors for this route (session creation answers XML unless JSON is accepted). */
  renderError?: (error: ApiError, req: RouteRequest) => RouteResponse;
  handle(req: RouteRequest): RouteResponse | Promise<RouteResponse>;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route for a method and path; a single trailing slash is ignored. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const segments = splitPath(path);
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchSegments(splitPath(route.pattern), segments);
    if (params) return { route, params };
  }
  return undefined;
}

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i] ?? '';
    const segment = actual[i] ?? '';
    if (expected.startsWith(':')) {
      if (segment === '') return undefined;
      params[expected.slice(1)] = decodeSegment(segment);
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('Malformed URL path');
  }
}

/** The JSON body of a request that needs one: present, `application/json`, valid, an object or array. */
export function jsonBody(req: RouteRequest): unknown {
  const parsed = optionalJsonBody(req);
  if (parsed === undefined) throw badRequest('A JSON request body is required');
  return parsed;
}

/** The JSON body, or undefined when the request has none. */
export function optionalJsonBody(req: RouteRequest): unknown {
  if (req.rawBody.trim() === '') return undefined;
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!contentType.startsWith('application/json')) throw badRequest('Content-Type must be application/json');
  try {
    return JSON.parse(req.rawBody) as unknown;
  } catch {
    throw badRequest('Invalid JSON in request body');
  }
}

export function param(req: RouteRequest, name: string): string {
  const value = req.params[name];
  if (value === undefined) throw new ApiError(500, `Route parameter ${name} missing`);
  return value;
}

export const noContent = (): RouteResponse => ({ status: 204 });
export const ok = (json: unknown, status = 200): RouteResponse => ({ status, json });

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AUTH_HEADER, AuthError, authenticate } from '../auth/rest-auth';
import { ApiError } from '../errors';
import type { EmulatorState } from '../state/store';
import type { Fault, FaultRegistry } from './faults';
import { matchRoute, type Route, type RouteRequest, type RouteResponse } from './router';

export const CONTROL_PREFIX = '/_emulator';
const MAX_BODY_BYTES = 1024 * 1024;

export interface RequestLogEntry {
  method: string;
  path: string;
  /** 0 when no answer was sent (reset or hang faults). */
  status: number;
  /** Wall-clock time the request arrived, epoch ms. */
  at: number;
}

/** Mutable knobs shared with the control plane. */
export interface Runtime {
  faults: FaultRegistry;
  latencyMs: number;
  log: RequestLogEntry[];
}

export interface ServerDeps {
  state: EmulatorState;
  routes: readonly Route[];
  controlRoutes: readonly Route[];
  runtime: Runtime;
  /** Runs the transitions that fell due (every request sees current state). */
  tick: () => void;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new ApiError(413, 'Request body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, response: RouteResponse): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string> = { ...response.headers };
  let body: string | undefined;
  if (response.text !== undefined) {
    body = response.text;
    headers['content-type'] = response.contentType ?? 'text/plain; charset=utf-8';
  } else if (response.json !== undefined) {
    body = JSON.stringify(response.json);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  res.end(body);
}

const errorResponse = (error: ApiError): RouteResponse => ({
  status: error.status,
  json: { code: error.code, message: error.message },
});

function faultResponse(fault: Fault): RouteResponse {
  if (fault.kind === 'malformed') {
    return { status: 200, text: fault.body ?? '{"id":"3f1c2a9e-', contentType: fault.contentType ?? 'application/json; charset=utf-8' };
  }
  const status = fault.status ?? 500;
  const headers = fault.retryAfterSeconds !== undefined ? { 'retry-after': String(fault.retryAfterSeconds) } : undefined;
  const base =
    fault.body !== undefined
      ? { status, text: fault.body, contentType: fault.contentType ?? 'application/json; charset=utf-8' }
      : { status, json: { code: status, message: 'Injected fault' } };
  return headers ? { ...base, headers } : base;
}

/** The HTTP face: control plane under `/_emulator`, then faults, auth, routing, latency, request log. */
export function createHttpServer(deps: ServerDeps): Server {
  const { runtime } = deps;

  async function dispatch(req: IncomingMessage, url: URL, routes: readonly Route[], withAuth: boolean): Promise<RouteResponse> {
    const method = req.method ?? 'GET';
    const rawBody = await readBody(req);
    const match = matchRoute(routes, method, url.pathname);
    if (!match) throw new ApiError(404, `No such resource: ${method} ${url.pathname}`);
    const { route, params } = match;
    const request: RouteRequest = { method, path: url.pathname, params, query: url.searchParams, headers: req.headers, rawBody };
    try {
      if (withAuth && route.auth !== 'none') {
        const header = req.headers[AUTH_HEADER];
        const value = Array.isArray(header) ? header[0] : header;
        const result = await authenticate(deps.state, value, route.auth, params.apiKey).catch((error: unknown) => {
          if (error instanceof AuthError && route.authCodes) {
            throw new ApiError(403, error.message, error.malformed ? route.authCodes.malformed : route.authCodes.refused);
          }
          throw error;
        });
        if (result.project) request.project = result.project;
      }
      return await route.handle(request);
    } catch (error) {
      if (error instanceof ApiError && route.renderError) return route.renderError(error, request);
      throw error;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      send(res, await answer(() => dispatch(req, url, deps.controlRoutes, false)));
      return;
    }
    const entry: RequestLogEntry = { method, path: url.pathname, status: 0, at: Date.now() };
    runtime.log.push(entry);
    deps.tick();
    const fault = runtime.faults.take(method, url.pathname);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    const serve = async (): Promise<void> => {
      const response = await answer(() => dispatch(req, url, deps.routes, true));
      entry.status = response.status;
      send(res, response);
    };
    if (fault?.kind === 'hang') {
      runtime.faults.hold(() => void serve());
      return;
    }
    const response = fault ? faultResponse(fault) : await answer(() => dispatch(req, url, deps.routes, true));
    if (runtime.latencyMs > 0) await delay(runtime.latencyMs);
    entry.status = response.status;
    send(res, response);
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, { status: 500, json: { code: 500, message: error instanceof Error ? error.message : 'Internal error' } });
    });
  });
}

async function answer(produce: () => Promise<RouteResponse>): Promise<RouteResponse> {
  try {
    return await produce();
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    const message = error instanceof Error ? error.message : String(error);
    return { status: 500, json: { code: 500, message: `Emulator error: ${message}` } };
  }
}

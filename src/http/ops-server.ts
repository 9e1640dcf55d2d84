/**
 * The small HTTP server of a Socket Mode process, on its own port: Slack's requests come over
 * the WebSocket, so only the operations routes (/healthz, /readyz, /metrics) and the video
 * service's callbacks need HTTP. Paths match Bolt's custom routes (`:name` segments become
 * `req.params`), so the same route objects serve both modes.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import { answerNotFound } from './not-found';
import type { AddressInfo } from 'node:net';
import type { CustomRoute } from '@slack/bolt';

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/** `params` when `pattern` (e.g. `/callbacks/video/:token`) matches `path`, else undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment.startsWith(':')) {
      if (got[i] === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(got[i]!);
      } catch {
        return undefined;
      }
    } else if (segment !== got[i]) {
      return undefined;
    }
  }
  return params;
}

function methodsOf(route: CustomRoute): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
}

export async function startOpsServer(options: { port: number; host?: string; routes: readonly CustomRoute[] }): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    for (const route of options.routes) {
      const params = matchPath(route.path, path);
      if (params && methodsOf(route).includes(req.method ?? 'GET')) {
        route.handler(Object.assign(req, { params }) as IncomingMessage & { params: Record<string, string> } as never, res);
        return;
      }
    }
    req.resume();
    answerNotFound(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

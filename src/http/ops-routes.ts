/**
 * The routes an orchestrator and Prometheus use: GET /healthz (the process is alive),
 * GET /readyz (it can do its job: 200 or 503 with each check) and GET /metrics. Served by the
 * HTTP receiver beside /slack/events, or by the side server in Socket Mode (ops-server.ts).
 */
import type { ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { VidopsMetrics } from '../metrics/registry';
import type { Readiness } from '../readiness';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function healthRoute(): CustomRoute {
  return { path: HEALTH_PATH, method: ['GET'], handler: (_req, res) => json(res, 200, { ok: true }) };
}

export function readyRoute(readiness: Readiness): CustomRoute {
  return {
    path: READY_PATH,
    method: ['GET'],
    handler: (_req, res) => {
      readiness.report().then(
        (report) => json(res, report.ok ? 200 : 503, report),
        () => json(res, 503, { ok: false }),
      );
    },
  };
}

export function metricsRoute(metrics: VidopsMetrics): CustomRoute {
  return {
    path: METRICS_PATH,
    method: ['GET'],
    handler: (_req, res) => {
      metrics.scrape().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType });
          res.end(text);
        },
        () => json(res, 500, { ok: false, error: 'metrics_unavailable' }),
      );
    },
  };
}

/**
 * A stand-in for the Video Session Service that `bench:api` runs in a process of its own, so the
 * client under test has its CPU to itself and the server is never the bottleneck: it answers
 * archive get, archive list and broadcast list with recorded bodies (`bodies.ts`), encoded once.
 * A project's key names its size: `p300` holds 300 archives, `p1000` 1,000; every project holds
 * BROADCASTS broadcasts. It answers 401 without a token (`X-SERVICE-AUTH`, or opentok-node's
 * `X-OPENTOK-AUTH`) and counts what it served per client (by user agent), so the bench can check
 * that every call it timed reached the service.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '../lib/peer';
import { ARCHIVE_BODY, ARCHIVE_ID, BROADCASTS, archiveListBody, broadcastListBody } from './bodies';

const PATH = /^\/v2\/project\/p(\d+)\/(archive|broadcast)(?:\/([^/?]+))?(?:\?(.*))?$/;

export type Served = Record<string, number>;

const served: Served = {};
const bodies = new Map<string, Buffer>();

function body(key: string, make: () => string): Buffer {
  let cached = bodies.get(key);
  if (!cached) bodies.set(key, (cached = Buffer.from(make())));
  return cached;
}

function send(res: ServerResponse, status: number, payload: Buffer): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': payload.length });
  res.end(payload);
}

function clientOf(req: IncomingMessage): string {
  const agent = req.headers['user-agent'] ?? '';
  if (agent.startsWith('OpenTok-Node-SDK')) return 'opentok-node';
  if (agent.startsWith('vidops-video-client')) return 'adapter';
  return agent === '' ? 'unnamed' : agent.split('/')[0]!;
}

function slice(make: (size: number) => string, total: number, query: URLSearchParams): () => string {
  return () => {
    const offset = Number(query.get('offset') ?? 0);
    const count = Number(query.get('count') ?? 50);
    const all = JSON.parse(make(total)) as { count: number; items: unknown[] };
    return JSON.stringify({ count: all.count, items: all.items.slice(offset, offset + count) });
  };
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const match = req.method === 'GET' ? PATH.exec(req.url ?? '') : null;
  if (!match) return send(res, 404, Buffer.from('{"code":404,"message":"Resource not found"}'));
  if (!req.headers['x-service-auth'] && !req.headers['x-opentok-auth']) {
    return send(res, 401, Buffer.from('{"code":401,"message":"Missing authentication token"}'));
  }
  const [, size, resource, id, search] = match;
  const query = new URLSearchParams(search ?? '');
  const operation = id !== undefined ? `${resource}.get` : `${resource}.list`;
  const key = `${clientOf(req)} ${operation}`;
  served[key] = (served[key] ?? 0) + 1;
  if (resource === 'archive' && id !== undefined) {
    if (decodeURIComponent(id) !== ARCHIVE_ID) return send(res, 404, Buffer.from('{"code":404,"message":"Archive not found"}'));
    return send(
      res,
      200,
      body('archive', () => ARCHIVE_BODY),
    );
  }
  if (id !== undefined) return send(res, 404, Buffer.from('{"code":404,"message":"Resource not found"}'));
  const total = resource === 'archive' ? Number(size) : BROADCASTS;
  const make = resource === 'archive' ? archiveListBody : broadcastListBody;
  const whole = Number(query.get('offset') ?? 0) === 0 && Number(query.get('count') ?? 50) >= total;
  send(res, 200, body(`${resource} ${total} ${whole ? 'all' : query.toString()}`, whole ? () => make(total) : slice(make, total, query)));
}

async function start(): Promise<number> {
  const server = createServer({ keepAlive: true, keepAliveTimeout: 30_000 }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

serve({
  start: () => start(),
  served: () => ({ ...served }),
  cpu: () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  },
});

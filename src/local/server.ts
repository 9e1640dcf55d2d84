/**
 * The stand-in's one HTTP server (PROTOCOL.md): the Slack Web API under `/slack-api/`, upload
 * URLs, files and response URLs Slack would host, the page (`/`, `/web/…`) and its JSON and
 * event-stream endpoints under `/local/`. Routing and body parsing only; the work is in the
 * workspace, the Web API methods, the bridge and the emulator panel.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { z } from 'zod';
import type { Logger } from '../log';
import type { AppBridge } from './bridge';
import type { EmulatorPanel } from './emulator-panel';
import { LOCAL_CONVERSATIONS, LOCAL_TEAM, LOCAL_USER } from './identities';
import { actionBody, closeBody, commandBody, describeProblems, optionsBody, shortcutBody, submitBody } from './page-api';
import { applyResponse } from './slack-standin/response-url';
import type { Change } from './slack-standin/types';
import { type Body, answerWebApi, sniffMimetype } from './slack-standin/web-api';
import type { Workspace } from './slack-standin/workspace';

const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Form fields the WebClient sends as JSON text. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'files']);
const SSE_HEARTBEAT_MS = 15_000;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

export interface StandinServerOptions {
  workspace: Workspace;
  bridge: AppBridge;
  /** Absent when the video service is not the embedded emulator. */
  panel?: EmulatorPanel;
  botToken: string;
  /** Where the page's files are (src/local/web). */
  webRoot: string;
  logger: Logger;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpProblem(413, 'the body is too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A Web API call's arguments: form fields (JSON-valued ones parsed) or a JSON body. */
export function parseWebApiBody(raw: string, contentType: string): Body {
  if (contentType.includes('application/json')) {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Body) : {};
  }
  const out: Body = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (JSON_FIELDS.has(key)) {
      try {
        out[key] = JSON.parse(value);
        continue;
      } catch {
        // Slack would reject it; keep the text as sent.
      }
    }
    out[key] = value;
  }
  return out;
}

function parseJsonObject(bytes: Buffer): Record<string, unknown> {
  if (bytes.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpProblem(400, 'the body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpProblem(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** The upload URL takes the file as raw bytes or as the multipart field `file` (what WebClient sends). */
async function uploadedBytes(bytes: Buffer, contentType: string): Promise<Buffer | undefined> {
  if (!contentType.startsWith('multipart/form-data')) return bytes;
  const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
  const part = [...form.values()].find((v): v is File => typeof v !== 'string');
  return part ? Buffer.from(await part.arrayBuffer()) : undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function createStandinServer(options: StandinServerOptions): Server {
  const { workspace, bridge, panel, logger } = options;
  const streams = new Set<ServerResponse>();
  workspace.onChange((change: Change) => {
    const line = `data: ${JSON.stringify(change)}\n\n`;
    for (const stream of streams) stream.write(line);
  });

  function state(): Record<string, unknown> {
    return {
      team: { id: LOCAL_TEAM.id, name: LOCAL_TEAM.name, domain: LOCAL_TEAM.domain },
      user: { id: LOCAL_USER.id, name: LOCAL_USER.name },
      channels: LOCAL_CONVERSATIONS.map((c) => ({ id: c.id, name: c.name })),
      messages: workspace.allMessages(),
      views: workspace.modals(),
      home: workspace.homeView(),
      emulator: panel
        ? {
            embedded: true,
            sessionIds: panel.knownSessions(),
            now: new Date(panel.now()).toISOString(),
            sessions: panel.sessions(),
            archives: panel.archives(),
          }
        : { embedded: false, sessionIds: [], now: new Date().toISOString(), sessions: [], archives: [] },
    };
  }

  function eventStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    streams.add(res);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      streams.delete(res);
    });
  }

  function serveStatic(res: ServerResponse, relative: string): void {
    const root = normalize(options.webRoot + sep);
    const path = normalize(join(root, relative));
    if (!path.startsWith(root) || !existsSync(path) || !statSync(path).isFile()) {
      sendJson(res, 404, { ok: false, error: 'not_found' });
      return;
    }
    res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(path).pipe(res);
  }

  function parse<T extends z.ZodType>(schema: T, body: Record<string, unknown>): z.output<T> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new HttpProblem(400, describeProblems(parsed.error));
    return parsed.data;
  }

  async function page(path: string, body: Record<string, unknown>): Promise<unknown> {
    switch (path) {
      case '/local/command':
        return bridge.command(parse(commandBody, body));
      case '/local/action':
        return bridge.action(parse(actionBody, body));
      case '/local/submit':
        return bridge.submit(parse(submitBody, body));
      case '/local/close':
        return bridge.close(parse(closeBody, body));
      case '/local/options':
        return bridge.suggestions(parse(optionsBody, body));
      case '/local/home':
        return bridge.home();
      case '/local/shortcut':
        return bridge.shortcut(parse(shortcutBody, body));
      default:
        if (path.startsWith('/local/emulator/')) {
          if (!panel) return { ok: false, error: 'the side panel drives the embedded emulator only; this run uses the video service named by VIDEO_API_URL' };
          return panel.run(path.slice('/local/emulator/'.length), body);
        }
        throw new HttpProblem(404, `there is no ${path}`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const contentType = String(req.headers['content-type'] ?? '');

    if (method === 'GET') {
      if (path === '/' || path === '/index.html') return serveStatic(res, 'index.html');
      if (path.startsWith('/web/')) return serveStatic(res, decodeURIComponent(path.slice('/web/'.length)));
      if (path === '/healthz') return sendJson(res, 200, { ok: true });
      if (path === '/local/state') return sendJson(res, 200, state());
      if (path === '/local/events') return eventStream(req, res);
      if (path.startsWith('/files/')) {
        const file = workspace.file(path.split('/')[2] ?? '');
        if (!file?.bytes) return sendJson(res, 404, { ok: false, error: 'file_not_found' });
        res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.bytes.length), 'cache-control': 'private, max-age=3600' });
        res.end(file.bytes);
        return;
      }
      return sendJson(res, 404, { ok: false, error: 'not_found' });
    }
    if (method !== 'POST') return sendJson(res, 405, { ok: false, error: 'method_not_allowed' }, { allow: 'GET, POST' });

    const bytes = await readBody(req);
    if (path.startsWith('/slack-api/')) {
      const apiMethod = path.slice('/slack-api/'.length);
      let body: Body;
      try {
        body = parseWebApiBody(bytes.toString('utf8'), contentType);
      } catch {
        return sendJson(res, 200, { ok: false, error: 'invalid_json' });
      }
      const auth = String(req.headers.authorization ?? '');
      const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : str(body.token);
      if (token === undefined) return sendJson(res, 200, { ok: false, error: 'not_authed' });
      if (token !== options.botToken) return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
      const answer = answerWebApi(apiMethod, body, { workspace, baseUrl: () => baseUrlOf(req) });
      if (!answer.ok) logger.warn('Slack stand-in: a Web API call failed', { method: apiMethod, error: answer.error });
      return sendJson(res, 200, answer);
    }
    if (path.startsWith('/upload/')) {
      const file = workspace.file(path.slice('/upload/'.length));
      if (!file) return sendJson(res, 404, { ok: false, error: 'file_not_found' });
      const data = await uploadedBytes(bytes, contentType);
      if (!data) return sendJson(res, 400, { ok: false, error: 'no_file_data' });
      file.bytes = data;
      file.mimetype = sniffMimetype(file.name, data);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`OK - ${data.length}`);
      return;
    }
    if (path.startsWith('/response/')) {
      const target = workspace.responseTarget(path.slice('/response/'.length));
      if (!target) return sendJson(res, 404, { ok: false, error: 'invalid_url' });
      let body: Body;
      try {
        body = parseWebApiBody(bytes.toString('utf8'), contentType.includes('json') || contentType === '' ? 'application/json' : contentType);
      } catch {
        return sendJson(res, 400, { ok: false, error: 'invalid_json' });
      }
      const outcome = applyResponse(workspace, target, body);
      return outcome.ok ? sendJson(res, 200, { ok: true }) : sendJson(res, outcome.status, { ok: false, error: outcome.error });
    }
    if (path.startsWith('/local/')) return sendJson(res, 200, await page(path, parseJsonObject(bytes)));
    return sendJson(res, 404, { ok: false, error: 'not_found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpProblem) {
        if (!res.headersSent) sendJson(res, error.status, { ok: false, error: error.message });
        return;
      }
      logger.error('Slack stand-in: a request failed', { error, path: req.url?.split('?')[0] });
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error' });
      else res.end();
    });
  });
  server.on('close', () => {
    for (const stream of streams) stream.end();
    streams.clear();
  });
  return server;
}

/** The stand-in's own base URL as the caller reached it (host header), e.g. http://127.0.0.1:3000. */
function baseUrlOf(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}`;
}

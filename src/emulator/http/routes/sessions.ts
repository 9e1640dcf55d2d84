import { isIP } from 'node:net';
import type { Backends } from '../../backends';
import type { CreateSessionOptions, LayoutClassItem } from '../../backends/sessions';
import { ApiError, badRequest } from '../../errors';
import { RESOLUTIONS, type Resolution } from '../../state/model';
import { Fields, isObject } from '../../validate';
import { jsonBody, noContent, ok, optionalJsonBody, param, type Route, type RouteRequest, type RouteResponse } from '../router';
import { errorXml, projectView, sessionCreateJson, sessionCreateXml, streamView } from '../views';

const PROJECT = '/v2/project/:apiKey';
const SESSION = `${PROJECT}/session/:sessionId`;

function acceptsJson(req: RouteRequest): boolean {
  return String(req.headers.accept ?? '')
    .toLowerCase()
    .includes('application/json');
}

function formValue<T extends string>(form: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw badRequest(`Invalid '${name}': expected one of ${allowed.join(', ')}`);
  return found;
}

function parseCreateForm(req: RouteRequest): CreateSessionOptions {
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  if (req.rawBody.trim() !== '' && !contentType.startsWith('application/x-www-form-urlencoded')) {
    throw badRequest('Content-Type must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(req.rawBody);
  const opts: CreateSessionOptions = {};
  const archiveMode = formValue(form, 'archiveMode', ['manual', 'always'] as const);
  const p2p = formValue(form, 'p2p.preference', ['enabled', 'disabled'] as const);
  const archiveResolution = formValue<Resolution>(form, 'archiveResolution', RESOLUTIONS);
  const e2ee = formValue(form, 'e2ee', ['true', 'false'] as const);
  const archiveName = form.get('archiveName');
  const location = form.get('location');
  if (location !== null && isIP(location) === 0) throw badRequest("Invalid 'location': expected an IP address");
  if (archiveMode) opts.archiveMode = archiveMode;
  if (p2p) opts.mediaMode = p2p === 'enabled' ? 'relayed' : 'routed';
  if (archiveResolution) opts.archiveResolution = archiveResolution;
  if (e2ee) opts.e2ee = e2ee === 'true';
  if (archiveName !== null) opts.archiveName = archiveName;
  if (location !== null) opts.location = location;
  return opts;
}

function parseLayoutItems(body: unknown): LayoutClassItem[] {
  const items = Fields.of(body).raw('items');
  if (!Array.isArray(items) || items.length === 0) throw badRequest("Invalid layout options: 'items' must be a non-empty array");
  return items.map((item, i) => {
    if (!isObject(item)) throw badRequest(`Invalid layout options: items[${i}] must be an object`);
    const fields = new Fields(item, `items[${i}].`);
    const id = fields.requiredString('id');
    const layoutClassList = fields.stringArray('layoutClassList');
    if (layoutClassList === undefined) throw badRequest(`Invalid layout options: items[${i}].layoutClassList is required`);
    return { id, layoutClassList };
  });
}

function signalRoute(b: Backends, pattern: string): Route {
  return {
    method: 'POST',
    pattern,
    auth: 'project',
    handle: (req) => {
      const fields = Fields.of(jsonBody(req));
      const type = fields.string('type');
      const data = fields.string('data');
      if (data === undefined) throw badRequest("Invalid signal: 'data' is required");
      const signal = type === undefined ? { data } : { type, data };
      b.sessions.signal(param(req, 'apiKey'), param(req, 'sessionId'), req.params.connectionId, signal);
      return noContent();
    },
  };
}

function dtmfRoute(b: Backends, pattern: string): Route {
  return {
    method: 'POST',
    pattern,
    auth: 'project',
    handle: (req) => {
      const digits = Fields.of(jsonBody(req)).string('digits');
      if (digits === undefined) throw badRequest('Invalid DTMF Digits');
      b.sessions.playDtmf(param(req, 'apiKey'), param(req, 'sessionId'), req.params.connectionId, digits);
      return { status: 200 };
    },
  };
}

/** Session creation, signals, moderation, stream information and DTMF. */
export function sessionRoutes(b: Backends): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/session/create',
      auth: 'session-create',
      renderError: (error: ApiError, req: RouteRequest): RouteResponse =>
        acceptsJson(req)
          ? { status: error.status, json: { code: error.code, message: error.message } }
          : { status: error.status, text: errorXml(error.code, error.message), contentType: 'application/xml' },
      handle: (req) => {
        if (!req.project) throw new ApiError(403, 'Issuer not found');
        const session = b.sessions.create(req.project.apiKey, parseCreateForm(req));
        if (acceptsJson(req)) return ok(sessionCreateJson(session));
        return { status: 200, text: sessionCreateXml(session), contentType: 'text/xml' };
      },
    },
    signalRoute(b, `${SESSION}/signal`),
    signalRoute(b, `${SESSION}/connection/:connectionId/signal`),
    {
      method: 'DELETE',
      pattern: `${SESSION}/connection/:connectionId`,
      auth: 'project',
      handle: (req) => {
        b.sessions.disconnect(param(req, 'apiKey'), param(req, 'sessionId'), param(req, 'connectionId'));
        return noContent();
      },
    },
    {
      method: 'GET',
      pattern: `${SESSION}/stream/:streamId`,
      auth: 'project',
      handle: (req) => ok(streamView(b.sessions.getStream(param(req, 'apiKey'), param(req, 'sessionId'), param(req, 'streamId')))),
    },
    {
      method: 'GET',
      pattern: `${SESSION}/stream`,
      auth: 'project',
      handle: (req) => {
        const streams = b.sessions.listStreams(param(req, 'apiKey'), param(req, 'sessionId'));
        return ok({ count: streams.length, items: streams.map(streamView) });
      },
    },
    {
      method: 'PUT',
      pattern: `${SESSION}/stream`,
      auth: 'project',
      handle: (req) => {
        b.sessions.setLayoutClasses(param(req, 'apiKey'), param(req, 'sessionId'), parseLayoutItems(jsonBody(req)));
        return { status: 200 };
      },
    },
    {
      method: 'POST',
      pattern: `${SESSION}/stream/:streamId/mute`,
      auth: 'project',
      handle: (req) => {
        b.sessions.muteStream(param(req, 'apiKey'), param(req, 'sessionId'), param(req, 'streamId'));
        return ok(projectView(b.projects.get(param(req, 'apiKey')), false));
      },
    },
    {
      method: 'POST',
      pattern: `${SESSION}/mute`,
      auth: 'project',
      handle: (req) => {
        const body = optionalJsonBody(req);
        let active = true;
        let excluded: string[] | undefined;
        if (body !== undefined) {
          const fields = Fields.of(body);
          const value = fields.boolean('active');
          if (value === undefined) throw badRequest("'active' is required");
          active = value;
          if (active) excluded = fields.stringArray('excludedStreamIds');
        }
        b.sessions.muteAll(param(req, 'apiKey'), param(req, 'sessionId'), active, excluded);
        return ok(projectView(b.projects.get(param(req, 'apiKey')), false));
      },
    },
    dtmfRoute(b, `${SESSION}/play-dtmf`),
    dtmfRoute(b, `${SESSION}/connection/:connectionId/play-dtmf`),
  ];
}

import type { Backends } from '../../backends';
import type { StartRenderRequest } from '../../backends/renders';
import { ClientTokenError, verifyClientToken, type ClientToken, type ClientTokenFailure } from '../../auth/client-token';
import { badRequest, forbidden } from '../../errors';
import { isSessionId } from '../../ids';
import { RESOLUTIONS, type SipOptions } from '../../state/model';
import { Fields, isHttpUrl, utf8Bytes } from '../../validate';
import { parseListQuery } from '../parsers';
import { jsonBody, noContent, ok, param, type Route, type RouteRequest } from '../router';
import { renderView } from '../views';

const PROJECT = '/v2/project/:apiKey';
export const LANGUAGE_CODES = [
  'en-US',
  'en-AU',
  'en-GB',
  'es-US',
  'zh-CN',
  'fr-FR',
  'fr-CA',
  'de-DE',
  'hi-IN',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'pt-BR',
  'th-TH',
] as const;
export const WEBSOCKET_HEADERS_MAX_BYTES = 512;
const SIP_FROM = /^[A-Za-z0-9_+!%`'~-]+@[^\s@]+$/;
const RENDER_TOKEN_CODES: Record<ClientTokenFailure, number> = { format: 10001, unauthorized: 10002, session: 10007, expired: 10012 };

/** Verifies the participant token of a request body; failures are 403 with `codes[failure]` or 403. */
async function participant(b: Backends, apiKey: string, sessionId: string, token: string, codes?: Record<ClientTokenFailure, number>): Promise<ClientToken> {
  try {
    return await verifyClientToken(token, b.projects.get(apiKey), sessionId);
  } catch (error) {
    if (error instanceof ClientTokenError) throw forbidden(error.message, codes?.[error.failure]);
    throw error;
  }
}

function parseSip(fields: Fields): SipOptions {
  const sip = fields.object('sip');
  if (!sip) throw badRequest("'sip.uri' is required");
  const uri = sip.requiredString('uri');
  if (!/^sips?:\S+$/i.test(uri)) throw badRequest("Invalid 'sip.uri': expected a sip: or sips: URI");
  const from = sip.string('from');
  if (from !== undefined && !SIP_FROM.test(from)) throw badRequest("Invalid 'sip.from': expected name@domain");
  const auth = sip.object('auth');
  const options: SipOptions = {
    uri,
    headers: sip.stringMap('headers') ?? {},
    secure: sip.boolean('secure') ?? false,
    video: sip.boolean('video') ?? false,
    observeForceMute: sip.boolean('observeForceMute') ?? false,
  };
  const streams = sip.stringArray('streams');
  if (from !== undefined) options.from = from;
  if (auth) options.auth = { username: auth.requiredString('username'), password: auth.requiredString('password') };
  if (streams) options.streams = streams;
  return options;
}

function renderFields(body: unknown): StartRenderRequest & { token: string } {
  const fields = Fields.of(body);
  const sessionId = fields.requiredString('sessionId', { code: 50008 });
  if (!isSessionId(sessionId)) throw badRequest('Invalid sessionId', 50008);
  const token = fields.requiredString('token');
  const url = fields.requiredString('url', { min: 15, max: 2048, code: 50001 });
  if (!isHttpUrl(url)) throw badRequest("Invalid 'url': expected an http or https URL", 50001);
  const maxDuration = fields.integer('maxDuration', { min: 60, max: 36_000, code: 50005 }) ?? 7_200;
  const resolution = fields.oneOf('resolution', RESOLUTIONS, 50006) ?? '1280x720';
  const name = fields.object('properties')?.string('name', { min: 1, max: 200, code: 50007 });
  return name === undefined ? { sessionId, token, url, maxDuration, resolution } : { sessionId, token, url, maxDuration, resolution, name };
}

/** Operations carrying a participant token: SIP dial, captions, composers, Audio Connector. */
export function participantRoutes(b: Backends): Route[] {
  const key = (req: RouteRequest): string => param(req, 'apiKey');
  return [
    {
      method: 'POST',
      pattern: `${PROJECT}/dial`,
      auth: 'project',
      handle: async (req) => {
        const fields = Fields.of(jsonBody(req));
        const sessionId = fields.requiredString('sessionId');
        const token = fields.requiredString('token');
        const sip = parseSip(fields);
        b.sessions.find(key(req), sessionId);
        const call = b.sip.dial(key(req), sessionId, sip, await participant(b, key(req), sessionId, token));
        const { id, connectionId, streamId, createdAt, updatedAt } = call;
        return ok({ id, connectionId, streamId, projectId: call.apiKey, sessionId, createdAt, updatedAt });
      },
    },
    {
      method: 'POST',
      pattern: `${PROJECT}/captions`,
      auth: 'project',
      handle: async (req) => {
        const fields = Fields.of(jsonBody(req));
        const sessionId = fields.requiredString('sessionId');
        const token = fields.requiredString('token');
        const languageCode = fields.oneOf('languageCode', LANGUAGE_CODES) ?? 'en-US';
        const maxDuration = fields.integer('maxDuration', { min: 300, max: 14_400 }) ?? 14_400;
        const partialCaptions = fields.boolean('partialCaptions') ?? true;
        b.sessions.find(key(req), sessionId);
        const { role } = await participant(b, key(req), sessionId, token);
        if (role !== 'moderator') throw forbidden('Captions need a token with the moderator role');
        const captions = b.captions.start(key(req), { sessionId, languageCode, maxDuration, partialCaptions });
        return ok({ captionsId: captions.id }, 202);
      },
    },
    {
      method: 'POST',
      pattern: `${PROJECT}/captions/:captionsId/stop`,
      auth: 'project',
      handle: (req) => {
        b.captions.stop(key(req), param(req, 'captionsId'));
        return { status: 202 };
      },
    },
    {
      method: 'POST',
      pattern: `${PROJECT}/render`,
      auth: 'project',
      authCodes: { malformed: 10003, refused: 10004 },
      handle: async (req) => {
        const { token, ...fields } = renderFields(jsonBody(req));
        if (!b.projects.get(key(req)).sessions.has(fields.sessionId)) {
          throw badRequest(`Session ${fields.sessionId} not found`, 50008);
        }
        const verified = await participant(b, key(req), fields.sessionId, token, RENDER_TOKEN_CODES);
        if (verified.role === 'subscriber') throw forbidden('Composers need a token with the publisher role', 10002);
        return ok(renderView(b.renders.start(key(req), fields, verified)), 202);
      },
    },
    {
      method: 'GET',
      pattern: `${PROJECT}/render`,
      auth: 'project',
      authCodes: { malformed: 10003, refused: 10004 },
      handle: (req) => {
        const { total, items } = b.renders.list(key(req), parseListQuery(req.query, false));
        return ok({ count: total, items: items.map(renderView) });
      },
    },
    {
      method: 'GET',
      pattern: `${PROJECT}/render/:renderId`,
      auth: 'project',
      authCodes: { malformed: 10003, refused: 10004 },
      handle: (req) => ok(renderView(b.renders.get(key(req), param(req, 'renderId')))),
    },
    {
      method: 'DELETE',
      pattern: `${PROJECT}/render/:renderId`,
      auth: 'project',
      authCodes: { malformed: 10003, refused: 10004 },
      handle: (req) => {
        b.renders.stop(key(req), param(req, 'renderId'));
        return noContent();
      },
    },
    {
      method: 'POST',
      pattern: `${PROJECT}/connect`,
      auth: 'project',
      handle: async (req) => {
        const fields = Fields.of(jsonBody(req));
        const sessionId = fields.requiredString('sessionId');
        const token = fields.requiredString('token');
        const websocket = fields.object('websocket');
        if (!websocket) throw badRequest("'websocket.uri' is required");
        const uri = websocket.requiredString('uri');
        if (!/^wss?:\/\/[^\s/]+/i.test(uri)) throw badRequest("Invalid 'websocket.uri': expected a ws:// or wss:// URI");
        const headers = websocket.stringMap('headers') ?? {};
        if (utf8Bytes(JSON.stringify(headers)) > WEBSOCKET_HEADERS_MAX_BYTES) {
          throw badRequest(`'websocket.headers' is limited to ${WEBSOCKET_HEADERS_MAX_BYTES} bytes`);
        }
        const audioRate = websocket.oneOf('audioRate', [8000, 16000] as const) ?? 16000;
        const streams = websocket.stringArray('streams');
        b.sessions.find(key(req), sessionId);
        const verified = await participant(b, key(req), sessionId, token);
        const request = { sessionId, uri, headers, audioRate, ...(streams ? { streams } : {}) };
        const audio = b.audio.connect(key(req), request, verified);
        return ok({ id: audio.id, connectionId: audio.connectionId });
      },
    },
  ];
}

import type { Backends } from '../../backends';
import type { StartArchiveRequest } from '../../backends/archives';
import { parseLayout } from '../../backends/layout';
import { badRequest } from '../../errors';
import { RESOLUTIONS, type Archive } from '../../state/model';
import { Fields, isHttpUrl, isObject } from '../../validate';
import { parseListQuery, parseStreamChange } from '../parsers';
import { jsonBody, noContent, ok, param, type Route, type RouteRequest } from '../router';
import { archiveView } from '../views';

const ARCHIVE = '/v2/project/:apiKey/archive';
export const ARCHIVE_NAME_MAX = 255;

function parseStart(body: unknown): StartArchiveRequest {
  const fields = Fields.of(body);
  const sessionId = fields.requiredString('sessionId');
  const hasAudio = fields.boolean('hasAudio') ?? true;
  const hasVideo = fields.boolean('hasVideo') ?? true;
  if (!hasAudio && !hasVideo) throw badRequest('hasAudio and hasVideo cannot both be false');
  const outputMode = fields.oneOf('outputMode', ['composed', 'individual'] as const) ?? 'composed';
  const resolution = fields.oneOf('resolution', RESOLUTIONS);
  if (resolution !== undefined && outputMode === 'individual') throw badRequest('resolution applies only to composed archives');
  const layout = fields.has('layout') ? parseLayout(fields.raw('layout')) : undefined;
  if (layout !== undefined && outputMode === 'individual') throw badRequest('layout applies only to composed archives');
  const req: StartArchiveRequest = {
    sessionId,
    hasAudio,
    hasVideo,
    outputMode,
    name: fields.string('name', { max: ARCHIVE_NAME_MAX }) ?? '',
    streamMode: fields.oneOf('streamMode', ['auto', 'manual'] as const) ?? 'auto',
  };
  const tag = fields.string('multiArchiveTag', { min: 1 });
  if (resolution !== undefined) req.resolution = resolution;
  if (layout !== undefined) req.layout = layout;
  if (tag !== undefined) req.multiArchiveTag = tag;
  return req;
}

function parseUploadTarget(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw badRequest('Invalid body: expected a JSON object');
  const fields = new Fields(body);
  const type = fields.raw('type');
  if (type === undefined) throw badRequest('Upload target type undefined');
  if (type !== 's3' && type !== 'blobstore') throw badRequest(`Upload target type '${String(type)}' is not supported`);
  if (!fields.has('config')) throw badRequest('Upload target config undefined');
  const config = fields.object('config');
  if (!config) throw badRequest('Upload target config undefined');
  if (type === 's3') {
    for (const name of ['accessKey', 'secretKey', 'bucket']) config.requiredString(name);
    const endpoint = config.string('endpoint');
    if (endpoint !== undefined && !isHttpUrl(endpoint)) throw badRequest("Invalid 'config.endpoint': expected an http or https URL");
  } else {
    for (const name of ['accountName', 'accountKey', 'container']) config.requiredString(name);
    config.string('domain');
  }
  fields.oneOf('fallback', ['service', 'none'] as const);
  return body;
}

/** Archives: start/stop/list/get/delete, layout, stream selection, upload target. */
export function archiveRoutes(b: Backends): Route[] {
  const view = (archive: Archive): unknown => archiveView(archive, b.archives.downloadUrl(archive));
  const key = (req: RouteRequest): string => param(req, 'apiKey');
  return [
    {
      method: 'PUT',
      pattern: `${ARCHIVE}/storage`,
      auth: 'project',
      handle: (req) => {
        b.archives.setUploadTarget(key(req), parseUploadTarget(jsonBody(req)));
        return { status: 200, text: req.rawBody, contentType: 'application/json' };
      },
    },
    {
      method: 'DELETE',
      pattern: `${ARCHIVE}/storage`,
      auth: 'project',
      handle: (req) => {
        b.archives.deleteUploadTarget(key(req));
        return noContent();
      },
    },
    {
      method: 'POST',
      pattern: ARCHIVE,
      auth: 'project',
      handle: (req) => ok(view(b.archives.start(key(req), parseStart(jsonBody(req))))),
    },
    {
      method: 'POST',
      pattern: `${ARCHIVE}/:archiveId/stop`,
      auth: 'project',
      handle: (req) => ok(view(b.archives.stop(key(req), param(req, 'archiveId')))),
    },
    {
      method: 'GET',
      pattern: ARCHIVE,
      auth: 'project',
      handle: (req) => {
        const { total, items } = b.archives.list(key(req), parseListQuery(req.query, true));
        return ok({ count: total, items: items.map(view) });
      },
    },
    {
      method: 'GET',
      pattern: `${ARCHIVE}/:archiveId`,
      auth: 'project',
      handle: (req) => ok(view(b.archives.get(key(req), param(req, 'archiveId')))),
    },
    {
      method: 'DELETE',
      pattern: `${ARCHIVE}/:archiveId`,
      auth: 'project',
      handle: (req) => {
        b.archives.delete(key(req), param(req, 'archiveId'));
        return noContent();
      },
    },
    {
      method: 'PUT',
      pattern: `${ARCHIVE}/:archiveId/layout`,
      auth: 'project',
      handle: (req) => {
        b.archives.setLayout(key(req), param(req, 'archiveId'), parseLayout(jsonBody(req)));
        return { status: 200 };
      },
    },
    {
      method: 'PATCH',
      pattern: `${ARCHIVE}/:archiveId/streams`,
      auth: 'project',
      handle: (req) => {
        b.archives.selectStreams(key(req), param(req, 'archiveId'), parseStreamChange(jsonBody(req)));
        return noContent();
      },
    },
  ];
}

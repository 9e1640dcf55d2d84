import type { Backends } from '../../backends';
import { MAX_RTMP_OUTPUTS, type RtmpRequest, type StartBroadcastRequest } from '../../backends/broadcasts';
import { parseLayout } from '../../backends/layout';
import { badRequest } from '../../errors';
import { RESOLUTIONS } from '../../state/model';
import { Fields, isObject } from '../../validate';
import { parseListQuery, parseStreamChange } from '../parsers';
import { jsonBody, noContent, ok, param, type Route, type RouteRequest } from '../router';
import { broadcastView } from '../views';

const BROADCAST = '/v2/project/:apiKey/broadcast';

function isRtmpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'rtmp:' || url.protocol === 'rtmps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function parseRtmp(value: unknown): RtmpRequest[] {
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length > MAX_RTMP_OUTPUTS) throw badRequest(`At most ${MAX_RTMP_OUTPUTS} RTMP outputs are allowed`);
  const outputs = entries.map((entry, i): RtmpRequest => {
    if (!isObject(entry)) throw badRequest(`Invalid 'outputs.rtmp[${i}]': expected an object`);
    const fields = new Fields(entry, `outputs.rtmp[${i}].`);
    const id = fields.string('id', { min: 1 });
    const serverUrl = fields.requiredString('serverUrl');
    if (!isRtmpUrl(serverUrl)) throw badRequest(`Invalid '${fields.label('serverUrl')}': expected an rtmp:// or rtmps:// URL`);
    const streamName = fields.requiredString('streamName');
    return id === undefined ? { serverUrl, streamName } : { id, serverUrl, streamName };
  });
  const ids = outputs.flatMap((o) => (o.id === undefined ? [] : [o.id]));
  if (new Set(ids).size !== ids.length) throw badRequest('RTMP output ids must be unique');
  return outputs;
}

function parseStart(body: unknown): StartBroadcastRequest {
  const fields = Fields.of(body);
  const sessionId = fields.requiredString('sessionId');
  const hasAudio = fields.boolean('hasAudio') ?? true;
  const hasVideo = fields.boolean('hasVideo') ?? true;
  if (!hasAudio && !hasVideo) throw badRequest('hasAudio and hasVideo cannot both be false');
  const outputs = fields.object('outputs');
  if (!outputs) throw badRequest("'outputs' is required");
  const hlsFields = outputs.object('hls');
  const hls = hlsFields && { dvr: hlsFields.boolean('dvr') ?? false, lowLatency: hlsFields.boolean('lowLatency') ?? false };
  if (hls?.dvr && hls.lowLatency) throw badRequest('HLS lowLatency cannot be combined with dvr');
  const rtmp = outputs.has('rtmp') ? parseRtmp(outputs.raw('rtmp')) : [];
  if (!hls && rtmp.length === 0) throw badRequest("'outputs' needs an hls or an rtmp output");
  const req: StartBroadcastRequest = {
    sessionId,
    hasAudio,
    hasVideo,
    maxDuration: fields.integer('maxDuration', { min: 60, max: 36_000 }) ?? 14_400,
    rtmp,
    resolution: fields.oneOf('resolution', RESOLUTIONS) ?? '640x480',
    streamMode: fields.oneOf('streamMode', ['auto', 'manual'] as const) ?? 'auto',
  };
  const maxBitrate = fields.integer('maxBitrate', { min: 100_000, max: 6_000_000 });
  const tag = fields.string('multiBroadcastTag', { min: 1 });
  if (hls) req.hls = hls;
  if (fields.has('layout')) req.layout = parseLayout(fields.raw('layout'));
  if (maxBitrate !== undefined) req.maxBitrate = maxBitrate;
  if (tag !== undefined) req.multiBroadcastTag = tag;
  return req;
}

/** Live-streaming broadcasts. */
export function broadcastRoutes(b: Backends): Route[] {
  const key = (req: RouteRequest): string => param(req, 'apiKey');
  return [
    {
      method: 'POST',
      pattern: BROADCAST,
      auth: 'project',
      handle: (req) => ok(broadcastView(b.broadcasts.start(key(req), parseStart(jsonBody(req))), 'start')),
    },
    {
      method: 'POST',
      pattern: `${BROADCAST}/:broadcastId/stop`,
      auth: 'project',
      handle: (req) => ok(broadcastView(b.broadcasts.stop(key(req), param(req, 'broadcastId')), 'stop')),
    },
    {
      method: 'GET',
      pattern: BROADCAST,
      auth: 'project',
      handle: (req) => {
        const { total, items } = b.broadcasts.list(key(req), parseListQuery(req.query, true));
        return ok({ count: total, items: items.map((item) => broadcastView(item, 'read')) });
      },
    },
    {
      method: 'GET',
      pattern: `${BROADCAST}/:broadcastId`,
      auth: 'project',
      handle: (req) => ok(broadcastView(b.broadcasts.get(key(req), param(req, 'broadcastId')), 'read')),
    },
    {
      method: 'PUT',
      pattern: `${BROADCAST}/:broadcastId/layout`,
      auth: 'project',
      handle: (req) => {
        b.broadcasts.setLayout(key(req), param(req, 'broadcastId'), parseLayout(jsonBody(req)));
        return { status: 200 };
      },
    },
    {
      method: 'PATCH',
      pattern: `${BROADCAST}/:broadcastId/streams`,
      auth: 'project',
      handle: (req) => {
        b.broadcasts.selectStreams(key(req), param(req, 'broadcastId'), parseStreamChange(jsonBody(req)));
        return noContent();
      },
    },
  ];
}

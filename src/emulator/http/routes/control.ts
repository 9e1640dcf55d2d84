import type { ExternalArchiveStatus } from '../../backends/archives';
import type { OutputStatusChange } from '../../backends/broadcasts';
import type { CreateSessionOptions, PublishOptions } from '../../backends/sessions';
import type { ConnectControlOptions, CreateProjectOptions, EmulatorControl } from '../../control';
import { ApiError, badRequest } from '../../errors';
import { BROWSERS, HLS_STATUSES, RESOLUTIONS, RTMP_STATUSES, SDK_TYPES, type ClientInfo, type RtmpStatus } from '../../state/model';
import type { TransitionTimings } from '../../timings';
import { Fields, isObject } from '../../validate';
import type { Fault } from '../faults';
import { CONTROL_PREFIX } from '../server';
import { noContent, ok, optionalJsonBody, param, type Route, type RouteRequest, type RouteResponse } from '../router';

const PROJECT = `${CONTROL_PREFIX}/projects/:apiKey`;
const SESSION = `${PROJECT}/sessions/:sessionId`;
const STATE = `${CONTROL_PREFIX}/state/projects/:apiKey`;

const body = (req: RouteRequest): Fields => Fields.of(optionalJsonBody(req) ?? {});

function route(method: string, pattern: string, handle: (req: RouteRequest) => RouteResponse): Route {
  return {
    method,
    pattern,
    auth: 'none',
    handle: (req) => {
      try {
        return handle(req);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw badRequest(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

function sessionOptions(fields: Fields): CreateSessionOptions {
  const opts: CreateSessionOptions = {};
  const mediaMode = fields.oneOf('mediaMode', ['routed', 'relayed'] as const);
  const archiveMode = fields.oneOf('archiveMode', ['manual', 'always'] as const);
  const archiveName = fields.string('archiveName');
  const archiveResolution = fields.oneOf('archiveResolution', RESOLUTIONS);
  const e2ee = fields.boolean('e2ee');
  const location = fields.string('location');
  if (mediaMode) opts.mediaMode = mediaMode;
  if (archiveMode) opts.archiveMode = archiveMode;
  if (archiveName !== undefined) opts.archiveName = archiveName;
  if (archiveResolution) opts.archiveResolution = archiveResolution;
  if (e2ee !== undefined) opts.e2ee = e2ee;
  if (location !== undefined) opts.location = location;
  return opts;
}

function publishOptions(fields: Fields): PublishOptions {
  const opts: PublishOptions = {};
  const videoType = fields.oneOf('videoType', ['camera', 'screen', 'custom'] as const);
  const name = fields.string('name');
  const hasAudio = fields.boolean('hasAudio');
  const hasVideo = fields.boolean('hasVideo');
  const layoutClassList = fields.stringArray('layoutClassList');
  if (videoType) opts.videoType = videoType;
  if (name !== undefined) opts.name = name;
  if (hasAudio !== undefined) opts.hasAudio = hasAudio;
  if (hasVideo !== undefined) opts.hasVideo = hasVideo;
  if (layoutClassList) opts.layoutClassList = layoutClassList;
  return opts;
}

function outputStatus(fields: Fields): OutputStatusChange {
  const change: OutputStatusChange = {};
  const hls = fields.oneOf('hls', HLS_STATUSES);
  if (hls) change.hls = hls;
  const rtmp = fields.stringMap('rtmp');
  if (rtmp) {
    change.rtmp = {};
    for (const [id, status] of Object.entries(rtmp)) {
      const known = RTMP_STATUSES.find((s) => s === status);
      if (!known) throw badRequest(`Unknown RTMP status '${status}'`);
      change.rtmp[id] = known satisfies RtmpStatus;
    }
  }
  return change;
}

function requiredBoolean(fields: Fields, name: string): boolean {
  const value = fields.boolean(name);
  if (value === undefined) throw badRequest(`'${name}' is required`);
  return value;
}

/** `{sdkType?, sdkVersion?, country?, region?, browser?, browserVersion?}`; null clears a browser field. */
function clientInfo(fields: Fields | undefined): Partial<ClientInfo> | undefined {
  if (!fields) return undefined;
  const client: Partial<ClientInfo> = {};
  const sdkType = fields.oneOf('sdkType', SDK_TYPES);
  if (sdkType) client.sdkType = sdkType;
  const sdkVersion = fields.string('sdkVersion');
  if (sdkVersion !== undefined) client.sdkVersion = sdkVersion;
  for (const name of ['country', 'region', 'browserVersion'] as const) {
    if (fields.raw(name) === null) client[name] = null;
    else {
      const value = fields.string(name);
      if (value !== undefined) client[name] = value;
    }
  }
  if (fields.raw('browser') === null) client.browser = null;
  else {
    const browser = fields.oneOf('browser', BROWSERS);
    if (browser) client.browser = browser;
  }
  return client;
}

function fault(fields: Fields): Fault {
  const result: Fault = {
    path: fields.requiredString('path'),
    kind: fields.oneOf('kind', ['status', 'hang', 'reset', 'malformed'] as const) ?? 'status',
  };
  const method = fields.string('method');
  const count = fields.integer('count', { min: 1 });
  const status = fields.integer('status', { min: 100, max: 599 });
  const retryAfterSeconds = fields.integer('retryAfterSeconds', { min: 0 });
  const faultBody = fields.string('body');
  const contentType = fields.string('contentType');
  if (method !== undefined) result.method = method;
  if (count !== undefined) result.count = count;
  if (status !== undefined) result.status = status;
  if (retryAfterSeconds !== undefined) result.retryAfterSeconds = retryAfterSeconds;
  if (faultBody !== undefined) result.body = faultBody;
  if (contentType !== undefined) result.contentType = contentType;
  return result;
}

/** The control plane: the in-process `EmulatorControl` as JSON over HTTP under `/_emulator`. */
export function controlRoutes(control: EmulatorControl): Route[] {
  const key = (req: RouteRequest): string => param(req, 'apiKey');
  const sid = (req: RouteRequest): string => param(req, 'sessionId');
  return [
    route('POST', `${CONTROL_PREFIX}/reset`, () => {
      control.reset();
      return noContent();
    }),
    route('GET', `${CONTROL_PREFIX}/clock`, () => ok({ now: control.now() })),
    route('POST', `${CONTROL_PREFIX}/clock/advance`, (req) => {
      const ms = body(req).integer('ms', { min: 0 });
      if (ms === undefined) throw badRequest("'ms' is required");
      control.advanceTime(ms);
      return ok({ now: control.now() });
    }),
    route('GET', `${CONTROL_PREFIX}/transitions`, () => ok(control.transitions())),
    route('POST', `${CONTROL_PREFIX}/transitions`, (req) => {
      const partial = optionalJsonBody(req) ?? {};
      if (!isObject(partial)) throw badRequest('Expected an object of timings in milliseconds');
      control.setTransitions(partial as Partial<TransitionTimings>);
      return ok(control.transitions());
    }),
    route('POST', `${CONTROL_PREFIX}/faults`, (req) => {
      control.injectFault(fault(body(req)));
      return noContent();
    }),
    route('DELETE', `${CONTROL_PREFIX}/faults`, () => {
      control.clearFaults();
      return noContent();
    }),
    route('POST', `${CONTROL_PREFIX}/faults/release`, () => ok({ released: control.releaseHangs() })),
    route('POST', `${CONTROL_PREFIX}/latency`, (req) => {
      const ms = body(req).integer('ms', { min: 0 });
      if (ms === undefined) throw badRequest("'ms' is required");
      control.setLatency(ms);
      return noContent();
    }),
    route('GET', `${CONTROL_PREFIX}/account`, () => ok(control.account)),
    route('POST', `${CONTROL_PREFIX}/projects`, (req) => {
      const fields = body(req);
      const opts: CreateProjectOptions = {};
      for (const name of ['apiKey', 'apiSecret', 'name'] as const) {
        const value = fields.string(name);
        if (value !== undefined) opts[name] = value;
      }
      for (const name of ['advancedInsights', 'syntheticHistory'] as const) {
        const value = fields.boolean(name);
        if (value !== undefined) opts[name] = value;
      }
      return ok(control.createProject(opts));
    }),
    route('POST', `${PROJECT}/sessions`, (req) => ok({ sessionId: control.createSession(key(req), sessionOptions(body(req))) })),
    route('POST', `${SESSION}/connections`, (req) => {
      const fields = body(req);
      const data = fields.string('data');
      const client = clientInfo(fields.object('client'));
      const opts: ConnectControlOptions = {};
      if (data !== undefined) opts.data = data;
      if (client) opts.client = client;
      return ok({ connectionId: control.connect(key(req), sid(req), opts) });
    }),
    route('DELETE', `${SESSION}/connections/:connectionId`, (req) => {
      control.disconnect(key(req), sid(req), param(req, 'connectionId'));
      return noContent();
    }),
    route('POST', `${SESSION}/streams`, (req) => {
      const fields = body(req);
      const connectionId = fields.requiredString('connectionId');
      return ok({ streamId: control.publish(key(req), sid(req), connectionId, publishOptions(fields)) });
    }),
    route('DELETE', `${SESSION}/streams/:streamId`, (req) => {
      control.unpublish(key(req), sid(req), param(req, 'streamId'));
      return noContent();
    }),
    route('POST', `${PROJECT}/archives/:archiveId/status`, (req) => {
      const status = body(req).oneOf<ExternalArchiveStatus>('status', ['failed', 'expired', 'available', 'uploaded']);
      if (!status) throw badRequest("'status' is required");
      control.setArchiveStatus(key(req), param(req, 'archiveId'), status);
      return noContent();
    }),
    route('POST', `${PROJECT}/broadcasts/:broadcastId/output-status`, (req) => {
      control.setBroadcastOutputStatus(key(req), param(req, 'broadcastId'), outputStatus(body(req)));
      return noContent();
    }),
    route('POST', `${PROJECT}/renders/:renderId/fail`, (req) => {
      control.failRender(key(req), param(req, 'renderId'), body(req).string('reason') ?? 'Could not load URL');
      return noContent();
    }),
    route('POST', `${PROJECT}/insights/advanced`, (req) => {
      control.setAdvancedInsights(key(req), requiredBoolean(body(req), 'enabled'));
      return noContent();
    }),
    route('POST', `${PROJECT}/insights/synthetic-history`, (req) => {
      control.setSyntheticHistory(key(req), requiredBoolean(body(req), 'enabled'));
      return noContent();
    }),
    route('GET', `${PROJECT}/insights/ground-truth`, (req) => {
      const start = req.query.get('start');
      if (start === null) throw badRequest("'start' is required");
      const end = req.query.get('end');
      return ok(control.insightsGroundTruth(key(req), end === null ? { start } : { start, end }));
    }),
    route('GET', `${CONTROL_PREFIX}/insights/limits`, () => ok(control.insightsLimits())),
    route('POST', `${CONTROL_PREFIX}/insights/limits`, (req) => {
      control.setInsightsLimits({ enforce: requiredBoolean(body(req), 'enforce') });
      return ok(control.insightsLimits());
    }),
    route('GET', `${CONTROL_PREFIX}/state/requests`, () => ok(control.requestLog())),
    route('GET', STATE, (req) => ok(control.getProject(key(req)))),
    route('GET', `${STATE}/upload-target`, (req) => ok({ uploadTarget: control.uploadTarget(key(req)) })),
    route('GET', `${STATE}/sessions/:sessionId`, (req) => ok(control.getSession(key(req), sid(req)))),
    route('GET', `${STATE}/sessions/:sessionId/connections/:connectionId/signals`, (req) =>
      ok(control.signalsReceived(key(req), sid(req), param(req, 'connectionId'))),
    ),
    route('GET', `${STATE}/sessions/:sessionId/dtmf`, (req) => ok(control.dtmfReceived(key(req), sid(req), req.query.get('connectionId') ?? undefined))),
    route('GET', `${STATE}/archives/:id`, (req) => ok(control.getArchive(key(req), param(req, 'id')))),
    route('GET', `${STATE}/broadcasts/:id`, (req) => ok(control.getBroadcast(key(req), param(req, 'id')))),
    route('GET', `${STATE}/renders/:id`, (req) => ok(control.getRender(key(req), param(req, 'id')))),
    route('GET', `${STATE}/captions/:id`, (req) => ok(control.getCaptions(key(req), param(req, 'id')))),
    route('GET', `${STATE}/sip-calls/:id`, (req) => ok(control.getSipCall(key(req), param(req, 'id')))),
    route('GET', `${STATE}/audio-connections/:id`, (req) => ok(control.getAudioConnection(key(req), param(req, 'id')))),
  ];
}

import { javaDateString, projectIdValue } from '../ids';
import type { Archive, Broadcast, Project, Render, Session, Stream } from '../state/model';

/** Archive JSON as the service sends it (`url` is minted by the caller: it changes per read). */
export function archiveView(archive: Archive, url: string | null): Record<string, unknown> {
  const projectId = projectIdValue(archive.apiKey);
  const view: Record<string, unknown> = {
    createdAt: archive.createdAt,
    duration: archive.status === 'started' ? 0 : Math.floor(archive.recordedMs / 1000),
    hasAudio: archive.hasAudio,
    hasVideo: archive.hasVideo,
    id: archive.id,
    name: archive.name,
    outputMode: archive.outputMode,
    projectId,
    partnerId: projectId,
    reason: archive.reason,
    sessionId: archive.sessionId,
    size: archive.size,
    status: archive.status,
    streamMode: archive.streamMode,
    streams: archive.status === 'started' && archive.streamMode === 'manual' ? archive.selectedStreams.map((s) => ({ ...s })) : [],
    url,
  };
  if (archive.resolution !== undefined) view.resolution = archive.resolution;
  if (archive.multiArchiveTag !== undefined) view.multiArchiveTag = archive.multiArchiveTag;
  return view;
}

/**
 * Broadcast JSON. `start`: RTMP outputs as an array; `read` (list/get): RTMP keyed by output ID plus
 * `settings`; `stop`: timestamps in seconds, `broadcastUrls` null and no streams.
 */
export function broadcastView(broadcast: Broadcast, form: 'start' | 'read' | 'stop'): Record<string, unknown> {
  const projectId = projectIdValue(broadcast.apiKey);
  const stopped = broadcast.status !== 'started';
  const createdAt = form === 'stop' ? Math.floor(broadcast.createdAt / 1000) : broadcast.createdAt;
  const updatedAt = form === 'stop' ? Math.floor((broadcast.stoppedAt ?? broadcast.createdAt) / 1000) : broadcast.createdAt;
  const view: Record<string, unknown> = {
    id: broadcast.id,
    sessionId: broadcast.sessionId,
    projectId,
    partnerId: projectId,
    createdAt,
    updatedAt,
    resolution: broadcast.resolution,
    status: broadcast.status,
    streamMode: broadcast.streamMode,
    streams: !stopped && broadcast.streamMode === 'manual' ? broadcast.selectedStreams.map((s) => ({ ...s })) : [],
    hasAudio: broadcast.hasAudio,
    hasVideo: broadcast.hasVideo,
    maxDuration: broadcast.maxDuration,
    broadcastUrls: stopped || form === 'stop' ? null : broadcastUrls(broadcast, form),
  };
  if (broadcast.maxBitrate !== undefined) view.maxBitrate = broadcast.maxBitrate;
  if (broadcast.multiBroadcastTag !== undefined) view.multiBroadcastTag = broadcast.multiBroadcastTag;
  if (form === 'read') {
    view.settings = { hls: { dvr: broadcast.hls?.dvr ?? false, lowLatency: broadcast.hls?.lowLatency ?? false } };
  }
  return view;
}

function broadcastUrls(broadcast: Broadcast, form: 'start' | 'read'): Record<string, unknown> {
  const urls: Record<string, unknown> = {};
  if (broadcast.hls) {
    urls.hls = broadcast.hls.url;
    urls.hlsStatus = broadcast.hls.status;
  }
  if (broadcast.rtmp.length > 0) {
    urls.rtmp =
      form === 'start'
        ? broadcast.rtmp.map((r) => ({ id: r.id, status: r.status, serverUrl: r.serverUrl, streamName: r.streamName }))
        : Object.fromEntries(broadcast.rtmp.map((r) => [r.id, { serverUrl: r.serverUrl, streamName: r.streamName, status: r.status }]));
  }
  return urls;
}

/** Composer JSON; `projectId` is a string here, as the service sends it. */
export function renderView(render: Render): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: render.id,
    sessionId: render.sessionId,
    projectId: render.apiKey,
    createdAt: render.createdAt,
    updatedAt: render.updatedAt,
    url: render.url,
    resolution: render.resolution,
    status: render.status,
  };
  if (render.name !== undefined) view.name = render.name;
  if (render.streamId !== undefined) view.streamId = render.streamId;
  if (render.reason !== undefined && (render.status === 'stopped' || render.status === 'failed')) view.reason = render.reason;
  return view;
}

export function streamView(stream: Stream): Record<string, unknown> {
  return { id: stream.id, videoType: stream.videoType, name: stream.name, layoutClassList: [...stream.layoutClassList] };
}

/** Project details. The secret is shown only to account-level callers. */
export function projectView(project: Project, withSecret: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: project.apiKey,
    status: project.status,
    name: project.name,
    environment: project.environment,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
  return withSecret ? { id: view.id, secret: project.secret, ...view } : view;
}

export function sessionCreateJson(session: Session): unknown[] {
  return [
    {
      session_id: session.id,
      project_id: session.apiKey,
      partner_id: session.apiKey,
      create_dt: javaDateString(session.createdAt),
      media_server_url: '',
    },
  ];
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const XML_PROLOG = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export function sessionCreateXml(session: Session): string {
  return (
    `${XML_PROLOG}<sessions><Session><session_id>${escapeXml(session.id)}</session_id>` +
    `<partner_id>${escapeXml(session.apiKey)}</partner_id><create_dt>${javaDateString(session.createdAt)}</create_dt>` +
    `</Session></sessions>`
  );
}

export function errorXml(code: number, message: string): string {
  return `${XML_PROLOG}<errorPayload><code>${code}</code><message>${escapeXml(message)}</message></errorPayload>`;
}

import { badRequest, notFound, payloadTooLarge, requestTimeout } from '../errors';
import { isSessionId, isUuid, newId, newSessionId } from '../ids';
import type {
  ArchiveMode,
  ClientInfo,
  Connection,
  ConnectionKind,
  MediaMode,
  Project,
  Resolution,
  Session,
  SignalRecord,
  Stream,
  VideoType,
} from '../state/model';
import { utf8Bytes } from '../validate';
import type { BackendContext } from './context';
import type { ProjectsBackend } from './projects';

export interface CreateSessionOptions {
  mediaMode?: MediaMode;
  archiveMode?: ArchiveMode;
  archiveName?: string;
  archiveResolution?: Resolution;
  e2ee?: boolean;
  location?: string;
}

export interface ConnectOptions {
  data?: string;
  kind?: ConnectionKind;
  /** Client details for Insights (SDK, browser, location); defaults depend on `kind`. */
  client?: Partial<ClientInfo>;
}

export interface PublishOptions {
  videoType?: VideoType;
  name?: string;
  hasAudio?: boolean;
  hasVideo?: boolean;
  layoutClassList?: string[];
}

export interface LayoutClassItem {
  id: string;
  layoutClassList: string[];
}

export const SIGNAL_TYPE_MAX_BYTES = 128;
export const SIGNAL_DATA_MAX_BYTES = 8192;
export const ARCHIVE_NAME_MAX_CHARS = 80;
const DTMF_DIGITS = /^[0-9*#p]+$/;

export function connectedConnections(session: Session): Connection[] {
  return [...session.connections.values()].filter((c) => c.connected);
}

/** Sessions, connections, streams, signals, DTMF and moderation. */
export class SessionsBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly projects: ProjectsBackend,
  ) {}

  create(apiKey: string, opts: CreateSessionOptions = {}): Session {
    const project = this.projects.get(apiKey);
    const mediaMode = opts.mediaMode ?? 'routed';
    const archiveMode = opts.archiveMode ?? 'manual';
    if (archiveMode === 'always' && mediaMode !== 'routed') {
      throw badRequest("archiveMode 'always' requires p2p.preference 'disabled'");
    }
    if (archiveMode !== 'always' && (opts.archiveName !== undefined || opts.archiveResolution !== undefined)) {
      throw badRequest("archiveName and archiveResolution apply only when archiveMode is 'always'");
    }
    const archiveName = opts.archiveName ?? '';
    if ([...archiveName].length > ARCHIVE_NAME_MAX_CHARS) {
      throw badRequest(`archiveName is limited to ${ARCHIVE_NAME_MAX_CHARS} characters`);
    }
    const now = this.ctx.clock.now();
    const session: Session = {
      id: newSessionId(apiKey, mediaMode === 'routed', now),
      apiKey,
      mediaMode,
      archiveMode,
      archiveName: archiveName.replace(/[~\-_]/g, ':'),
      archiveResolution: opts.archiveResolution ?? '640x480',
      e2ee: opts.e2ee ?? false,
      createdAt: now,
      connections: new Map(),
      streams: new Map(),
      everPublished: false,
      mute: { active: false, excludedStreamIds: [] },
      noPublishersSince: now,
      noConnectionsSince: now,
      dtmf: [],
    };
    if (opts.location !== undefined) session.location = opts.location;
    project.sessions.set(session.id, session);
    return session;
  }

  /** The session: 400 when the ID is malformed, 404 when this project has no such session. */
  find(apiKey: string, sessionId: string): Session {
    if (!isSessionId(sessionId)) throw badRequest('Invalid session ID');
    const session = this.projects.get(apiKey).sessions.get(sessionId);
    if (!session) throw notFound(`Session ${sessionId} not found`);
    return session;
  }

  project(apiKey: string): Project {
    return this.projects.get(apiKey);
  }

  connect(apiKey: string, sessionId: string, opts: ConnectOptions = {}): Connection {
    const session = this.find(apiKey, sessionId);
    const connection: Connection = {
      id: newId(),
      sessionId,
      kind: opts.kind ?? 'client',
      data: opts.data ?? '',
      createdAt: this.ctx.clock.now(),
      connected: true,
      signals: [],
      dtmf: [],
    };
    if (opts.client) connection.client = { ...opts.client };
    session.connections.set(connection.id, connection);
    this.ctx.events.emit({ kind: 'connected', session, connection });
    return connection;
  }

  /** A connected connection of the session: 400 malformed ID, 404 not connected. */
  findConnection(session: Session, connectionId: string): Connection {
    if (!isUuid(connectionId)) throw badRequest('Invalid connection ID');
    const connection = session.connections.get(connectionId);
    if (!connection || !connection.connected) {
      throw notFound(`Connection ${connectionId} is not connected to the session`);
    }
    return connection;
  }

  disconnect(apiKey: string, sessionId: string, connectionId: string): Connection {
    const session = this.find(apiKey, sessionId);
    const connection = this.findConnection(session, connectionId);
    for (const stream of [...session.streams.values()]) {
      if (stream.connectionId === connection.id) this.removeStream(session, stream);
    }
    connection.connected = false;
    connection.disconnectedAt = this.ctx.clock.now();
    if (connectedConnections(session).length === 0) session.noConnectionsSince = connection.disconnectedAt;
    this.ctx.events.emit({ kind: 'disconnected', session, connection });
    return connection;
  }

  publish(apiKey: string, sessionId: string, connectionId: string, opts: PublishOptions = {}): Stream {
    const session = this.find(apiKey, sessionId);
    const connection = this.findConnection(session, connectionId);
    const id = newId();
    const { mute } = session;
    const stream: Stream = {
      id,
      connectionId: connection.id,
      videoType: opts.videoType ?? 'camera',
      name: opts.name ?? '',
      hasAudio: opts.hasAudio ?? true,
      hasVideo: opts.hasVideo ?? true,
      layoutClassList: [...(opts.layoutClassList ?? [])],
      muted: mute.active && !mute.excludedStreamIds.includes(id),
      createdAt: this.ctx.clock.now(),
    };
    session.streams.set(id, stream);
    session.everPublished = true;
    this.ctx.events.emit({ kind: 'published', session, stream });
    return stream;
  }

  unpublish(apiKey: string, sessionId: string, streamId: string): void {
    const session = this.find(apiKey, sessionId);
    const stream = session.streams.get(streamId);
    if (!stream) throw notFound(`Stream ${streamId} not found`);
    this.removeStream(session, stream);
  }

  signal(apiKey: string, sessionId: string, connectionId: string | undefined, signal: { type?: string; data: string }): void {
    if (signal.type !== undefined && utf8Bytes(signal.type) > SIGNAL_TYPE_MAX_BYTES) {
      throw payloadTooLarge(`Signal type is limited to ${SIGNAL_TYPE_MAX_BYTES} bytes`);
    }
    if (utf8Bytes(signal.data) > SIGNAL_DATA_MAX_BYTES) {
      throw payloadTooLarge(`Signal data is limited to ${SIGNAL_DATA_MAX_BYTES} bytes`);
    }
    const session = this.find(apiKey, sessionId);
    const targets = connectionId === undefined ? connectedConnections(session) : [this.findConnection(session, connectionId)];
    const record: SignalRecord = { type: signal.type ?? '', data: signal.data, from: '' };
    for (const connection of targets) connection.signals.push({ ...record });
  }

  playDtmf(apiKey: string, sessionId: string, connectionId: string | undefined, digits: string): void {
    if (!DTMF_DIGITS.test(digits)) throw badRequest('Invalid DTMF Digits');
    const session = this.find(apiKey, sessionId);
    const targets = connectionId === undefined ? connectedConnections(session) : [this.findConnection(session, connectionId)];
    const record = { digits, target: connectionId ?? 'all', at: this.ctx.clock.now() };
    for (const connection of targets) connection.dtmf.push({ ...record });
    session.dtmf.push(record);
  }

  muteStream(apiKey: string, sessionId: string, streamId: string): Stream {
    const session = this.find(apiKey, sessionId);
    if (!isUuid(streamId)) throw badRequest('Invalid stream ID');
    const stream = session.streams.get(streamId);
    if (!stream) throw notFound(`Stream ${streamId} not found`);
    stream.muted = true;
    return stream;
  }

  muteAll(apiKey: string, sessionId: string, active: boolean, excludedStreamIds: string[] = []): Session {
    const session = this.find(apiKey, sessionId);
    if (active) {
      session.mute = { active: true, excludedStreamIds: [...excludedStreamIds] };
      for (const stream of session.streams.values()) {
        if (!excludedStreamIds.includes(stream.id)) stream.muted = true;
      }
    } else {
      session.mute = { active: false, excludedStreamIds: [] };
    }
    return session;
  }

  /** One stream: 408 when the ID is not a stream ID, 404 when not published in the session. */
  getStream(apiKey: string, sessionId: string, streamId: string): Stream {
    const session = this.find(apiKey, sessionId);
    if (!isUuid(streamId)) throw requestTimeout('Invalid stream ID');
    const stream = session.streams.get(streamId);
    if (!stream) throw notFound(`Stream ${streamId} not found`);
    return stream;
  }

  listStreams(apiKey: string, sessionId: string): Stream[] {
    const session = this.find(apiKey, sessionId);
    if (!session.everPublished) throw notFound('No stream has been added to the session yet');
    return [...session.streams.values()];
  }

  setLayoutClasses(apiKey: string, sessionId: string, items: LayoutClassItem[]): void {
    const session = this.find(apiKey, sessionId);
    for (const item of items) {
      if (!session.streams.has(item.id)) throw badRequest(`Invalid layout options: stream ${item.id} is not in the session`);
    }
    for (const item of items) {
      const stream = session.streams.get(item.id);
      if (stream) stream.layoutClassList = [...item.layoutClassList];
    }
  }

  private removeStream(session: Session, stream: Stream): void {
    session.streams.delete(stream.id);
    if (session.streams.size === 0) session.noPublishersSince = this.ctx.clock.now();
    this.ctx.events.emit({ kind: 'unpublished', session, stream });
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import type { Archive, ArchiveStatus, Layout, OutputMode, Project, Resolution, Session, StreamMode, StreamSelection } from '../state/model';
import type { BackendContext } from './context';
import type { SessionChange } from './events';
import { checkLayoutClasses } from './layout';
import { applyTransition, delayOf, type TransitionTable } from './lifecycle';
import { connectedConnections, type SessionsBackend } from './sessions';

/** The archive lifecycle of the spec's "States and transitions", as data. */
export const ARCHIVE_TRANSITIONS = {
  stop: { from: ['started'], to: 'stopped', reason: 'user initiated' },
  maxDuration: { from: ['started'], to: 'stopped', reason: 'maximum duration exceeded', after: 'archiveMaxDurationMs' },
  pause: { from: ['started'], to: 'paused' },
  resume: { from: ['paused'], to: 'started' },
  idleTimeout: { from: ['paused'], to: 'stopped', reason: 'maximum idle time exceeded', after: 'archiveIdleStopMs' },
  sessionEnded: { from: ['paused'], to: 'stopped', reason: 'session ended', after: 'archiveDisconnectedStopMs' },
  makeAvailable: { from: ['stopped'], to: 'available', after: 'archiveProcessingMs' },
  upload: { from: ['stopped'], to: 'uploaded', after: 'archiveProcessingMs' },
  delete: { from: ['available', 'uploaded'], to: 'deleted' },
} as const satisfies TransitionTable<ArchiveStatus, string>;

type ArchiveTransition = keyof typeof ARCHIVE_TRANSITIONS;

export interface StartArchiveRequest {
  sessionId: string;
  hasAudio: boolean;
  hasVideo: boolean;
  layout?: Layout;
  multiArchiveTag?: string;
  name: string;
  outputMode: OutputMode;
  resolution?: Resolution;
  streamMode: StreamMode;
}

export interface ListQuery {
  offset: number;
  count: number;
  sessionId?: string;
}

export type StreamChange = { addStream: string; hasAudio: boolean; hasVideo: boolean } | { removeStream: string };

export type ExternalArchiveStatus = 'failed' | 'expired' | 'available' | 'uploaded';

const ACTIVE: readonly ArchiveStatus[] = ['started', 'paused'];
const CONTAINER_BYTES = 2_048;

function bytesPerSecond(archive: Archive): number {
  if (!archive.hasVideo) return 4_000;
  const pixels = archive.resolution
    ? archive.resolution
        .split('x')
        .map(Number)
        .reduce((a, b) => a * b, 1)
    : 640 * 480;
  return Math.round((pixels / (640 * 480)) * 62_500);
}

/** Archives: recording lifecycle on the emulator clock, stream selection, upload target, downloads. */
export class ArchivesBackend {
  constructor(
    private readonly ctx: BackendContext,
    private readonly sessions: SessionsBackend,
  ) {
    ctx.events.on((change) => this.onSessionChange(change));
  }

  start(apiKey: string, req: StartArchiveRequest): Archive {
    const session = this.sessions.find(apiKey, req.sessionId);
    if (session.mediaMode !== 'routed') throw conflict('Session is not using the media router (media mode relayed)');
    if (connectedConnections(session).length === 0) throw notFound('Session exists but has no connected clients');
    checkLayoutClasses(req.layout, session);
    this.checkSimultaneous(session, req.multiArchiveTag);
    const archive = this.begin(session, { ...req, automatic: false });
    const key = this.key(archive, 'reconcile');
    this.ctx.scheduler.after(key, 0, () => this.reconcile(archive));
    return archive;
  }

  stop(apiKey: string, archiveId: string): Archive {
    const archive = this.find(apiKey, archiveId, () => notFound('Not found. You passed in an invalid archive ID.'));
    if (archive.status !== 'started') throw conflict('Conflict. You are trying to stop an archive that is not recording.');
    if (archive.automatic) return archive;
    this.move(archive, 'stop');
    return archive;
  }

  list(apiKey: string, query: ListQuery): { total: number; items: Archive[] } {
    const all = [...this.project(apiKey).archives.values()]
      .reverse()
      .filter((a) => a.status !== 'deleted' && (query.sessionId === undefined || a.sessionId === query.sessionId));
    return { total: all.length, items: all.slice(query.offset, query.offset + query.count) };
  }

  get(apiKey: string, archiveId: string): Archive {
    return this.find(apiKey, archiveId, () => badRequest('Invalid archive ID'));
  }

  delete(apiKey: string, archiveId: string): void {
    const archive = this.find(
      apiKey,
      archiveId,
      () => forbidden('Invalid archive ID'),
      () => forbidden('Invalid archive ID'),
    );
    if (archive.status === 'deleted') return;
    if (!this.move(archive, 'delete')) {
      throw conflict(`Archive status is '${archive.status}'; only available or uploaded archives can be deleted`);
    }
  }

  setLayout(apiKey: string, archiveId: string, layout: Layout): Archive {
    const archive = this.find(apiKey, archiveId, () => badRequest('Invalid archive ID'));
    if (archive.outputMode !== 'composed') throw badRequest('Layout applies only to composed archives');
    if (archive.status !== 'started') throw conflict('The archive is not being recorded');
    checkLayoutClasses(layout, this.session(archive));
    archive.layout = layout;
    return archive;
  }

  selectStreams(apiKey: string, archiveId: string, change: StreamChange): void {
    const archive = this.find(apiKey, archiveId, () => badRequest('Invalid archive ID'));
    if (archive.streamMode !== 'manual') throw badRequest("Stream selection needs streamMode 'manual'");
    if (!ACTIVE.includes(archive.status)) throw conflict('The archive is not being recorded');
    applyStreamChange(archive.selectedStreams, this.session(archive), change);
  }

  setUploadTarget(apiKey: string, body: Record<string, unknown>): Record<string, unknown> {
    this.project(apiKey).uploadTarget = body;
    return body;
  }

  deleteUploadTarget(apiKey: string): void {
    const project = this.project(apiKey);
    if (!project.uploadTarget) throw notFound('No archive upload target is set');
    delete project.uploadTarget;
  }

  uploadTarget(apiKey: string): Record<string, unknown> | null {
    return this.project(apiKey).uploadTarget ?? null;
  }

  /** A fresh obfuscated download URL, valid for `archiveUrlValidityMs`; null unless available. */
  downloadUrl(archive: Archive): string | null {
    if (archive.status !== 'available') return null;
    const expires = Math.floor((this.ctx.clock.now() + this.ctx.timings.archiveUrlValidityMs) / 1000);
    const signature = this.sign(archive.apiKey, archive.id, expires);
    return `${this.ctx.baseUrl}/archive-files/${encodeURIComponent(archive.apiKey)}/${archive.id}/archive.mp4?Expires=${expires}&Signature=${signature}`;
  }

  /** Checks a download URL's signature and expiry; the archive must still be available. */
  download(apiKey: string, archiveId: string, expires: string | null, signature: string | null): Archive {
    const expected = /^\d+$/.test(expires ?? '') ? this.sign(apiKey, archiveId, Number(expires)) : '';
    const given = Buffer.from(signature ?? '');
    if (expected === '' || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw forbidden('Signature does not match');
    }
    if (Number(expires) * 1000 <= this.ctx.clock.now()) throw forbidden('Request has expired');
    const archive = this.ctx.state.projects.get(apiKey)?.archives.get(archiveId);
    if (!archive || archive.status !== 'available') throw notFound('The archive file does not exist');
    return archive;
  }

  /** Control plane: a state change the spec says comes from outside (storage, failures, expiry). */
  setStatus(apiKey: string, archiveId: string, status: ExternalArchiveStatus): Archive {
    const archive = this.find(apiKey, archiveId, () => notFound(`Archive ${archiveId} not found`));
    const now = this.ctx.clock.now();
    this.stopRecording(archive, now);
    this.ctx.scheduler.cancelPrefix(this.key(archive, ''));
    archive.status = status;
    archive.updatedAt = now;
    if (status === 'failed') archive.reason = 'failure';
    if ((status === 'available' || status === 'uploaded') && archive.size === 0) archive.size = this.sizeOf(archive);
    return archive;
  }

  private onSessionChange(change: SessionChange): void {
    const { session } = change;
    const project = this.ctx.state.projects.get(session.apiKey);
    if (!project) return;
    if (change.kind === 'unpublished') {
      for (const archive of this.archivesOf(project, session)) {
        archive.selectedStreams = archive.selectedStreams.filter((s) => s.streamId !== change.stream.id);
      }
    }
    if (change.kind === 'published' && session.archiveMode === 'always') this.ensureAutomatic(session);
    for (const archive of this.archivesOf(project, session)) this.reconcile(archive);
  }

  /** Pauses, resumes and schedules the idle stops of an in-progress archive from its session's state. */
  private reconcile(archive: Archive): void {
    if (!ACTIVE.includes(archive.status)) return;
    const session = this.session(archive);
    const publishing = session.streams.size > 0;
    const connected = connectedConnections(session).length > 0;
    if (archive.status === 'started' && !(publishing && connected)) this.move(archive, 'pause');
    else if (archive.status === 'paused' && publishing && connected) this.move(archive, 'resume');
    if (archive.status !== 'paused') return;
    const { scheduler, timings } = this.ctx;
    const idleKey = this.key(archive, 'idleTimeout');
    if (publishing) scheduler.cancel(idleKey);
    else {
      const since = Math.max(session.noPublishersSince, archive.createdAt);
      scheduler.at(idleKey, since + delayOf(ARCHIVE_TRANSITIONS.idleTimeout, timings), () => this.move(archive, 'idleTimeout'));
    }
    const endedKey = this.key(archive, 'sessionEnded');
    if (connected) scheduler.cancel(endedKey);
    else {
      const since = Math.max(session.noConnectionsSince, archive.createdAt);
      scheduler.at(endedKey, since + delayOf(ARCHIVE_TRANSITIONS.sessionEnded, timings), () => this.move(archive, 'sessionEnded'));
    }
  }

  private ensureAutomatic(session: Session): void {
    const project = this.project(session.apiKey);
    if (this.archivesOf(project, session).some((a) => a.automatic)) return;
    this.begin(session, {
      name: session.archiveName,
      hasAudio: true,
      hasVideo: true,
      outputMode: 'composed',
      resolution: session.archiveResolution,
      streamMode: 'auto',
      automatic: true,
    });
  }

  private begin(session: Session, fields: Omit<StartArchiveRequest, 'sessionId'> & { automatic: boolean }): Archive {
    const now = this.ctx.clock.now();
    const archive: Archive = {
      id: newId(),
      apiKey: session.apiKey,
      sessionId: session.id,
      createdAt: now,
      updatedAt: now,
      name: fields.name,
      hasAudio: fields.hasAudio,
      hasVideo: fields.hasVideo,
      outputMode: fields.outputMode,
      streamMode: fields.streamMode,
      status: 'started',
      reason: '',
      recordedMs: 0,
      recordingSince: now,
      size: 0,
      selectedStreams: [],
      automatic: fields.automatic,
    };
    if (fields.outputMode === 'composed') archive.resolution = fields.resolution ?? '640x480';
    if (fields.layout) archive.layout = fields.layout;
    if (fields.multiArchiveTag !== undefined) archive.multiArchiveTag = fields.multiArchiveTag;
    this.project(session.apiKey).archives.set(archive.id, archive);
    this.scheduleMaxDuration(archive);
    return archive;
  }

  /** Applies a lifecycle transition and its side effects: recording time, timers, processing. */
  private move(archive: Archive, name: ArchiveTransition): boolean {
    const now = this.ctx.clock.now();
    if (!applyTransition(archive, ARCHIVE_TRANSITIONS[name], now)) return false;
    this.stopRecording(archive, now);
    if (archive.status === 'started') {
      archive.recordingSince = now;
      this.scheduleMaxDuration(archive);
    }
    if (archive.status !== 'paused') {
      this.ctx.scheduler.cancel(this.key(archive, 'idleTimeout'));
      this.ctx.scheduler.cancel(this.key(archive, 'sessionEnded'));
    }
    if (archive.status === 'stopped') this.scheduleProcessing(archive);
    if (name === 'maxDuration' && archive.automatic) this.continueAutomatic(archive);
    return true;
  }

  private continueAutomatic(previous: Archive): void {
    const session = this.session(previous);
    if (session.streams.size > 0) this.ensureAutomatic(session);
  }

  /** Adds the running recording segment (if any) to `recordedMs`. */
  private stopRecording(archive: Archive, now: number): void {
    if (archive.recordingSince !== undefined) {
      archive.recordedMs += now - archive.recordingSince;
    }
    delete archive.recordingSince;
    this.ctx.scheduler.cancel(this.key(archive, 'maxDuration'));
  }

  private scheduleMaxDuration(archive: Archive): void {
    const remaining = Math.max(0, delayOf(ARCHIVE_TRANSITIONS.maxDuration, this.ctx.timings) - archive.recordedMs);
    this.ctx.scheduler.after(this.key(archive, 'maxDuration'), remaining, () => this.move(archive, 'maxDuration'));
  }

  private scheduleProcessing(archive: Archive): void {
    this.ctx.scheduler.after(this.key(archive, 'processing'), delayOf(ARCHIVE_TRANSITIONS.makeAvailable, this.ctx.timings), () => {
      archive.size = this.sizeOf(archive);
      this.move(archive, this.project(archive.apiKey).uploadTarget ? 'upload' : 'makeAvailable');
    });
  }

  private sizeOf(archive: Archive): number {
    return CONTAINER_BYTES + Math.round((archive.recordedMs / 1000) * bytesPerSecond(archive));
  }

  private checkSimultaneous(session: Session, tag: string | undefined): void {
    if (session.archiveMode === 'always' && tag === undefined) {
      throw conflict('A multiArchiveTag is required to start an archive in an automatically archived session');
    }
    const active = this.archivesOf(this.project(session.apiKey), session);
    if (active.length === 0) return;
    if (tag === undefined) throw conflict('The session is already being recorded; a unique multiArchiveTag is required');
    if (active.some((a) => a.multiArchiveTag === tag)) {
      throw conflict(`An archive with multiArchiveTag '${tag}' is already recording this session`);
    }
  }

  private archivesOf(project: Project, session: Session): Archive[] {
    return [...project.archives.values()].filter((a) => a.sessionId === session.id && ACTIVE.includes(a.status));
  }

  private find(apiKey: string, archiveId: string, malformed: () => ApiError, missing?: () => ApiError): Archive {
    if (!isUuid(archiveId)) throw malformed();
    const archive = this.project(apiKey).archives.get(archiveId);
    if (!archive) throw (missing ?? (() => notFound(`Archive ${archiveId} not found`)))();
    return archive;
  }

  private session(archive: Archive): Session {
    return this.sessions.find(archive.apiKey, archive.sessionId);
  }

  private project(apiKey: string): Project {
    return this.sessions.project(apiKey);
  }

  private key(archive: Archive, what: string): string {
    return `${archive.apiKey}/archive/${archive.id}/${what}`;
  }

  private sign(apiKey: string, archiveId: string, expires: number): string {
    return createHmac('sha256', this.ctx.urlSigningKey).update(`${apiKey}/${archiveId}/${expires}`).digest('hex').slice(0, 40);
  }
}

/** Manual stream selection shared by archives and broadcasts. */
export function applyStreamChange(selection: StreamSelection[], session: Session, change: StreamChange): void {
  if ('removeStream' in change) {
    const index = selection.findIndex((s) => s.streamId === change.removeStream);
    if (index < 0) throw notFound(`Stream ${change.removeStream} is not selected`);
    selection.splice(index, 1);
    return;
  }
  if (!session.streams.has(change.addStream)) throw notFound(`Stream ${change.addStream} not found`);
  const existing = selection.find((s) => s.streamId === change.addStream);
  if (existing) {
    existing.hasAudio = change.hasAudio;
    existing.hasVideo = change.hasVideo;
  } else {
    selection.push({ streamId: change.addStream, hasAudio: change.hasAudio, hasVideo: change.hasVideo });
  }
}

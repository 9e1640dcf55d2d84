import type {
  Archive,
  ArchiveMode,
  AudioConnection,
  Broadcast,
  Captions,
  ConnectionKind,
  DtmfRecord,
  MediaMode,
  Project,
  Render,
  Resolution,
  Session,
  SipCall,
  VideoType,
} from './state/model';

/** Read-only copies of emulator state for tests (no side effects, JSON-serializable). */

export interface ConnectionSnapshot {
  connectionId: string;
  kind: ConnectionKind;
  data: string;
  connected: boolean;
  createdAt: number;
  disconnectedAt?: number;
}

export interface StreamSnapshot {
  streamId: string;
  connectionId: string;
  videoType: VideoType;
  name: string;
  hasAudio: boolean;
  hasVideo: boolean;
  layoutClassList: string[];
  /** Audio muted by a mute operation. */
  muted: boolean;
}

export interface SessionSnapshot {
  sessionId: string;
  mediaMode: MediaMode;
  archiveMode: ArchiveMode;
  archiveName: string;
  archiveResolution: Resolution;
  e2ee: boolean;
  location?: string;
  createdAt: number;
  connections: ConnectionSnapshot[];
  streams: StreamSnapshot[];
  mute: { active: boolean; excludedStreamIds: string[] };
}

export type ArchiveSnapshot = Omit<Archive, 'apiKey'> & { duration: number; url: string | null };
export type BroadcastSnapshot = Omit<Broadcast, 'apiKey'>;
export type RenderSnapshot = Omit<Render, 'apiKey'>;
export type CaptionsSnapshot = Omit<Captions, 'apiKey'>;
export type SipCallSnapshot = Omit<SipCall, 'apiKey'>;
export type AudioConnectionSnapshot = Omit<AudioConnection, 'apiKey'>;

export interface ProjectSnapshot {
  id: string;
  secret: string;
  status: Project['status'];
  name: string;
  environment: string;
  createdAt: number;
  updatedAt: number;
  uploadTarget: Record<string, unknown> | null;
  insights: { advancedInsights: boolean; syntheticHistory: boolean };
}

export type { DtmfRecord };

function withoutApiKey<T extends { apiKey: string }>(record: T): Omit<T, 'apiKey'> {
  const { apiKey: _apiKey, ...rest } = structuredClone(record);
  return rest;
}

export function sessionSnapshot(session: Session): SessionSnapshot {
  const snapshot: SessionSnapshot = {
    sessionId: session.id,
    mediaMode: session.mediaMode,
    archiveMode: session.archiveMode,
    archiveName: session.archiveName,
    archiveResolution: session.archiveResolution,
    e2ee: session.e2ee,
    createdAt: session.createdAt,
    connections: [...session.connections.values()].map((c) => {
      const connection: ConnectionSnapshot = {
        connectionId: c.id,
        kind: c.kind,
        data: c.data,
        connected: c.connected,
        createdAt: c.createdAt,
      };
      if (c.disconnectedAt !== undefined) connection.disconnectedAt = c.disconnectedAt;
      return connection;
    }),
    streams: [...session.streams.values()].map((s) => ({
      streamId: s.id,
      connectionId: s.connectionId,
      videoType: s.videoType,
      name: s.name,
      hasAudio: s.hasAudio,
      hasVideo: s.hasVideo,
      layoutClassList: [...s.layoutClassList],
      muted: s.muted,
    })),
    mute: { active: session.mute.active, excludedStreamIds: [...session.mute.excludedStreamIds] },
  };
  if (session.location !== undefined) snapshot.location = session.location;
  return snapshot;
}

export function archiveSnapshot(archive: Archive, url: string | null): ArchiveSnapshot {
  const duration = archive.status === 'started' ? 0 : Math.floor(archive.recordedMs / 1000);
  return { ...withoutApiKey(archive), duration, url };
}

export const broadcastSnapshot = (b: Broadcast): BroadcastSnapshot => withoutApiKey(b);
export const renderSnapshot = (r: Render): RenderSnapshot => withoutApiKey(r);
export const captionsSnapshot = (c: Captions): CaptionsSnapshot => withoutApiKey(c);
export const sipCallSnapshot = (c: SipCall): SipCallSnapshot => withoutApiKey(c);
export const audioConnectionSnapshot = (a: AudioConnection): AudioConnectionSnapshot => withoutApiKey(a);

export function projectSnapshot(project: Project): ProjectSnapshot {
  return {
    id: project.apiKey,
    secret: project.secret,
    status: project.status,
    name: project.name,
    environment: project.environment,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    uploadTarget: project.uploadTarget ? structuredClone(project.uploadTarget) : null,
    insights: { advancedInsights: project.insights.advancedInsights, syntheticHistory: project.insights.syntheticHistory },
  };
}

/** Plain in-memory records of the emulated service. Backends own every mutation. */

export const RESOLUTIONS = ['640x480', '1280x720', '1920x1080', '480x640', '720x1280', '1080x1920'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const LAYOUT_TYPES = ['bestFit', 'custom', 'horizontalPresentation', 'pip', 'verticalPresentation'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];

export interface Layout {
  type: LayoutType;
  stylesheet?: string;
  screenshareType?: LayoutType;
}

export type MediaMode = 'routed' | 'relayed';
export type ArchiveMode = 'manual' | 'always';
export type VideoType = 'camera' | 'screen' | 'custom';
export type ProjectStatus = 'ACTIVE' | 'SUSPENDED';
export type ConnectionKind = 'client' | 'sip' | 'audio' | 'render';

export interface Account {
  key: string;
  secret: string;
}

export interface Project {
  apiKey: string;
  secret: string;
  name: string;
  status: ProjectStatus;
  environment: 'standard';
  createdAt: number;
  updatedAt: number;
  /** The body last accepted by "set archive upload target", verbatim. */
  uploadTarget?: Record<string, unknown>;
  sessions: Map<string, Session>;
  archives: Map<string, Archive>;
  broadcasts: Map<string, Broadcast>;
  renders: Map<string, Render>;
  captions: Map<string, Captions>;
  sipCalls: Map<string, SipCall>;
  audioConnections: Map<string, AudioConnection>;
  /** What the Insights interface reports about this project. */
  insights: ProjectInsights;
}

export interface SignalRecord {
  type: string;
  data: string;
  from: '';
}

export interface DtmfRecord {
  digits: string;
  /** `all` for the session-wide form, else the target connection ID. */
  target: string;
  at: number;
}

export interface Connection {
  id: string;
  sessionId: string;
  kind: ConnectionKind;
  /** Client details Insights groups by (SDK, browser, location); defaults depend on `kind`. */
  client?: Partial<ClientInfo>;
  data: string;
  createdAt: number;
  connected: boolean;
  disconnectedAt?: number;
  signals: SignalRecord[];
  dtmf: DtmfRecord[];
}

export interface Stream {
  id: string;
  connectionId: string;
  videoType: VideoType;
  name: string;
  hasAudio: boolean;
  hasVideo: boolean;
  layoutClassList: string[];
  /** Audio forced off by a mute operation. */
  muted: boolean;
  createdAt: number;
}

export interface Session {
  id: string;
  apiKey: string;
  mediaMode: MediaMode;
  archiveMode: ArchiveMode;
  archiveName: string;
  archiveResolution: Resolution;
  e2ee: boolean;
  location?: string;
  createdAt: number;
  /** Every connection ever made, connected or not (for inspection). */
  connections: Map<string, Connection>;
  /** Streams currently published. */
  streams: Map<string, Stream>;
  everPublished: boolean;
  mute: { active: boolean; excludedStreamIds: string[] };
  /** Since when nobody publishes / nobody is connected (session creation at first). */
  noPublishersSince: number;
  noConnectionsSince: number;
  dtmf: DtmfRecord[];
}

export interface StreamSelection {
  streamId: string;
  hasAudio: boolean;
  hasVideo: boolean;
}

export type ArchiveStatus = 'started' | 'paused' | 'stopped' | 'available' | 'uploaded' | 'expired' | 'failed' | 'deleted';
export type OutputMode = 'composed' | 'individual';
export type StreamMode = 'auto' | 'manual';

export interface Archive {
  id: string;
  apiKey: string;
  sessionId: string;
  createdAt: number;
  updatedAt: number;
  name: string;
  hasAudio: boolean;
  hasVideo: boolean;
  outputMode: OutputMode;
  resolution?: Resolution;
  streamMode: StreamMode;
  multiArchiveTag?: string;
  layout?: Layout;
  status: ArchiveStatus;
  reason: string;
  /** Recorded time so far, pauses excluded; `recordingSince` is set while `started`. */
  recordedMs: number;
  recordingSince?: number;
  size: number;
  selectedStreams: StreamSelection[];
  /** Started by the session's `archiveMode=always`. */
  automatic: boolean;
}

export type BroadcastStatus = 'started' | 'stopped';
export type HlsStatus = 'connecting' | 'ready' | 'live' | 'ended' | 'error';
export type RtmpStatus = 'connecting' | 'live' | 'offline' | 'error';
export const HLS_STATUSES: readonly HlsStatus[] = ['connecting', 'ready', 'live', 'ended', 'error'];
export const RTMP_STATUSES: readonly RtmpStatus[] = ['connecting', 'live', 'offline', 'error'];

export interface RtmpOutput {
  id: string;
  serverUrl: string;
  streamName: string;
  status: RtmpStatus;
}

export interface HlsOutput {
  url: string;
  status: HlsStatus;
  dvr: boolean;
  lowLatency: boolean;
}

export interface Broadcast {
  id: string;
  apiKey: string;
  sessionId: string;
  createdAt: number;
  stoppedAt?: number;
  status: BroadcastStatus;
  resolution: Resolution;
  streamMode: StreamMode;
  hasAudio: boolean;
  hasVideo: boolean;
  maxDuration: number;
  maxBitrate?: number;
  multiBroadcastTag?: string;
  layout?: Layout;
  hls?: HlsOutput;
  rtmp: RtmpOutput[];
  selectedStreams: StreamSelection[];
}

export type RenderStatus = 'starting' | 'started' | 'stopped' | 'failed';

export interface Render {
  id: string;
  apiKey: string;
  sessionId: string;
  createdAt: number;
  updatedAt: number;
  url: string;
  resolution: Resolution;
  maxDuration: number;
  name?: string;
  /** Connection data carried by the client token, used for the published stream's connection. */
  connectionData: string;
  status: RenderStatus;
  reason?: string;
  connectionId?: string;
  streamId?: string;
}

export type CaptionsStatus = 'started' | 'stopped';

export interface Captions {
  id: string;
  apiKey: string;
  sessionId: string;
  status: CaptionsStatus;
  languageCode: string;
  maxDuration: number;
  partialCaptions: boolean;
  createdAt: number;
  updatedAt: number;
  reason?: string;
}

export interface SipOptions {
  uri: string;
  from?: string;
  headers: Record<string, string>;
  auth?: { username: string; password: string };
  secure: boolean;
  video: boolean;
  observeForceMute: boolean;
  streams?: string[];
}

export interface SipCall {
  id: string;
  apiKey: string;
  sessionId: string;
  connectionId: string;
  streamId: string;
  status: 'started' | 'ended';
  reason?: string;
  sip: SipOptions;
  createdAt: number;
  updatedAt: number;
}

export interface AudioConnection {
  id: string;
  apiKey: string;
  sessionId: string;
  connectionId: string;
  status: 'connected' | 'disconnected';
  uri: string;
  streams?: string[];
  headers: Record<string, string>;
  audioRate: 8000 | 16000;
  createdAt: number;
  updatedAt: number;
}

// ---------------------------------------------------------------------------------------------
// Insights: what the service records about clients, connections and streams.

export const SDK_TYPES = ['JS', 'ANDROID', 'IOS', 'WINDOWS', 'MACOS', 'LINUX', 'REACT_NATIVE', 'SIP', 'OTHER'] as const;
export type SdkType = (typeof SDK_TYPES)[number];
export const BROWSERS = ['CHROME', 'FIREFOX', 'SAFARI', 'EDGE', 'IE', 'OPERA', 'OTHER'] as const;
export type Browser = (typeof BROWSERS)[number];

/** The client of a connection as Insights sees it; browser fields are null outside browsers. */
export interface ClientInfo {
  sdkType: SdkType;
  /** `major.minor.patch`. */
  sdkVersion: string;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** ISO 3166-2 subdivision, e.g. `US-CA`. */
  region: string | null;
  browser: Browser | null;
  browserVersion: string | null;
}

/** Failed attempts before a connection (or its publishes / subscribes) succeeded. */
export interface AttemptFailures {
  connect: number;
  publish: number;
  subscribe: number;
}

/** A connection's lifetime; `destroyedAt` is absent while connected. */
export interface RecordedConnection {
  connectionId: string;
  kind: ConnectionKind;
  client: ClientInfo;
  createdAt: number;
  destroyedAt?: number;
  failures: AttemptFailures;
}

/** A published stream's lifetime; `destroyedAt` is absent while published. */
export interface RecordedStream {
  streamId: string;
  connectionId: string;
  videoType: VideoType;
  hasAudio: boolean;
  hasVideo: boolean;
  createdAt: number;
  destroyedAt?: number;
}

/** Everything Insights derives for one session comes from these lifetimes. */
export interface RecordedSession {
  sessionId: string;
  connections: RecordedConnection[];
  streams: RecordedStream[];
}

export interface ProjectInsights {
  /** The Advanced Insights add-on (`sessionData`). */
  advancedInsights: boolean;
  /** Deterministic made-up history for the 90 days before the project was created. */
  syntheticHistory: boolean;
  /** Sessions of this emulator that ever had a connection, by session ID. */
  sessions: Map<string, RecordedSession>;
}

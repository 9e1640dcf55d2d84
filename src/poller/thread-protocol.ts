/**
 * What the main thread and the poller's worker thread tell each other (src/poller/thread.ts,
 * thread-worker.ts). The worker is a replica without a receiver: it opens its own connection to
 * the store and its own clients, so nothing but these messages crosses between the threads.
 */
import type { VideoRequestEvent } from '../api';
import type { LogLevel } from '../log';
import type { SlackCall } from '../metrics/slack';
import type { ProjectSettings, VideoSettings } from '../projects';
import type { PollerSettings } from './settings';

/** Everything the worker needs to start (structured-cloned: plain data only). */
export interface PollerThreadData {
  /** DATABASE_URL as configured (unset: the default SQLite file). */
  databaseUrl?: string;
  projects: readonly ProjectSettings[];
  defaultProject: string;
  video: VideoSettings;
  slack: { botToken: string; apiUrl?: string };
  settings: PollerSettings;
  /** VIDOPS_SECRET_KEY: project secrets rotated from Slack are stored sealed with it. */
  secretKey?: Uint8Array;
  /** Configured secrets besides the projects' (Slack's, the callback token): scrubbed there too. */
  secrets: string[];
  logLevel: LogLevel;
}

/** The thread's V8 heap, as `v8.getHeapStatistics()` tells it there (the main thread's own figures cover its heap only). */
export interface ThreadHeap {
  usedBytes: number;
  totalBytes: number;
  externalBytes: number;
}

export type ToPollerThread = { type: 'hint'; id: number; body: unknown } | { type: 'heap'; id: number } | { type: 'stop' };

export type FromPollerThread =
  | { type: 'started' }
  /** A log line, formatted and scrubbed: the main thread writes it where its own lines go. */
  | { type: 'log'; line: string }
  /** A post or card update reached Slack for this team (App Home refreshes hang off it). */
  | { type: 'delivered'; teamId: string }
  | { type: 'video-request'; event: VideoRequestEvent }
  | { type: 'slack-call'; call: SlackCall }
  | { type: 'hinted'; id: number; matched: number }
  | { type: 'heap'; id: number; heap: ThreadHeap };

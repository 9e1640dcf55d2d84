/**
 * What the soak's three processes (bench/soak.ts, bench/soak/environment.ts, bench/soak/app.ts)
 * agree on: the Slack workspace they pretend, and the shapes of the messages they exchange.
 * Kept free of imports so the app process loads nothing of the test harness.
 */
export const BOT_TOKEN = 'xoxb-soak-bench';
export const SIGNING_SECRET = 'soak-signing-secret-0123456789abcdef';
export const TEAM = 'T0SOAK';
/** Where the load generator's commands come from. */
export const OPS_CHANNEL = 'C0OPS';
export const MODERATOR = 'U0MOD';
export const POLICY = { roles: { moderator: { users: [MODERATOR] } } };

/** The channel whose cards (and so notifications) belong to the i-th session. */
export const sessionChannel = (i: number): string => `C${String(i).padStart(4, '0')}SOAK`;

export interface SeedOptions {
  sessions: number;
  archives: number;
  broadcasts: number;
  renders: number;
}

export interface Seeded {
  videoApiUrl: string;
  insightsUrl: string;
  slackApiUrl: string;
  apiKey: string;
  apiSecret: string;
  sessions: string[];
  counts: { archives: number; broadcasts: number; renders: number };
  archiveProcessingMs: number;
}

/** A resource as its start response showed it (trimmed), and the card its watch reports under. */
export interface WatchedResource {
  kind: 'archive' | 'broadcast' | 'render';
  resource: { id: string; sessionId: string } & Record<string, unknown>;
  channelId: string;
  messageTs: string;
}

export const FAULT_KINDS = [
  'slack 429 chat.postMessage',
  'slack 429 chat.update',
  'slack 500 after posting a notification',
  'api 500 on a read',
  'api 429 on a read',
  'api connection reset on a read',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What the app process answers to `start`. */
export interface Started {
  port: number;
  /** vidops only: the poller settings in force (from VIDOPS_POLL_* or the defaults). */
  poller?: { slowMs: number; fastMs: number; tickMs: number; rate: number; burst: number; thread: boolean };
}

/** What a process answers to `load`: CPU time so far; the app also its event-loop delay since the last reading. */
export interface LoadReading {
  cpuMs: number;
  loopP99Ms?: number;
  loopMaxMs?: number;
}

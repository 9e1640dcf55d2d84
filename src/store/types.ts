/**
 * The persistence contract shared by every store implementation (SQLite by default,
 * PostgreSQL when DATABASE_URL is a postgres URL). All times are epoch milliseconds.
 * Both also hold the poller's watches and outbox (WatchStore, src/poller/watch.ts); later
 * features extend these interfaces with new migrations.
 */
import type { MuteState, SessionMute, StreamMute } from '../poller/snapshot';
import type { WatchStore } from '../poller/watch';
import type { ScheduleStore } from '../schedules/types';
import type { DeliveryLedger } from '../slack/dedupe';

/** A channel's defaults: which project and which session commands in it act on. */
export interface ChannelBinding {
  teamId: string;
  channelId: string;
  projectName?: string;
  sessionId?: string;
  updatedBy: string;
  updatedAt: number;
}

/**
 * What `setChannelBinding` takes: a field left undefined keeps its stored value and `null`
 * clears it, so binding a session leaves the project alone. Every ChannelBinding is one.
 */
export type ChannelBindingChange = Omit<ChannelBinding, 'projectName' | 'sessionId'> & {
  projectName?: string | null;
  sessionId?: string | null;
};

/** A short, human name for a session ID, unique per team. */
export interface SessionAlias {
  teamId: string;
  alias: string;
  projectName: string;
  sessionId: string;
  createdBy: string;
  createdAt: number;
}

/** A session someone in the team used lately; offered in session pickers. */
export interface RecentSession {
  teamId: string;
  projectName: string;
  sessionId: string;
  usedBy: string;
  usedAt: number;
}

export type AuditOutcome = 'ok' | 'denied' | 'error';

export interface AuditEntry {
  id: number;
  at: number;
  teamId: string;
  userId: string;
  channelId: string;
  projectName: string;
  command: string;
  target: string;
  outcome: AuditOutcome;
  error?: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** An encrypted secret (e.g. a rotated project API secret); `ciphertext` is opaque to the store. */
export interface StoredSecret {
  name: string;
  ciphertext: string;
  updatedAt: number;
}

/** The session a mute record belongs to. */
export interface MuteKey {
  teamId: string;
  projectName: string;
  sessionId: string;
}

export type { MuteState, SessionMute, StreamMute } from '../poller/snapshot';

export interface Store {
  /** Applies pending migrations; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;

  getChannelBinding(teamId: string, channelId: string): Promise<ChannelBinding | undefined>;
  /** Merges the given fields into the channel's binding (creating it when absent). */
  setChannelBinding(binding: ChannelBindingChange): Promise<void>;
  /** The channels whose default session is `sessionId` (of `projectName`), the latest set first. */
  channelsDefaultingTo(teamId: string, projectName: string, sessionId: string): Promise<string[]>;

  /** Creates or replaces the alias; aliases are compared lower-cased. */
  putAlias(alias: SessionAlias): Promise<void>;
  getAlias(teamId: string, alias: string): Promise<SessionAlias | undefined>;
  /** Alphabetical; `prefix` matches case-insensitively. */
  listAliases(teamId: string, prefix?: string, limit?: number): Promise<SessionAlias[]>;
  deleteAlias(teamId: string, alias: string): Promise<boolean>;
  /** The alias a session is called by (the first alphabetically when it has several), if any. */
  aliasOfSession(teamId: string, projectName: string, sessionId: string): Promise<string | undefined>;

  /** Records a use; keeps only the newest uses per team (bounded). */
  touchRecentSession(entry: RecentSession): Promise<void>;
  listRecentSessions(teamId: string, limit?: number): Promise<RecentSession[]>;

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. */
  listAudit(teamId: string, limit?: number): Promise<AuditEntry[]>;

  putSecret(secret: StoredSecret): Promise<void>;
  getSecret(name: string): Promise<StoredSecret | undefined>;

  /** Records (or replaces) the latest mute of a stream. */
  putStreamMute(key: MuteKey, mute: StreamMute): Promise<void>;
  /** Records the session's mute-everyone state (replacing the one before). */
  putSessionMute(key: MuteKey, state: SessionMute): Promise<void>;
  getMuteState(key: MuteKey): Promise<MuteState>;
}

/** How far behind the poller and the outbox are, read at scrape time for the metrics. */
export interface PollerBacklog {
  /** Watches not ended. */
  activeWatches: number;
  /** Watches leased by a poller right now. */
  claimedWatches: number;
  /** Watches due for a poll and not leased. */
  dueWatches: number;
  /** How long the most overdue of those has waited past its poll time, ms (0 when none). */
  pollLagMs: number;
  /** Notifications neither delivered nor given up. */
  outboxDepth: number;
  /** Age of the oldest of them, ms (0 when none). */
  outboxOldestAgeMs: number;
}

export interface BacklogSource {
  backlog(now: number): Promise<PollerBacklog>;
}

/** What `createStore` returns: the application's own data, the poller's watches and outbox, the
 * weekly usage report schedules, the Slack deliveries already seen (src/slack/dedupe.ts) and the
 * backlog figures for the metrics. */
export type VidopsStore = Store & WatchStore & ScheduleStore & DeliveryLedger & BacklogSource;

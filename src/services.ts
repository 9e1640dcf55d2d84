/**
 * The small container every listener receives: the store, the logger, the projects (one
 * VideoClient per project), who may do what, where audit lines go, and the clock. Built once at
 * start-up from the validated configuration; tests build it from their own parts.
 */
import { VideoClient, type VideoRequestObserver } from './api';
import { InsightsClient } from './api/insights';
import { UsageCache } from './commands/usage/cache';
import type { Projects } from './api/projects';
import type { SecretBox } from './crypto';
import type { Logger } from './log';
import { type PatienceSettings, DEFAULT_PATIENCE, trackVideoCalls } from './interaction/still-waiting';
import { Authorizer } from './rbac';
import { rememberConfigured, rememberSent } from './scrub';
import { channelProjects } from './rbac/channel-projects';
import { PublicChannels } from './rbac/visibility';
import type { Policy } from './rbac/policy';
import { AckGate } from './slack/ack-gate';
import { UsergroupCache } from './slack/usergroups';
import { type Tracker, storeTracker } from './poller/track';
import { HomeViewers } from './poller/home-refresh';
import { MAX_WATCH_AGE_MS } from './poller/schedule';
import type { WatchKind } from './poller/watch';
import type { VidopsStore } from './store/types';

export interface ProjectSettings {
  name: string;
  apiKey: string;
  apiSecret: string;
  /** Slack channel IDs whose commands use this project unless told otherwise. */
  channels: readonly string[];
}

export interface VideoSettings {
  apiUrl: string;
  /** Account-level credentials (project administration). */
  account?: { apiKey: string; apiSecret: string };
}

/** The part of a project's VideoClient the Slack app uses. */
export type ProjectClient = VideoClient;

export type ClientFactory = (project: ProjectSettings, video: VideoSettings) => ProjectClient;

export interface VideoClientOptions {
  /** Told of every HTTP exchange (metrics, debug lines). */
  observer?: VideoRequestObserver;
  /** The id of the Slack request being served, sent along with each call. */
  requestId?: () => string | undefined;
}

/** A project's VideoClient; what every configured secret sent is remembered for scrubbing. */
export function videoClientFactory(options: VideoClientOptions = {}): ClientFactory {
  return (project, video) =>
    new VideoClient({
      baseUrl: video.apiUrl,
      apiKey: project.apiKey,
      apiSecret: project.apiSecret,
      accountApiKey: video.account?.apiKey,
      accountApiSecret: video.account?.apiSecret,
      secretsSent: rememberSent,
      ...(options.observer && { observer: options.observer }),
      ...(options.requestId && { requestId: options.requestId }),
    });
}

const defaultClientFactory = videoClientFactory();

/** The configured projects and one lazily created VideoClient per project. */
export class ProjectRegistry {
  private readonly byName = new Map<string, ProjectSettings>();
  private readonly clients = new Map<string, ProjectClient>();
  private readonly byChannel = new Map<string, string>();
  /** Secrets in use that differ from the configuration (rotated from Slack, or loaded from the store). */
  private readonly rotated = new Map<string, string>();

  constructor(
    projects: readonly ProjectSettings[],
    readonly defaultName: string,
    private readonly video: VideoSettings,
    private readonly factory: ClientFactory = defaultClientFactory,
  ) {
    // Project and account secrets never reach a log line, reply or audit row (src/scrub.ts).
    rememberConfigured([...projects.map((p) => p.apiSecret), video.account?.apiSecret]);
    for (const project of projects) {
      this.byName.set(project.name, project);
      for (const channel of project.channels) if (!this.byChannel.has(channel)) this.byChannel.set(channel, project.name);
    }
    if (!this.byName.has(defaultName)) throw new Error(`the default project “${defaultName}” is not configured`);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The project whose configured `channels` list this channel, if any. */
  configuredFor(channelId: string): string | undefined {
    return this.byChannel.get(channelId);
  }

  /** Every project whose configured `channels` list this channel. */
  configuredAll(channelId: string): string[] {
    return [...this.byName.values()].filter((p) => p.channels.includes(channelId)).map((p) => p.name);
  }

  client(name: string): ProjectClient {
    const existing = this.clients.get(name);
    if (existing) return existing;
    const project = this.byName.get(name);
    if (!project) throw new Error(`unknown project “${name}”`);
    const rotated = this.rotated.get(name);
    // Its calls report to the request waiting on them (still waiting, the overall bound).
    const client = trackVideoCalls(this.factory(rotated === undefined ? project : { ...project, apiSecret: rotated }, this.video));
    this.clients.set(name, client);
    return client;
  }

  /** The project as configured (its secret as configured, even after a rotation). */
  configured(name: string): ProjectSettings | undefined {
    return this.byName.get(name);
  }

  /** The configured projects that use this API key (usually none or one). */
  namesForApiKey(apiKey: string): string[] {
    return [...this.byName.values()].filter((p) => p.apiKey === apiKey).map((p) => p.name);
  }

  /** The secret a project signs with now: the applied one, else the configured one. */
  secretInUse(name: string): string | undefined {
    return this.rotated.get(name) ?? this.byName.get(name)?.apiSecret;
  }

  /**
   * Switches a project to a new secret (after a rotation, or one loaded from the store): its
   * live client signs with it from the next call, and so does any client created later.
   */
  applySecret(name: string, apiSecret: string): void {
    const project = this.byName.get(name);
    if (!project) throw new Error(`unknown project “${name}”`);
    this.rotated.set(name, apiSecret);
    rememberConfigured([apiSecret]);
    this.clients.get(name)?.setCredentials(project.apiKey, apiSecret);
  }

  /** Whether account-level credentials (project administration) are configured. */
  hasAccount(): boolean {
    return this.video.account !== undefined;
  }

  /** Project administration, signed with the account credentials (check `hasAccount()` first). */
  admin(): Projects {
    if (!this.video.account) throw new Error('project administration needs VIDEO_ACCOUNT_API_KEY and VIDEO_ACCOUNT_API_SECRET');
    return this.client(this.defaultName).projects;
  }
}

/** What the usage reports read from Insights: usage metrics, session summaries, session details. */
export type InsightsSource = Pick<InsightsClient, 'projectUsage' | 'sessionSummaries' | 'sessions'>;

export type InsightsFactory = (project: ProjectSettings, insightsUrl: string) => InsightsSource;

const defaultInsightsFactory: InsightsFactory = (project, insightsUrl) =>
  new InsightsClient({ insightsUrl, projectId: project.apiKey, apiSecret: project.apiSecret });

/** One Insights client per configured project, created on first use; none without an Insights URL. */
function insightsRegistry(
  projects: readonly ProjectSettings[],
  insightsUrl: string | undefined,
  factory: InsightsFactory,
): (projectName: string) => InsightsSource | undefined {
  const clients = new Map<string, InsightsSource>();
  return (projectName) => {
    if (insightsUrl === undefined) return undefined;
    let client = clients.get(projectName);
    if (!client) {
      const project = projects.find((p) => p.name === projectName);
      if (!project) throw new Error(`unknown project “${projectName}”`);
      client = trackVideoCalls(factory(project, insightsUrl));
      clients.set(projectName, client);
    }
    return client;
  };
}

export interface Services {
  store: VidopsStore;
  /** Hands something started from Slack to the poller (see poller/track.ts). */
  track: Tracker;
  logger: Logger;
  projects: ProjectRegistry;
  authorizer: Authorizer;
  /** Channel that receives one line per audited action, when configured. */
  auditChannel?: string;
  clock: () => number;
  /** Holds work after an ack while other requests wait for theirs (see ack-gate.ts `ackFirst`). */
  ackGate: AckGate;
  /** Who opened the App Home tab lately, so the poller can refresh their dashboard after deliveries. */
  homeViewers: HomeViewers;
  /** How long a watch may live, per kind. */
  watchMaxAgeMs: Readonly<Record<WatchKind, number>>;
  /** The project's Insights (GraphQL) source; undefined when VIDEO_INSIGHTS_URL is not set. */
  insights: (projectName: string) => InsightsSource | undefined;
  /** Usage answers kept for a while, per project and question (`/usage`, weekly reports). */
  usageCache: UsageCache;
  /** Seals secrets stored at rest (key from VIDOPS_SECRET_KEY); absent when no key is configured. */
  secretBox?: SecretBox;
  /** Which channels are public, for what App Home may show (src/rbac/visibility.ts). */
  publicChannels: PublicChannels;
  /** When the asker hears "Still waiting for the video service…", and when a request says what is known. */
  patience: PatienceSettings;
}

export interface ServicesInput {
  store: VidopsStore;
  logger: Logger;
  projects: readonly ProjectSettings[];
  defaultProject: string;
  video: VideoSettings;
  policy?: Policy;
  admins?: readonly string[];
  auditChannel?: string;
  clock?: () => number;
  clientFactory?: ClientFactory;
  /** How long user-group members are cached (default 5 minutes). */
  usergroupTtlMs?: number;
  /** How long a watch may live, per kind (VIDOPS_WATCH_MAX_AGE_HOURS; MAX_WATCH_AGE_MS by default). */
  watchMaxAgeMs?: Readonly<Record<WatchKind, number>>;
  /** Insights (GraphQL) base URL (VIDEO_INSIGHTS_URL); without it, usage reports explain how to set it. */
  insightsUrl?: string;
  insightsFactory?: InsightsFactory;
  /** From VIDOPS_SECRET_KEY; without it, nothing that must store a secret can run. */
  secretBox?: SecretBox;
  /** Default: still waiting after 2 s, the bound after 20 s (VIDOPS_VIDEO_BOUND_SECONDS). */
  patience?: Partial<PatienceSettings>;
}

export function createServices(input: ServicesInput): Services {
  const clock = input.clock ?? Date.now;
  const usergroups = new UsergroupCache({ ttlMs: input.usergroupTtlMs, clock });
  const projects = new ProjectRegistry(input.projects, input.defaultProject, input.video, input.clientFactory);
  return {
    store: input.store,
    track: storeTracker(input.store, clock, input.watchMaxAgeMs),
    logger: input.logger,
    projects,
    authorizer: new Authorizer(
      input.policy,
      input.admins ?? [],
      usergroups,
      input.logger.child({ component: 'rbac' }),
      channelProjects({ store: input.store, projects }),
    ),
    auditChannel: input.auditChannel,
    clock,
    ackGate: new AckGate(),
    homeViewers: new HomeViewers(),
    watchMaxAgeMs: input.watchMaxAgeMs ?? MAX_WATCH_AGE_MS,
    insights: insightsRegistry(input.projects, input.insightsUrl, input.insightsFactory ?? defaultInsightsFactory),
    usageCache: new UsageCache(),
    publicChannels: new PublicChannels(clock),
    patience: { ...DEFAULT_PATIENCE, ...input.patience },
    ...(input.secretBox ? { secretBox: input.secretBox } : {}),
  };
}

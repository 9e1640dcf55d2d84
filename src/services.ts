/**
 * The small container every listener receives: the store, the logger, the projects (one
 * VideoClient per project), who may do what, where audit lines go, and the clock. Built once at
 * start-up from the validated configuration; tests build it from their own parts.
 */
import { InsightsClient } from './api/insights';
import { UsageCache } from './commands/usage/cache';
import type { SecretBox } from './crypto';
import type { Logger } from './log';
import { type PatienceSettings, DEFAULT_PATIENCE, trackVideoCalls } from './interaction/still-waiting';
import { Authorizer } from './rbac';
import { type ClientFactory, ProjectRegistry, type ProjectSettings, type VideoSettings } from './projects';
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

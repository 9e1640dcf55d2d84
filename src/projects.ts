/**
 * The configured projects and one VideoClient per project, as every replica (and the poller's
 * thread) builds them: kept apart from the app's services so that the thread loads no more.
 */
import { VideoClient, type VideoRequestObserver } from './api';
import type { Projects } from './api/projects';
import { trackVideoCalls } from './interaction/still-waiting';
import { rememberConfigured, rememberSent } from './scrub';

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

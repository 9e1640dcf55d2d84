/**
 * Local mode: the real app (src/runtime.ts) against an embedded emulator (unless VIDEO_API_* is
 * set) and the Slack stand-in, all on 127.0.0.1, so a person can try every command from a web
 * page. The stand-in listens on PORT (default 3000); the app's HTTP receiver on an ephemeral
 * port, reached only through the stand-in's signed requests. See PROTOCOL.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { EVENTS_PATH } from '../app';
import { COMMAND_NAMES } from '../commands';
import { type Env, type SlackConfig, type VideoConfig, loadConfig } from '../config';
import { type RunningEmulator, startEmulator } from '../emulator';
import { type LogStream, type LogThreshold, type Logger, createLogger } from '../log';
import { pollerSettingsFromEnv } from '../poller/settings';
import { parsePolicy } from '../rbac/policy';
import { type RunningVidops, startVidops } from '../runtime';
import { parseDatabaseUrl } from '../store/url';
import { AppBridge } from './bridge';
import { EmulatorPanel } from './emulator-panel';
import { DEFAULT_CHANNEL, LOCAL_TEAM, LOCAL_USER } from './identities';
import { createStandinServer } from './server';
import { Workspace } from './slack-standin/workspace';

export const LOCAL_PROJECT = 'local';
/** The alias of the session seeded at start-up (`/streams demo`). */
export const DEMO_ALIAS = 'demo';
export const DEFAULT_LOCAL_PORT = 3000;
/** Local mode's own store, started afresh each run: the emulator and Slack it refers to live in memory. */
export const LOCAL_DATABASE_PATH = './data/local.sqlite';
/** A poller a person can watch: a change shows within a couple of seconds. */
const LOCAL_POLLER_ENV = { VIDOPS_POLL_FAST_SECONDS: '1', VIDOPS_POLL_SLOW_SECONDS: '2', VIDOPS_POLL_TICK_MS: '250' };
const SEEDED_PARTICIPANTS = 3;

export class LocalConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`local mode cannot start: ${problems.length} configuration problem(s)`);
  }
}

export interface LocalOptions {
  env?: Env;
  /** The stand-in's port; default PORT, else 3000. 0 picks a free one. */
  port?: number;
  /** Where the page's files are; default src/local/web. */
  webRoot?: string;
  /** Log lines (JSON) go here; default stdout. */
  logStream?: LogStream;
  logLevel?: LogThreshold;
}

export interface RunningLocal {
  /** The page, e.g. http://127.0.0.1:3000/. */
  url: string;
  /** The app's own HTTP receiver (tests post tampered requests to it). */
  appUrl: string;
  /** The seeded session, also the default of #video-ops and the alias `demo`. */
  sessionId: string | undefined;
  vidops: RunningVidops;
  emulator: RunningEmulator | undefined;
  /** The credentials generated for this run, for code in the same process (tests); never printed. */
  slack: { botToken: string; signingSecret: string };
  stop(): Promise<void>;
}

function webRootDefault(): string {
  const beside = join(__dirname, 'web');
  return existsSync(beside) ? beside : join(process.cwd(), 'src', 'local', 'web');
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The default store file, emptied: the previous run's watches point at an emulator that is gone. */
function freshLocalDatabase(): string {
  mkdirSync(dirname(LOCAL_DATABASE_PATH), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${LOCAL_DATABASE_PATH}${suffix}`, { force: true });
  return `sqlite:${LOCAL_DATABASE_PATH}`;
}

export async function startLocal(options: LocalOptions = {}): Promise<RunningLocal> {
  const env = options.env ?? process.env;
  const loaded = loadConfig(env, { requireSlack: false, requireVideo: false });
  const pollerSettings = pollerSettingsFromEnv({ ...LOCAL_POLLER_ENV, ...withoutEmpty(env) });
  const problems = [...(loaded.ok ? [] : loaded.problems), ...(pollerSettings.ok ? [] : pollerSettings.problems)];
  if (!loaded.ok || !pollerSettings.ok) throw new LocalConfigError(problems);
  const config = loaded.config;
  const policy = parsePolicy(config.policy?.document);
  if (!policy.ok) throw new LocalConfigError(policy.problems.map((p) => `VIDOPS_POLICY_FILE (${config.policy?.path}): ${p}`));

  const logger: Logger = createLogger({
    level: options.logLevel ?? (env.LOG_LEVEL?.trim() ? config.logLevel : 'warn'),
    bindings: { service: 'vidops', mode: 'local' },
    ...(options.logStream ? { stream: options.logStream } : {}),
  });

  const cleanups: Array<() => Promise<void>> = [];
  const undo = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let emulator: RunningEmulator | undefined;
    let video: VideoConfig;
    if (config.video) {
      video = config.video;
    } else {
      emulator = await startEmulator({ clock: 'real' });
      const running = emulator;
      cleanups.push(() => running.close());
      // With the Advanced Insights add-on, so every `/usage` report works.
      const project = emulator.control.createProject({ name: LOCAL_PROJECT, advancedInsights: true });
      video = {
        apiUrl: emulator.baseUrl,
        insightsUrl: emulator.insightsUrl,
        account: { apiKey: emulator.control.account.key, apiSecret: emulator.control.account.secret },
        projects: [{ name: LOCAL_PROJECT, ...project, channels: [] }],
        defaultProject: LOCAL_PROJECT,
      };
    }

    // With the embedded emulator, the whole local world lives on its clock: the panel moves it
    // forward, and the app's times (cards, usage ranges, poll schedules) and Slack's message
    // timestamps move with it.
    const embedded = emulator;
    const clock = embedded ? () => embedded.control.now() : Date.now;
    const workspace = new Workspace(clock);
    const signingSecret = randomBytes(32).toString('hex');
    const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
    let appEventsUrl = '';
    let baseUrl = '';
    const bridge = new AppBridge({
      workspace,
      signingSecret,
      appEventsUrl: () => appEventsUrl,
      baseUrl: () => baseUrl,
      commands: COMMAND_NAMES,
      logger: logger.child({ component: 'local-bridge' }),
    });

    const localProject = video.projects.find((p) => p.name === LOCAL_PROJECT);
    const panel =
      emulator && localProject
        ? new EmulatorPanel({
            control: emulator.control,
            apiKey: localProject.apiKey,
            changed: () => workspace.emit({ type: 'emulator', now: new Date(emulator!.control.now()).toISOString() }),
          })
        : undefined;

    const server = createStandinServer({
      workspace,
      bridge,
      ...(panel ? { panel } : {}),
      botToken,
      webRoot: options.webRoot ?? webRootDefault(),
      logger: logger.child({ component: 'slack-standin' }),
    });
    const port = await listen(server, options.port ?? config.port ?? DEFAULT_LOCAL_PORT);
    cleanups.push(() => closeServer(server));
    baseUrl = `http://127.0.0.1:${port}`;

    const slack: SlackConfig = { mode: 'http', botToken, signingSecret, apiUrl: `${baseUrl}/slack-api/` };
    const databaseUrl = config.databaseUrl ?? freshLocalDatabase();
    if (!parseDatabaseUrl(databaseUrl)) throw new LocalConfigError(['DATABASE_URL is invalid']);
    const vidops = await startVidops({
      config: {
        ...config,
        // The stand-in owns PORT; the app's receiver takes any free port behind it.
        port: 0,
        slack,
        video,
        admins: [...new Set([LOCAL_USER.id, ...config.admins])],
        databaseUrl,
        secretKey: config.secretKey ?? randomBytes(32),
      },
      policy: policy.policy,
      pollerSettings: pollerSettings.settings,
      logger,
      clock,
    });
    cleanups.push(() => vidops.stop());
    appEventsUrl = `http://127.0.0.1:${vidops.port}${EVENTS_PATH}`;

    const sessionId = panel ? await seedDemo(vidops, panel) : undefined;
    if (panel) {
      panel.startWatching();
      cleanups.push(async () => panel.stopWatching());
    }
    let stopping: Promise<void> | undefined;
    return {
      url: `${baseUrl}/`,
      appUrl: `http://127.0.0.1:${vidops.port}`,
      sessionId,
      vidops,
      emulator,
      slack: { botToken, signingSecret },
      stop: () => (stopping ??= undo()),
    };
  } catch (error) {
    await undo();
    throw error;
  }
}

/** A session with participants, the default of #video-ops and named `demo`, so `/record start` works at once. */
async function seedDemo(vidops: RunningVidops, panel: EmulatorPanel): Promise<string> {
  const sessionId = panel.seedSession(SEEDED_PARTICIPANTS);
  const store = vidops.services.store;
  const now = Date.now();
  await store.setChannelBinding({
    teamId: LOCAL_TEAM.id,
    channelId: DEFAULT_CHANNEL.id,
    projectName: LOCAL_PROJECT,
    sessionId,
    updatedBy: LOCAL_USER.id,
    updatedAt: now,
  });
  await store.putAlias({ teamId: LOCAL_TEAM.id, alias: DEMO_ALIAS, projectName: LOCAL_PROJECT, sessionId, createdBy: LOCAL_USER.id, createdAt: now });
  return sessionId;
}

function withoutEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
}

/**
 * The running product, whatever started it: store (migrated) → services → stored secrets →
 * poller → Slack app listening → usage scheduler, with its metrics, readiness and request
 * tracking. `main.ts` starts it from the environment; the local mode (src/local) starts it
 * against an embedded emulator and a Slack stand-in.
 *
 * `stop()` drains within a bound: /readyz turns 503 and new Slack requests are refused, the
 * receiver closes, requests in flight finish their follow-up work while the poller and the
 * scheduler finish their rounds (leases released), then the store closes.
 */
import { Server } from 'node:http';
import { type App, webApi } from '@slack/bolt';
import type { VideoRequestObserver } from './api';
import { createApp } from './app';
import type { Config, SlackConfig, VideoConfig } from './config';
import { SecretBox } from './crypto';
import { healthRoute, metricsRoute, readyRoute } from './http/ops-routes';
import { type OpsServer, startOpsServer } from './http/ops-server';
import { type Logger, toBoltLogger } from './log';
import { VidopsMetrics } from './metrics/registry';
import { instrumentedFetch, slackCallMetrics } from './metrics/slack';
import { videoRequestMetrics } from './metrics/video';
import { publishHome } from './actions/home';
import { pollerRuntime } from './poller/service';
import type { PollerSettings } from './poller/settings';
import type { Policy } from './rbac/policy';
import { Readiness } from './readiness';
import { rememberConfigured } from './scrub';
import { currentRequestId } from './request-context';
import { loadStoredSecrets, startSecretReloader } from './secrets/project-secrets';
import { videoClientFactory } from './projects';
import { createServices, type Services } from './services';
import { InFlight } from './slack/in-flight';
import { SqliteStore, createStore, parseDatabaseUrl, sharedAcrossConnections } from './store';
import { scheduledReportDelivery } from './commands/usage/scheduled';
import { UsageScheduler } from './schedules';

export interface VidopsInput {
  config: Config & { slack: SlackConfig; video: VideoConfig };
  policy: Policy;
  pollerSettings: PollerSettings;
  logger: Logger;
  /** Readiness tuning (tests): per-check timeout and how long a report is reused. */
  readiness?: { timeoutMs?: number; cacheMs?: number };
  /** The most `stop()` may take before it closes the store anyway (default 9 s: main.ts exits at 10 s). */
  stopBudgetMs?: number;
  /** The app's clock, epoch ms (default the wall clock); local mode gives the emulator's. */
  clock?: () => number;
}

export interface RunningVidops {
  /** The port the HTTP receiver (or, in Socket Mode, the side server) listens on. */
  port: number;
  app: App;
  services: Services;
  metrics: VidopsMetrics;
  readiness: Readiness;
  /** Slack requests being handled, follow-up work included. */
  inFlight: InFlight;
  stop(): Promise<void>;
}

const STOP_BUDGET_MS = 9_000;
const READINESS_TIMEOUT_MS = 2_000;

/** What the project clients tell of each HTTP exchange: metrics and a debug line. */
function videoRequestObserver(metrics: VidopsMetrics, logger: Logger): VideoRequestObserver {
  const count = videoRequestMetrics(metrics);
  const videoLogger = logger.child({ component: 'video-api' });
  return (event) => {
    count(event);
    videoLogger.debug('video api call', { operation: event.operation, status: event.status, ms: Math.round(event.durationMs), retry: event.retry });
  };
}

const sharedStore = (databaseUrl: string | undefined): boolean => {
  const location = parseDatabaseUrl(databaseUrl);
  return location !== undefined && sharedAcrossConnections(location);
};

/** The video service answers at all (any status below 500, even 404 for its root). */
async function probeVideo(apiUrl: string, timeoutMs: number): Promise<void> {
  const response = await fetch(apiUrl, { signal: AbortSignal.timeout(timeoutMs) });
  await response.body?.cancel();
  if (response.status >= 500) throw Object.assign(new Error('video service error'), { code: `http_${response.status}` });
}

/** Resolves when `work` settles or `ms` passes, whichever is first; false on the deadline. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startVidops(input: VidopsInput): Promise<RunningVidops> {
  const { config, policy, pollerSettings, logger } = input;
  // Configured secrets never reach a log line, reply or audit row (src/scrub.ts); the project
  // registry remembers the projects' own.
  const configuredSecrets = [
    config.slack.botToken,
    config.slack.signingSecret,
    config.slack.mode === 'socket' ? config.slack.appToken : undefined,
    pollerSettings.callbackToken,
  ].filter((secret): secret is string => secret !== undefined);
  rememberConfigured(configuredSecrets);
  const store = createStore(config.databaseUrl, { logger });
  await store.migrate();
  const metrics = new VidopsMetrics({ processMetrics: true });
  const services = createServices({
    store,
    logger,
    projects: config.video.projects,
    defaultProject: config.video.defaultProject,
    video: { apiUrl: config.video.apiUrl, account: config.video.account },
    insightsUrl: config.video.insightsUrl,
    policy,
    admins: config.admins,
    auditChannel: config.auditChannel,
    watchMaxAgeMs: pollerSettings.maxWatchAgeMs,
    patience: { boundMs: config.videoBoundMs },
    clientFactory: videoClientFactory({ observer: videoRequestObserver(metrics, logger), requestId: currentRequestId }),
    ...(input.clock ? { clock: input.clock } : {}),
    ...(config.secretKey ? { secretBox: new SecretBox(config.secretKey) } : {}),
  });
  metrics.watchBacklog(() => store.backlog(services.clock()));
  // Secrets rotated from Slack (stored encrypted) win over configured ones they replaced; the
  // reloader brings rotations made through other replicas here (src/secrets/README.md).
  const secretsLogger = logger.child({ component: 'secrets' });
  const seenSecrets = new Map<string, number>();
  await loadStoredSecrets(services, { logger: secretsLogger, seen: seenSecrets });
  const secretReloader = startSecretReloader(services, { logger: secretsLogger, seen: seenSecrets });
  const slack = config.slack;
  const slackFetch = instrumentedFetch(metrics);
  // One poller and one outbox deliverer per process; leases share the work between replicas.
  // The poller gets a thread of its own when a second connection can share the store and the
  // app runs on the wall clock (local mode drives the emulator's).
  const pollerThread = pollerSettings.thread && !input.clock && sharedStore(config.databaseUrl);
  const poller = pollerRuntime({
    services,
    settings: pollerSettings,
    slack: { botToken: slack.botToken, apiUrl: slack.apiUrl, fetch: slackFetch },
    publishHome: (client, teamId, userId) => publishHome(client, services, teamId, userId),
    ...(pollerThread && {
      thread: {
        data: {
          ...(config.databaseUrl !== undefined && { databaseUrl: config.databaseUrl }),
          projects: config.video.projects,
          defaultProject: config.video.defaultProject,
          video: { apiUrl: config.video.apiUrl, ...(config.video.account && { account: config.video.account }) },
          slack: { botToken: slack.botToken, ...(slack.apiUrl && { apiUrl: slack.apiUrl }) },
          settings: pollerSettings,
          ...(config.secretKey && { secretKey: config.secretKey }),
          secrets: configuredSecrets,
          logLevel: config.logLevel,
        },
        onVideoRequest: videoRequestObserver(metrics, logger),
        onSlackCall: slackCallMetrics(metrics),
        // The thread's connection checkpoints a SQLite file while it runs: one V8 heap fewer.
        ...(store instanceof SqliteStore && { onRunning: () => store.handOverCheckpoints(), onEnded: () => store.takeBackCheckpoints() }),
      },
    }),
  });

  let draining = false;
  const readinessTimeoutMs = input.readiness?.timeoutMs ?? READINESS_TIMEOUT_MS;
  // Its own client: no retries and no waiting out rate limits, so a probe answers in time.
  const authClient = new webApi.WebClient(slack.botToken, {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: readinessTimeoutMs,
    fetch: slackFetch,
    logger: toBoltLogger(logger.child({ component: 'readiness' })),
  });
  const readiness = new Readiness({
    checks: {
      store: () => store.ping(),
      slack: () => authClient.auth.test(),
      video: () => probeVideo(config.video.apiUrl, readinessTimeoutMs),
    },
    timeoutMs: readinessTimeoutMs,
    ...(input.readiness?.cacheMs === undefined ? {} : { cacheMs: input.readiness.cacheMs }),
    draining: () => draining,
  });
  if (poller.threadHeap) metrics.watchPollerThreadHeap(poller.threadHeap);
  const opsRoutes = [readyRoute(readiness), metricsRoute(metrics), ...poller.routes];

  const inFlight = new InFlight();
  const socketMode = slack.mode === 'socket';
  const app = createApp(services, {
    botToken: slack.botToken,
    signingSecret: slack.signingSecret,
    appToken: socketMode ? slack.appToken : undefined,
    apiUrl: slack.apiUrl,
    metrics,
    inFlight,
    draining: () => draining,
    ...(socketMode ? {} : { customRoutes: opsRoutes }),
  });
  // Socket Mode: Slack's requests come over the WebSocket; the routes get a side port.
  let opsServer: OpsServer | undefined;
  if (socketMode) opsServer = await startOpsServer({ port: config.port, routes: [healthRoute(), ...opsRoutes] });
  const started: unknown = await app.start(config.port);
  const address = started instanceof Server ? started.address() : null;
  const port = opsServer?.port ?? (address && typeof address === 'object' ? address.port : config.port);
  poller.start();
  // Weekly usage reports: every replica runs one; leases on the schedules keep each week's
  // report to one post (src/schedules/scheduler.ts).
  const scheduler = new UsageScheduler({
    store,
    deliver: scheduledReportDelivery(services, app.client),
    logger: logger.child({ component: 'usage-scheduler' }),
  });
  scheduler.start();

  const stopBudgetMs = input.stopBudgetMs ?? STOP_BUDGET_MS;
  const step = async (what: string, work: () => unknown, deadline: number): Promise<void> => {
    try {
      const done = await within(Promise.resolve().then(work), Math.max(0, deadline - Date.now()));
      if (!done) logger.warn(`${what} did not finish in time; going on`);
    } catch (error) {
      logger.warn(`${what} failed`, { error });
    }
  };
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      draining = true;
      const deadline = Date.now() + stopBudgetMs;
      logger.info('draining', { inFlight: inFlight.count });
      await step('stopping the secret reloader', () => secretReloader.stop(), deadline);
      await step('stopping the receiver', () => app.stop(), deadline);
      await Promise.all([
        step(
          'finishing the requests in flight',
          async () => {
            if (!(await inFlight.idle(Math.max(0, deadline - Date.now())))) {
              logger.warn('requests still in flight at the shutdown deadline', { inFlight: inFlight.count });
            }
          },
          deadline,
        ),
        // After the cycle and delivery round in progress; their leases are released.
        step('stopping the poller', () => poller.stop(), deadline),
        step('stopping the usage scheduler', () => scheduler.stop(), deadline),
      ]);
      if (opsServer) await step('closing the side server', () => opsServer.close(), deadline);
      await step('closing the store', () => store.close(), deadline + 1_000);
      logger.info('stopped');
    })());
  return { port, app, services, metrics, readiness, inFlight, stop };
}

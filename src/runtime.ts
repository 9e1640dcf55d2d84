/**
 * The running product, whatever started it: store (migrated) → services → stored secrets →
 * poller → Slack app listening → usage scheduler. `main.ts` starts it from the environment; the
 * local mode (src/local) starts it against an embedded emulator and a Slack stand-in.
 * `stop()` takes it down in the order that loses no work: receiver, poller (its leases released),
 * scheduler, store.
 */
import { Server } from 'node:http';
import type { App } from '@slack/bolt';
import { createApp } from './app';
import type { Config, SlackConfig, VideoConfig } from './config';
import { SecretBox } from './crypto';
import type { Logger } from './log';
import { publishHome } from './actions/home';
import { pollerRuntime } from './poller/service';
import type { PollerSettings } from './poller/settings';
import type { Policy } from './rbac/policy';
import { loadStoredSecrets, startSecretReloader } from './secrets/project-secrets';
import { createServices, type Services } from './services';
import { createStore } from './store';
import { scheduledReportDelivery } from './commands/usage/scheduled';
import { UsageScheduler } from './schedules';

export interface VidopsInput {
  config: Config & { slack: SlackConfig; video: VideoConfig };
  policy: Policy;
  pollerSettings: PollerSettings;
  logger: Logger;
}

export interface RunningVidops {
  /** The port the HTTP receiver (or, in Socket Mode, the health server) listens on. */
  port: number;
  app: App;
  services: Services;
  stop(): Promise<void>;
}

export async function startVidops({ config, policy, pollerSettings, logger }: VidopsInput): Promise<RunningVidops> {
  const store = createStore(config.databaseUrl, { logger });
  await store.migrate();
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
    ...(config.secretKey ? { secretBox: new SecretBox(config.secretKey) } : {}),
  });
  // Secrets rotated from Slack (stored encrypted) win over configured ones they replaced; the
  // reloader brings rotations made through other replicas here (src/secrets/README.md).
  const secretsLogger = logger.child({ component: 'secrets' });
  const seenSecrets = new Map<string, number>();
  await loadStoredSecrets(services, { logger: secretsLogger, seen: seenSecrets });
  const secretReloader = startSecretReloader(services, { logger: secretsLogger, seen: seenSecrets });
  const slack = config.slack;
  // One poller and one outbox deliverer per process; leases share the work between replicas.
  const poller = pollerRuntime({
    services,
    settings: pollerSettings,
    slack: { botToken: slack.botToken, apiUrl: slack.apiUrl },
    publishHome: (client, teamId, userId) => publishHome(client, services, teamId, userId),
  });
  const app = createApp(services, {
    botToken: slack.botToken,
    signingSecret: slack.signingSecret,
    appToken: slack.mode === 'socket' ? slack.appToken : undefined,
    apiUrl: slack.apiUrl,
    healthPort: config.port,
    customRoutes: poller.routes,
  });
  const started: unknown = await app.start(config.port);
  const address = started instanceof Server ? started.address() : null;
  const port = address && typeof address === 'object' ? address.port : config.port;
  poller.start();
  // Weekly usage reports: every replica runs one; leases on the schedules keep each week's
  // report to one post (src/schedules/scheduler.ts).
  const scheduler = new UsageScheduler({
    store,
    deliver: scheduledReportDelivery(services, app.client),
    logger: logger.child({ component: 'usage-scheduler' }),
  });
  scheduler.start();

  const steps: Array<[string, () => unknown]> = [
    ['stopping the secret reloader', () => secretReloader.stop()],
    ['stopping the receiver', () => app.stop()],
    // After the cycle and delivery round in progress; their leases are released.
    ['stopping the poller', () => poller.stop()],
    ['stopping the usage scheduler', () => scheduler.stop()],
    ['closing the store', () => store.close()],
  ];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      for (const [what, step] of steps) {
        try {
          await step();
        } catch (error) {
          logger.warn(`${what} failed`, { error });
        }
      }
    })());
  return { port, app, services, stop };
}

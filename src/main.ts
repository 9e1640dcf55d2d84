/**
 * Process entry: configuration → store (migrated) → services → Slack app → listening.
 * Exits with code 2 and a list of what to set when the configuration is incomplete, and shuts
 * down cleanly (receiver, then store) on SIGTERM/SIGINT.
 */
import { Server } from 'node:http';
import { createApp } from './app';
import { formatConfigProblems, hasSlackCredentials, loadConfig } from './config';
import { SecretBox } from './crypto';
import { createLogger } from './log';
import { publishHome } from './actions/home';
import { pollerRuntime } from './poller/service';
import { pollerSettingsFromEnv } from './poller/settings';
import { parsePolicy } from './rbac/policy';
import { loadStoredSecrets, startSecretReloader } from './secrets/project-secrets';
import { createServices } from './services';
import { createStore } from './store';
import { scheduledReportDelivery } from './commands/usage/scheduled';
import { UsageScheduler } from './schedules';

const SLACK_SETUP = [
  'To connect vidops to Slack:',
  '  1. Create a Slack app from manifest.yml (api.slack.com/apps → Create New App → From a manifest),',
  '     set its request URLs to https://<your host>/slack/events, and install it in your workspace.',
  '  2. Set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…, OAuth & Permissions page).',
  '  3. Set SLACK_SIGNING_SECRET to the Signing Secret (Basic Information page),',
  '     or set SLACK_APP_TOKEN to an app-level token (xapp-…, scope connections:write) to use Socket Mode.',
].join('\n');

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(`${formatConfigProblems(loaded.problems)}\n`);
    if (!hasSlackCredentials(process.env)) process.stderr.write(`\n${SLACK_SETUP}\n`);
    process.exit(2);
  }
  const config = loaded.config;
  const policy = parsePolicy(config.policy?.document);
  if (!policy.ok) {
    const where = config.policy ? `VIDOPS_POLICY_FILE (${config.policy.path})` : 'the policy';
    process.stderr.write(formatConfigProblems(policy.problems.map((p) => `${where}: ${p}`)) + '\n');
    process.exit(2);
  }
  if (!config.slack || !config.video) {
    process.stderr.write(`${formatConfigProblems(['the Slack and video settings are both required to run the app'])}\n${SLACK_SETUP}\n`);
    process.exit(2);
  }
  const pollerSettings = pollerSettingsFromEnv(process.env);
  if (!pollerSettings.ok) {
    process.stderr.write(`${formatConfigProblems(pollerSettings.problems)}\n`);
    process.exit(2);
  }

  const logger = createLogger({ level: config.logLevel, bindings: { service: 'vidops' } });
  const store = createStore(config.databaseUrl, { logger });
  await store.migrate();
  const services = createServices({
    store,
    logger,
    projects: config.video.projects,
    defaultProject: config.video.defaultProject,
    video: { apiUrl: config.video.apiUrl, account: config.video.account },
    insightsUrl: config.video.insightsUrl,
    policy: policy.policy,
    admins: config.admins,
    auditChannel: config.auditChannel,
    watchMaxAgeMs: pollerSettings.settings.maxWatchAgeMs,
    ...(config.secretKey ? { secretBox: new SecretBox(config.secretKey) } : {}),
  });
  // Secrets rotated from Slack (stored encrypted) win over configured ones they replaced; the
  // reloader brings rotations made through other replicas here (src/secrets/README.md).
  const seenSecrets = new Map<string, number>();
  await loadStoredSecrets(services, { logger: logger.child({ component: 'secrets' }), seen: seenSecrets });
  const secretReloader = startSecretReloader(services, { logger: logger.child({ component: 'secrets' }), seen: seenSecrets });
  const slack = config.slack;
  // One poller and one outbox deliverer per process; leases share the work between replicas.
  const poller = pollerRuntime({
    services,
    settings: pollerSettings.settings,
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
  logger.info('vidops is running', {
    mode: slack.mode,
    port: address && typeof address === 'object' ? address.port : config.port,
    projects: config.video.projects.map((p) => p.name),
    policy: config.policy ? config.policy.path : 'none (everyone is a viewer; VIDOPS_ADMINS are admins)',
  });
  poller.start();
  // Weekly usage reports: every replica runs one; leases on the schedules keep each week's
  // report to one post (src/schedules/scheduler.ts).
  const scheduler = new UsageScheduler({
    store,
    deliver: scheduledReportDelivery(services, app.client),
    logger: logger.child({ component: 'usage-scheduler' }),
  });
  scheduler.start();

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    secretReloader.stop();
    try {
      await app.stop();
    } catch (error) {
      logger.warn('stopping the receiver failed', { error });
    }
    try {
      // After the cycle and delivery round in progress; their leases are released.
      await poller.stop();
    } catch (error) {
      logger.warn('stopping the poller failed', { error });
    }
    try {
      await scheduler.stop();
    } catch (error) {
      logger.warn('stopping the usage scheduler failed', { error });
    }
    try {
      await store.close();
    } catch (error) {
      logger.warn('closing the store failed', { error });
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`vidops failed to start: ${message}\n`);
  process.exit(1);
});

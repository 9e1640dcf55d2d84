/**
 * Process entry: configuration from the environment → the running product (src/runtime.ts).
 * Exits with code 2 and a list of what to set when the configuration is incomplete. On SIGTERM
 * or SIGINT it drains (runtime.ts `stop()`: no new work, in-flight work finished, leases
 * released, store closed) and exits 0, or 1 if that takes over 10 s or a second signal comes.
 */
import { formatConfigProblems, hasSlackCredentials, loadConfig } from './config';
import { createLogger } from './log';
import { pollerSettingsFromEnv } from './poller/settings';
import { parsePolicy } from './rbac/policy';
import { startVidops } from './runtime';

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
  const vidops = await startVidops({ config: { ...config, slack: config.slack, video: config.video }, policy: policy.policy, pollerSettings: pollerSettings.settings, logger });
  logger.info('vidops is running', {
    mode: config.slack.mode,
    port: vidops.port,
    projects: config.video.projects.map((p) => p.name),
    policy: config.policy ? config.policy.path : 'none (everyone is a viewer; VIDOPS_ADMINS are admins)',
  });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) {
      // A second signal: the operator does not want to wait for the drain.
      logger.warn('second signal during shutdown; exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await vidops.stop();
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

/**
 * Process entry: configuration from the environment → the running product (src/runtime.ts).
 * With no Slack variable at all, local mode (src/local): the app with an embedded emulator and a
 * Slack stand-in, one URL to open. Otherwise exits with code 2 and a list of what to set when the
 * configuration is incomplete. On SIGTERM or SIGINT it drains (runtime.ts `stop()`: no new work,
 * in-flight work finished, leases released, store closed) and exits 0, or 1 if that takes over
 * 10 s or a second signal comes. An unhandled rejection is logged and the process goes on; an
 * uncaught exception is logged, then the process drains and exits 1 (src/process-failures.ts).
 * It stops at once, with one sentence, on a Node.js older than package.json's `engines`.
 */
// First: on an old Node.js nothing else should load (src/node-version.ts).
import './check-node';
import { type Env, formatConfigProblems, hasSlackCredentials, loadConfig } from './config';
import { createLogger } from './log';
import { pollerSettingsFromEnv } from './poller/settings';
import { handleProcessFailures } from './process-failures';
import { parsePolicy, unknownPolicyProjects } from './rbac/policy';
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

const SLACK_VARIABLES = ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN', 'SLACK_API_URL'] as const;

/** Local mode is for a machine with no Slack configured at all; any Slack variable means "run for real". */
function wantsLocalMode(env: Env): boolean {
  return SLACK_VARIABLES.every((name) => (env[name]?.trim() ?? '') === '');
}

interface ShutdownLog {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function stopOnSignals(stop: () => Promise<void>, log: ShutdownLog): void {
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) {
      // A second signal: the operator does not want to wait for the drain.
      log.error('second signal during shutdown; exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    log.info('shutting down', { signal });
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function runLocal(): Promise<void> {
  // Loaded here only: a deployment never loads the emulator (nor the GraphQL its Insights stand-in brings).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { LocalConfigError, startLocal } = require('./local/start') as typeof import('./local/start');
  let local;
  try {
    local = await startLocal({ env: process.env });
  } catch (error) {
    if (error instanceof LocalConfigError) {
      process.stderr.write(`${formatConfigProblems(error.problems)}\n`);
      process.exit(2);
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`vidops local mode: port ${process.env.PORT?.trim() || 3000} is in use; set PORT to a free one, e.g. PORT=3001 npm start\n`);
      process.exit(1);
    }
    throw error;
  }
  process.stdout.write(`vidops local mode: open ${local.url}\n`);
  const say = (message: string) => process.stdout.write(`vidops local mode: ${message}\n`);
  stopOnSignals(local.stop, { info: say, error: say });
  handleProcessFailures(process, local.vidops.services.logger, { stop: local.stop });
}

async function main(): Promise<void> {
  if (wantsLocalMode(process.env)) return runLocal();
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
  const strayProjects = config.video
    ? unknownPolicyProjects(
        policy.policy,
        config.video.projects.map((p) => p.name),
      )
    : [];
  if (strayProjects.length > 0) {
    const where = config.policy ? `VIDOPS_POLICY_FILE (${config.policy.path})` : 'the policy';
    process.stderr.write(formatConfigProblems(strayProjects.map((p) => `${where}: ${p}`)) + '\n');
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
  const vidops = await startVidops({
    config: { ...config, slack: config.slack, video: config.video },
    policy: policy.policy,
    pollerSettings: pollerSettings.settings,
    logger,
  });
  logger.info('vidops is running', {
    mode: config.slack.mode,
    port: vidops.port,
    projects: config.video.projects.map((p) => p.name),
    policy: config.policy ? config.policy.path : 'none (everyone is a viewer; VIDOPS_ADMINS are admins)',
  });

  stopOnSignals(vidops.stop, logger);
  handleProcessFailures(process, logger, { stop: vidops.stop });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`vidops failed to start: ${message}\n`);
  process.exit(1);
});

/**
 * Builds the Bolt app: HTTP receiver on /slack/events (or Socket Mode when an app-level token is
 * configured), every listener registered by its area, and GET /healthz. Acks go out as soon as
 * a listener calls ack() (`processBeforeResponse: false`); the work happens after.
 */
import { App, type CustomRoute, LogLevel, type webApi } from '@slack/bolt';
import * as actions from './actions';
import * as commands from './commands';
import { toBoltLogger } from './log';
import type { Services } from './services';

export interface SlackAppOptions {
  botToken: string;
  /** HTTP mode: verifies every request. Optional in Socket Mode. */
  signingSecret?: string;
  /** An app-level token (xapp-…) switches to Socket Mode. */
  appToken?: string;
  /** Web API base URL (tests and local runs point it at a fake Slack). */
  apiUrl?: string;
  /** Socket Mode only: where /healthz is served (HTTP mode takes the port in `start`). */
  healthPort?: number;
  /** WebClient retry policy (tests use a fast one). */
  retryConfig?: webApi.RetryOptions;
}

export const EVENTS_PATH = '/slack/events';
export const HEALTH_PATH = '/healthz';

export function healthRoute(): CustomRoute {
  return {
    path: HEALTH_PATH,
    method: ['GET'],
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    },
  };
}

export function createApp(services: Services, options: SlackAppOptions): App {
  const logger = toBoltLogger(services.logger);
  const clientOptions: webApi.WebClientOptions = {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    ...(options.retryConfig ? { retryConfig: options.retryConfig } : {}),
  };
  const socketMode = options.appToken !== undefined;
  if (!socketMode && !options.signingSecret) {
    throw new Error('createApp: a signing secret is needed for HTTP mode (or an app-level token for Socket Mode)');
  }
  const app = new App({
    token: options.botToken,
    logger,
    logLevel: logger.getLevel() as LogLevel,
    clientOptions,
    convoStore: false,
    customRoutes: [healthRoute()],
    ...(socketMode
      ? { socketMode: true, appToken: options.appToken, installerOptions: { port: options.healthPort ?? 3000 } }
      : { signingSecret: options.signingSecret, endpoints: EVENTS_PATH, processBeforeResponse: false }),
  });

  commands.register(app, services);
  actions.register(app, services);

  app.error(async (error) => {
    services.logger.error('unhandled error in a listener', { error });
  });
  return app;
}

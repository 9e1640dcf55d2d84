/**
 * Builds the Bolt app: HTTP receiver on /slack/events (or Socket Mode when an app-level token is
 * configured), every listener registered by its area, and GET /healthz. Acks go out as soon as
 * a listener calls ack() (`processBeforeResponse: false`); the work happens after.
 */
import { App, type CustomRoute, HTTPReceiver, LogLevel, type webApi } from '@slack/bolt';
import * as actions from './actions';
import * as commands from './commands';
import { toBoltLogger } from './log';
import type { Services } from './services';
import { dedupeDeliveries } from './slack/dedupe';
import { routeById } from './slack/router';

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
  /** More HTTP routes beside /healthz (e.g. the video service's callbacks). */
  customRoutes?: CustomRoute[];
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

/**
 * The HTTP receiver, its request listener wrapped so the ack gate knows which requests still
 * wait for their answer.
 */
function httpReceiver(services: Services, signingSecret: string, logger: ReturnType<typeof toBoltLogger>, routes: CustomRoute[]): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: EVENTS_PATH,
    processBeforeResponse: false,
    customRoutes: [healthRoute(), ...routes],
    logger,
  });
  const listener = receiver.requestListener;
  const gate = services.ackGate;
  receiver.requestListener = (req, res) => {
    gate.requestStarted();
    res.once('close', () => gate.requestFinished());
    listener(req, res);
  };
  return receiver;
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
  const common = { token: options.botToken, logger, logLevel: logger.getLevel() as LogLevel, clientOptions, convoStore: false as const };
  const routes = options.customRoutes ?? [];
  const app = socketMode
    ? new App({ ...common, socketMode: true, appToken: options.appToken, customRoutes: [healthRoute(), ...routes], installerOptions: { port: options.healthPort ?? 3000 } })
    : new App({ ...common, receiver: httpReceiver(services, options.signingSecret!, logger, routes) });

  // A delivery Slack repeats (late ack) is acknowledged and dropped before any listener runs.
  app.use(dedupeDeliveries({ ledger: services.store, logger: services.logger, clock: services.clock }));
  // One Bolt listener per kind of interaction, dispatching by id (see src/slack/router.ts).
  const routed = routeById(app);
  commands.register(routed, services);
  actions.register(routed, services);

  app.error(async (error) => {
    services.logger.error('unhandled error in a listener', { error });
  });
  return app;
}

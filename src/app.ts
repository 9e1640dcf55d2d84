/**
 * Builds the Bolt app: HTTP receiver on /slack/events (or Socket Mode when an app-level token is
 * configured), every listener registered by its area, and GET /healthz. Acks go out as soon as
 * a listener calls ack() (`processBeforeResponse: false`); the work happens after. Every request
 * runs in its own context (request id, outcome), counted in flight and in the metrics.
 */
import { App, type CustomRoute, HTTPReceiver, HTTPReceiverDeferredRequestError, LogLevel, SocketModeReceiver, type webApi } from '@slack/bolt';
import * as actions from './actions';
import * as commands from './commands';
import { answerNotFound, loggablePath } from './http/not-found';
import { healthRoute } from './http/ops-routes';
import { toBoltLogger } from './log';
import type { VidopsMetrics } from './metrics/registry';
import { instrumentedFetch } from './metrics/slack';
import { noteOutcome } from './request-context';
import type { Services } from './services';
import { withPatience } from './interaction/patient-app';
import { ackFirst } from './slack/ack-gate';
import { DeliveryClaims } from './slack/dedupe';
import { guardSlackRequests, routedPath } from './slack/signature-guard';
import { refuseBadShapes } from './slack/shape-middleware';
import { InFlight } from './slack/in-flight';
import { instrumentRequests } from './slack/instrument';
import { routeById } from './slack/router';
import { threadSlackTransport } from './slack/transport';

export interface SlackAppOptions {
  botToken: string;
  /** HTTP mode: verifies every request. Optional in Socket Mode. */
  signingSecret?: string;
  /** An app-level token (xapp-…) switches to Socket Mode. */
  appToken?: string;
  /** Web API base URL (tests and local runs point it at a fake Slack). */
  apiUrl?: string;
  /** WebClient retry policy (tests use a fast one). */
  retryConfig?: webApi.RetryOptions;
  /**
   * HTTP mode: more routes beside /healthz (readiness, metrics, the video service's callbacks).
   * In Socket Mode the runtime serves them on a side port (src/http/ops-server.ts).
   */
  customRoutes?: CustomRoute[];
  /** Counts Slack calls and times acks, commands and interactions when given. */
  metrics?: VidopsMetrics;
  /** Requests being handled, follow-up work included (the runtime waits on it when stopping). */
  inFlight?: InFlight;
  /** True while shutting down: new Slack requests get a 503 so Slack retries them elsewhere. */
  draining?: () => boolean;
}

export const EVENTS_PATH = '/slack/events';
export { HEALTH_PATH, healthRoute } from './http/ops-routes';

/**
 * The HTTP receiver, its request listener wrapped so the ack gate knows which requests still
 * wait for their answer, and so that a draining process refuses new Slack requests.
 */
function httpReceiver(
  services: Services,
  signingSecret: string,
  logger: ReturnType<typeof toBoltLogger>,
  routes: CustomRoute[],
  draining: () => boolean,
): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: EVENTS_PATH,
    processBeforeResponse: false,
    customRoutes: [healthRoute(), ...routes],
    logger,
    // Bolt's own answer names the whole URL in its log line (a callback token with it) and
    // differs from a wrong token's: every request nothing serves gets the one not-found answer.
    dispatchErrorHandler: ({ error, request, response }) => {
      const unhandled = error instanceof HTTPReceiverDeferredRequestError;
      if (unhandled) services.logger.debug('no route for an HTTP request', { method: request.method, path: loggablePath(request.url) });
      else services.logger.error('could not route an HTTP request', { method: request.method, path: loggablePath(request.url), error });
      request.resume();
      answerNotFound(response);
    },
  });
  // Bolt lets future-dated timestamps and replays through; the guard refuses them first.
  const listener = guardSlackRequests(receiver.requestListener, { signingSecret, path: EVENTS_PATH, logger: services.logger });
  const gate = services.ackGate;
  receiver.requestListener = (req, res) => {
    if (draining() && routedPath(req.url) === EVENTS_PATH) {
      // Read the body first: answering mid-upload would reset the connection instead.
      req.resume();
      req.once('end', () => {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ ok: false, error: 'shutting_down' }));
      });
      return;
    }
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
    fetch: options.metrics ? instrumentedFetch(options.metrics) : threadSlackTransport(),
  };
  const socketMode = options.appToken !== undefined;
  if (!socketMode && !options.signingSecret) {
    throw new Error('createApp: a signing secret is needed for HTTP mode (or an app-level token for Socket Mode)');
  }
  const common = { token: options.botToken, logger, logLevel: logger.getLevel() as LogLevel, clientOptions, convoStore: false as const };
  const routes = options.customRoutes ?? [];
  const draining = options.draining ?? (() => false);
  const socketReceiver = socketMode
    ? // The Socket Mode client opens its connection through the same Web API base URL.
      new SocketModeReceiver({ appToken: options.appToken!, logger, logLevel: common.logLevel, installerOptions: { clientOptions } })
    : undefined;
  const app = new App({ ...common, receiver: socketReceiver ?? httpReceiver(services, options.signingSecret!, logger, routes, draining) });
  if (socketReceiver) {
    // Bolt's stop() sends the close frame without waiting for Slack's answer; wait for it, so the
    // socket is closed (not dropped) before the process goes on to close the store and exit.
    app.stop = () => socketReceiver.client.disconnect();
  }
  instrumentRequests(app, {
    inFlight: options.inFlight ?? new InFlight(),
    commandNames: commands.COMMAND_NAMES,
    ...(options.metrics && { metrics: options.metrics }),
  });

  // Over HTTP the guard refuses bad shapes before Bolt; Socket Mode payloads are checked here.
  app.use(refuseBadShapes(services.logger));
  // A delivery Slack repeats (late ack) is acknowledged and dropped: a form before its listener
  // runs, a command, click or shortcut right after its ack (see src/slack/dedupe.ts).
  const deliveries = new DeliveryClaims({ ledger: services.store, logger: services.logger, clock: services.clock });
  app.use(deliveries.middleware());
  // One Bolt listener per kind of interaction, dispatching by id (see src/slack/router.ts).
  // Each listener runs with its request's Patience: never silent while the video service is slow.
  const routed = routeById(withPatience(ackFirst(app, services.ackGate, { countRequests: socketMode, afterAck: deliveries.afterAck }), services));
  commands.register(routed, services);
  actions.register(routed, services);

  app.error(async (error) => {
    noteOutcome('error');
    services.logger.error('unhandled error in a listener', { error });
  });
  return app;
}

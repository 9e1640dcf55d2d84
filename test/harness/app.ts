/**
 * The whole app under test on 127.0.0.1 ephemeral ports: the real Bolt app (HTTP receiver),
 * the fake Slack Web API, the video service emulator and an in-memory SQLite store. Requests are
 * signed like Slack signs them; waiting is on recorded calls (no sleeping).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_FAST, VideoClient } from '../../src/api';
import { INSIGHTS_RETRY_FAST, InsightsClient, SlidingWindowLimiter } from '../../src/api/insights';
import { createApp } from '../../src/app';
import type { PatienceSettings } from '../../src/interaction/still-waiting';
import { SecretBox } from '../../src/crypto';
import { type LogStream, type LogThreshold, createLogger } from '../../src/log';
import { type Policy, parsePolicy } from '../../src/rbac/policy';
import type { ProjectSettings } from '../../src/projects';
import { type InsightsFactory, type Services, createServices } from '../../src/services';
import { createStore } from '../../src/store';
import type { VidopsStore } from '../../src/store/types';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { type PollerHarness, type PollerHarnessOptions, createPollerHarness } from './poller';
import { type FakeSlack, type RecordedCall, type RecordedResponse, type WaitOptions, startFakeSlack } from './fake-slack';
import { type SignedRequest, signedEvent, signedInteraction, signedSlashCommand } from './signing';

export const TEAM = 'T0TEST';
export const CHANNEL = 'C0OPS';
export const USERS = { admin: 'U0ADMIN', moderator: 'U0MOD', viewer: 'U0VIEW', oncall: 'U0ONCALL' } as const;
export const ONCALL_GROUP = 'S0ONCALL';
export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-token';

/** The policy the tests run under unless they pass their own. */
export const TEST_POLICY = {
  roles: {
    admin: { users: [USERS.admin] },
    moderator: { users: [USERS.moderator], groups: [ONCALL_GROUP] },
  },
};

export interface TestAppOptions {
  /** Policy JSON (parsed with the app's schema); default TEST_POLICY. */
  policy?: unknown;
  admins?: string[];
  auditChannel?: string;
  /** The app's clock is the emulator's (Insights ranges, usage reports); default the wall clock. */
  useEmulatorClock?: boolean;
  /** Where the emulator's clock starts (epoch ms); default the emulator's own start. */
  emulatorStartTime?: number;
  /** The store to use (migrated here); default a fresh in-memory SQLite store. Closed with the app. */
  store?: ReturnType<typeof createStore>;
  /** How Insights clients are made; default one per project on the emulator, fast retries, no rate limit. */
  insightsFactory?: InsightsFactory;
  /** Extra projects beyond `prod` (credentials from the emulator unless given). */
  extraProjects?: { name: string; channels?: string[]; apiKey?: string; apiSecret?: string }[];
  logLevel?: LogThreshold;
  /** Where log lines go (default stderr), e.g. to search them in a test. */
  logStream?: LogStream;
  /** Account-level credentials: `true` for the emulator's own, or explicit ones (default none). */
  account?: true | { apiKey: string; apiSecret: string };
  /** VIDOPS_SECRET_KEY (32 bytes); default none. */
  secretKey?: Buffer;
  /**
   * Wire the poller (test/harness/poller.ts), driven by hand through `TestApp.poller`. The app's
   * clock then is the emulator's, and the fake Slack's message timestamps follow it.
   */
  poller?: boolean | PollerHarnessOptions;
  /** When the asker hears "Still waiting…" and when a request says what is known (default 2 s / 20 s). */
  patience?: Partial<PatienceSettings>;
}

export interface Actor {
  user?: string;
  channel?: string;
  team?: string;
}

export interface SlashResult {
  status: number;
  /** The ack body Slack would show (help, usage errors), or undefined for an empty ack. */
  ack?: { text?: string; blocks?: unknown[]; response_type?: string };
  /** Id of the response_url this command carried. */
  responseId: string;
  responseUrl: string;
  waitForResponse(predicate?: (r: RecordedResponse) => boolean, options?: WaitOptions): Promise<RecordedResponse>;
  ackLatencyMs: number;
}

export interface Seeded {
  sessionId: string;
  connections: string[];
  streams: string[];
}

export interface TestApp {
  url: string;
  slack: FakeSlack;
  emulator: RunningEmulator;
  store: VidopsStore;
  services: Services;
  /** Present when started with `poller`. */
  poller?: PollerHarness;
  project: { name: 'prod'; apiKey: string; apiSecret: string };
  /** Sends a signed slash command. */
  slash(command: string, text: string, actor?: Actor): Promise<SlashResult>;
  /** Clicks a button (block_actions) on a message that carried `responseUrl`. */
  /** `messageTs`: the click is on that in-channel message (a card) rather than on an ephemeral one. */
  click(
    actionId: string,
    value: string | undefined,
    actor?: Actor & { responseUrl?: string; triggerId?: string; messageTs?: string },
  ): Promise<{ status: number; responseId: string }>;
  /** Submits a modal; returns the ack body (response_action…). */
  submitView(view: SubmittedView, actor?: Actor): Promise<{ status: number; body: unknown }>;
  shortcut(callbackId: string, actor?: Actor): Promise<{ status: number; triggerId: string }>;
  /** Loads the options of an external select; returns the ack body. */
  options(actionId: string, value: string, actor?: Actor): Promise<unknown>;
  event(event: Record<string, unknown>): Promise<number>;
  /** Posts an already signed (or deliberately mis-signed) request. */
  post(request: SignedRequest, path?: string): Promise<{ status: number; body: string }>;
  waitForSlackCall(method: string, predicate?: (call: RecordedCall) => boolean, options?: WaitOptions): Promise<RecordedCall>;
  /** Creates a session in the emulator with `streams` publishers (one connection each). */
  seedSession(options?: { streams?: number; mediaMode?: 'routed' | 'relayed'; names?: string[]; apiKey?: string }): Seeded;
  close(): Promise<void>;
}

export interface SubmittedView {
  callbackId: string;
  viewId: string;
  privateMetadata?: string;
  blocks?: unknown[];
  values: Record<string, Record<string, unknown>>;
}

/** Insights clients for tests: fast retries, and no client-side rate limit (the emulator enforces it when asked). */
export const testInsightsFactory: InsightsFactory = (p, insightsUrl) =>
  new InsightsClient({
    insightsUrl,
    projectId: p.apiKey,
    apiSecret: p.apiSecret,
    retry: INSIGHTS_RETRY_FAST,
    limiter: new SlidingWindowLimiter({ limit: 1_000_000 }),
  });

let triggerCounter = 0;
const nextTrigger = (): string => `${++triggerCounter}.${Date.now()}.trigger${triggerCounter}`;

/** The form fields Slack posts for a slash command. */
export function slashCommandFields(input: {
  command: string;
  text: string;
  user: string;
  channel: string;
  team?: string;
  responseUrl: string;
  triggerId: string;
}): Record<string, string> {
  return {
    token: 'legacy-verification-token',
    team_id: input.team ?? TEAM,
    team_domain: 'vidops-test',
    channel_id: input.channel,
    channel_name: input.channel.toLowerCase(),
    user_id: input.user,
    user_name: input.user.toLowerCase(),
    command: input.command,
    text: input.text,
    api_app_id: 'A0VIDOPS',
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

export async function startTestApp(settings: TestAppOptions = {}): Promise<TestApp> {
  const emulator = await startEmulator(settings.emulatorStartTime === undefined ? {} : { startTime: settings.emulatorStartTime });
  const pollerOptions = settings.poller === true ? {} : settings.poller || undefined;
  const emulatorClock = () => emulator.control.now();
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM, ...(pollerOptions && { clock: emulatorClock }) });
  const prodCreds = emulator.control.createProject({ name: 'prod' });
  const project = { name: 'prod' as const, ...prodCreds };
  const projects: ProjectSettings[] = [{ name: 'prod', apiKey: project.apiKey, apiSecret: project.apiSecret, channels: [] }];
  for (const extra of settings.extraProjects ?? []) {
    const creds = extra.apiKey && extra.apiSecret ? { apiKey: extra.apiKey, apiSecret: extra.apiSecret } : emulator.control.createProject({ name: extra.name });
    projects.push({ name: extra.name, ...creds, channels: extra.channels ?? [] });
  }
  const parsed = parsePolicy(settings.policy === undefined ? TEST_POLICY : settings.policy);
  if (!parsed.ok) throw new Error(`test policy invalid: ${parsed.problems.join('; ')}`);
  const policy: Policy = parsed.policy;

  const store = settings.store ?? createStore('sqlite::memory:');
  await store.migrate();
  const logger = createLogger({
    level: settings.logLevel ?? (process.env.VIDOPS_TEST_LOG as LogThreshold | undefined) ?? 'silent',
    stream: settings.logStream ?? process.stderr,
  });
  const account = settings.account === true ? { apiKey: emulator.control.account.key, apiSecret: emulator.control.account.secret } : settings.account;
  const services = createServices({
    store,
    logger,
    insightsUrl: emulator.insightsUrl,
    insightsFactory: settings.insightsFactory ?? testInsightsFactory,
    ...(settings.useEmulatorClock ? { clock: () => emulator.control.now() } : {}),
    projects,
    defaultProject: 'prod',
    video: { apiUrl: emulator.baseUrl, ...(account ? { account } : {}) },
    policy,
    admins: settings.admins ?? [],
    auditChannel: settings.auditChannel,
    clientFactory: (p, video) =>
      new VideoClient({
        baseUrl: video.apiUrl,
        apiKey: p.apiKey,
        apiSecret: p.apiSecret,
        retry: RETRY_FAST,
        ...(video.account ? { accountApiKey: video.account.apiKey, accountApiSecret: video.account.apiSecret } : {}),
      }),
    ...(settings.secretKey ? { secretBox: new SecretBox(settings.secretKey) } : {}),
    ...(settings.patience && { patience: settings.patience }),
    ...(pollerOptions && { clock: emulatorClock }),
  });
  const poller = pollerOptions && createPollerHarness({ services, emulator, slackApiUrl: slack.apiUrl, botToken: BOT_TOKEN, options: pollerOptions });
  const app = createApp(services, {
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    apiUrl: slack.apiUrl,
    retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 1 },
    ...(poller && { customRoutes: poller.routes }),
  });
  const server = (await app.start(0)) as Server;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function post(request: SignedRequest, path = '/slack/events'): Promise<{ status: number; body: string }> {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: request.headers, body: request.body });
    return { status: res.status, body: await res.text() };
  }

  const who = (actor: Actor = {}) => ({
    user: actor.user ?? USERS.moderator,
    channel: actor.channel ?? CHANNEL,
    team: actor.team ?? TEAM,
  });

  async function slash(command: string, text: string, actor: Actor = {}): Promise<SlashResult> {
    const { user, channel, team } = who(actor);
    const responseUrl = slack.newResponseUrl();
    const responseId = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    const request = signedSlashCommand(SIGNING_SECRET, slashCommandFields({ command, text, user, channel, team, responseUrl, triggerId: nextTrigger() }));
    const started = performance.now();
    const res = await post(request);
    const ackLatencyMs = performance.now() - started;
    let ack: SlashResult['ack'];
    if (res.body) {
      try {
        ack = JSON.parse(res.body) as SlashResult['ack'];
      } catch {
        ack = { text: res.body };
      }
    }
    return {
      status: res.status,
      ack,
      responseId,
      responseUrl,
      ackLatencyMs,
      waitForResponse: (predicate, opts) => slack.waitForResponse(responseId, predicate, opts),
    };
  }

  async function click(actionId: string, value: string | undefined, actor: Actor & { responseUrl?: string; triggerId?: string; messageTs?: string } = {}) {
    const { user, channel, team } = who(actor);
    const responseUrl = actor.responseUrl ?? slack.newResponseUrl();
    const payload = {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: team },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: actor.messageTs ?? '1700000000.000100', channel_id: channel, is_ephemeral: actor.messageTs === undefined },
      ...(actor.messageTs !== undefined && { message: { type: 'message', ts: actor.messageTs } }),
      trigger_id: actor.triggerId ?? nextTrigger(),
      team: { id: team, domain: 'vidops-test' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: channel, name: channel.toLowerCase() },
      state: { values: {} },
      response_url: responseUrl,
      actions: [
        {
          action_id: actionId,
          block_id: 'b1',
          text: { type: 'plain_text', text: 'button', emoji: true },
          ...(value !== undefined ? { value } : {}),
          type: 'button',
          action_ts: `${Date.now() / 1000}`,
        },
      ],
    };
    const res = await post(signedInteraction(SIGNING_SECRET, payload));
    return { status: res.status, responseId: responseUrl.slice(responseUrl.lastIndexOf('/') + 1) };
  }

  async function submitView(view: SubmittedView, actor: Actor = {}) {
    const { user, team } = who(actor);
    const payload = {
      type: 'view_submission',
      team: { id: team, domain: 'vidops-test' },
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: team },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      trigger_id: nextTrigger(),
      view: {
        id: view.viewId,
        team_id: team,
        type: 'modal',
        blocks: view.blocks ?? [],
        private_metadata: view.privateMetadata ?? '',
        callback_id: view.callbackId,
        state: { values: view.values },
        hash: '1700000000.abc',
        title: { type: 'plain_text', text: 'x' },
        clear_on_close: false,
        notify_on_close: false,
        root_view_id: view.viewId,
        app_id: 'A0VIDOPS',
        external_id: '',
        app_installed_team_id: team,
        bot_id: 'B0BOT',
      },
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const res = await post(signedInteraction(SIGNING_SECRET, payload));
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = res.body;
    }
    return { status: res.status, body };
  }

  async function shortcut(callbackId: string, actor: Actor = {}) {
    const { user, team } = who(actor);
    const triggerId = nextTrigger();
    const payload = {
      type: 'shortcut',
      token: 'legacy-verification-token',
      action_ts: `${Date.now() / 1000}`,
      team: { id: team, domain: 'vidops-test' },
      user: { id: user, username: user.toLowerCase(), team_id: team },
      is_enterprise_install: false,
      enterprise: null,
      callback_id: callbackId,
      trigger_id: triggerId,
    };
    const res = await post(signedInteraction(SIGNING_SECRET, payload));
    return { status: res.status, triggerId };
  }

  async function loadOptions(actionId: string, value: string, actor: Actor = {}) {
    const { user, team } = who(actor);
    const payload = {
      type: 'block_suggestion',
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: team },
      container: { type: 'view', view_id: 'V0PICKER' },
      api_app_id: 'A0VIDOPS',
      token: 'legacy-verification-token',
      action_id: actionId,
      block_id: 'session',
      value,
      team: { id: team, domain: 'vidops-test' },
      enterprise: null,
      is_enterprise_install: false,
      view: { id: 'V0PICKER', type: 'modal', callback_id: 'x', state: { values: {} } },
    };
    const res = await post(signedInteraction(SIGNING_SECRET, payload));
    return res.body ? (JSON.parse(res.body) as unknown) : undefined;
  }

  async function event(inner: Record<string, unknown>): Promise<number> {
    const envelope = {
      token: 'legacy-verification-token',
      team_id: TEAM,
      api_app_id: 'A0VIDOPS',
      event: inner,
      type: 'event_callback',
      event_id: `Ev${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: slack.botUserId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
    };
    return (await post(signedEvent(SIGNING_SECRET, envelope))).status;
  }

  function seedSession(opts: { streams?: number; mediaMode?: 'routed' | 'relayed'; names?: string[]; apiKey?: string } = {}): Seeded {
    const apiKey = opts.apiKey ?? project.apiKey;
    const control = emulator.control;
    const sessionId = control.createSession(apiKey, { mediaMode: opts.mediaMode ?? 'routed' });
    const connections: string[] = [];
    const streams: string[] = [];
    const count = opts.streams ?? 2;
    for (let i = 0; i < count; i++) {
      const connectionId = control.connect(apiKey, sessionId);
      connections.push(connectionId);
      streams.push(control.publish(apiKey, sessionId, connectionId, { name: opts.names?.[i] ?? `Participant ${i + 1}`, videoType: 'camera' }));
    }
    return { sessionId, connections, streams };
  }

  return {
    url,
    slack,
    emulator,
    store,
    services,
    ...(poller && { poller: poller.harness }),
    project,
    slash,
    click,
    submitView,
    shortcut,
    options: loadOptions,
    event,
    post,
    waitForSlackCall: (method, predicate, opts) => slack.waitForCall(method, predicate, opts),
    seedSession,
    close: async () => {
      await poller?.harness.stop();
      await app.stop();
      await Promise.all([slack.close(), emulator.close()]);
      await store.close();
    },
  };
}

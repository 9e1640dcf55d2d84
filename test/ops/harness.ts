/**
 * The running product in this process (src/runtime.ts `startVidops`, as main.ts starts it) on
 * 127.0.0.1 ephemeral ports, with the fake Slack Web API, the emulator and in-memory SQLite (or a given store);
 * its log lines captured. For the operations tests: metrics, readiness, request ids.
 */
import { type Config, loadConfig } from '../../src/config';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { type LogThreshold, createLogger } from '../../src/log';
import { pollerSettingsFromEnv } from '../../src/poller/settings';
import { parsePolicy } from '../../src/rbac/policy';
import { type RunningVidops, type VidopsInput, startVidops } from '../../src/runtime';
import { type FakeSlack, startFakeSlack } from '../harness/fake-slack';
import { signedSlashCommand } from '../harness/signing';
import { type SocketSlack, startSocketSlack } from './socket-slack';

export const SIGNING_SECRET = 'ops-test-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-ops-test-0123456789-abcdefabcdef';
export const TEAM = 'T0OPS';
export const CHANNEL = 'C0OPS';
export const ADMIN = 'U0ADMIN';
export const VIEWER = 'U0VIEWER';
export const APP_TOKEN = 'xapp-1-A0OPS-1-0123456789abcdef';

export interface OpsApp {
  url: string;
  vidops: RunningVidops;
  slack: FakeSlack;
  emulator: RunningEmulator;
  /** In Socket Mode: the WebSocket side of Slack, to push envelopes. */
  socket?: SocketSlack;
  project: { apiKey: string; apiSecret: string };
  /** Every log line written so far, parsed. */
  logs(): Record<string, unknown>[];
  /** The raw log text (to check that no secret was written). */
  logText(): string;
  slash(command: string, text: string, user?: string): Promise<{ status: number; body: string; responseUrl: string }>;
  get(path: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export interface OpsAppOptions {
  logLevel?: LogThreshold;
  /** VIDEO_API_URL, when it must differ from the emulator's (a recording proxy). */
  videoApiUrl?: (emulatorUrl: string) => string;
  readiness?: VidopsInput['readiness'];
  /** Socket Mode (SLACK_APP_TOKEN): Slack's requests over a WebSocket, the routes on the side port. */
  socketMode?: boolean;
  /** DATABASE_URL (default in-memory SQLite). */
  databaseUrl?: string;
  /** The poller's variables (default VIDOPS_POLLER=off: watches stay as commands left them). */
  pollerEnv?: Record<string, string>;
}

export async function startOpsApp(options: OpsAppOptions = {}): Promise<OpsApp> {
  const emulator = await startEmulator();
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  const project = emulator.control.createProject({ name: 'prod' });
  const socket = options.socketMode ? await startSocketSlack(slack.apiUrl) : undefined;
  const env = {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    ...(socket ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
    SLACK_API_URL: socket ? socket.apiUrl : slack.apiUrl,
    VIDEO_API_URL: options.videoApiUrl ? options.videoApiUrl(emulator.baseUrl) : emulator.baseUrl,
    VIDEO_API_KEY: project.apiKey,
    VIDEO_API_SECRET: project.apiSecret,
    VIDOPS_ADMINS: ADMIN,
    DATABASE_URL: options.databaseUrl ?? 'sqlite::memory:',
    PORT: '0',
  };
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const config = loaded.config as Config & Pick<VidopsInput['config'], 'slack' | 'video'>;
  const policy = parsePolicy(undefined);
  if (!policy.ok) throw new Error(policy.problems.join('; '));
  // Polling off unless asked for: watches stay as commands left them, so the gauges are predictable.
  const pollerSettings = pollerSettingsFromEnv(options.pollerEnv ?? { VIDOPS_POLLER: 'off' });
  if (!pollerSettings.ok) throw new Error(pollerSettings.problems.join('; '));
  const lines: string[] = [];
  const logger = createLogger({ level: options.logLevel ?? 'info', stream: { write: (line: string) => lines.push(line) } });
  const vidops = await startVidops({
    config,
    policy: policy.policy,
    pollerSettings: pollerSettings.settings,
    logger,
    ...(options.readiness && { readiness: options.readiness }),
  });
  const url = `http://127.0.0.1:${vidops.port}`;
  // Bolt verifies the bot token with auth.test as it starts; faults a test sets on auth.test
  // are meant for the readiness probe, so that call must be behind us.
  await slack.waitForCall('auth.test');

  return {
    url,
    vidops,
    slack,
    emulator,
    ...(socket && { socket }),
    project,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    logText: () => lines.join(''),
    async slash(command, text, user = ADMIN) {
      const responseUrl = slack.newResponseUrl();
      const signed = signedSlashCommand(SIGNING_SECRET, {
        command,
        text,
        team_id: TEAM,
        user_id: user,
        channel_id: CHANNEL,
        response_url: responseUrl,
        trigger_id: `trigger-${Date.now()}`,
      });
      const res = await fetch(`${url}/slack/events`, { method: 'POST', headers: signed.headers, body: signed.body });
      return { status: res.status, body: await res.text(), responseUrl };
    },
    async get(path) {
      const res = await fetch(`${url}${path}`);
      return { status: res.status, body: await res.text() };
    },
    async close() {
      await vidops.stop();
      await socket?.close();
      await slack.close();
      await emulator.close();
    },
  };
}

/** The value of one sample in Prometheus text, matching the name and every label given; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

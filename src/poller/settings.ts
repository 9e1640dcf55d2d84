/**
 * The poller's settings from the environment (see README, "Poller"), validated at start-up
 * like the rest of the configuration: every problem at once, naming the variable and what a
 * right value looks like, never echoing a value (VIDOPS_CALLBACK_TOKEN is a secret).
 */
import { type BucketConfig, DEFAULT_BUCKET, MIN_CAPACITY } from './budget';
import { DEFAULT_SCHEDULE, MAX_WATCH_AGE_MS, type ScheduleConfig } from './schedule';
import { WATCH_KINDS, type WatchKind } from './snapshot';

export interface PollerSettings {
  /** VIDOPS_POLLER=off leaves polling and delivery to other replicas (commands still add watches). */
  enabled: boolean;
  /**
   * VIDOPS_POLLER_THREAD (default on): poll and deliver in a worker thread of their own, so the
   * main thread's event loop and heap serve Slack alone. Only with a store two connections can
   * share (a SQLite file, PostgreSQL); an in-memory store keeps the poller on the main thread.
   */
  thread: boolean;
  /** Request budget of every project unless overridden. */
  budget: BucketConfig;
  projectBudgets: Record<string, BucketConfig>;
  schedule: ScheduleConfig;
  /**
   * Pause between poll cycles. A watch is polled at the first cycle after it is due, so the
   * tick is added to every interval: 500 ms keeps a 3 s interval at 3–3.5 s.
   */
  tickMs: number;
  /** Most watches polled per cycle (all projects), and per project. */
  claimLimit: number;
  perProjectLimit: number;
  maxWatchAgeMs: Record<WatchKind, number>;
  /** Secret path segment of POST /callbacks/video/<token>; the route exists only when set. */
  callbackToken?: string;
}

export const DEFAULT_POLLER_SETTINGS: PollerSettings = {
  enabled: true,
  thread: true,
  budget: DEFAULT_BUCKET,
  projectBudgets: {},
  schedule: DEFAULT_SCHEDULE,
  tickMs: 500,
  claimLimit: 2_000,
  perProjectLimit: 1_000,
  maxWatchAgeMs: { ...MAX_WATCH_AGE_MS },
};

export type PollerSettingsResult = { ok: true; settings: PollerSettings } | { ok: false; problems: string[] };

const HINTS = {
  VIDOPS_POLLER: 'on or off (default on)',
  VIDOPS_POLLER_THREAD: 'on or off (default on)',
  VIDOPS_POLL_RATE: `requests per second each project may make while polling, a number above 0 (default ${DEFAULT_BUCKET.refillPerSecond})`,
  VIDOPS_POLL_BURST: `the most requests a project may make at once, a whole number of at least ${MIN_CAPACITY} (default ${DEFAULT_BUCKET.capacity})`,
  VIDOPS_POLL_PROJECT_BUDGETS: 'comma-separated project=rate or project=rate/burst, such as prod=20/40,staging=2',
  VIDOPS_POLL_FAST_SECONDS: `the polling interval right after a change, in seconds (default ${DEFAULT_SCHEDULE.fastMs / 1000})`,
  VIDOPS_POLL_SLOW_SECONDS: `the longest polling interval while nothing changes, in seconds, at least the fast one (default ${DEFAULT_SCHEDULE.slowMs / 1000})`,
  VIDOPS_POLL_TICK_MS: `the pause between poll cycles in milliseconds, 100 to 60000 (default 500)`,
  VIDOPS_POLL_MAX_WATCHES: `the most watches polled in one cycle, a whole number (default ${DEFAULT_POLLER_SETTINGS.claimLimit}; half of it per project)`,
  VIDOPS_WATCH_MAX_AGE_HOURS:
    'hours after which a watch stops whatever its resource does: one number for every kind, or kind=hours pairs such as archive=24,broadcast=12 (kinds: ' +
    `${WATCH_KINDS.join(', ')})`,
  VIDOPS_CALLBACK_TOKEN: 'a random secret of 24 or more letters, digits, "-" or "_", e.g. the output of `openssl rand -hex 24`',
} as const;

type Name = keyof typeof HINTS;

const POSITIVE = /^\d+(\.\d+)?$/;

export function pollerSettingsFromEnv(env: Record<string, string | undefined>): PollerSettingsResult {
  const problems: string[] = [];
  const raw = (name: Name): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const invalid = (name: Name, reason: string): undefined => {
    problems.push(`${name} is invalid: ${reason}. Set it to ${HINTS[name]}`);
    return undefined;
  };
  const number = (name: Name, options: { min: number; integer?: boolean }): number | undefined => {
    const text = raw(name);
    if (text === undefined) return undefined;
    if (!POSITIVE.test(text)) return invalid(name, 'it must be a number');
    const value = Number(text);
    if (options.integer && !Number.isInteger(value)) return invalid(name, 'it must be a whole number');
    if (value < options.min || (options.min === 0 && value === 0))
      return invalid(name, options.min === 0 ? 'it must be above 0' : `it must be at least ${options.min}`);
    return value;
  };

  const onOff = (name: 'VIDOPS_POLLER' | 'VIDOPS_POLLER_THREAD'): boolean => {
    const text = raw(name)?.toLowerCase();
    if (text === undefined || ['on', 'true', '1', 'yes'].includes(text)) return true;
    if (['off', 'false', '0', 'no'].includes(text)) return false;
    invalid(name, 'it must be on or off');
    return true;
  };
  const enabled = onOff('VIDOPS_POLLER');
  const thread = onOff('VIDOPS_POLLER_THREAD');

  const rate = number('VIDOPS_POLL_RATE', { min: 0 }) ?? DEFAULT_BUCKET.refillPerSecond;
  const burst = number('VIDOPS_POLL_BURST', { min: MIN_CAPACITY, integer: true }) ?? DEFAULT_BUCKET.capacity;
  const projectBudgets: Record<string, BucketConfig> = {};
  const budgetsText = raw('VIDOPS_POLL_PROJECT_BUDGETS');
  if (budgetsText !== undefined) {
    for (const item of budgetsText
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const match = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,63})=(\d+(?:\.\d+)?)(?:\/(\d+))?$/.exec(item);
      const itemRate = match ? Number(match[2]) : NaN;
      const itemBurst = match?.[3] === undefined ? Math.max(MIN_CAPACITY, Math.ceil(2 * itemRate)) : Number(match[3]);
      if (!match || !(itemRate > 0) || itemBurst < MIN_CAPACITY) {
        invalid(
          'VIDOPS_POLL_PROJECT_BUDGETS',
          `entry ${Object.keys(projectBudgets).length + 1} is not project=rate or project=rate/burst with rate above 0 and burst at least ${MIN_CAPACITY}`,
        );
        break;
      }
      projectBudgets[match[1]!] = { refillPerSecond: itemRate, capacity: itemBurst };
    }
  }

  const fastS = number('VIDOPS_POLL_FAST_SECONDS', { min: 0 });
  const slowS = number('VIDOPS_POLL_SLOW_SECONDS', { min: 0 });
  const fastMs = fastS === undefined ? DEFAULT_SCHEDULE.fastMs : Math.round(fastS * 1000);
  const slowMs = slowS === undefined ? Math.max(DEFAULT_SCHEDULE.slowMs, fastMs) : Math.round(slowS * 1000);
  if (slowMs < fastMs) invalid('VIDOPS_POLL_SLOW_SECONDS', 'it is shorter than VIDOPS_POLL_FAST_SECONDS');

  const tickMs = number('VIDOPS_POLL_TICK_MS', { min: 100, integer: true }) ?? DEFAULT_POLLER_SETTINGS.tickMs;
  if (tickMs > 60_000) invalid('VIDOPS_POLL_TICK_MS', 'it must be at most 60000');
  const claimLimit = number('VIDOPS_POLL_MAX_WATCHES', { min: 1, integer: true }) ?? DEFAULT_POLLER_SETTINGS.claimLimit;

  const maxWatchAgeMs = { ...MAX_WATCH_AGE_MS };
  const agesText = raw('VIDOPS_WATCH_MAX_AGE_HOURS');
  if (agesText !== undefined) {
    if (POSITIVE.test(agesText) && Number(agesText) > 0) {
      for (const kind of WATCH_KINDS) maxWatchAgeMs[kind] = Number(agesText) * 3_600_000;
    } else {
      for (const item of agesText
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const [kind, hours] = item.split('=').map((s) => s.trim());
        if (!(WATCH_KINDS as readonly string[]).includes(kind ?? '') || !POSITIVE.test(hours ?? '') || !(Number(hours) > 0)) {
          invalid('VIDOPS_WATCH_MAX_AGE_HOURS', 'each entry must be kind=hours with a known kind and hours above 0');
          break;
        }
        maxWatchAgeMs[kind as WatchKind] = Number(hours) * 3_600_000;
      }
    }
  }

  const callbackToken = raw('VIDOPS_CALLBACK_TOKEN');
  if (callbackToken !== undefined && !/^[A-Za-z0-9_-]{24,256}$/.test(callbackToken)) {
    invalid('VIDOPS_CALLBACK_TOKEN', 'it is too short or holds other characters than letters, digits, "-" and "_"');
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      enabled,
      thread,
      budget: { refillPerSecond: rate, capacity: burst },
      projectBudgets,
      schedule: { ...DEFAULT_SCHEDULE, fastMs, slowMs },
      tickMs,
      claimLimit,
      perProjectLimit: Math.max(1, Math.ceil(claimLimit / 2)),
      maxWatchAgeMs,
      ...(callbackToken !== undefined && { callbackToken }),
    },
  };
}

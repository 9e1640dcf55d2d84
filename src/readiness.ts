/**
 * Whether this replica can do its job: the store answers, Slack accepts the bot token
 * (auth.test), and the video service answers at all. Each check is bounded by a short timeout,
 * and one report is reused for a few seconds (and shared by concurrent probes) so a load
 * balancer probing every second does not turn into a stream of auth.test calls. Failures are
 * described by an error code, never a message, so no secret or URL can leak into the answer.
 */
import { redactString } from './log';

export const READINESS_CHECKS = ['store', 'slack', 'video'] as const;
export type ReadinessCheckName = (typeof READINESS_CHECKS)[number];

export interface CheckResult {
  ok: boolean;
  ms: number;
  /** Why it failed: a Slack error (`invalid_auth`), a system code (`ECONNREFUSED`), `timeout`… */
  error?: string;
}

export interface ReadinessReport {
  ok: boolean;
  /** Set while shutting down: the replica takes no new work whatever its checks say. */
  draining?: true;
  checks: Record<ReadinessCheckName, CheckResult>;
}

export interface ReadinessOptions {
  checks: Record<ReadinessCheckName, () => Promise<unknown>>;
  /** Per check (default 2 s). */
  timeoutMs?: number;
  /** How long a report is reused (default 5 s). */
  cacheMs?: number;
  draining?: () => boolean;
  now?: () => number;
}

export class Readiness {
  readonly #options: ReadinessOptions;
  readonly #timeoutMs: number;
  readonly #cacheMs: number;
  readonly #now: () => number;
  #cached: { at: number; checks: Promise<Record<ReadinessCheckName, CheckResult>> } | undefined;

  constructor(options: ReadinessOptions) {
    this.#options = options;
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#cacheMs = options.cacheMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  async report(): Promise<ReadinessReport> {
    const checks = await this.#checks();
    const draining = this.#options.draining?.() ?? false;
    const ok = !draining && READINESS_CHECKS.every((name) => checks[name].ok);
    return { ok, ...(draining ? { draining: true as const } : {}), checks };
  }

  #checks(): Promise<Record<ReadinessCheckName, CheckResult>> {
    const now = this.#now();
    if (this.#cached && now - this.#cached.at < this.#cacheMs) return this.#cached.checks;
    const checks = (async () => {
      const results = await Promise.all(READINESS_CHECKS.map((name) => this.#run(this.#options.checks[name])));
      return Object.fromEntries(READINESS_CHECKS.map((name, i) => [name, results[i]!])) as Record<ReadinessCheckName, CheckResult>;
    })();
    this.#cached = { at: now, checks };
    return checks;
  }

  async #run(check: () => Promise<unknown>): Promise<CheckResult> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#timeoutMs);
    });
    try {
      const outcome = await Promise.race([check().then(() => 'ok' as const), timeout]);
      const ms = Math.round(performance.now() - started);
      return outcome === 'ok' ? { ok: true, ms } : { ok: false, ms, error: 'timeout' };
    } catch (error) {
      return { ok: false, ms: Math.round(performance.now() - started), error: failureCode(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A short, secret-free description: the Slack error, else the system code, else the error's class. */
export function failureCode(error: unknown): string {
  const slackError = (error as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (typeof slackError === 'string') return redactString(slackError);
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.name : 'failed';
}

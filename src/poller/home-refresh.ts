/**
 * Keeps App Home dashboards live: the tab is published when someone opens it, and again for
 * the team's recent viewers after the poller delivered something there — at most once per
 * `throttleMs` per team, so a burst of changes costs one refresh. Viewers are remembered per
 * process (a replica that never saw the tab opened refreshes nobody; the next open catches up).
 */
import type { JobLogger } from './runtime';
import { type Clock, type Timers, globalTimers, systemClock } from './runtime';

/** Viewers older than this are not refreshed any more; one who opens the tab again is. */
const VIEWER_TTL_MS = 24 * 3_600_000;
/** Per team, the most recent viewers only: a dashboard refresh is one views.publish each. */
const MAX_VIEWERS_PER_TEAM = 50;

export class HomeViewers {
  readonly #byTeam = new Map<string, Map<string, number>>();

  opened(teamId: string, userId: string, at: number): void {
    let viewers = this.#byTeam.get(teamId);
    if (!viewers) {
      viewers = new Map();
      this.#byTeam.set(teamId, viewers);
    }
    viewers.delete(userId);
    viewers.set(userId, at);
    // Maps keep insertion order: the first entries are the least recent.
    while (viewers.size > MAX_VIEWERS_PER_TEAM) viewers.delete(viewers.keys().next().value!);
  }

  /** The team's viewers seen within the TTL, most recent first. */
  recent(teamId: string, now: number): string[] {
    const viewers = this.#byTeam.get(teamId);
    if (!viewers) return [];
    return [...viewers]
      .filter(([, at]) => now - at < VIEWER_TTL_MS)
      .map(([user]) => user)
      .reverse();
  }
}

export interface HomeRefresherOptions {
  viewers: HomeViewers;
  /** Publishes one user's Home tab. */
  publish(teamId: string, userId: string): Promise<void>;
  logger: JobLogger;
  /** Least time between two refreshes of a team (default 30 s). */
  throttleMs?: number;
  clock?: Clock;
  timers?: Timers;
}

export class HomeRefresher {
  readonly #options: Required<Pick<HomeRefresherOptions, 'throttleMs' | 'clock' | 'timers'>> & HomeRefresherOptions;
  readonly #lastRun = new Map<string, number>();
  readonly #pending = new Map<string, unknown>();
  #stopped = false;

  constructor(options: HomeRefresherOptions) {
    this.#options = { throttleMs: 30_000, clock: systemClock, timers: globalTimers, ...options };
  }

  /** Something reached the team's channels: refresh its dashboards soon. */
  deliveredTo(teamId: string): void {
    if (this.#stopped || this.#pending.has(teamId)) return;
    const { clock, throttleMs, timers } = this.#options;
    const wait = Math.max(0, (this.#lastRun.get(teamId) ?? -Infinity) + throttleMs - clock());
    const handle = timers.setTimeout(() => void this.#refresh(teamId), wait);
    (handle as { unref?: () => void } | undefined)?.unref?.();
    this.#pending.set(teamId, handle);
  }

  stop(): void {
    this.#stopped = true;
    for (const handle of this.#pending.values()) this.#options.timers.clearTimeout(handle);
    this.#pending.clear();
  }

  async #refresh(teamId: string): Promise<void> {
    this.#pending.delete(teamId);
    const now = this.#options.clock();
    this.#lastRun.set(teamId, now);
    for (const userId of this.#options.viewers.recent(teamId, now)) {
      if (this.#stopped) return;
      try {
        await this.#options.publish(teamId, userId);
      } catch (error) {
        this.#options.logger.warn('could not refresh a Home dashboard', { team: teamId, user: userId, error });
      }
    }
  }
}

/**
 * The poller wired into the test app the way main.ts wires it (PollerService, the WebClient
 * poster against the fake Slack, the callback route, Home refreshes), but driven by hand: the
 * loops are not started, tests call `step()` — advance the emulator clock, run one poll cycle,
 * then delivery rounds until nothing is claimable. Time is the emulator's manual clock
 * throughout (poller, deliverer, store, fake Slack timestamps), so nothing sleeps.
 */
import type { CustomRoute } from '@slack/bolt';
import { publishHome } from '../../src/actions/home';
import type { RunningEmulator } from '../../src/emulator';
import { videoCallbackRoute } from '../../src/http/callbacks';
import type { DeliveryReport } from '../../src/poller/delivery';
import { HomeRefresher } from '../../src/poller/home-refresh';
import type { CycleReport } from '../../src/poller/poller';
import { PollerService } from '../../src/poller/service';
import { DEFAULT_POLLER_SETTINGS, type PollerSettings } from '../../src/poller/settings';
import { posterClient, webClientPoster } from '../../src/poller/slack-poster';
import type { WatchStore } from '../../src/poller/watch';
import type { Services } from '../../src/services';

export const TEST_CALLBACK_TOKEN = 'test-callback-token-0123456789abcdef';

export interface PollerHarnessOptions {
  /** Path secret of POST /callbacks/video/<token> (default TEST_CALLBACK_TOKEN). */
  callbackToken?: string;
  settings?: Partial<PollerSettings>;
  /** Home refresh throttle (default 0: refresh right after a delivery). */
  homeThrottleMs?: number;
}

export interface PollerHarness {
  service: PollerService;
  callbackToken: string;
  runCycle(): Promise<CycleReport>;
  /** Delivery rounds until one claims nothing (at most `maxRounds`); the reports of each. */
  deliver(maxRounds?: number): Promise<DeliveryReport[]>;
  /** Advances the emulator clock by `ms`, runs a cycle, delivers. */
  step(ms?: number): Promise<{ cycle: CycleReport; delivered: DeliveryReport[] }>;
  /** Steps `count` times by `ms`. */
  run(count: number, ms: number): Promise<void>;
  stop(): Promise<void>;
}

export interface PollerHarnessInput {
  services: Services;
  emulator: RunningEmulator;
  slackApiUrl: string;
  botToken: string;
  store?: WatchStore;
  instanceId?: string;
  options: PollerHarnessOptions;
}

export function createPollerHarness(input: PollerHarnessInput): { harness: PollerHarness; routes: CustomRoute[] } {
  const { services, emulator, options } = input;
  const clock = () => emulator.control.now();
  const client = posterClient({ botToken: input.botToken, slackApiUrl: input.slackApiUrl, logger: services.logger });
  const refresher = new HomeRefresher({
    viewers: services.homeViewers,
    publish: (teamId, userId) => publishHome(client, services, teamId, userId),
    logger: services.logger,
    throttleMs: options.homeThrottleMs ?? 0,
    clock,
  });
  const service = new PollerService({
    store: input.store ?? services.store,
    clientFor: (name) => services.projects.client(name),
    poster: webClientPoster(client, { onDelivered: (teamId) => refresher.deliveredTo(teamId) }),
    settings: { ...DEFAULT_POLLER_SETTINGS, ...options.settings },
    logger: services.logger,
    instanceId: input.instanceId ?? 'test-poller',
    clock,
    // No jitter: intervals are exact, so tests know when a watch is due.
    random: () => 0.5,
  });
  const callbackToken = options.callbackToken ?? TEST_CALLBACK_TOKEN;
  const routes = [videoCallbackRoute({ token: callbackToken, hint: (body) => service.hint(body), logger: services.logger })];

  const deliver = async (maxRounds = 50): Promise<DeliveryReport[]> => {
    const reports: DeliveryReport[] = [];
    for (let round = 0; round < maxRounds; round++) {
      const report = await service.deliverer.deliverOnce();
      if (report.claimed === 0) break;
      reports.push(report);
    }
    return reports;
  };
  const step = async (ms = 0) => {
    if (ms > 0) emulator.control.advanceTime(ms);
    const cycle = await service.poller.runCycle();
    return { cycle, delivered: await deliver() };
  };
  const harness: PollerHarness = {
    service,
    callbackToken,
    runCycle: () => service.poller.runCycle(),
    deliver,
    step,
    run: async (count, ms) => {
      for (let i = 0; i < count; i++) await step(ms);
    },
    stop: async () => {
      refresher.stop();
      await service.stop();
    },
  };
  return { harness, routes };
}

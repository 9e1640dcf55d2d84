import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { createBackends } from './backends';
import type { BackendContext } from './backends/context';
import { SessionEvents } from './backends/events';
import { Clock, Scheduler, type ClockMode } from './clock';
import { createControl, type EmulatorControl } from './control';
import { FaultRegistry } from './http/faults';
import { controlRoutes } from './http/routes/control';
import { publicRoutes } from './http/routes';
import { createHttpServer, type Runtime } from './http/server';
import { randomSecret } from './ids';
import { EmulatorState } from './state/store';
import { DEFAULT_TIMINGS, mergeTimings, type TransitionTimings } from './timings';

export type {
  ClientInfo,
  ConnectControlOptions,
  CreateProjectOptions,
  EmulatorControl,
  ExternalArchiveStatus,
  Fault,
  GroundTruthDay,
  OutputStatusChange,
  RequestLogEntry,
} from './control';
export type * from './snapshots';
export type { CreateSessionOptions, PublishOptions } from './backends/sessions';
export { DEFAULT_TIMINGS, type TransitionTimings } from './timings';

export const DEFAULT_START_TIME = Date.parse('2026-11-02T17:00:00Z');

export interface EmulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** 'manual' (default): time moves only with advanceTime(). 'real': wall clock plus whatever was advanced. */
  clock?: ClockMode;
  /** Epoch ms where the manual clock starts; default 2026-11-02T17:00:00Z. */
  startTime?: number;
  /** Account-level credentials (random when absent). */
  accountKey?: string;
  accountSecret?: string;
  /** Overrides of the automatic transition delays. */
  transitions?: Partial<TransitionTimings>;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:PORT; REST paths are under it. */
  baseUrl: string;
  /** `${baseUrl}/insights`. */
  insightsUrl: string;
  control: EmulatorControl;
  close(): Promise<void>;
}

const REAL_CLOCK_TICK_MS = 100;

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts an in-memory Video Session Service on `host:port`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const clock = new Clock(options.clock ?? 'manual', options.startTime ?? DEFAULT_START_TIME);
  const scheduler = new Scheduler(clock);
  const state = new EmulatorState({
    key: options.accountKey ?? String(randomInt(10_000_000, 99_999_999)),
    secret: options.accountSecret ?? randomSecret(),
  });
  const initialTimings = mergeTimings(DEFAULT_TIMINGS, options.transitions ?? {});
  const ctx: BackendContext = {
    state,
    clock,
    scheduler,
    events: new SessionEvents(),
    timings: { ...initialTimings },
    baseUrl: '',
    urlSigningKey: randomSecret(),
  };
  const backends = createBackends(ctx);
  const runtime: Runtime = { faults: new FaultRegistry(), latencyMs: 0, log: [] };
  const control = createControl(ctx, backends, runtime, initialTimings);
  const server = createHttpServer({
    state,
    routes: publicRoutes(backends),
    controlRoutes: controlRoutes(control),
    runtime,
    tick: () => scheduler.runDue(),
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  ctx.baseUrl = `http://${hostForUrl(host)}:${port}`;
  const ticker = clock.mode === 'real' ? setInterval(() => scheduler.runDue(), REAL_CLOCK_TICK_MS) : undefined;
  ticker?.unref();

  let closing: Promise<void> | undefined;
  return {
    baseUrl: ctx.baseUrl,
    insightsUrl: `${ctx.baseUrl}/insights`,
    control,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        if (ticker) clearInterval(ticker);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

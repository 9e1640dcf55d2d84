import type { Clock, Scheduler } from '../clock';
import type { EmulatorState } from '../state/store';
import type { TransitionTimings } from '../timings';
import type { SessionEvents } from './events';

/** What every backend shares. `timings` and `baseUrl` are read at use time (they may change). */
export interface BackendContext {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly events: SessionEvents;
  timings: TransitionTimings;
  baseUrl: string;
  /** Key for signing archive download URLs (random per emulator). */
  readonly urlSigningKey: string;
}

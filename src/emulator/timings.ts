/**
 * Every automatic delay of the emulator, in milliseconds of emulator time, in one place.
 * Values fixed by the spec (4-hour archive files, 60-minute idle stop, 6-hour SIP calls...)
 * are defaults here too, so tests can shorten them.
 */
export interface TransitionTimings {
  /** stopped → available / uploaded. */
  archiveProcessingMs: number;
  /** started → stopped, "maximum duration exceeded" (recorded time, pauses excluded). */
  archiveMaxDurationMs: number;
  /** paused → stopped, "maximum idle time exceeded": nobody published for this long. */
  archiveIdleStopMs: number;
  /** paused → stopped, "session ended": every client disconnected for this long. */
  archiveDisconnectedStopMs: number;
  /** Validity of a minted archive download URL. */
  archiveUrlValidityMs: number;
  /** HLS connecting → ready (transcoders up). */
  hlsReadyMs: number;
  /** HLS ready → live, counted from the moment media flows while ready. */
  hlsLiveMs: number;
  /** RTMP connecting → live, counted from the moment media flows. */
  rtmpLiveMs: number;
  /** Broadcast started → stopped after the last client disconnected. */
  broadcastDisconnectedStopMs: number;
  /** Composed web-page stream starting → started (its stream is published then). */
  renderStartMs: number;
  /** A SIP call is closed after this long. */
  sipMaxDurationMs: number;
}

export const DEFAULT_TIMINGS: Readonly<TransitionTimings> = Object.freeze({
  archiveProcessingMs: 5_000,
  archiveMaxDurationMs: 14_400_000,
  archiveIdleStopMs: 3_600_000,
  archiveDisconnectedStopMs: 60_000,
  archiveUrlValidityMs: 600_000,
  hlsReadyMs: 5_000,
  hlsLiveMs: 10_000,
  rtmpLiveMs: 5_000,
  broadcastDisconnectedStopMs: 60_000,
  renderStartMs: 3_000,
  sipMaxDurationMs: 21_600_000,
});

export type TimingName = keyof TransitionTimings;

export function isTimingName(name: string): name is TimingName {
  return Object.prototype.hasOwnProperty.call(DEFAULT_TIMINGS, name);
}

/** Applies a partial override; rejects unknown names and negative or non-finite values. */
export function mergeTimings(base: TransitionTimings, partial: Partial<Record<string, unknown>>): TransitionTimings {
  const next = { ...base };
  for (const [name, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    if (!isTimingName(name)) throw new Error(`Unknown transition timing '${name}'`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`Transition timing '${name}' must be a non-negative number of milliseconds`);
    }
    next[name] = value;
  }
  return next;
}

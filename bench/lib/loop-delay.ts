/**
 * Event-loop delay as the benches report it: how much later than asked a timer ran.
 *
 * `monitorEventLoopDelay` samples with a repeating timer and records the whole interval between
 * two of its runs, so an idle process reads the sampling interval itself: with `resolution: 10`
 * its p50 is ~9.9 ms and its p99 ~11 ms, though nothing was late. The delay is the interval less
 * the resolution (a timer due in 10 ms that ran in 10.4 ms was 0.4 ms late); libuv's cached loop
 * time can make an interval a little shorter than the resolution, which reads as no delay.
 */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

export class LoopDelay {
  readonly #histogram: IntervalHistogram;

  constructor(readonly resolutionMs: number) {
    this.#histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  }

  enable(): this {
    this.#histogram.enable();
    return this;
  }

  disable(): void {
    this.#histogram.disable();
  }

  reset(): void {
    this.#histogram.reset();
  }

  /** How many intervals were sampled. */
  get samples(): number {
    return this.#histogram.count;
  }

  /** The p-th percentile of the delay (ms); 0 before any sample. */
  percentileMs(p: number): number {
    return this.#net(this.#histogram.percentile(p));
  }

  /** The longest delay (ms); 0 before any sample. */
  get maxMs(): number {
    return this.#net(this.#histogram.max);
  }

  #net(intervalNs: number): number {
    if (this.#histogram.count === 0) return 0;
    return Math.max(0, intervalNs / 1e6 - this.resolutionMs);
  }
}

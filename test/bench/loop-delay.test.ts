/**
 * The benches' event-loop delay: what a timer waited beyond its due time, not the sampling
 * interval `monitorEventLoopDelay` records with it.
 */
import { LoopDelay } from '../../bench/lib/loop-delay';

const RESOLUTION_MS = 20;

/** Real timers on purpose: the monitor samples libuv's own timer, which fake timers cannot drive. */
const samplesTaken = (monitor: LoopDelay, count: number): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      if (monitor.samples >= count) resolve();
      else setTimeout(check, RESOLUTION_MS);
    };
    check();
  });

const blockFor = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('LoopDelay', () => {
  it('reads an unblocked loop as (close to) no delay, where the raw histogram reads the sampling interval', async () => {
    const monitor = new LoopDelay(RESOLUTION_MS).enable();
    try {
      await samplesTaken(monitor, 8);
      // The raw histogram's median is ~19.8 ms here whatever the load; the delay is what is left.
      expect(monitor.percentileMs(50)).toBeLessThan(RESOLUTION_MS * 0.75);
    } finally {
      monitor.disable();
    }
  });

  it('reads a blocked loop as the block, within the sampling interval', async () => {
    const monitor = new LoopDelay(RESOLUTION_MS).enable();
    try {
      await samplesTaken(monitor, 2);
      blockFor(60);
      await samplesTaken(monitor, 4);
      expect(monitor.maxMs).toBeGreaterThanOrEqual(60 - RESOLUTION_MS);
      expect(monitor.maxMs).toBeLessThan(60 + 10 * RESOLUTION_MS);
    } finally {
      monitor.disable();
    }
  });

  it('reads nothing before its first sample', () => {
    const monitor = new LoopDelay(RESOLUTION_MS);
    expect(monitor.samples).toBe(0);
    expect(monitor.percentileMs(99)).toBe(0);
    expect(monitor.maxMs).toBe(0);
  });
});

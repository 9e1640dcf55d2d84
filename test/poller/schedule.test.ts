import {
  DEFAULT_SCHEDULE,
  ProjectBackoff,
  type ScheduleConfig,
  exponentialBackoff,
  failureDelay,
  isExpired,
  nextPollAt,
  pollInterval,
} from '../../src/poller/schedule';

const config: ScheduleConfig = { ...DEFAULT_SCHEDULE, fastMs: 3_000, slowMs: 60_000, jitterRatio: 0 };
const middle = () => 0.5;

describe('pollInterval', () => {
  it.each([
    [0, 3_000],
    [2_000, 3_000],
    [3_000, 3_000],
    [6_000, 6_000],
    [12_000, 12_000],
    [48_000, 48_000],
    [96_000, 60_000],
    [3_600_000, 60_000],
  ])('%s ms after the last change → %s ms', (sinceChange, interval) => {
    expect(pollInterval(1_000_000 + sinceChange, 1_000_000, config)).toBe(interval);
  });

  it('doubles with each unchanged poll after a change, up to the slow interval', () => {
    const changedAt = 0;
    const times: number[] = [];
    let now = changedAt;
    for (let i = 0; i < 8; i += 1) {
      now = nextPollAt({ now, lastChangeAt: changedAt, expiresAt: Infinity, readsService: true }, config, middle);
      times.push(now);
    }
    expect(times).toEqual([3_000, 6_000, 12_000, 24_000, 48_000, 96_000, 156_000, 216_000]);
  });
});

describe('nextPollAt', () => {
  it('never goes past the expiry', () => {
    expect(nextPollAt({ now: 0, lastChangeAt: -600_000, expiresAt: 10_000, readsService: true }, config, middle)).toBe(10_000);
  });

  it('meets a deadline sooner than the interval', () => {
    expect(nextPollAt({ now: 0, lastChangeAt: -600_000, deadline: 5_000, expiresAt: Infinity, readsService: true }, config, middle)).toBe(5_000);
  });

  it('only waits for the deadline when there is nothing to read', () => {
    expect(nextPollAt({ now: 0, lastChangeAt: 0, deadline: 300_000, expiresAt: Infinity, readsService: false }, config, middle)).toBe(300_000);
  });

  it('treats a deadline already past as now', () => {
    expect(nextPollAt({ now: 50, lastChangeAt: 0, deadline: 10, expiresAt: Infinity, readsService: false }, config, middle)).toBe(50);
  });

  it('spreads the interval by the jitter ratio, never past the interval, deterministically with an injected random', () => {
    const jittery = { ...config, jitterRatio: 0.1 };
    const at = (r: number) => nextPollAt({ now: 0, lastChangeAt: -60_000, expiresAt: Infinity, readsService: true }, jittery, () => r);
    expect([at(0), at(0.5), at(1)]).toEqual([60_000, 57_000, 54_000]);
  });
});

describe('failure backoff', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [9, 256_000],
    [10, 300_000],
    [50, 300_000],
  ])('failure %s → %s ms', (failures, delay) => {
    expect(failureDelay(failures, config, middle)).toBe(delay);
  });

  it('is a plain capped exponential for any caller', () => {
    expect(exponentialBackoff(4, { baseMs: 100, maxMs: 1_000, jitterRatio: 0 }, middle)).toBe(800);
    expect(exponentialBackoff(5, { baseMs: 100, maxMs: 1_000, jitterRatio: 0 }, middle)).toBe(1_000);
  });

  it('rests only the failing project and forgets once it recovers', () => {
    const backoff = new ProjectBackoff(config, middle);
    expect(backoff.failed('a', 0)).toBe(1_000);
    expect(backoff.failed('a', 1_000)).toBe(3_000);
    expect(backoff.resting(1_500)).toEqual(['a']);
    expect(backoff.failures('b')).toBe(0);
    expect(backoff.resting(3_000)).toEqual([]);
    backoff.succeeded('a');
    expect(backoff.failures('a')).toBe(0);
    expect(backoff.failed('a', 20_000)).toBe(21_000);
  });
});

describe('isExpired', () => {
  it('is true from expiresAt on', () => {
    expect(isExpired({ expiresAt: 10 }, 9)).toBe(false);
    expect(isExpired({ expiresAt: 10 }, 10)).toBe(true);
  });
});

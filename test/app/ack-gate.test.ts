import { AckGate } from '../../src/slack/ack-gate';

describe('AckGate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const gate = (options: { quietMs?: number; maxWaitMs?: number } = {}) => new AckGate({ ...options, now: () => Date.now() });
  const track = (p: Promise<void>) => {
    const state = { done: false };
    void p.then(() => (state.done = true));
    return state;
  };

  it('lets work through on the next turn when nothing is in flight', async () => {
    const w = track(gate().idle());
    await Promise.resolve();
    expect(w.done).toBe(false);
    await jest.advanceTimersToNextTimerAsync();
    expect(w.done).toBe(true);
  });

  it('holds work while a request waits for its ack, and after it for the quiet period', async () => {
    const g = gate({ quietMs: 5, maxWaitMs: 10_000 });
    g.requestStarted();
    const w = track(g.idle());
    await jest.advanceTimersByTimeAsync(1000);
    expect(w.done).toBe(false);
    g.requestFinished();
    await jest.advanceTimersByTimeAsync(4);
    expect(w.done).toBe(false);
    await jest.advanceTimersByTimeAsync(2);
    expect(w.done).toBe(true);
  });

  it('releases waiters one per event-loop turn, in order, and pauses when a request arrives', async () => {
    const g = gate({ quietMs: 0 });
    g.requestStarted();
    const order: number[] = [];
    const all = [1, 2, 3].map((n) => g.idle().then(() => order.push(n)));
    g.requestFinished();
    await jest.advanceTimersToNextTimerAsync();
    expect(order).toEqual([1]);
    g.requestStarted();
    await jest.advanceTimersByTimeAsync(100);
    expect(order).toEqual([1]);
    g.requestFinished();
    await jest.advanceTimersByTimeAsync(10);
    await Promise.all(all);
    expect(order).toEqual([1, 2, 3]);
  });

  it('never holds work longer than maxWaitMs, even under constant load', async () => {
    const g = gate({ quietMs: 5, maxWaitMs: 100 });
    g.requestStarted();
    const w = track(g.idle());
    await jest.advanceTimersByTimeAsync(99);
    expect(w.done).toBe(false);
    await jest.advanceTimersByTimeAsync(2);
    expect(w.done).toBe(true);
    expect(g.pending).toBe(0);
  });
});

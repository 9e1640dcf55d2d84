import type { App } from '@slack/bolt';
import { AckGate, ackFirst } from '../../src/slack/ack-gate';

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

describe('ackFirst: the ack discipline in one place', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  type Listener = (args: { ack?: () => Promise<void> }) => Promise<unknown>;
  function fakeApp() {
    const registered: Listener[] = [];
    const app = { action: (_id: string, listener: Listener) => void registered.push(listener), use: () => undefined } as unknown as App;
    return { app, registered };
  }

  it.each([
    ['HTTP (the receiver counts requests)', false],
    ['Socket Mode (the listeners count themselves)', true],
  ])('%s: a handler goes on after its ack only once no other request waits for its own', async (_mode, countRequests) => {
    const gate = new AckGate({ quietMs: 5, maxWaitMs: 60_000, now: () => Date.now() });
    const { app, registered } = fakeApp();
    const steps: string[] = [];
    ackFirst(app, gate, { countRequests }).action('x', async ({ ack }: { ack: () => Promise<void> }) => {
      await ack();
      steps.push('work after the ack');
    });
    gate.requestStarted(); // another request, not yet acknowledged
    const run = registered[0]!({ ack: async () => void steps.push('acked') });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(steps).toEqual(['acked']);
    gate.requestFinished();
    await jest.advanceTimersByTimeAsync(10);
    await run;
    expect(steps).toEqual(['acked', 'work after the ack']);
  });

  it('a listener that fails before its ack does not leave its request counted', async () => {
    const gate = new AckGate({ quietMs: 0, maxWaitMs: 60_000, now: () => Date.now() });
    const { app, registered } = fakeApp();
    ackFirst(app, gate, { countRequests: true }).action('x', async () => {
      throw new Error('boom');
    });
    await expect(registered[0]!({ ack: async () => undefined })).rejects.toThrow('boom');
    const later = gate.idle();
    await jest.advanceTimersByTimeAsync(1);
    await expect(later).resolves.toBeUndefined();
  });

  it('leaves other App methods alone', () => {
    const { app } = fakeApp();
    expect(typeof ackFirst(app, new AckGate(), { countRequests: false }).use).toBe('function');
  });
});

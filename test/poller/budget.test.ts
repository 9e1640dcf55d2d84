import { ProjectBudgets, TokenBucket, planCycle } from '../../src/poller/budget';

function clock(start = 0) {
  let now = start;
  const read = () => now;
  read.advance = (ms: number) => {
    now += ms;
  };
  return read;
}

describe('TokenBucket', () => {
  it('starts full, never goes below zero and refills up to its capacity', () => {
    const now = clock();
    const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 2 }, now);
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
    expect(bucket.available()).toBe(0);
    expect(bucket.msUntil()).toBe(500);
    now.advance(500);
    expect(bucket.tryTake()).toBe(true);
    now.advance(60_000);
    expect(bucket.available()).toBe(3);
    expect(bucket.tryTake(4)).toBe(false);
    expect(bucket.available()).toBe(3);
  });

  it('allows at most capacity + rate × time requests over any run', () => {
    const now = clock();
    const bucket = new TokenBucket({ capacity: 5, refillPerSecond: 3 }, now);
    let granted = 0;
    for (let step = 0; step < 10_000; step += 1) {
      now.advance(37);
      while (bucket.tryTake()) granted += 1;
    }
    expect(granted).toBeLessThanOrEqual(5 + (3 * 10_000 * 37) / 1000);
  });

  it('refuses budgets that could never poll a session-discovery watch', () => {
    expect(() => new TokenBucket({ capacity: 1, refillPerSecond: 1 }, clock())).toThrow(RangeError);
    expect(() => new TokenBucket({ capacity: 5, refillPerSecond: 0 }, clock())).toThrow(RangeError);
  });
});

describe('ProjectBudgets', () => {
  it('keeps one bucket per project, with per-project overrides', () => {
    const now = clock();
    const budgets = new ProjectBudgets({ capacity: 2, refillPerSecond: 1 }, now, { big: { capacity: 50, refillPerSecond: 10 } });
    expect(budgets.available('small')).toBe(2);
    expect(budgets.available('big')).toBe(50);
    budgets.bucket('small').tryTake(2);
    expect(budgets.exhausted()).toEqual(['small']);
    expect(budgets.available('big')).toBe(50);
  });
});

describe('planCycle', () => {
  const watch = (id: string, projectName: string, nextPollAt: number) => ({ id, projectName, nextPollAt });
  const onePerWatch = (watches: readonly unknown[]) => watches.length;

  it('takes the longest-waiting watches of each project that fit its tokens', () => {
    const due = [watch('a3', 'a', 30), watch('a1', 'a', 10), watch('b1', 'b', 5), watch('a2', 'a', 20), watch('b2', 'b', 6)];
    const plan = planCycle(due, (p) => (p === 'a' ? 2.7 : 5), onePerWatch);
    expect(plan.byProject.get('a')?.map((w) => w.id)).toEqual(['a1', 'a2']);
    expect(plan.byProject.get('b')?.map((w) => w.id)).toEqual(['b1', 'b2']);
    expect(plan.deferred.map((w) => w.id)).toEqual(['a3']);
  });

  it('uses the batched cost, so one request can cover many watches', () => {
    const due = Array.from({ length: 500 }, (_, i) => watch(`w${i}`, 'a', i));
    const plan = planCycle(
      due,
      () => 1,
      (ws) => (ws.length === 0 ? 0 : 1),
    );
    expect(plan.byProject.get('a')).toHaveLength(500);
  });

  it('defers everything of a project with no token', () => {
    const plan = planCycle([watch('a1', 'a', 0)], () => 0.99, onePerWatch);
    expect(plan.byProject.size).toBe(0);
    expect(plan.deferred).toHaveLength(1);
  });

  it('starves nobody: deferred watches keep their due time and go first next time', () => {
    const pending = new Map(Array.from({ length: 40 }, (_, i) => [`w${i}`, watch(`w${i}`, 'a', i)]));
    const polledAt = new Map<string, number>();
    for (let cycle = 0; cycle < 20 && polledAt.size < 40; cycle += 1) {
      const plan = planCycle([...pending.values()], () => 3, onePerWatch);
      for (const w of plan.byProject.get('a') ?? []) {
        if (!polledAt.has(w.id)) polledAt.set(w.id, cycle);
        pending.set(w.id, { ...w, nextPollAt: 1_000 + cycle });
      }
    }
    expect(polledAt.size).toBe(40);
    expect([...polledAt.values()]).toEqual([...polledAt.values()].sort((x, y) => x - y));
  });
});

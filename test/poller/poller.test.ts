import { ProjectBudgets } from '../../src/poller/budget';
import { MemoryWatchStore } from '../../src/poller/memory-store';
import { type CardRenderer, Poller } from '../../src/poller/poller';
import { DEFAULT_SCHEDULE } from '../../src/poller/schedule';
import { archiveSnapshot, broadcastSnapshot, captionsSnapshot, discoverySnapshot, renderSnapshot, sipSnapshot } from '../../src/poller/snapshot';
import { type NewWatch, type WatchKind, type WatchStore, createWatch } from '../../src/poller/watch';
import { mulberry32 } from '../../src/emulator/insights/random';
import { FakeVideoService, archive, broadcast, render, storeWith, target } from './fakes';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

interface Setup {
  store: MemoryWatchStore;
  service: FakeVideoService;
  poller: Poller;
  logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
}

function setup(
  options: {
    budget?: { capacity: number; refillPerSecond: number };
    renderCard?: CardRenderer;
    store?: WatchStore;
    settleChunk?: number;
    claim?: { claimChunk: number; claimLimit: number; perProjectLimit: number };
    keepLeases?: boolean;
    random?: () => number;
    slowMs?: number;
    instanceId?: string;
  } = {},
): Setup {
  const store = new MemoryWatchStore();
  const service = new FakeVideoService(() => Date.now());
  const logs: Setup['logs'] = [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (msg: string, fields?: Record<string, unknown>) => logs.push({ level: 'warn', msg, ...(fields && { fields }) }),
    error: (msg: string, fields?: Record<string, unknown>) => logs.push({ level: 'error', msg, ...(fields && { fields }) }),
  };
  const poller = new Poller({
    store: options.store ?? store,
    source: service,
    budgets: new ProjectBudgets(options.budget ?? { capacity: 50, refillPerSecond: 20 }, () => Date.now()),
    logger,
    instanceId: options.instanceId ?? 'poller-1',
    random: options.random ?? (() => 0.5),
    schedule: { ...DEFAULT_SCHEDULE, jitterRatio: 0, ...(options.slowMs && { slowMs: options.slowMs }) },
    ...(options.renderCard && { renderCard: options.renderCard }),
    ...(options.settleChunk && { settleChunk: options.settleChunk }),
    ...options.claim,
    ...(options.keepLeases && { keepLeases: true, leaseMs: 60_000 }),
  });
  return { store, service, poller, logs };
}

function watchOf(kind: WatchKind, resourceId: string, initialState: NewWatch['lastState'], overrides: Partial<NewWatch> = {}): NewWatch {
  return { ...createWatch({ target: target(), kind, resourceId, sessionId: 'S1', initialState, now: Date.now(), maxAgeMs: 24 * HOUR }), ...overrides };
}

async function addArchive(s: Setup, id: string, sessionId = 'S1'): Promise<string> {
  const a = archive({ id, sessionId, createdAt: Date.now() });
  s.service.putArchive('prod', a);
  const w = watchOf('archive', id, archiveSnapshot(a), { sessionId });
  await s.store.addWatch(w);
  return w.id;
}

const texts = (store: MemoryWatchStore) => store.allOutbox().map((row) => (row.payload.type === 'reply' ? row.payload.text : `card:${row.payload.text}`));

beforeEach(() => {
  jest.useFakeTimers({ now: T0 });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('Poller.runCycle', () => {
  it('writes a change and its notification in the card’s thread, then polls fast', async () => {
    const s = setup();
    const id = await addArchive(s, 'A1');
    expect((await s.poller.runCycle()).transitions).toBe(0);
    s.service.updateArchive('prod', 'A1', { status: 'paused' });
    jest.setSystemTime(T0 + 3_000);
    const report = await s.poller.runCycle();
    expect(report).toMatchObject({ claimed: 1, polled: 1, transitions: 1, requests: 1 });
    const rows = s.store.allOutbox();
    expect(rows).toEqual([
      expect.objectContaining({
        idempotencyKey: `${id}:archive:paused@1`,
        channelId: 'C1',
        threadTs: target().messageTs,
        payload: { type: 'reply', text: ':warning: Recording paused: nobody is publishing' },
      }),
    ]);
    expect(await s.store.getWatch(id)).toMatchObject({ lastState: { status: 'paused' }, lastChangeAt: T0 + 3_000, nextPollAt: T0 + 6_000, revision: 2 });
  });

  it('backs off while nothing changes', async () => {
    const s = setup();
    const id = await addArchive(s, 'A1');
    const pollTimes: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const { nextPollAt } = (await s.store.getWatch(id))!;
      jest.setSystemTime(nextPollAt);
      pollTimes.push(nextPollAt - T0);
      await s.poller.runCycle();
    }
    expect(pollTimes).toEqual([0, 3_000, 6_000, 12_000, 24_000, 48_000, 96_000, 156_000]);
  });

  it('ends the watch in a final state and never polls it again', async () => {
    const s = setup();
    const id = await addArchive(s, 'A1');
    s.service.updateArchive('prod', 'A1', { status: 'available', duration: 720, size: 84_000_000, reason: 'user initiated' });
    await s.poller.runCycle();
    expect(texts(s.store)).toEqual(['Recording stopped on request', 'Recording available — 12 min, 84 MB']);
    expect((await s.store.getWatch(id))?.endedAt).toBe(T0);
    jest.setSystemTime(T0 + HOUR);
    expect((await s.poller.runCycle()).claimed).toBe(0);
  });

  it('closes a watch that reached its maximum age and says so', async () => {
    const s = setup();
    const a = archive({ id: 'A1', createdAt: T0 });
    s.service.putArchive('prod', a);
    const w = watchOf('archive', 'A1', archiveSnapshot(a), { expiresAt: T0 + 10_000 });
    await s.store.addWatch(w);
    jest.setSystemTime(T0 + 10_000);
    const report = await s.poller.runCycle();
    expect(report).toMatchObject({ claimed: 1, requests: 0, transitions: 1 });
    expect(texts(s.store)).toEqual(['Stopped watching this recording: last status started']);
    expect((await s.store.getWatch(w.id))?.endedAt).toBe(T0 + 10_000);
  });

  it('ends captions at their maximum duration without asking the service', async () => {
    const s = setup();
    const w = watchOf('captions', 'CAP1', captionsSnapshot(T0, 300));
    await s.store.addWatch(w);
    await s.poller.runCycle();
    expect((await s.store.getWatch(w.id))?.nextPollAt).toBe(T0 + 300_000);
    jest.setSystemTime(T0 + 300_000);
    await s.poller.runCycle();
    expect(texts(s.store)).toEqual(['Live captions ended: maximum duration reached (5 min)']);
    expect(s.service.calls).toEqual([]);
  });

  it('reports a SIP call ending when its stream leaves the session', async () => {
    const s = setup();
    s.service.setStreams('prod', 'S1', ['ST-pub', 'ST-call']);
    const w = watchOf('sip', 'CALL1', sipSnapshot('ST-call', T0));
    await s.store.addWatch(w);
    await s.poller.runCycle();
    s.service.setStreams('prod', 'S1', ['ST-pub']);
    jest.setSystemTime(T0 + 3_000);
    await s.poller.runCycle();
    expect(texts(s.store)).toEqual(['Phone call connected', 'Phone call ended']);
    expect((await s.store.getWatch(w.id))?.endedAt).toBe(T0 + 3_000);
  });

  it('adds a card update after each change when a card renderer is given', async () => {
    const renderCard: CardRenderer = (watch, state) => ({
      text: `card ${state?.status}`,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: String(state?.status) } }],
    });
    const s = setup({ renderCard });
    s.service.putRender('prod', render({ id: 'R1', status: 'started' }));
    await s.store.addWatch(watchOf('render', 'R1', renderSnapshot(render({ id: 'R1' }))));
    await s.poller.runCycle();
    expect(s.store.allOutbox().map((r) => r.payload)).toEqual([
      { type: 'reply', text: 'Composer started' },
      { type: 'card', messageTs: target().messageTs, text: 'card started', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'started' } }] },
    ]);
  });

  describe('session discovery', () => {
    it('announces new archives in the thread and watches them, skipping what the channel already watches', async () => {
      const s = setup();
      s.service.putArchive('prod', archive({ id: 'OLD', createdAt: T0 - HOUR }));
      const discovery = watchOf('session-discovery', 'S1', discoverySnapshot());
      await s.store.addWatch(discovery);
      await s.poller.runCycle();
      expect(texts(s.store)).toEqual([]);

      s.service.putArchive('prod', archive({ id: 'AUTO-2', createdAt: T0 + 1_000, name: 'Auto <2>' }));
      s.service.putArchive('prod', archive({ id: 'FROM-SLACK', createdAt: T0 + 1_000 }));
      await s.store.addWatch(watchOf('archive', 'FROM-SLACK', archiveSnapshot(archive({ id: 'FROM-SLACK' }))));
      jest.setSystemTime(T0 + 3_000);
      await s.poller.runCycle();
      expect(texts(s.store)).toEqual(['New recording started in this session: “Auto &lt;2&gt;” (`AUTO-2`)']);
      const spawned = await s.store.listWatches({ resourceId: 'AUTO-2' });
      expect(spawned).toEqual([
        expect.objectContaining({ kind: 'archive', threadTs: target().messageTs, lastState: expect.objectContaining({ status: 'started' }) }),
      ]);
      expect(spawned[0]?.messageTs).toBeUndefined();

      s.service.updateArchive('prod', 'AUTO-2', { status: 'stopped', reason: 'maximum duration exceeded' });
      jest.setSystemTime(T0 + 6_000);
      await s.poller.runCycle();
      expect(texts(s.store)).toContain(':warning: Auto &lt;2&gt; · Recording stopped: maximum duration reached (4 h)');
    });
  });

  it('defers what the budget cannot cover; the deferred go first next time', async () => {
    const s = setup({ budget: { capacity: 2, refillPerSecond: 1 } });
    for (const session of ['S1', 'S2', 'S3', 'S4', 'S5']) {
      s.service.setStreams('prod', session, []);
      await s.store.addWatch(
        watchOf('sip', `CALL-${session}`, sipSnapshot(`ST-${session}`, T0), { sessionId: session, nextPollAt: T0 - Number(session.slice(1)) }),
      );
    }
    const first = await s.poller.runCycle();
    expect(first).toMatchObject({ claimed: 5, polled: 2, deferred: 3, requests: 2 });
    expect(
      (await s.store.listWatches({ kind: 'sip' }))
        .filter((w) => w.revision > 0)
        .map((w) => w.sessionId)
        .sort(),
    ).toEqual(['S4', 'S5']);
    jest.setSystemTime(T0 + 2_000);
    const second = await s.poller.runCycle();
    expect(second).toMatchObject({ polled: 2, requests: 2 });
    expect(
      (await s.store.listWatches({ kind: 'sip' }))
        .filter((w) => w.revision > 0)
        .map((w) => w.sessionId)
        .sort(),
    ).toEqual(['S2', 'S3', 'S4', 'S5']);
  });

  it('backs off a failing project alone, then catches up', async () => {
    const s = setup();
    const failing = await addArchive(s, 'A1');
    s.service.putArchive('other', archive({ id: 'B1' }));
    const healthy = watchOf('archive', 'B1', archiveSnapshot(archive({ id: 'B1' })), { projectName: 'other', id: 'healthy' });
    await s.store.addWatch(healthy);
    s.service.failProject('prod');

    const report = await s.poller.runCycle();
    expect(report.failedProjects).toEqual(['prod']);
    expect(await s.store.getWatch(failing)).toMatchObject({ failures: 1, nextPollAt: T0 + 1_000 });
    expect(s.logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringContaining('backing off') }));

    const callsAt = (t: number) => {
      jest.setSystemTime(t);
      return s.poller.runCycle();
    };
    for (let t = T0 + 1_000; t <= T0 + 60_000; t += 1_000) await callsAt(t);
    const prodCalls = s.service.callsFor('prod').map((c) => c.at - T0);
    expect(prodCalls).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000]);
    // The healthy project keeps its own schedule (3 s after its start, then doubling), never held back.
    expect(s.service.callsFor('other').map((c) => c.at - T0)).toEqual([0, 3_000, 6_000, 12_000, 24_000, 48_000]);

    s.service.heal('prod');
    s.service.updateArchive('prod', 'A1', { status: 'paused' });
    for (let t = T0 + 61_000; t <= T0 + 120_000; t += 1_000) await callsAt(t);
    expect(texts(s.store)).toEqual([':warning: Recording paused: nobody is publishing']);
    expect(await s.store.getWatch(failing)).toMatchObject({ failures: 0 });
  });

  it('closes a watch it cannot make sense of instead of retrying it every cycle', async () => {
    const s = setup();
    s.service.setStreams('prod', 'S1', []);
    const broken = watchOf('sip', 'CALL', undefined);
    await s.store.addWatch(broken);
    await s.poller.runCycle();
    expect((await s.store.getWatch(broken.id))?.endedAt).toBe(T0);
    expect(s.logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'could not process a watch; closing it' }));
  });

  it('writes a cycle in chunks, one store call each, and lets other work run between chunks', async () => {
    // Turns of the event loop are real here: nothing waits for simulated time.
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate'] });
    const store = new MemoryWatchStore();
    const events: string[] = [];
    const chunked = storeWith(store, {
      completePolls: async (owner, polls) => {
        events.push(`write ${polls.map((p) => p.watchId.split(':').pop()).join(',')}`);
        if (events.length === 1) setImmediate(() => events.push('other work'));
        return store.completePolls(owner, polls);
      },
    });
    const s = setup({ store: chunked, settleChunk: 2 });
    for (const id of ['A1', 'A2', 'A3', 'A4', 'A5']) {
      const a = archive({ id, createdAt: T0 });
      s.service.putArchive('prod', { ...a, status: 'paused' });
      await store.addWatch(watchOf('archive', id, archiveSnapshot(a)));
    }
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 5, polled: 5, transitions: 5 });
    expect(events).toEqual(['write A1,A2', 'other work', 'write A3,A4', 'write A5']);
    expect(store.allOutbox()).toHaveLength(5);
    expect((await store.listWatches({})).map((w) => [w.revision, w.leaseOwner])).toEqual(Array(5).fill([1, undefined]));
  });

  it('claims in chunks, with other work between them, and takes what one claim of the whole limit would', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate'] });
    const store = new MemoryWatchStore();
    const events: string[] = [];
    const chunked = storeWith(store, {
      claimDue: async (owner, now, limit, leaseMs, options) => {
        const claimed = await store.claimDue(owner, now, limit, leaseMs, options);
        events.push(`claim ${limit}: ${claimed.map((w) => w.resourceId).join(',')}`);
        if (events.length === 1) setImmediate(() => events.push('other work'));
        return claimed;
      },
    });
    const s = setup({ store: chunked, claim: { claimChunk: 2, claimLimit: 5, perProjectLimit: 3 } });
    const due = [
      ['prod', 'A1'],
      ['prod', 'A2'],
      ['prod', 'A3'],
      ['beta', 'B1'],
      ['prod', 'A4'],
      ['beta', 'B2'],
      ['beta', 'B3'],
    ] as const;
    for (const [i, [projectName, id]] of due.entries()) {
      const a = archive({ id, createdAt: T0 });
      s.service.putArchive(projectName, a);
      await store.addWatch(watchOf('archive', id, archiveSnapshot(a), { projectName, nextPollAt: T0 - 100 + i }));
    }
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 5, polled: 5 });
    expect(events).toEqual(['claim 2: A1,A2', 'other work', 'claim 2: A3,B1', 'claim 1: B2']);
  });

  it('gives back the leases it cannot poll a chunk at a time, with other work between chunks', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate'] });
    const store = new MemoryWatchStore();
    const events: string[] = [];
    const releasing = storeWith(store, {
      releaseWatch: async (watchId, owner) => {
        events.push(`release ${watchId.split(':').pop()}`);
        if (events.length === 1) setImmediate(() => events.push('other work'));
        return store.releaseWatch(watchId, owner);
      },
    });
    // The budget covers two calls: the other four SIP calls are given back unpolled.
    const s = setup({ store: releasing, settleChunk: 2, budget: { capacity: 2, refillPerSecond: 1 } });
    for (const session of ['S1', 'S2', 'S3', 'S4', 'S5', 'S6']) {
      s.service.setStreams('prod', session, []);
      await store.addWatch(
        watchOf('sip', `CALL-${session}`, sipSnapshot(`ST-${session}`, T0), { sessionId: session, nextPollAt: T0 - Number(session.slice(1)) }),
      );
    }
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 6, polled: 2, deferred: 4 });
    expect(events).toEqual(['release CALL-S4', 'release CALL-S3', 'other work', 'release CALL-S2', 'release CALL-S1']);
    expect((await store.listWatches({ kind: 'sip' })).filter((w) => w.leaseOwner !== undefined)).toEqual([]);
  });

  it('lets other work run between the steps of a cycle of more than 500 watches, and not of a small one', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate'] });
    const cycleWith = async (watchCount: number): Promise<string[]> => {
      const store = new MemoryWatchStore();
      const events: string[] = [];
      // The reads made so far, once the poller exists.
      let readsSoFar = () => 0;
      const observed = storeWith(store, {
        claimDue: async (...args) => {
          const claimed = await store.claimDue(...args);
          events.push(`claimed ${claimed.length}`);
          setImmediate(() => events.push(`other work after ${readsSoFar()} reads`));
          return claimed;
        },
      });
      // One claim for the whole cycle: the claim's own chunks are not the turns looked for here.
      const s = setup({ store: observed, claim: { claimChunk: 1_000, claimLimit: 1_000, perProjectLimit: 1_000 } });
      readsSoFar = () => s.service.calls.length;
      for (let i = 0; i < watchCount; i++) {
        const a = archive({ id: `A${i}`, createdAt: T0 });
        s.service.putArchive('prod', a);
        await store.addWatch(watchOf('archive', a.id, archiveSnapshot(a)));
      }
      expect(await s.poller.runCycle()).toMatchObject({ claimed: watchCount, polled: watchCount });
      events.push(`cycle over after ${s.service.calls.length} reads`);
      await new Promise((resolve) => setImmediate(resolve));
      return events;
    };
    expect(await cycleWith(501)).toEqual(['claimed 501', 'other work after 0 reads', 'cycle over after 1 reads']);
    // A small cycle runs its steps at once, as it always did.
    expect(await cycleWith(3)).toEqual(['claimed 3', 'cycle over after 1 reads', 'other work after 1 reads']);
  });

  it('leaves a watch leased when the store fails to save it, so it is polled again after the lease', async () => {
    const store = new MemoryWatchStore();
    let failSaves = 1;
    const flaky = storeWith(store, {
      completePolls: (...args) => (failSaves-- > 0 ? Promise.reject(new Error('database is locked')) : store.completePolls(...args)),
    });
    const s = setup({ store: flaky });
    const a = archive({ id: 'A1', createdAt: T0 });
    s.service.putArchive('prod', { ...a, status: 'paused' });
    const w = watchOf('archive', 'A1', archiveSnapshot(a));
    await store.addWatch(w);
    await s.poller.runCycle();
    expect(store.allOutbox()).toEqual([]);
    expect((await store.getWatch(w.id))?.leaseOwner).toBe('poller-1:1');
    jest.setSystemTime(T0 + 60_000);
    await s.poller.runCycle();
    expect(store.allOutbox()).toHaveLength(1);
  });
});

describe('Poller.start / pollNow', () => {
  it('runs cycles on its timer and polls a hinted watch at once', async () => {
    const s = setup();
    s.service.putRender('prod', render({ id: 'R1', status: 'started' }));
    const w = watchOf('render', 'R1', renderSnapshot(render({ id: 'R1', status: 'started' })), { nextPollAt: T0 + HOUR, lastChangeAt: T0 - HOUR });
    await s.store.addWatch(w);
    s.poller.start();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(s.service.calls).toEqual([]);

    s.service.updateRender('prod', 'R1', { status: 'stopped', reason: 'Stop Requested' });
    expect(await s.poller.pollNow({ kind: 'render', resourceId: 'R1' })).toBe(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(texts(s.store)).toEqual(['Composer stopped: stop requested']);
    expect(s.service.calls.map((c) => c.at)).toEqual([T0 + 5_000]);
    await s.poller.stop();
  });

  it('logs a failing cycle and keeps going, without unhandled rejections', async () => {
    const store = new MemoryWatchStore();
    let failures = 2;
    const broken = storeWith(store, {
      claimDue: (...args) => (failures-- > 0 ? Promise.reject(new Error('connection refused')) : store.claimDue(...args)),
    });
    const s = setup({ store: broken });
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await store.addWatch(watchOf('captions', 'CAP', captionsSnapshot(T0 - 400_000, 300)));
      s.poller.start();
      await jest.advanceTimersByTimeAsync(3_000);
      await s.poller.stop();
      expect(s.logs.filter((l) => l.msg === 'poller run failed')).toHaveLength(2);
      expect(texts(store)).toEqual(['Live captions ended: maximum duration reached (5 min)']);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('stops scheduling after stop()', async () => {
    const s = setup();
    s.poller.start();
    await jest.advanceTimersByTimeAsync(1_000);
    await s.poller.stop();
    const w = watchOf('render', 'R1', renderSnapshot(render({ id: 'R1' })));
    await s.store.addWatch(w);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(s.service.calls).toEqual([]);
  });
});

describe('Poller with keepLeases (as PollerService runs it)', () => {
  /** The store with its writes and lease checks counted. */
  /** A memory store whose calls are counted; `otherPollers` more pollers than announced themselves share it. */
  function counted(otherPollers = 0): { store: MemoryWatchStore; counting: WatchStore; calls: string[] } {
    const store = new MemoryWatchStore();
    const calls: string[] = [];
    const counting = storeWith(store, {
      announcePoller: async (...args) => (await store.announcePoller(...args)) + otherPollers,
      claimDue: async (...args) => {
        const claimed = await store.claimDue(...args);
        if (claimed.length > 0) calls.push(`claim ${claimed.length}`);
        return claimed;
      },
      completePolls: async (owner, polls) => {
        calls.push(`write ${polls.length}`);
        return store.completePolls(owner, polls);
      },
      checkLeases: async (leases) => {
        calls.push(`check ${leases.length}`);
        return store.checkLeases(leases);
      },
      renewLeases: async (leases, until) => {
        calls.push(`renew ${leases.length}`);
        return store.renewLeases(leases, until);
      },
    });
    return { store, counting, calls };
  }

  /** Claims and polls a quiet archive at 0, 3, 6, 12 and 24 s (its interval doubling), each poll kept: next due at 48 s. */
  async function pollQuietUntilNextPollAt48s(s: Setup): Promise<void> {
    for (const at of [0, 3_000, 6_000, 12_000, 24_000]) {
      jest.setSystemTime(T0 + at);
      expect(await s.poller.runCycle()).toMatchObject({ polled: 1 });
    }
  }

  async function keptArchive(s: Setup, store: MemoryWatchStore, id = 'A1'): Promise<string> {
    const a = archive({ id, createdAt: T0 });
    s.service.putArchive('prod', a);
    const w = watchOf('archive', id, archiveSnapshot(a));
    await store.addWatch(w);
    return w.id;
  }

  it('writes nothing for polls that find nothing new, polls the kept watch again without a claim or a check, and writes the change under its claim', async () => {
    const { store, counting, calls } = counted();
    const s = setup({ store: counting, keepLeases: true });
    const id = await keptArchive(s, store);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, kept: 0, polled: 1, transitions: 0 });
    expect(await store.getWatch(id)).toMatchObject({ leaseOwner: 'poller-1:1', revision: 0, nextPollAt: T0 });
    jest.setSystemTime(T0 + 1_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 0, polled: 0 });
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1, transitions: 0 });
    // Nobody touched its lease meanwhile (the store's lease changes name nothing): no read of it either.
    expect(calls).toEqual(['claim 1']);

    s.service.putArchive('prod', { ...archive({ id: 'A1', createdAt: T0 }), status: 'paused' });
    jest.setSystemTime(T0 + 6_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1, transitions: 1 });
    expect(calls).toEqual(['claim 1', 'write 1']);
    expect(store.allOutbox().map((row) => row.idempotencyKey)).toEqual([`${id}:archive:paused@0`]);
    expect(await store.getWatch(id)).toMatchObject({ lastState: { status: 'paused' }, lastChangeAt: T0 + 6_000, nextPollAt: T0 + 9_000, revision: 1 });
    expect((await store.getWatch(id))?.leaseOwner).toBeUndefined();
  });

  it('asks the store only about the kept watches others touched since the last cycle', async () => {
    const { store, counting, calls } = counted();
    const s = setup({ store: counting, keepLeases: true });
    const ids = [];
    for (const id of ['A1', 'A2', 'A3']) {
      const a = archive({ id, createdAt: T0 });
      s.service.putArchive('prod', a);
      const w = watchOf('archive', id, archiveSnapshot(a));
      await store.addWatch(w);
      ids.push(w.id);
    }
    await s.poller.runCycle();
    // Another replica was hinted about A2 (it is leased here: the store flags it for a repoll).
    jest.setSystemTime(T0 + 1_000);
    await store.expedite({ resourceId: 'A2' }, T0 + 1_000);
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 3, polled: 3 });
    expect(calls).toEqual(['claim 3', 'check 1']);
    expect((await store.getWatch(ids[1]!))?.repollRequested).toBe(false);
    jest.setSystemTime(T0 + 6_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 3, polled: 3 });
    expect(calls).toEqual(['claim 3', 'check 1']);
  });

  it('checks every kept watch when the lease changes cannot be read, and logs why', async () => {
    const { store, counting, calls } = counted();
    let failing = false;
    const flaky = storeWith(counting, {
      leaseChanges: async (after) => {
        if (failing) throw new Error('database is locked');
        return store.leaseChanges(after);
      },
    });
    const s = setup({ store: flaky, keepLeases: true });
    const id = await keptArchive(s, store);
    await s.poller.runCycle();
    failing = true;
    await store.endWatch(id, T0 + 1_000);
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 0, polled: 0 });
    expect(calls).toEqual(['claim 1', 'check 1']);
    expect(s.logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringContaining('could not read lease changes') }));
  });

  it("polls kept watches due within half the fast interval with their project's due ones: one read for both, none early in another project", async () => {
    const s = setup({ keepLeases: true });
    await addArchive(s, 'A1');
    s.service.putArchive('staging', archive({ id: 'B1', sessionId: 'S1', createdAt: T0 }));
    const other = watchOf('archive', 'B1', archiveSnapshot(archive({ id: 'B1', createdAt: T0 })), { projectName: 'staging' });
    await s.store.addWatch(other);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 2, polled: 2 });
    jest.setSystemTime(T0 + 1_000);
    await addArchive(s, 'A2');
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, polled: 1 });
    const readsBefore = s.service.callsFor('prod').length;
    const stagingBefore = s.service.callsFor('staging').length;

    // At T0 + 3 s A1 and B1 are due; A2 (due at T0 + 4 s) comes along with A1, its project being read anyway.
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 3, polled: 3 });
    expect(s.service.callsFor('prod').length - readsBefore).toBe(1);
    expect(s.service.callsFor('staging').length - stagingBefore).toBe(1);
    // From then on the project's watches fall due together: nothing is due at T0 + 4 s.
    jest.setSystemTime(T0 + 4_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0 });
  });

  describe('pages read for a project over its limit', () => {
    /** Four archives of one session, two a cycle: claimed over two cycles, then all kept and due together at T0 + 3 s. */
    async function fourKept(): Promise<{ s: Setup; ids: string[] }> {
      const s = setup({ keepLeases: true, claim: { claimChunk: 100, claimLimit: 4, perProjectLimit: 2 } });
      const ids = [];
      for (const id of ['A1', 'A2', 'A3', 'A4']) ids.push(await addArchive(s, id));
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 2, polled: 2 });
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 2, polled: 2 });
      jest.setSystemTime(T0 + 3_000);
      return { s, ids };
    }

    it('poll every due kept watch of the project they hold, not only the cycle’s: one read instead of one per cycle', async () => {
      const { s } = await fourKept();
      const reads = s.service.callsFor('prod').length;
      expect(await s.poller.runCycle()).toMatchObject({ kept: 2, polled: 4, transitions: 0 });
      expect(s.service.callsFor('prod').length - reads).toBe(1);
      // All four were polled: none is due in the next cycle, and all are again together.
      expect(await s.poller.runCycle()).toMatchObject({ polled: 0 });
      jest.setSystemTime(T0 + 6_000);
      expect(await s.poller.runCycle()).toMatchObject({ kept: 2, polled: 4 });
      expect(s.service.callsFor('prod').length - reads).toBe(2);
      expect(s.store.allOutbox()).toEqual([]);
    });

    it('claim first: a watch due in the store is polled with the kept ones filling the limit, on the same read', async () => {
      const { s } = await fourKept();
      // A watch given back by another replica (or new) is due now, while the kept four fill the cycle's limit.
      await addArchive(s, 'A5');
      const reads = s.service.callsFor('prod').length;
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, kept: 1, polled: 5 });
      expect(s.service.callsFor('prod').length - reads).toBe(1);
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, polled: 0 });
    });

    it('poll the kept watches due within half the fast interval as well, not those due later', async () => {
      const s = setup({ keepLeases: true, claim: { claimChunk: 100, claimLimit: 3, perProjectLimit: 3 } });
      await addArchive(s, 'A1');
      await addArchive(s, 'A2');
      // Unchanged for 4.6 s already: its next poll comes 4.6 s after this one.
      const a5 = archive({ id: 'A5', createdAt: T0 });
      s.service.putArchive('prod', a5);
      await s.store.addWatch(watchOf('archive', 'A5', archiveSnapshot(a5), { lastChangeAt: T0 - 4_600 }));
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 3 });
      jest.setSystemTime(T0 + 1_400);
      await addArchive(s, 'A3');
      await addArchive(s, 'A4');
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 2, polled: 2 });
      // A1 and A2 are due, one of A3 and A4 (due at +4.4 s) is taken early by the cycle's room, the
      // other rides along with the page: one read for four. A5, due at +4.6 s, is left for later.
      jest.setSystemTime(T0 + 3_000);
      const reads = s.service.callsFor('prod').length;
      expect(await s.poller.runCycle()).toMatchObject({ kept: 3, polled: 4 });
      expect(s.service.callsFor('prod').length - reads).toBe(1);
      jest.setSystemTime(T0 + 4_500);
      expect(await s.poller.runCycle()).toMatchObject({ polled: 0 });
      jest.setSystemTime(T0 + 4_600);
      expect(await s.poller.runCycle()).toMatchObject({ kept: 3, polled: 5 });
      expect(s.store.allOutbox()).toEqual([]);
    });

    it('take a kept watch outside the cycle into it when they show a change for it, and write it at once', async () => {
      const { s, ids } = await fourKept();
      s.service.putArchive('prod', { ...archive({ id: 'A4', createdAt: T0 }), status: 'paused' });
      expect(await s.poller.runCycle()).toMatchObject({ kept: 2, polled: 4, transitions: 1 });
      expect(s.store.allOutbox().map((row) => row.idempotencyKey)).toEqual([`${ids[3]}:archive:paused@0`]);
      expect(await s.store.getWatch(ids[3]!)).toMatchObject({ lastState: { status: 'paused' }, revision: 1 });
    });
  });

  it('polls nothing early in a cycle that reads none of its project', async () => {
    const s = setup({ keepLeases: true });
    await addArchive(s, 'A1');
    await s.poller.runCycle();
    // Due at T0 + 3 s: within half the fast interval at T0 + 2 s, but nothing of its project is read then.
    jest.setSystemTime(T0 + 2_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0 });
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1 });
  });

  it("keeps a watch whose next poll falls past its hold's end and renews its lease there, without a write or a claim", async () => {
    const { store, counting, calls } = counted();
    // random 0.5: not among the quarter given back; held 45 s less a sixteenth (42.2 s).
    const s = setup({ store: counting, keepLeases: true });
    const id = await keptArchive(s, store);
    await pollQuietUntilNextPollAt48s(s);
    jest.setSystemTime(T0 + 43_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0, renewed: 1, released: 0 });
    expect(await store.getWatch(id)).toMatchObject({ revision: 0, leaseOwner: 'poller-1:1', leaseUntil: T0 + 103_000 });
    // Past the first lease's end nobody else may claim it; the next poll needs no claim.
    expect(await store.claimDue('poller-2:1', T0 + 61_000, 10, 60_000)).toEqual([]);
    jest.setSystemTime(T0 + 48_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1 });
    expect(calls).toEqual(['claim 1', 'renew 1']);
  });

  it("gives a share of the watches back at their hold's end, written with the schedule of their last poll, for any poller to claim", async () => {
    const { store, counting, calls } = counted(1);
    // random 0: among the quarter given back, held the whole 45 s.
    const s = setup({ store: counting, keepLeases: true, random: () => 0 });
    const id = await keptArchive(s, store);
    await pollQuietUntilNextPollAt48s(s);
    jest.setSystemTime(T0 + 45_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0, renewed: 0, released: 1 });
    const written = await store.getWatch(id);
    expect(written).toMatchObject({ revision: 1, nextPollAt: T0 + 48_000, lastChangeAt: T0 });
    expect(written?.leaseOwner).toBeUndefined();
    expect(calls).toEqual(['claim 1', 'write 1']);
    jest.setSystemTime(T0 + 48_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, kept: 0, polled: 1 });
  });

  it("renews every kept lease at its hold's end while no other poller shares the store, and gives a share back once one does", async () => {
    const { store, counting, calls } = counted();
    // random 0: the draw that gives a watch back while the store is shared.
    const s = setup({ store: counting, keepLeases: true, random: () => 0 });
    const id = await keptArchive(s, store);
    await pollQuietUntilNextPollAt48s(s);
    jest.setSystemTime(T0 + 45_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0, renewed: 1, released: 0 });
    expect(calls).toEqual(['claim 1', 'renew 1']);
    expect(await store.getWatch(id)).toMatchObject({ revision: 0, leaseUntil: T0 + 105_000 });

    // Another poller announces itself; this one hears of it at its next announcement (10 s after its last).
    await store.announcePoller('poller-2', T0 + 80_000, 30_000);
    jest.setSystemTime(T0 + 90_000);
    expect(await s.poller.runCycle()).toMatchObject({ renewed: 0, released: 1 });
    expect((await store.getWatch(id))?.leaseOwner).toBeUndefined();
  });

  it('drops a kept watch whose renewal the store refuses or cannot make: it is claimed again once its lease runs out', async () => {
    const { store, counting } = counted();
    let refuse = '';
    let fail = false;
    // As the store answers when an action or another poller took the lease between the poll and the renewal.
    const racing = storeWith(counting, {
      renewLeases: async (leases, until) => {
        if (fail) throw new Error('database is locked');
        const renewed = await counting.renewLeases(
          leases.filter((lease) => lease.watchId !== refuse),
          until,
        );
        return leases.map((lease) => lease.watchId !== refuse && renewed.shift()!);
      },
    });
    const s = setup({ store: racing, keepLeases: true });
    const refused = await keptArchive(s, store, 'A1');
    const failed = await keptArchive(s, store, 'A2');
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 2 });
    refuse = refused;
    jest.setSystemTime(T0 + 43_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 2, renewed: 1 });
    // A1 is no longer kept: claimed again when its first lease runs out, A2 renewed until 103 s.
    jest.setSystemTime(T0 + 60_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1 });
    expect(await store.getWatch(refused)).toMatchObject({ leaseOwner: 'poller-1:3' });
    fail = true;
    jest.setSystemTime(T0 + 86_000);
    expect(await s.poller.runCycle()).toMatchObject({ renewed: 0 });
    expect(s.logs.map((log) => log.msg)).toEqual(['could not renew kept leases; their watches return to the queue when the leases run out']);
    fail = false;
    jest.setSystemTime(T0 + 103_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1 });
    expect(await store.getWatch(failed)).toMatchObject({ leaseOwner: 'poller-1:5' });
  });

  it('hands a replica that starts later its share within a few holds', async () => {
    const { store, counting } = counted();
    const first = setup({ store: counting, keepLeases: true, slowMs: 3_000, random: mulberry32(1) });
    for (let i = 0; i < 40; i++) await keptArchive(first, store, `A${i}`);
    const second = setup({ store: counting, keepLeases: true, slowMs: 3_000, random: mulberry32(2), instanceId: 'poller-2' });
    for (const a of first.service.project('prod').archives) second.service.putArchive('prod', a);
    const held = async (instance: string) => (await store.listWatches({})).filter((w) => w.leaseOwner?.startsWith(`${instance}:`)).length;
    expect(await first.poller.runCycle()).toMatchObject({ claimed: 40 });
    const shares: number[] = [];
    for (let at = 3_000; at <= 360_000; at += 3_000) {
      jest.setSystemTime(T0 + at);
      // Whichever replica's cycle comes first after a watch falls due claims it: here each in turn.
      const [one, other] = at % 6_000 === 0 ? [first, second] : [second, first];
      await one.poller.runCycle();
      await other.poller.runCycle();
      if (at % 60_000 === 0) shares.push(await held('poller-2'));
    }
    // Every watch was kept by the first; a quarter of each hold's end (~42 s) is claimed by either.
    // Measured with these seeds: 5, 9, 12, 18, 16 and 14 of 40 at each minute.
    expect(shares[0]).toBeGreaterThan(0);
    expect(Math.max(...shares.slice(2))).toBeGreaterThanOrEqual(15);
    expect(await held('poller-2')).toBeGreaterThanOrEqual(10);
    expect(await held('poller-1')).toBeGreaterThanOrEqual(10);
  });

  it('reaches a kept watch with a hint that comes while its lease is being renewed', async () => {
    const { store, counting } = counted();
    let hinted = false;
    const s: Setup = setup({
      store: storeWith(counting, {
        renewLeases: async (leases, until) => {
          if (!hinted) {
            hinted = true;
            await s.poller.pollNow({ resourceId: 'A1' });
          }
          return counting.renewLeases(leases, until);
        },
      }),
      keepLeases: true,
    });
    await keptArchive(s, store);
    await pollQuietUntilNextPollAt48s(s);
    // Its next poll is due at 48 s; the hint during the renewal at 43 s makes it due at once.
    jest.setSystemTime(T0 + 43_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0, renewed: 1 });
    jest.setSystemTime(T0 + 43_500);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1 });
  });

  it("gives back a kept watch still due at its hold's end (its project's budget held it back) instead of renewing it", async () => {
    // Two requests, then next to none: one read of its session's streams per call.
    const s = setup({ keepLeases: true, budget: { capacity: 2, refillPerSecond: 0.001 } });
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      s.service.setStreams('prod', `S${n}`, []);
      const w = watchOf('sip', `CALL-${n}`, sipSnapshot(`ST-${n}`, T0), { sessionId: `S${n}` });
      await s.store.addWatch(w);
      ids.push(w.id);
    }
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 3, polled: 2, deferred: 1 });
    jest.setSystemTime(T0 + 43_000);
    // All three are due and none could be polled since: given back, to be claimed oldest first by anyone.
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0, renewed: 0, released: 3 });
    for (const id of ids) expect((await s.store.getWatch(id))?.leaseOwner).toBeUndefined();
  });

  it("leaves a budget-bound project's kept watches due their room before it claims more", async () => {
    const s = setup({ keepLeases: true, budget: { capacity: 2, refillPerSecond: 1 } });
    const addCall = async (n: number, nextPollAt: number) => {
      s.service.setStreams('prod', `S${n}`, []);
      await s.store.addWatch(watchOf('sip', `CALL-${n}`, sipSnapshot(`ST-${n}`, T0), { sessionId: `S${n}`, nextPollAt }));
    };
    for (let n = 1; n <= 20; n++) await addCall(n, T0 - n);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 20, polled: 2, deferred: 18 });
    for (let n = 21; n <= 36; n++) await addCall(n, T0 + 1_000);
    jest.setSystemTime(T0 + 2_000);
    // 18 kept and due against a claim limit of 16 (twice what the budget served): nothing claimed,
    // so the two polled are kept ones, and the new watches stay in the store for anyone.
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, polled: 2 });
    expect((await s.store.listWatches({ kind: 'sip' })).filter((w) => Number(w.resourceId.slice(5)) > 20 && w.leaseOwner !== undefined)).toEqual([]);
  });

  it('re-reads a watch an action took back: the stale copy neither polls nor writes, the claim after the action does', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    await s.poller.runCycle();
    const stopped = { ...archive({ id: 'A1', createdAt: T0 }), status: 'stopped' };
    s.service.putArchive('prod', stopped);
    jest.setSystemTime(T0 + 1_000);
    await s.store.updateCard(id, { card: { stoppedBy: 'U2' }, state: archiveSnapshot(stopped), at: T0 + 1_000 });
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, kept: 0, polled: 1, transitions: 0 });
    jest.setSystemTime(T0 + 4_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1, transitions: 0 });
    expect(s.store.allOutbox()).toEqual([]);
    expect(await s.store.getWatch(id)).toMatchObject({ leaseOwner: 'poller-1:2', lastState: { status: 'stopped' }, card: { stoppedBy: 'U2' } });
  });

  it('drops a watch that was unwatched while kept: no read, no write, no notification', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    await s.poller.runCycle();
    await s.store.endWatch(id, T0 + 1_000);
    s.service.putArchive('prod', { ...archive({ id: 'A1', createdAt: T0 }), status: 'paused' });
    const reads = s.service.calls.length;
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 0, polled: 0 });
    expect(s.service.calls).toHaveLength(reads);
    expect(s.store.allOutbox()).toEqual([]);
    expect(await s.store.getWatch(id)).toMatchObject({ endedAt: T0 + 1_000, revision: 0 });
  });

  it('polls a kept watch at once on a hint, and clears a hint another replica left on it', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    await s.poller.runCycle();
    jest.setSystemTime(T0 + 1_000);
    expect(await s.poller.pollNow({ resourceId: 'A1' })).toBe(1);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1 });
    jest.setSystemTime(T0 + 2_000);
    await s.store.expedite({ resourceId: 'A1' }, T0 + 2_000);
    expect((await s.store.getWatch(id))?.repollRequested).toBe(true);
    jest.setSystemTime(T0 + 4_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1 });
    expect((await s.store.getWatch(id))?.repollRequested).toBe(false);
  });

  it('polls a kept watch in its next cycle when another replica was hinted about it, not when its own schedule says', async () => {
    const { store, counting, calls } = counted();
    const s = setup({ store: counting, keepLeases: true });
    const id = await keptArchive(s, store);
    await pollQuietUntilNextPollAt48s(s);
    // Stopped through the app on another replica: it hints, and the store flags the lease held here.
    s.service.putArchive('prod', { ...archive({ id: 'A1', createdAt: T0 }), status: 'paused' });
    jest.setSystemTime(T0 + 30_000);
    expect(await store.expedite({ resourceId: 'A1' }, T0 + 30_000)).toBe(1);
    jest.setSystemTime(T0 + 30_500);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1, transitions: 1 });
    expect(calls).toEqual(['claim 1', 'check 1', 'write 1']);
    expect(await store.getWatch(id)).toMatchObject({ lastState: { status: 'paused' }, repollRequested: false });
    expect(store.allOutbox().map((row) => row.idempotencyKey)).toEqual([`${id}:archive:paused@0`]);
  });

  it('polls a kept watch again at once when a hint arrives while it is being read, and only then', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    await s.poller.runCycle();
    // A single watch of its session is read by GET.
    const get = s.service.archives.get;
    let hinted = false;
    s.service.archives.get = async (...args) => {
      if (!hinted) {
        hinted = true;
        await s.poller.pollNow({ resourceId: 'A1' });
      }
      return get(...args);
    };
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1 });
    jest.setSystemTime(T0 + 3_500);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1 });
    jest.setSystemTime(T0 + 4_000);
    expect(await s.poller.runCycle()).toMatchObject({ polled: 0 });
    expect((await s.store.getWatch(id))?.leaseOwner).toBe('poller-1:1');
  });

  it('writes a failed read at once and backs the project off, as without keeping', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    await s.poller.runCycle();
    s.service.failProject('prod', 1);
    jest.setSystemTime(T0 + 3_000);
    expect(await s.poller.runCycle()).toMatchObject({ kept: 1, failedProjects: ['prod'] });
    expect(await s.store.getWatch(id)).toMatchObject({ failures: 1, revision: 1 });
    expect((await s.store.getWatch(id))?.leaseOwner).toBeUndefined();
  });

  it('ends the holds of watches claimed together over more than one cycle, each within three quarters of the lease', async () => {
    const { store, counting } = counted();
    const draws = [0, 0.2, 0.4, 0.6, 0.8, 0.99];
    let draw = 0;
    // Polled every 3 s throughout (as the soak's deployment does), so only the hold ends a keep.
    const s = setup({ store: counting, keepLeases: true, random: () => draws[draw++ % draws.length]!, slowMs: 3_000 });
    for (const id of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6']) await keptArchive(s, store, id);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 6 });
    const endedAt: number[] = [];
    for (let at = T0 + 3_000; at <= T0 + 45_000; at += 3_000) {
      jest.setSystemTime(at);
      const { renewed, released } = await s.poller.runCycle();
      endedAt.push(...Array<number>(renewed + released).fill(at - T0));
    }
    // Held for 45 s less up to an eighth (45, 43.9, 42.75, 41.6, 40.5 and 39.4 s): each hold ends
    // (the lease renewed or the watch given back) at the first cycle past it. Without the spread: six at 45 s.
    expect(endedAt).toEqual([42_000, 42_000, 42_000, 45_000, 45_000, 45_000]);
  });

  it("keeps a quiet poll whose hold ends before its next poll, and gives the watch back at the hold's end with the schedule of its last poll", async () => {
    const { store, counting, calls } = counted(1);
    // random 0: held the whole 45 s (three quarters of the 60 s lease), polled every 3 s.
    const s = setup({ store: counting, keepLeases: true, slowMs: 3_000, random: () => 0 });
    const live = broadcast({ id: 'B1', createdAt: T0, broadcastUrls: { hlsStatus: 'live', rtmp: [{ id: 'yt', status: 'live' }] } });
    s.service.putBroadcast('prod', live);
    const w = watchOf('broadcast', 'B1', broadcastSnapshot(live, T0));
    await store.addWatch(w);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1 });
    const written: number[] = [];
    for (let at = 3_000; at <= 45_000; at += 3_000) {
      jest.setSystemTime(T0 + at);
      calls.length = 0;
      expect(await s.poller.runCycle()).toMatchObject({ claimed: 0, kept: 1, polled: 1, transitions: 0 });
      if (calls.some((call) => call.startsWith('write '))) written.push(at);
    }
    // The poll at 42 s, whose next poll (45 s) the hold does not outlast, is kept all the same;
    // the cycle at the hold's end polls it once more and writes it back, lease and all.
    expect(written).toEqual([45_000]);
    const stored = await store.getWatch(w.id);
    expect(stored).toMatchObject({ lastState: { status: 'started', observedAt: T0 + 45_000 }, nextPollAt: T0 + 48_000 });
    expect(stored?.leaseOwner).toBeUndefined();
    // Due again at its next poll time, for any poller to claim.
    jest.setSystemTime(T0 + 48_000);
    expect(await s.poller.runCycle()).toMatchObject({ claimed: 1, kept: 0, polled: 1 });
  });

  it('keeps a broadcast whose poll finds nothing new without a write; the time of its last read is written when it is given back', async () => {
    const { store, counting, calls } = counted();
    const s = setup({ store: counting, keepLeases: true, slowMs: 3_000 });
    const live = broadcast({ id: 'B1', createdAt: T0, broadcastUrls: { hlsStatus: 'live', rtmp: [{ id: 'yt', status: 'live' }] } });
    s.service.putBroadcast('prod', live);
    const w = watchOf('broadcast', 'B1', broadcastSnapshot(live, T0));
    await store.addWatch(w);
    await s.poller.runCycle();
    for (const at of [3_000, 6_000, 9_000]) {
      jest.setSystemTime(T0 + at);
      expect(await s.poller.runCycle()).toMatchObject({ kept: 1, polled: 1, transitions: 0 });
    }
    expect(calls).toEqual(['claim 1']);
    expect(await store.getWatch(w.id)).toMatchObject({ lastState: { observedAt: T0 }, revision: 0 });
    await s.poller.stop();
    expect(calls).toEqual(['claim 1', 'write 1']);
    expect(await store.getWatch(w.id)).toMatchObject({ lastState: { status: 'started', hls: 'live', rtmp: { yt: 'live' }, observedAt: T0 + 9_000 } });
    // An output going offline is news: written at once, as before.
    const s2 = setup({ store: counting, keepLeases: true, slowMs: 3_000 });
    s2.service.putBroadcast('prod', live);
    jest.setSystemTime(T0 + 12_000);
    await s2.poller.runCycle();
    s2.service.putBroadcast('prod', { ...live, broadcastUrls: { hlsStatus: 'live', rtmp: [{ id: 'yt', status: 'offline' }] } });
    jest.setSystemTime(T0 + 15_000);
    expect(await s2.poller.runCycle()).toMatchObject({ polled: 1, transitions: 1 });
    expect(calls.at(-1)).toBe('write 1');
  });

  it('gives every kept watch back, with its schedule, when it stops; one unwatched meanwhile is left alone, without a warning', async () => {
    const s = setup({ keepLeases: true });
    const id = await addArchive(s, 'A1');
    const unwatched = await addArchive(s, 'A2', 'S2');
    await s.poller.runCycle();
    await s.store.endWatch(unwatched, T0 + 500);
    await s.poller.stop();
    const released = await s.store.getWatch(id);
    expect(released).toMatchObject({ nextPollAt: T0 + 3_000, revision: 1 });
    expect(released?.leaseOwner).toBeUndefined();
    expect(await s.store.getWatch(unwatched)).toMatchObject({ endedAt: T0 + 500, revision: 0 });
    expect(s.logs).toEqual([]);
  });
});

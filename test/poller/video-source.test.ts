import { allItems, receivedVersion } from '../../src/api/lists';
import { VideoApiError, VideoClient, VideoConnectionError, VideoNotFoundError, VideoRateLimitError, VideoTimeoutError } from '../../src/api';
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { ProjectBudgets } from '../../src/poller/budget';
import { MemoryWatchStore } from '../../src/poller/memory-store';
import { Poller } from '../../src/poller/poller';
import { DEFAULT_SCHEDULE } from '../../src/poller/schedule';
import { archiveSnapshot, broadcastSnapshot, sipSnapshot } from '../../src/poller/snapshot';
import { type PollClient, isPassingFailure, videoPollSource } from '../../src/poller/video-source';
import { createWatch } from '../../src/poller/watch';
import { silentLogger, target } from './fakes';

describe('videoPollSource with a stub client', () => {
  const failing = (error: unknown) => jest.fn(async () => Promise.reject(error));

  function source(overrides: { archivesGet?: jest.Mock; streamsList?: jest.Mock; archivesList?: jest.Mock }) {
    const client = {
      archives: { get: overrides.archivesGet ?? jest.fn(), list: overrides.archivesList ?? jest.fn() },
      broadcasts: { get: jest.fn(), list: jest.fn() },
      render: { get: jest.fn(), list: jest.fn() },
      streams: { list: overrides.streamsList ?? jest.fn() },
    } as unknown as PollClient;
    return { client, source: videoPollSource(() => client, { timeoutMs: 4_000 }) };
  }

  it.each([
    ['404', new VideoNotFoundError('not found', { status: 404 })],
    ['400 for an unknown id', new VideoApiError('invalid archive ID', { status: 400 })],
  ])('treats %s as "does not exist"', async (_name, error) => {
    const { source: s } = source({ archivesGet: failing(error) });
    await expect(s.archives.get('prod', 'A1')).resolves.toBeUndefined();
  });

  it('rejects on failures worth retrying, so the project backs off', async () => {
    const { source: s } = source({
      archivesGet: failing(new VideoApiError('server error', { status: 500 })),
      archivesList: failing(new VideoApiError('forbidden', { status: 403 })),
    });
    await expect(s.archives.get('prod', 'A1')).rejects.toMatchObject({ status: 500 });
    await expect(s.archives.list('prod', { offset: 0, count: 1000 })).rejects.toMatchObject({ status: 403 });
  });

  it.each([
    ['a 500', new VideoApiError('server error', { status: 500 }), true],
    ['a 503', new VideoApiError('service unavailable', { status: 503 }), true],
    ['a dropped connection', new VideoConnectionError('GET /archive failed: connection lost (ECONNRESET)', { code: 'ECONNRESET' }), true],
    ['a 429', new VideoRateLimitError('rate limited', { status: 429, retryAfterMs: 1_000 }), false],
    ['a timeout', new VideoTimeoutError('GET /archive did not complete within 15000 ms', { code: 'ETIMEDOUT' }), false],
    ['a 403', new VideoApiError('forbidden', { status: 403 }), false],
    ['an error of another kind', new Error('boom'), false],
  ])('says whether %s is a failure in passing', (_name, error, passing) => {
    expect(isPassingFailure(error)).toBe(passing);
    expect(videoPollSource(() => ({}) as PollClient).isPassing?.(error)).toBe(passing);
  });

  it('reads a session without streams as an empty list', async () => {
    const { source: s } = source({ streamsList: failing(new VideoNotFoundError('no stream added yet', { status: 404 })) });
    await expect(s.streams.list('prod', 'S1')).resolves.toEqual([]);
  });

  it('turns the adapter’s own retries off and sets a time limit on every call', async () => {
    const get = jest.fn(async () => ({ id: 'A1' }));
    const { source: s } = source({ archivesGet: get });
    await s.archives.get('prod', 'A1');
    expect(get).toHaveBeenCalledWith('A1', { maxRetries: 0, timeoutMs: 4_000 });
  });
});

describe('the poller against the emulator, through the real adapter', () => {
  let emu: RunningEmulator;

  beforeEach(async () => {
    emu = await startEmulator();
  });

  afterEach(async () => {
    await emu.close();
  });

  function world(options: { keepLeases?: boolean; slowMs?: number } = {}) {
    const { apiKey, apiSecret } = emu.control.createProject();
    const client = new VideoClient({ baseUrl: emu.baseUrl, apiKey, apiSecret });
    const sessionId = emu.control.createSession(apiKey);
    const alice = emu.control.connect(apiKey, sessionId);
    const camera = emu.control.publish(apiKey, sessionId, alice, { videoType: 'camera' });
    const store = new MemoryWatchStore();
    const source = videoPollSource(() => client);
    const poller = new Poller({
      store,
      source,
      budgets: new ProjectBudgets({ capacity: 20, refillPerSecond: 10 }, () => emu.control.now()),
      logger: silentLogger,
      instanceId: 'emu-poller',
      clock: () => emu.control.now(),
      random: () => 0.5,
      schedule: { ...DEFAULT_SCHEDULE, jitterRatio: 0, ...(options.slowMs !== undefined && { slowMs: options.slowMs }) },
      ...(options.keepLeases && { keepLeases: true }),
    });
    const replies = () => store.allOutbox().map((row) => (row.payload.type === 'reply' ? row.payload.text : ''));
    const pollAfter = async (ms: number) => {
      emu.control.advanceTime(ms);
      await store.expedite({}, emu.control.now());
      return poller.runCycle();
    };
    /** The clock moved on and a cycle run, with nothing made due before its time (kept leases stay kept). */
    const cycleAfter = async (ms: number) => {
      emu.control.advanceTime(ms);
      return poller.runCycle();
    };
    return { apiKey, client, sessionId, alice, camera, store, source, poller, replies, pollAfter, cycleAfter };
  }

  /** An archive started in the world's session and watched (one of several at once: with a tag of its own). */
  async function watchedArchive(w: ReturnType<typeof world>, name: string, multiArchiveTag?: string) {
    const started = await w.client.archives.start({ sessionId: w.sessionId, name, ...(multiArchiveTag && { multiArchiveTag }) });
    await w.store.addWatch(
      createWatch({
        target: target(),
        kind: 'archive',
        resourceId: started.id,
        sessionId: w.sessionId,
        initialState: archiveSnapshot(started),
        now: emu.control.now(),
        maxAgeMs: 86_400_000,
      }),
    );
    return started;
  }

  /** A world with an archive watched, then stopped: its next poll has a change to report. */
  async function stoppedWhileWatched(): Promise<ReturnType<typeof world>> {
    const w = world();
    await w.client.archives.stop((await watchedArchive(w, 'Weekly')).id);
    return w;
  }

  it('follows an archive through pause, resume, stop and processing', async () => {
    const w = world();
    const started = await watchedArchive(w, 'Board <review>');
    await w.pollAfter(1_000);
    emu.control.unpublish(w.apiKey, w.sessionId, w.camera);
    await w.pollAfter(1_000);
    emu.control.publish(w.apiKey, w.sessionId, w.alice, { videoType: 'camera' });
    await w.pollAfter(1_000);
    await w.client.archives.stop(started.id);
    await w.pollAfter(1_000);
    await w.pollAfter(10_000);
    expect(w.replies()).toEqual([
      ':warning: Recording paused: nobody is publishing',
      'Recording resumed',
      'Recording stopped on request',
      expect.stringMatching(/^Recording available — \d+ s/),
    ]);
    expect(await w.store.listWatches({})).toEqual([]);
  });

  it('reports an RTMP output going offline without revealing its stream key', async () => {
    const w = world();
    const started = await w.client.broadcasts.start({
      sessionId: w.sessionId,
      outputs: { hls: {}, rtmp: [{ id: 'yt', serverUrl: 'rtmps://live.example.com:443/app', streamName: 'stream-key-SECRET' }] },
    });
    await w.store.addWatch(
      createWatch({
        target: target(),
        kind: 'broadcast',
        resourceId: started.id,
        sessionId: w.sessionId,
        initialState: broadcastSnapshot(started, emu.control.now()),
        now: emu.control.now(),
        maxAgeMs: 86_400_000,
      }),
    );
    await w.pollAfter(20_000);
    emu.control.setBroadcastOutputStatus(w.apiKey, started.id, { rtmp: { yt: 'offline' } });
    await w.pollAfter(1_000);
    const text = w.replies().join('\n');
    expect(text).toContain('Broadcast live on HLS and RTMP');
    expect(text).toContain("RTMP output 'yt' offline");
    expect(JSON.stringify(w.store.allOutbox()) + JSON.stringify(await w.store.listWatches({}))).not.toMatch(/SECRET|rtmps:/);
  });

  it.each([
    ['a 500', { kind: 'status' as const, status: 500 }],
    ['a dropped connection', { kind: 'reset' as const }],
  ])('reads through %s in the same cycle, without backing the project off', async (_name, fault) => {
    const w = await stoppedWhileWatched();
    emu.control.injectFault({ method: 'GET', path: '/archive', ...fault });
    const cycle = await w.pollAfter(1_000);
    expect(cycle).toMatchObject({ failedProjects: [], requests: 2 });
    expect(w.replies()).toEqual(['Recording stopped on request']);
  });

  it('backs the project off on a 429 (its Retry-After asks to wait), and reads it once the wait is over', async () => {
    const w = await stoppedWhileWatched();
    emu.control.injectFault({ method: 'GET', path: '/archive', kind: 'status', status: 429, retryAfterSeconds: 1 });
    expect(await w.pollAfter(1_000)).toMatchObject({ failedProjects: ['prod'], requests: 1 });
    expect(w.replies()).toEqual([]);
    await w.pollAfter(2_000);
    expect(w.replies()).toEqual(['Recording stopped on request']);
  });

  it('sees a SIP call connect and end through the session’s streams', async () => {
    const w = world();
    const call = await w.client.sip.dial({ sessionId: w.sessionId, sip: { uri: 'sip:+15551234567@sip.example.com' } });
    await w.store.addWatch(
      createWatch({
        target: target(),
        kind: 'sip',
        resourceId: call.id,
        sessionId: w.sessionId,
        initialState: sipSnapshot(call.streamId, emu.control.now()),
        now: emu.control.now(),
        maxAgeMs: 7 * 3_600_000,
      }),
    );
    await w.pollAfter(1_000);
    emu.control.disconnect(w.apiKey, w.sessionId, call.connectionId);
    await w.pollAfter(1_000);
    expect(w.replies()).toEqual(['Phone call connected', 'Phone call ended']);
  });

  it('keeps watches between polls over pages read again and again, unparsed, and still sees each change', async () => {
    const w = world({ keepLeases: true, slowMs: 5_000 });
    // Enough recordings for pages the size of a real project's, every one watched.
    const archives = [];
    for (let i = 0; i < 40; i++) archives.push(await watchedArchive(w, `Stand-up ${i}`, `tag-${i}`));
    /** Each listed archive's id → the version of its bytes. */
    const versions = async () => {
      const seen = new Map<string, number | undefined>();
      await w.source.archives.listEach!('prod', { offset: 0, count: 1000 }, (items) =>
        allItems(items).forEach((item) => seen.set(item.id, receivedVersion(item))),
      );
      w.source.cycleEnded!();
      return seen;
    };
    const report = await w.pollAfter(1_000);
    expect(report.claimed).toBe(40);
    // Polled every 5 s within the 45-s hold: kept, not claimed again.
    for (let i = 0; i < 5; i++) expect(await w.cycleAfter(5_000)).toMatchObject({ kept: 40, polled: 40, claimed: 0 });
    const before = await versions();
    await w.client.archives.stop(archives[17]!.id);
    await w.cycleAfter(5_000);
    await w.cycleAfter(5_000);
    const told = ['Recording stopped on request', expect.stringMatching(/^Recording available — \d+ s/)];
    expect(w.replies()).toEqual(told);
    // Only the stopped recording's item came back changed.
    const after = await versions();
    expect(after.size).toBe(40);
    expect([...after].filter(([id, version]) => version !== before.get(id)).map(([id]) => id)).toEqual([archives[17]!.id]);
    for (let i = 0; i < 3; i++) await w.cycleAfter(5_000);
    expect(w.replies()).toEqual(told);
  });
});

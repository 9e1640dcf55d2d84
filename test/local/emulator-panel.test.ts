/** The side panel over an in-process emulator: archive ids from the request log, and change reports driven by jest's fake timers. */
import { type RunningEmulator, startEmulator } from '../../src/emulator';
import { EmulatorPanel, PANEL_WATCH_INTERVAL_MS, archiveIdsInRequestLog } from '../../src/local/emulator-panel';

describe('archiveIdsInRequestLog', () => {
  it('takes the archive ids of this project’s paths, once each', () => {
    const log = [
      { path: '/v2/project/111/archive' },
      { path: '/v2/project/111/archive/a-1' },
      { path: '/v2/project/111/archive/a-1/stop' },
      { path: '/v2/project/111/archive/a-2?x=1' },
      { path: '/v2/project/222/archive/b-1' },
      { path: '/v2/project/111/broadcast/c-1' },
    ];
    expect(archiveIdsInRequestLog(log, '111')).toEqual(['a-1', 'a-2']);
  });
});

describe('EmulatorPanel', () => {
  let emulator: RunningEmulator;
  let apiKey: string;
  beforeAll(async () => {
    emulator = await startEmulator();
    apiKey = emulator.control.createProject().apiKey;
  });
  afterAll(async () => {
    await emulator.close();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('reports what changed in the emulator without a panel action, once per change', () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const changed = jest.fn();
    const panel = new EmulatorPanel({ control: emulator.control, apiKey, changed });
    const sessionId = panel.seedSession(2);
    panel.startWatching();
    jest.advanceTimersByTime(PANEL_WATCH_INTERVAL_MS * 3);
    expect(changed).not.toHaveBeenCalled();

    const [first] = panel.sessions()[0]!.participants;
    emulator.control.disconnect(apiKey, sessionId, first!.connectionId);
    jest.advanceTimersByTime(PANEL_WATCH_INTERVAL_MS);
    expect(changed).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(PANEL_WATCH_INTERVAL_MS * 3);
    expect(changed).toHaveBeenCalledTimes(1);

    panel.stopWatching();
    emulator.control.connect(apiKey, sessionId);
    jest.advanceTimersByTime(PANEL_WATCH_INTERVAL_MS * 3);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('names participants from their connection data and seeds a screen share on the second', async () => {
    const panel = new EmulatorPanel({ control: emulator.control, apiKey, changed: () => undefined });
    panel.seedSession(3);
    const [session] = panel.sessions().slice(-1);
    expect(session!.participants.map((p) => [p.name, p.streams.map((s) => s.videoType)])).toEqual([
      ['Alice', ['camera']],
      ['Bob', ['camera', 'screen']],
      ['Chidi', ['camera']],
    ]);
    expect(await panel.run('add-participant', { sessionId: session!.id, name: 'Dana' })).toEqual(
      expect.objectContaining({ ok: true, now: expect.any(String) }),
    );
    expect(await panel.run('archive-state', { archiveId: 'nope', status: 'failed' })).toEqual({ ok: false, error: expect.stringContaining('nope') });
  });
});

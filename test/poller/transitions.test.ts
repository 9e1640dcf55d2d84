import {
  type ArchiveSnapshot,
  type BroadcastSnapshot,
  GONE,
  archiveSnapshot,
  audioSnapshot,
  broadcastSnapshot,
  captionsSnapshot,
  discoverySnapshot,
  renderSnapshot,
  sipSnapshot,
} from '../../src/poller/snapshot';
import { SIP_ANSWER_WINDOW_MS, deadlineOf, diff, expiryTransition, isTerminal, observe } from '../../src/poller/transitions';
import { archive, broadcast, render } from './fakes';

const NOW = 1_700_000_600_000;
const ctx = { now: NOW };
const keys = (transitions: { key: string }[]): string[] => transitions.map((t) => t.key);

describe('archive transitions', () => {
  const snap = (status: string, extra: Partial<ArchiveSnapshot> = {}): ArchiveSnapshot => ({ status, createdAt: 1, durationS: 0, sizeBytes: 0, ...extra });

  it.each([
    ['started', 'paused', ['archive:paused']],
    ['paused', 'started', ['archive:resumed']],
    ['started', 'stopped', ['archive:stopped']],
    ['stopped', 'available', ['archive:available']],
    ['started', 'available', ['archive:stopped', 'archive:available']],
    ['paused', 'uploaded', ['archive:stopped', 'archive:uploaded']],
    ['stopped', 'uploaded', ['archive:uploaded']],
    ['available', 'expired', ['archive:expired']],
    ['started', 'failed', ['archive:failed']],
    ['available', 'deleted', ['archive:deleted']],
    ['started', 'started', []],
    ['stopped', 'stopped', []],
    ['started', 'archiving', ['archive:archiving']],
  ])('%s → %s', (from, to, expected) => {
    expect(keys(diff('archive', snap(from), archive({ id: 'A', status: to, createdAt: 1 }), ctx))).toEqual(expected);
  });

  it('a first sight reports the state it found', () => {
    expect(keys(diff('archive', undefined, archive({ id: 'A', status: 'started' }), ctx))).toEqual(['archive:started']);
  });

  it.each([
    ['maximum duration exceeded', 'warning'],
    ['maximum idle time exceeded', 'warning'],
    ['session ended', 'warning'],
    ['user initiated', 'info'],
  ])('carries the stop reason %s', (reason, severity) => {
    const [stopped] = diff('archive', snap('started'), archive({ id: 'A', status: 'stopped', reason }), ctx);
    expect(stopped).toEqual({ key: 'archive:stopped', severity, event: { type: 'archive-stopped', reason } });
  });

  it('reports duration and size when available', () => {
    const [available] = diff('archive', snap('stopped'), archive({ id: 'A', status: 'available', duration: 720, size: 84_000_000 }), ctx);
    expect(available?.event).toEqual({ type: 'archive-available', durationS: 720, sizeBytes: 84_000_000 });
  });

  it('does not pass the failure reason "failure" on as a stop reason', () => {
    expect(diff('archive', snap('started'), archive({ id: 'A', status: 'failed', reason: 'failure' }), ctx)).toEqual([
      { key: 'archive:failed', severity: 'error', event: { type: 'archive-failed' } },
    ]);
  });

  it('reports a vanished archive once', () => {
    expect(keys(diff('archive', snap('started'), GONE, ctx))).toEqual(['archive:gone']);
    expect(diff('archive', { status: GONE }, GONE, ctx)).toEqual([]);
  });

  it.each([
    ['started', false],
    ['paused', false],
    ['stopped', false],
    ['available', true],
    ['uploaded', true],
    ['expired', true],
    ['failed', true],
    ['deleted', true],
    [GONE, true],
  ])('%s is terminal: %s', (status, terminal) => {
    expect(isTerminal('archive', snap(status))).toBe(terminal);
  });

  it('keeps neither the download URL nor anything unknown in the snapshot', () => {
    const state = archiveSnapshot({ ...archive({ id: 'A', status: 'available', name: 'Weekly' }), url: 'https://files/secret?sig=1' } as never);
    expect(JSON.stringify(state)).not.toContain('secret');
    expect(state).toEqual({ status: 'available', createdAt: 1_700_000_000_000, durationS: 0, sizeBytes: 0, name: 'Weekly' });
  });
});

describe('broadcast transitions', () => {
  const CREATED = NOW - 60_000;
  const rtmpOutputs = (...statuses: [string, string][]) =>
    statuses.map(([id, status]) => ({ id, status, serverUrl: 'rtmp://u:p@host/live', streamName: 'sk-live-KEY' }));
  const live = (hlsStatus: string | undefined, ...rtmp: [string, string][]) =>
    broadcast({ id: 'B', createdAt: CREATED, broadcastUrls: { ...(hlsStatus && { hls: 'https://cdn/p.m3u8', hlsStatus }), rtmp: rtmpOutputs(...rtmp) } });
  const seen = (b: ReturnType<typeof live>, at = NOW - 3_000): BroadcastSnapshot => broadcastSnapshot(b, at);

  it('stays quiet while everything is still connecting', () => {
    expect(diff('broadcast', seen(live('connecting', ['yt', 'connecting'])), live('connecting', ['yt', 'connecting']), ctx)).toEqual([]);
    expect(diff('broadcast', undefined, live('connecting', ['yt', 'connecting']), ctx)).toEqual([]);
  });

  it('walks HLS through connecting → ready → live → ended → error', () => {
    expect(keys(diff('broadcast', seen(live('connecting')), live('ready'), ctx))).toEqual(['broadcast:hls:ready']);
    expect(diff('broadcast', seen(live('ready')), live('live'), ctx)).toEqual([
      { key: 'broadcast:live', severity: 'info', event: { type: 'broadcast-live', hls: 'live', rtmpLive: 0, rtmpTotal: 0 } },
    ]);
    expect(keys(diff('broadcast', seen(live('live')), live('ended'), ctx))).toEqual(['broadcast:hls:ended']);
    expect(diff('broadcast', seen(live('live')), live('error'), ctx)[0]).toMatchObject({ key: 'broadcast:hls:error', severity: 'error' });
  });

  it('tells HLS once when RTMP goes live with HLS ready (the live line says it), but an HLS failure still on its own', () => {
    const previous = seen(live('connecting', ['yt', 'connecting']));
    expect(diff('broadcast', previous, live('ready', ['yt', 'live']), ctx)).toEqual([
      { key: 'broadcast:live', severity: 'info', event: { type: 'broadcast-live', hls: 'ready', rtmpLive: 1, rtmpTotal: 1 } },
    ]);
    expect(keys(diff('broadcast', previous, live('error', ['yt', 'live']), ctx))).toEqual(['broadcast:live', 'broadcast:hls:error']);
  });

  it('summarises outputs going live in one transition and reports each failing output on its own', () => {
    const previous = seen(live('ready', ['yt', 'connecting'], ['fb', 'connecting'], ['tw', 'connecting']));
    const transitions = diff('broadcast', previous, live('live', ['yt', 'live'], ['fb', 'live'], ['tw', 'offline']), ctx);
    expect(transitions).toEqual([
      { key: 'broadcast:live', severity: 'info', event: { type: 'broadcast-live', hls: 'live', rtmpLive: 2, rtmpTotal: 3 } },
      { key: 'broadcast:rtmp:tw:offline', severity: 'warning', event: { type: 'broadcast-rtmp', outputId: 'tw', status: 'offline' } },
    ]);
  });

  it.each([
    ['live', 'offline', 'broadcast:rtmp:yt:offline', 'warning'],
    ['live', 'error', 'broadcast:rtmp:yt:error', 'error'],
    ['live', 'connecting', 'broadcast:rtmp:yt:connecting', 'info'],
    ['offline', 'live', 'broadcast:live', 'info'],
  ])('RTMP %s → %s', (from, to, key, severity) => {
    expect(diff('broadcast', seen(live(undefined, ['yt', from])), live(undefined, ['yt', to]), ctx)).toEqual([expect.objectContaining({ key, severity })]);
  });

  it('blames maxDuration only for a stop first seen in the window that holds the deadline', () => {
    const maxDuration = 3_600;
    const started = { ...live('live'), createdAt: NOW - maxDuration * 1000 - 20_000, maxDuration };
    const stopped = { ...started, status: 'stopped', broadcastUrls: null };
    const before = seen(started, NOW - 30_000);
    expect(diff('broadcast', before, stopped, ctx)).toEqual([
      { key: 'broadcast:stopped', severity: 'warning', event: { type: 'broadcast-stopped', maxDurationS: 3_600 } },
    ]);
    const seenAfterDeadline = seen(started, NOW - 10_000);
    expect(diff('broadcast', seenAfterDeadline, stopped, ctx)).toEqual([{ key: 'broadcast:stopped', severity: 'info', event: { type: 'broadcast-stopped' } }]);
  });

  it('uses the default maxDuration of 4 h when none was set', () => {
    const started = { ...live('live'), createdAt: NOW - 14_400_000 + 1_000 };
    const [stopped] = diff('broadcast', seen(started, NOW - 5_000), { ...started, status: 'stopped', broadcastUrls: null }, { now: NOW + 2_000 });
    expect(stopped?.event).toEqual({ type: 'broadcast-stopped', maxDurationS: 14_400 });
  });

  it('keeps the last outputs when a stopped broadcast comes back without URLs, and reports the stop once', () => {
    const previous = seen(live('live', ['yt', 'live']));
    const { state, transitions } = observe('broadcast', previous, { ...live('live'), status: 'stopped', broadcastUrls: null }, ctx);
    expect(keys(transitions)).toEqual(['broadcast:stopped']);
    expect(state).toMatchObject({ status: 'stopped', hls: 'live', rtmp: { yt: 'live' } });
    expect(isTerminal('broadcast', state)).toBe(true);
    expect(diff('broadcast', state, { ...live('live'), status: 'stopped', broadcastUrls: null }, ctx)).toEqual([]);
  });

  it('never keeps RTMP stream names or server URLs', () => {
    const state = seen(live('live', ['yt', 'live']));
    expect(JSON.stringify(state)).not.toMatch(/sk-live-KEY|rtmp:\/\//);
  });

  it('names outputs without an id by position', () => {
    const b = broadcast({ id: 'B', broadcastUrls: { rtmp: [{ status: 'live' }, { status: 'offline' }] } });
    expect(broadcastSnapshot(b, NOW).rtmp).toEqual({ '#1': 'live', '#2': 'offline' });
  });
});

describe('composer (render) transitions', () => {
  it.each([
    [undefined, 'starting', []],
    ['starting', 'started', ['render:started']],
    [undefined, 'started', ['render:started']],
    ['started', 'stopped', ['render:stopped']],
    ['starting', 'failed', ['render:failed']],
    ['started', 'started', []],
  ])('%s → %s', (from, to, expected) => {
    const previous = from === undefined ? undefined : renderSnapshot(render({ id: 'R', status: from }));
    expect(keys(diff('render', previous, render({ id: 'R', status: to }), ctx))).toEqual(expected);
  });

  it.each([
    ['Stop Requested', 'info'],
    ['Max Duration Exceeded', 'warning'],
  ])('stopped with reason %s', (reason, severity) => {
    const [t] = diff('render', renderSnapshot(render({ id: 'R', status: 'started' })), render({ id: 'R', status: 'stopped', reason }), ctx);
    expect(t).toEqual({ key: 'render:stopped', severity, event: { type: 'render-stopped', reason } });
  });

  it('carries the failure reason', () => {
    const [t] = diff(
      'render',
      renderSnapshot(render({ id: 'R', status: 'started' })),
      render({ id: 'R', status: 'failed', reason: 'Could not load URL' }),
      ctx,
    );
    expect(t?.event).toEqual({ type: 'render-failed', reason: 'Could not load URL' });
  });

  it.each([
    ['starting', false],
    ['started', false],
    ['stopped', true],
    ['failed', true],
  ])('%s is terminal: %s', (status, terminal) => {
    expect(isTerminal('render', renderSnapshot(render({ id: 'R', status })))).toBe(terminal);
  });
});

describe('captions (by the clock)', () => {
  const started = captionsSnapshot(NOW - 300_000, 300);

  it('ends at startedAt + maxDuration', () => {
    expect(diff('captions', started, null, { now: NOW - 1 })).toEqual([]);
    const { state, transitions } = observe('captions', started, null, { now: NOW });
    expect(transitions).toEqual([{ key: 'captions:ended', severity: 'info', event: { type: 'captions-ended', maxDurationS: 300 } }]);
    expect(isTerminal('captions', state)).toBe(true);
    expect(deadlineOf('captions', started)).toBe(NOW);
    expect(deadlineOf('captions', state)).toBeUndefined();
  });

  it('refuses to guess without the start it was created with', () => {
    expect(() => diff('captions', undefined, null, ctx)).toThrow(/initial state/);
  });
});

describe('SIP call (its stream in the session)', () => {
  const dialing = sipSnapshot('ST-call', NOW - 10_000);
  const streams = (...streamIds: string[]) => ({ streamIds });

  it('connects when its stream appears and ends when it leaves', () => {
    const connected = observe('sip', dialing, streams('ST-other', 'ST-call'), ctx);
    expect(keys(connected.transitions)).toEqual(['sip:connected']);
    expect(diff('sip', connected.state, streams('ST-call'), ctx)).toEqual([]);
    const ended = observe('sip', connected.state, streams('ST-other'), ctx);
    expect(ended.transitions).toEqual([{ key: 'sip:ended', severity: 'info', event: { type: 'sip-ended', neverConnected: false } }]);
    expect(isTerminal('sip', ended.state)).toBe(true);
  });

  it('waits for an answer, then gives up after the answer window', () => {
    expect(diff('sip', dialing, streams(), { now: dialing.dialedAt + SIP_ANSWER_WINDOW_MS - 1 })).toEqual([]);
    expect(diff('sip', dialing, streams(), { now: dialing.dialedAt + SIP_ANSWER_WINDOW_MS })).toEqual([
      { key: 'sip:ended', severity: 'warning', event: { type: 'sip-ended', neverConnected: true } },
    ]);
    expect(deadlineOf('sip', dialing)).toBe(dialing.dialedAt + SIP_ANSWER_WINDOW_MS);
  });
});

describe('Audio Connector connection', () => {
  it('ends when none of the streams it forwards is left', () => {
    const waiting = audioSnapshot(['ST1', 'ST2']);
    const active = observe('audio', waiting, { streamIds: ['ST2', 'ST9'] }, ctx);
    expect(active.transitions).toEqual([]);
    expect(active.state.status).toBe('active');
    expect(diff('audio', active.state, { streamIds: ['ST1'] }, ctx)).toEqual([]);
    expect(keys(diff('audio', active.state, { streamIds: ['ST9'] }, ctx))).toEqual(['audio:ended']);
  });

  it('forwarding every stream, it ends when the session has none left', () => {
    const active = observe('audio', audioSnapshot(), { streamIds: ['X'] }, ctx).state;
    expect(diff('audio', active, { streamIds: ['Y'] }, ctx)).toEqual([]);
    expect(keys(diff('audio', active, { streamIds: [] }, ctx))).toEqual(['audio:ended']);
  });
});

describe('session discovery', () => {
  const activity = (archiveIds: string[], broadcastIds: string[]) => ({
    archives: archiveIds.map((id) => archive({ id, name: `rec ${id}` })),
    broadcasts: broadcastIds.map((id) => broadcast({ id })),
  });

  it('learns silently on the first poll, then announces what is new', () => {
    const first = observe('session-discovery', discoverySnapshot(), activity(['A1'], ['B1']), ctx);
    expect(first.transitions).toEqual([]);
    const second = observe('session-discovery', first.state, activity(['A2', 'A1'], ['B1', 'B2']), ctx);
    expect(keys(second.transitions)).toEqual(['discovered:archive:A2', 'discovered:broadcast:B2']);
    expect(second.transitions[0]?.event).toMatchObject({ type: 'discovered-archive', id: 'A2', state: { status: 'started', name: 'rec A2' } });
    expect(isTerminal('session-discovery', second.state)).toBe(false);
  });

  it('ignores broadcasts that are not started', () => {
    const first = observe('session-discovery', discoverySnapshot(), activity([], []), ctx);
    const stopped = { archives: [], broadcasts: [broadcast({ id: 'B9', status: 'stopped' })] };
    expect(observe('session-discovery', first.state, stopped, ctx).transitions).toEqual([]);
  });
});

describe('watch expiry', () => {
  it('names the kind and the last status', () => {
    expect(expiryTransition('archive', { status: 'paused' })).toEqual({
      key: 'watch:expired',
      severity: 'info',
      event: { type: 'watch-expired', kind: 'archive', lastStatus: 'paused' },
    });
  });
});

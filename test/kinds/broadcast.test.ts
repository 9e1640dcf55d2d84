/**
 * The broadcast kind on its own: its card drawn from the model at start, after every transition
 * and after Stop, keeping the HLS URL, the outputs (id and host, never a key), the options and
 * who started it; no output live, ready or connecting once it has stopped; Stop only while live.
 */
import type { Broadcast } from '../../src/api';
import { readModel } from '../../src/kinds/kind';
import { type BroadcastContext, broadcastContext, broadcastKind } from '../../src/kinds/broadcast';
import { type BroadcastSnapshot, type GoneSnapshot, broadcastSnapshot } from '../../src/poller/snapshot';
import { ACTION } from '../../src/views/ids';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const KEY = 'sk_live_SUPERSECRET_4242';
const T0 = Date.parse('2026-11-02T17:00:00Z');
const SESSION_ID = `2_MX4${'a'.repeat(40)}`;
const ID = '6706b658-2eba-42cc-b4d2-7d01a104d182';
const HLS_URL = 'https://cdn.example.com/hls/abc/playlist.m3u8';

const started = {
  id: ID,
  sessionId: SESSION_ID,
  projectId: '123',
  createdAt: T0,
  updatedAt: T0,
  resolution: '1920x1080',
  status: 'started',
  streamMode: 'manual',
  streams: [{ streamId: 's1' }, { streamId: 's2' }],
  hasAudio: true,
  hasVideo: true,
  maxDuration: 7200,
  maxBitrate: 2_500_000,
  multiBroadcastTag: 'town-hall',
  broadcastUrls: {
    hls: HLS_URL,
    hlsStatus: 'connecting',
    rtmp: [{ id: 'yt', serverUrl: 'rtmps://a.rtmp.youtube.com:443/live2', streamName: KEY, status: 'connecting' }],
  },
} as unknown as Broadcast;

const context: BroadcastContext = broadcastContext(started, { startedBy: 'U0MOD', alias: 'town-hall', hls: { lowLatency: true } });

const snap = (status: string, hls: string, yt: string): BroadcastSnapshot => ({ status, createdAt: T0, maxDurationS: 7200, hls, rtmp: { yt }, observedAt: T0 });

const draw = (state: BroadcastSnapshot | GoneSnapshot, actions: { action: string; by: string; at: number }[] = [], ctx = context) =>
  broadcastKind.render({ resourceId: ID, sessionId: SESSION_ID, projectName: 'prod', state, context: ctx, actions, now: T0 });

const CONTEXT_SHOWN = [
  'started a live broadcast of session `town-hall`',
  '*Resolution*\n1920x1080',
  'chosen by hand (2 selected)',
  '`town-hall`',
  '2.5 Mbit/s',
  'a.rtmp.youtube.com',
  `session ID \`${SESSION_ID}\``,
];
const STOPPED_SHOWN = [
  'The broadcast of session `town-hall` has stopped',
  'stopped by <@U0ANA>',
  '*Resolution*\n1920x1080',
  'chosen by hand (2 selected)',
  '2.5 Mbit/s',
  'a.rtmp.youtube.com',
  'by <@U0MOD>',
];
const stop = { action: 'stop', by: 'U0ANA', at: T0 + 60_000 };

describe('broadcast card from its model', () => {
  it('keeps the HLS URL and the outputs’ hosts, never a stream key', () => {
    expect(context).toMatchObject({ hlsUrl: HLS_URL, rtmp: [{ id: 'yt', host: 'a.rtmp.youtube.com' }], streamCount: 2, tag: 'town-hall' });
    expect(JSON.stringify(context)).not.toContain(KEY);
  });

  it.each([
    ['at start', broadcastSnapshot(started, T0), [], true, ':hourglass_flowing_sand: connecting'],
    ['HLS ready, RTMP live (transition)', snap('started', 'ready', 'live'), [], true, ':large_yellow_circle: ready'],
    ['HLS live (transition)', snap('started', 'live', 'live'), [], true, ':large_green_circle: live'],
    ['RTMP offline (transition)', snap('started', 'live', 'offline'), [], true, ':red_circle: offline'],
  ])('%s: the HLS URL and every context field, Stop while live', (_when, state, actions, running, shown) => {
    const card = draw(state, actions);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain(HLS_URL);
    expect(text).toContain(shown);
    expect(text).toContain('low latency');
    for (const field of CONTEXT_SHOWN) expect(text).toContain(field);
    expect(findElements(card, ACTION.broadcastStop)).toHaveLength(running ? 1 : 0);
    expect(card.text).toContain('town-hall');
    expect(JSON.stringify(card)).not.toContain(KEY);
  });

  it.each([
    ['stopped by @ana (action) while HLS was live', snap('stopped', 'live', 'live')],
    ['stopped while HLS was still connecting', snap('stopped', 'connecting', 'connecting')],
    ['stopped while HLS was ready', snap('stopped', 'ready', 'live')],
    ['gone', { status: 'gone' } as GoneSnapshot],
  ])('%s: no output live, ready or connecting, no Stop, who stopped it', (_when, state) => {
    const card = draw(state, [stop]);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const field of STOPPED_SHOWN) expect(text).toContain(field);
    expect(text).not.toMatch(/:large_green_circle: live|ready, waiting|:hourglass_flowing_sand: connecting/);
    expect(text).toContain('*HLS* :black_circle: closed (the broadcast stopped)');
    expect(text).toContain('`yt` a.rtmp.youtube.com — :black_circle: closed (the broadcast stopped)');
    expect(text).toContain('Stopped by <@U0ANA>');
    expect(findElements(card, ACTION.broadcastStop)).toEqual([]);
    expect(card.text).toBe('The broadcast of session town-hall has stopped');
  });

  it('a row stored by the previous version (no card model) renders the statuses its snapshot holds', () => {
    const model = readModel(broadcastKind, undefined);
    const card = draw(snap('started', 'live', 'offline'), model.actions, model.context);
    expect(messageProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain('*HLS* :large_green_circle: live');
    expect(text).toContain('`yt`');
    expect(text).toContain(':red_circle: offline');
    expect(findElements(card, ACTION.broadcastStop)).toHaveLength(1);
  });
});

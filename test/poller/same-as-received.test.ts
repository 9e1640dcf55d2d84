/**
 * A poll that finds a listed archive as it was answers from the fields as received, without the
 * item's schema check or a new snapshot (src/poller/snapshot.ts `sameArchiveAsReceived`); any
 * field changed, of another type or normalised by the schema takes the full way, where a
 * malformed item still fails.
 */
import { RETRY_NONE, VideoApiError, VideoClient, closeSharedPools } from '../../src/api';
import {
  archiveSnapshot,
  broadcastSnapshot,
  renderSnapshot,
  sameArchiveAsReceived,
  sameBroadcastAsReceived,
  sameRenderAsReceived,
  sameSnapshot,
} from '../../src/poller/snapshot';
import { observeWatch, quietSnapshot } from '../../src/poller/transitions';
import { type FakeService, type Reply, startFakeService } from '../api/support/fake-service';

const ARCHIVE = { id: 'A1', sessionId: 'S1', createdAt: 1_700_000_000_000, status: 'started', duration: 0, size: 0, name: 'Weekly', reason: '' };

let service: FakeService;
let reply: Reply;
let client: VideoClient;

beforeAll(async () => {
  service = await startFakeService(() => reply);
  client = new VideoClient({ baseUrl: service.baseUrl, apiKey: '46123456', apiSecret: 'project-secret-0123456789abcdef', retry: RETRY_NONE });
});
afterAll(async () => {
  await service.close();
  await closeSharedPools();
});

/** The item as the list parser hands it out (wrapped: awaiting a lazily checked item itself would read its `then`). */
async function listed(item: Record<string, unknown>) {
  reply = { body: { count: 1, items: [item] } };
  const page = await client.archives.list({ count: 1 });
  return { item: page.items[0]! };
}

const previous = archiveSnapshot({ ...ARCHIVE, name: 'Weekly', reason: undefined } as never);

test.each([
  ['the same fields', {}, true],
  ['fields the snapshot does not keep changed', { url: 'https://example.com/a.mp4', partnerId: '46123456', extra: { x: 1 } }, true],
  ['duration and size absent (the schema makes them 0)', { duration: undefined, size: undefined }, true],
  ['name null or reason absent', { reason: null }, true],
  ['another status', { status: 'stopped' }, false],
  ['a new duration', { duration: 12 }, false],
  ['createdAt in seconds (the schema makes it ms)', { createdAt: 1_700_000_000 }, false],
  ['a duration sent as text', { duration: '0' }, false],
  ['a name that is not a string', { name: 7 }, false],
  ['a reason given', { reason: 'session ended' }, false],
])('%s → %s', async (_what, change, same) => {
  const { item } = await listed({ ...ARCHIVE, ...change });
  expect(sameArchiveAsReceived(item, previous)).toBe(same);
});

test('an archive read by GET (checked whole) is never taken as the same: it takes the full way', () => {
  expect(sameArchiveAsReceived({ ...ARCHIVE, reason: undefined } as never, previous)).toBe(false);
});

test('an unchanged archive keeps its snapshot and tells nothing; a changed one is checked, and a malformed one still fails', async () => {
  const watch = { kind: 'archive' as const, lastState: previous };
  const unchanged = (await listed({ ...ARCHIVE, sessionId: 42 })).item;
  // sessionId is malformed, but the poll needs none of it: the snapshot stands, the very object.
  const kept = observeWatch(watch, unchanged, { now: 0 });
  expect(kept.state).toBe(previous);
  expect(kept.transitions).toEqual([]);
  const stopped = (await listed({ ...ARCHIVE, status: 'stopped', sessionId: 42 })).item;
  expect(() => observeWatch(watch, stopped, { now: 0 })).toThrow(VideoApiError);
  const fine = (await listed({ ...ARCHIVE, status: 'stopped' })).item;
  expect(observeWatch(watch, fine, { now: 0 }).transitions.map((t) => t.key)).toEqual(['archive:stopped']);
});

const RENDER = {
  id: 'R1',
  sessionId: 'S1',
  applicationId: 'app',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  url: 'https://example.com/page',
  status: 'started',
  name: 'Board',
  reason: '',
};

async function listedRender(item: Record<string, unknown>) {
  reply = { body: { count: 1, items: [item] } };
  const page = await client.render.list({ count: 1 });
  return { item: page.items[0]! };
}

describe('a listed composer as received', () => {
  const prior = renderSnapshot({ ...RENDER, reason: undefined } as never);

  test.each([
    ['the same fields', {}, true],
    ['fields the snapshot does not keep changed', { url: 'https://example.com/other', updatedAt: 1_700_000_900_000 }, true],
    ['another status', { status: 'stopped' }, false],
    ['a reason given', { reason: 'Max Duration Exceeded' }, false],
    ['createdAt in seconds (the schema makes it ms)', { createdAt: 1_700_000_000 }, false],
    ['a name that is not a string', { name: 7 }, false],
  ])('%s → %s', async (_what, change, same) => {
    const { item } = await listedRender({ ...RENDER, ...change });
    expect(sameRenderAsReceived(item, prior)).toBe(same);
    // The poll keeps the very snapshot exactly when the fields are the same.
    expect(quietSnapshot({ kind: 'render', lastState: prior }, item, 0) === prior).toBe(same);
  });
});

describe('quietSnapshot answers as observe would, without building what a change needs', () => {
  const BROADCAST = {
    id: 'B1',
    sessionId: 'S1',
    createdAt: 1_700_000_000_000,
    status: 'started',
    maxDuration: 7_200,
    broadcastUrls: { hls: 'https://cdn/x.m3u8', hlsStatus: 'live', rtmp: [{ id: 'yt', status: 'live', serverUrl: 'rtmps://x', streamName: 'k' }] },
  };
  const prior = broadcastSnapshot(BROADCAST as never, 1_000);

  async function listedBroadcast(item: Record<string, unknown>) {
    reply = { body: { count: 1, items: [item] } };
    const page = await client.broadcasts.list({ count: 1 });
    return { item: page.items[0]! };
  }

  test.each([
    ['nothing new', {}],
    ['an output offline', { broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp: [{ ...BROADCAST.broadcastUrls.rtmp[0]!, status: 'offline' }] } }],
    ['HLS ended', { broadcastUrls: { ...BROADCAST.broadcastUrls, hlsStatus: 'ended' } }],
    [
      'a second output',
      {
        broadcastUrls: {
          ...BROADCAST.broadcastUrls,
          rtmp: [...BROADCAST.broadcastUrls.rtmp, { id: 'fb', status: 'connecting', serverUrl: 'rtmps://y', streamName: 'j' }],
        },
      },
    ],
    ['stopped', { status: 'stopped', broadcastUrls: undefined }],
    [
      'outputs keyed by id, as lists send them',
      { broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp: { yt: { serverUrl: 'rtmps://x', streamName: 'k', status: 'live' } } } },
    ],
    [
      'keyed outputs, one offline',
      { broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp: { yt: { serverUrl: 'rtmps://x', streamName: 'k', status: 'offline' } } } },
    ],
    ['an output without a status', { broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp: [{ id: 'yt', serverUrl: 'rtmps://x', streamName: 'k' }] } }],
    ['HLS without a status', { broadcastUrls: { hls: 'https://cdn/x.m3u8', rtmp: BROADCAST.broadcastUrls.rtmp } }],
    ['another maxDuration', { maxDuration: 3_600 }],
    ['no maxDuration', { maxDuration: undefined }],
    ['no outputs any more', { broadcastUrls: { hls: 'https://cdn/x.m3u8', hlsStatus: 'live' } }],
  ])('a broadcast: %s', async (_what, change) => {
    const { item } = await listedBroadcast({ ...BROADCAST, ...change });
    const watch = { kind: 'broadcast' as const, lastState: prior };
    const observed = observeWatch(watch, item, { now: 2_000 });
    const quiet = quietSnapshot(watch, item, 2_000);
    // Quiet: no transition, and the snapshot the same but for when it was read (a new output
    // still connecting tells nothing, but is written).
    if (observed.transitions.length === 0 && sameSnapshot({ ...observed.state, observedAt: 0 }, { ...prior, observedAt: 0 })) {
      expect(quiet).toEqual(observed.state);
      expect(quiet).toMatchObject({ observedAt: 2_000 });
    } else {
      expect(quiet).toBeUndefined();
    }
  });

  test('an unchanged broadcast is answered from its fields as received, in either form of outputs', async () => {
    for (const rtmp of [BROADCAST.broadcastUrls.rtmp, { yt: { serverUrl: 'rtmps://x', streamName: 'k', status: 'live' } }]) {
      const { item } = await listedBroadcast({ ...BROADCAST, broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp } });
      expect(sameBroadcastAsReceived(item, prior)).toBe(true);
    }
    const stopped = await listedBroadcast({ ...BROADCAST, status: 'stopped', broadcastUrls: null });
    expect(sameBroadcastAsReceived(stopped.item, { ...prior, status: 'stopped' })).toBe(false);
  });

  test('a malformed broadcast is caught when a field the snapshot reads is not as before', async () => {
    const watch = { kind: 'broadcast' as const, lastState: prior };
    const { item } = await listedBroadcast({ ...BROADCAST, status: 7 });
    expect(() => quietSnapshot(watch, item, 2_000)).toThrow(VideoApiError);
    const outputs = await listedBroadcast({ ...BROADCAST, broadcastUrls: { ...BROADCAST.broadcastUrls, rtmp: [{ id: 'yt', status: 'live' }] } });
    // The outputs' URLs are not what a poll reads: as with archives, they are not checked then.
    expect(quietSnapshot(watch, outputs.item, 2_000)).toEqual({ ...prior, observedAt: 2_000 });
  });

  test('an archive gone, or one never seen before, is never quiet', async () => {
    const previous = archiveSnapshot(ARCHIVE as never);
    expect(quietSnapshot({ kind: 'archive', lastState: previous }, 'gone', 0)).toBeUndefined();
    expect(quietSnapshot({ kind: 'archive', lastState: undefined }, (await listed(ARCHIVE)).item, 0)).toBeUndefined();
  });
});

/**
 * A poll that finds a listed archive as it was answers from the fields as received, without the
 * item's schema check or a new snapshot (src/poller/snapshot.ts `sameArchiveAsReceived`); any
 * field changed, of another type or normalised by the schema takes the full way, where a
 * malformed item still fails.
 */
import { RETRY_NONE, VideoApiError, VideoClient, closeSharedPools } from '../../src/api';
import { archiveSnapshot, sameArchiveAsReceived } from '../../src/poller/snapshot';
import { observeWatch } from '../../src/poller/transitions';
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

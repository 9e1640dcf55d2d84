import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RETRY_NONE, VideoApiError, VideoClient, closeSharedPools } from '../../src/api';
import { type Archive, archiveSchema } from '../../src/api/archives';
import { type PageItems, PageMemory, allItems, receivedVersion } from '../../src/api/lists';
import { broadcastSchema } from '../../src/api/broadcasts';
import { parseJson } from '../../src/api/http';
import { renderSchema } from '../../src/api/render';
import { type FakeService, type Reply, startFakeService } from './support/fake-service';

// List pages are checked in two steps (src/api/lists.ts): the envelope when the page arrives,
// each item when something other than its id is first read. These tests hold both steps to the
// tolerance and the rejections a fully validated page had.

const FIXTURES = join(__dirname, '..', 'reference', 'fixtures');
const recorded = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { count: number; items: Record<string, unknown>[] };

const API_KEY = '46123456';
const SECRET = 'project-secret-0123456789abcdef';
const ARCHIVE = { id: 'A1', sessionId: 'S1', createdAt: 1_700_000_000_000, status: 'started' };

let service: FakeService;
let reply: Reply;
let client: VideoClient;

beforeAll(async () => {
  service = await startFakeService(() => reply);
  client = new VideoClient({ baseUrl: service.baseUrl, apiKey: API_KEY, apiSecret: SECRET, retry: RETRY_NONE });
});

afterAll(async () => {
  await service.close();
  await closeSharedPools();
});

async function failure(promise: Promise<unknown>): Promise<VideoApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(VideoApiError);
    return error as VideoApiError;
  }
  throw new Error('expected the call to fail');
}

function thrownBy(read: () => unknown): VideoApiError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(VideoApiError);
    return error as VideoApiError;
  }
  throw new Error('expected the read to throw');
}

describe('recorded list bodies stay tolerated', () => {
  test.each([
    ['archive.list.ruby.json', archiveSchema, () => client.archives.list()],
    ['archive.list.opentok-node.json', archiveSchema, () => client.archives.list()],
    ['archive.list.vonage-node.json', archiveSchema, () => client.archives.list()],
    ['broadcast.list.ruby.json', broadcastSchema, () => client.broadcasts.list()],
    ['render.list.ruby.json', renderSchema, () => client.render.list()],
    ['render.list.php.json', renderSchema, () => client.render.list()],
  ] as const)('%s: every item reads as its schema parses it alone', async (file, schema, list) => {
    const body = recorded(file);
    reply = { body };
    const page = await list();
    expect(page.count).toBe(body.count);
    expect(page.items.map((item) => item.id)).toEqual(body.items.map((item) => item.id));
    page.items.forEach((item, i) => {
      const alone = parseJson(schema as typeof archiveSchema, JSON.stringify(body.items[i]));
      expect({ ...item }).toEqual(alone);
      expect(JSON.parse(JSON.stringify(item))).toEqual(JSON.parse(JSON.stringify(alone)));
      expect(Object.keys(item).sort()).toEqual(Object.keys(alone).sort());
    });
  });

  test('quirks are normalised and unknown fields kept, as in a single get', async () => {
    const body = recorded('archive.list.opentok-node.json');
    body.items[0] = { ...body.items[0], createdAt: 1391457926, notInTheSpec: { nested: true } };
    reply = { body };
    const [first, second] = (await client.archives.list()).items;
    expect(first!.createdAt).toBe(1391457926000);
    expect(first!.projectId).toBe('APIKEY');
    expect(first!.hasAudio).toBe(true);
    expect(first!.outputMode).toBe('composed');
    expect((first as unknown as Record<string, unknown>).notInTheSpec).toEqual({ nested: true });
    expect('notInTheSpec' in first!).toBe(true);
    expect(second!.name).toBe('Archive 3');
  });

  test('items read as the plain objects they validate to: spread, keys, assignment', async () => {
    reply = { body: { count: 1, items: [ARCHIVE] } };
    const [item] = (await client.archives.list()).items;
    expect({ ...item }).toMatchObject({ id: 'A1', sessionId: 'S1', createdAt: ARCHIVE.createdAt, status: 'started', duration: 0, streams: [] });
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    item!.status = 'stopped';
    expect(item!.status).toBe('stopped');
    expect({ ...item }.status).toBe('stopped');
  });
});

describe('a malformed item fails where it is read, naming itself', () => {
  const malformed = { id: 'A2', sessionId: 42, status: 'started', createdAt: 'yesterday', secretEcho: SECRET };

  test('the page arrives; its ids and its other items read normally', async () => {
    reply = { body: { count: 3, items: [ARCHIVE, malformed, { ...ARCHIVE, id: 'A3' }] } };
    const page = await client.archives.list({ count: 3 });
    expect(page.items.map((item) => item.id)).toEqual(['A1', 'A2', 'A3']);
    expect(page.items[0]!.status).toBe('started');
    expect(page.items[2]!.createdAt).toBe(ARCHIVE.createdAt);
  });

  test('reading it throws the VideoApiError the response would have, with the item, the call and no secret', async () => {
    reply = { body: { count: 2, items: [ARCHIVE, malformed] } };
    const item = (await client.archives.list({ count: 2 })).items[1]!;
    const error = thrownBy(() => item.status);
    expect(error.code).toBe('UNEXPECTED_RESPONSE');
    expect(error.status).toBe(200);
    expect(error.method).toBe('GET');
    expect(error.path).toBe(`/v2/project/${API_KEY}/archive`);
    expect(error.message).toMatch(/^GET \/v2\/project\/46123456\/archive returned 200 with an unexpected item "A2": sessionId: .*expected string/);
    expect(error.message).toMatch(/createdAt/);
    expect(error.raw).toContain('"id":"A2"');
    expect(error.raw).not.toContain(SECRET);
    // Every later read fails the same way; spreading or serialising does not bypass the check.
    expect(thrownBy(() => item.sessionId)).toBe(error);
    expect(thrownBy(() => ({ ...item }))).toBe(error);
    expect(thrownBy(() => JSON.stringify(item))).toBe(error);
  });

  test('broadcasts and renders too', async () => {
    reply = { body: { count: 1, items: [{ id: 'B1', sessionId: 'S1', createdAt: 1, status: 'started', broadcastUrls: { rtmp: 'nope' } }] } };
    const broadcast = (await client.broadcasts.list()).items[0]!;
    expect(thrownBy(() => broadcast.broadcastUrls).message).toMatch(/unexpected item "B1": broadcastUrls\.rtmp/);
    reply = { body: { count: 1, items: [{ id: 'R1', sessionId: 'S1', createdAt: 1, status: 'started' }] } };
    const render = (await client.render.list()).items[0]!;
    expect(thrownBy(() => render.url).message).toMatch(/unexpected item "R1": url/);
  });
});

describe('a malformed envelope fails the call, as before', () => {
  test.each([
    ['an item without an id', { count: 1, items: [{ sessionId: 'S1' }] }, /items: item 0 is not an object with a string id/],
    ['an item that is not an object', { count: 2, items: [ARCHIVE, 'A2'] }, /items: item 1 is not an object with a string id/],
    ['a numeric id', { count: 1, items: [{ ...ARCHIVE, id: 7 }] }, /items: item 0 is not an object with a string id/],
    ['items not an array', { count: 1, items: { A1: ARCHIVE } }, /items: expected an array of items, received object/],
    ['no count', { items: [ARCHIVE] }, /count: .*expected number/],
    ['a fractional count', { count: 1.5, items: [ARCHIVE] }, /count: .*expected int/],
  ])('%s', async (_name, body, message) => {
    reply = { body };
    const error = await failure(client.archives.list());
    expect(error.code).toBe('UNEXPECTED_RESPONSE');
    expect(error.path).toBe(`/v2/project/${API_KEY}/archive`);
    expect(error.message).toMatch(message);
  });

  test('a body that is not JSON', async () => {
    reply = { body: '{"count": 1, "items": [', headers: { 'content-type': 'application/json' } };
    const error = await failure(client.broadcasts.list());
    expect(error.code).toBe('MALFORMED_RESPONSE');
  });
});

describe('listEach: a page handed over as it is parsed', () => {
  // ~250 bytes an item, as the service's are: a page of 1,000 is read in pieces.
  const archives = (n: number) =>
    Array.from({ length: n }, (_v, i) => ({
      ...ARCHIVE,
      id: `A${i}`,
      name: `recording ${i} of a long day`,
      createdAt: 1_700_000_000_000 - i,
      url: `https://storage.example.com/46123456/A${i}/archive.mp4?Expires=1700000000&Signature=abcdefghijklmnopqrstuvwxyz0123456789`,
    }));

  test('a large page in several pieces, each item checked as list checks it, with the page summed up', async () => {
    const items = archives(1000);
    reply = { body: { count: 4321, items } };
    const pieces: string[][] = [];
    const page = await client.archives.listEach({ count: 1000 }, (piece) => pieces.push(allItems(piece).map((item) => item.id)));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.flat()).toEqual(items.map((item) => item.id));
    expect(page).toMatchObject({ count: 4321, length: 1000 });
    expect(page.last?.status).toBe('started');
    expect(page.last?.id).toBe('A999');
  });

  test('a small page in one piece, as list reads it', async () => {
    reply = { body: { count: 2, items: archives(2) } };
    const pieces: number[] = [];
    await expect(client.broadcasts.listEach({}, (piece) => pieces.push(piece.length))).resolves.toMatchObject({ count: 2, length: 2 });
    expect(pieces).toEqual([2]);
  });

  test('what the visitor throws comes out as it is, and nothing after it is handed over', async () => {
    reply = { body: { count: 1000, items: archives(1000) } };
    const bug = new TypeError('a bug in the caller');
    let calls = 0;
    const visit = () => {
      calls += 1;
      throw bug;
    };
    await expect(client.archives.listEach({ count: 1000 }, visit)).rejects.toBe(bug);
    expect(calls).toBe(1);
  });

  test('an item without an id fails the call, naming its place in the page', async () => {
    const items: Record<string, unknown>[] = archives(1000);
    items[700] = { sessionId: 'S1' };
    reply = { body: { count: 1000, items } };
    const error = await failure(client.archives.listEach({ count: 1000 }, () => undefined));
    expect(error.message).toMatch(/items: item 700 is not an object with a string id/);
    // list parses its page whole, and says the same.
    expect((await failure(client.archives.list({ count: 1000 }))).message).toMatch(/items: item 700 is not an object with a string id/);
  });

  test('a large body that stops being JSON fails as malformed, as list does', async () => {
    const text = JSON.stringify({ count: 1000, items: archives(1000) }).replace('"A990"', '"A990');
    reply = { body: text, headers: { 'content-type': 'application/json' } };
    expect((await failure(client.render.listEach({}, () => undefined))).message).toMatch(/malformed response: body is not valid JSON/);
    expect((await failure(client.archives.list())).message).toMatch(/malformed response: body is not valid JSON/);
  });
});

describe('listEach with a PageMemory: each answer compared with the last of the same request', () => {
  const archives = (n: number, status = 'started') =>
    Array.from({ length: n }, (_v, i) => ({ ...ARCHIVE, id: `A${i}`, name: `recording ${i}`, createdAt: 1_700_000_000_000 - i, status }));

  async function read(memory: PageMemory, query: { count?: number } = { count: 1000 }): Promise<Archive[]> {
    const items: Archive[] = [];
    await client.archives.listEach(query, (piece) => items.push(...allItems(piece)), undefined, memory);
    return items;
  }

  test('items answered byte for byte keep their version; a changed one gets a new one and reads as changed', async () => {
    const memory = new PageMemory();
    const sent = archives(1000);
    reply = { body: { count: 1000, items: sent } };
    const first = await read(memory);
    expect(first.map((item) => item.id)).toEqual(sent.map((item) => item.id));
    expect(first.map(receivedVersion).every((version) => typeof version === 'number')).toBe(true);
    reply = { body: { count: 1000, items: sent.map((item, i) => (i === 600 ? { ...item, status: 'stopped', reason: 'user initiated' } : item)) } };
    const second = await read(memory);
    second.forEach((item, i) => {
      if (i === 600) expect(receivedVersion(item)).not.toBe(receivedVersion(first[i]!));
      else expect(receivedVersion(item)).toBe(receivedVersion(first[i]!));
    });
    expect(second[600]!.status).toBe('stopped');
    expect(second[599]!.status).toBe('started');
    expect(memory.itemCount).toBe(1000);
  });

  test('items read out of order read as received; the last item, read first, is parsed alone', async () => {
    const sent = archives(1000).map((item) => ({ ...item, name: `recording ${item.id}, read on its own` }));
    reply = { body: { count: 1000, items: sent } };
    const memory = new PageMemory();
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const page = await client.archives.listEach({ count: 1000 }, () => undefined, undefined, memory);
      // What the poller reads of a page to decide whether to read the next: the one item parsed (the envelope aside).
      expect(page.last?.createdAt).toBe(sent[999]!.createdAt);
      expect(parse.mock.calls.map(([text]) => String(text).match(/"id":/g)?.length).filter((ids) => ids !== undefined)).toEqual([1]);
    } finally {
      parse.mockRestore();
    }
    memory.release();
    const names: string[] = [];
    await client.archives.listEach(
      { count: 1000 },
      (piece) => {
        for (const i of [piece.length - 1, 0, 500, 1, piece.length - 2, 499, 549, 550]) {
          const item = piece.item(i);
          expect(item.name).toBe(`recording ${item.id}, read on its own`);
          names.push(item.id);
        }
      },
      undefined,
      memory,
    );
    expect(names).toEqual(['A999', 'A0', 'A500', 'A1', 'A998', 'A499', 'A549', 'A550']);
  });

  test('the real service’s recorded page: read twice, the same versions, its items as list checks them', async () => {
    // Its very bytes: printed with spaces, as the service sends them.
    reply = { body: readFileSync(join(FIXTURES, 'archive.list.opentok-node.json'), 'utf8'), headers: { 'content-type': 'application/json' } };
    const memory = new PageMemory();
    const items = await read(memory, {});
    const again = await read(memory, {});
    expect(again.map(receivedVersion)).toEqual(items.map(receivedVersion));
    const listed = await client.archives.list();
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(listed.items)));
  });

  test('what the page cannot be read as fails as without a memory, and the memory starts again', async () => {
    const memory = new PageMemory();
    const sent = archives(1000);
    reply = { body: { count: 1000, items: sent } };
    const first = await read(memory);
    const withoutId: Record<string, unknown>[] = [...sent];
    withoutId[700] = { sessionId: 'S1' };
    reply = { body: { count: 1000, items: withoutId } };
    expect((await failure(read(memory))).message).toMatch(/items: item 700 is not an object with a string id/);
    expect(memory.last).toBeUndefined();
    reply = { body: JSON.stringify({ count: 1000, items: sent }).replace('"A990"', '"A990'), headers: { 'content-type': 'application/json' } };
    expect((await failure(read(memory))).message).toMatch(/malformed response: body is not valid JSON/);
    reply = { body: { count: 1000, items: sent.map((item, i) => (i === 3 ? { ...item, duration: 'long' } : item)) } };
    const malformed = await read(memory);
    expect(() => malformed[3]!.status).toThrow(/item "A3"/);
    // Scanned whole again: nothing keeps the versions of the answer before the failures.
    expect(malformed.some((item, i) => receivedVersion(item) === receivedVersion(first[i]!))).toBe(false);
  });

  test('the page’s bytes are not kept: the items taken during the read are parsed before it ends, and read as sent after it', async () => {
    const memory = new PageMemory();
    const sent = archives(1000);
    reply = { body: { count: 1000, items: sent } };
    const versions = (await read(memory)).map(receivedVersion);
    reply = { body: { count: 1000, items: sent.map((item, i) => ([10, 11, 700].includes(i) ? { ...item, status: 'paused' } : item)) } };
    const taken: Archive[] = [];
    let kept: PageItems<Archive> | undefined;
    const parse = jest.spyOn(JSON, 'parse');
    const itemsParsed = () => parse.mock.calls.map(([text]) => String(text).match(/"id":/g)?.length).filter((ids) => ids !== undefined);
    try {
      await client.archives.listEach(
        { count: 1000 },
        (piece) => {
          kept = piece;
          // As the poller does: the items whose version changed are taken, none of them read yet.
          for (let i = 0; i < piece.length; i++) if (piece.version(i) !== versions[i]) taken.push(piece.item(i));
        },
        undefined,
        memory,
      );
      // Parsed as the read ended: 10 and 11 together, 700, and the last item (what decides on a next page).
      expect(itemsParsed()).toEqual([2, 1, 1]);
      expect(taken.map((item) => [item.id, item.status, item.name])).toEqual([
        ['A10', 'paused', 'recording 10'],
        ['A11', 'paused', 'recording 11'],
        ['A700', 'paused', 'recording 700'],
      ]);
      expect(itemsParsed()).toEqual([2, 1, 1]);
    } finally {
      parse.mockRestore();
    }
    // An item not taken while the page was read can no longer be read from it; its id and version can.
    expect(() => kept!.item(12).status).toThrow(/item 12 of a list page read after the page's bytes were let go/);
    expect(kept!.id(12)).toBe('A12');
    expect(kept!.version(12)).toBe(versions[12]);
    expect(memory.itemCount).toBe(1000);
  });

  test('a page’s arrays are written over by the read after next once released, never while its items may be read', async () => {
    const memory = new PageMemory();
    const answer = (status: string, n = 1000) => (reply = { body: { count: n, items: archives(n, status) } });
    const statuses = (items: Archive[]) => [...new Set(items.map((item) => item.status))];
    answer('started');
    const first = await read(memory);
    const firstPage = memory.last!;
    answer('paused');
    await read(memory);
    // Not released: the first read's items may still be read; the third scan takes arrays of its own.
    answer('stopped');
    const third = await read(memory);
    expect(memory.last!).not.toBe(firstPage);
    expect(statuses(first)).toEqual(['started']);
    memory.release();
    const thirdPage = memory.last!;
    answer('started', 900);
    const fourth = await read(memory);
    memory.release();
    answer('paused', 950);
    const fifth = await read(memory);
    // The third page's arrays, released two reads ago, hold the fifth: its items, ids and versions as sent.
    expect(memory.last!).toBe(thirdPage);
    expect(thirdPage.ids.length).toBe(950);
    expect(fifth.map((item) => item.id)).toEqual(archives(950).map((item) => item.id));
    expect(statuses(fifth)).toEqual(['paused']);
    expect(fifth.map(receivedVersion)).not.toContain(undefined);
    expect(new Set(fifth.map(receivedVersion)).size).toBe(950);
    expect(fourth.length).toBe(900);
    expect(third.length).toBe(1000);
  });
});

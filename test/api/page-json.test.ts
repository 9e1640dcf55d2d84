import { parseArchiveList } from '../../src/api/archives';
import { ResponseBody } from '../../src/api/body';
import { responseContext } from '../../src/api/http';
import { PIECE_BYTES, parsePageInPieces } from '../../src/api/page-json';
import { mulberry32 } from '../../src/emulator/insights/random';
import { listedArchives } from './support/listed-archives';

const NAMES = ['rec', 'Réunion d’équipe', '会议', '🎥 stand-up', 'a "quoted" }, {"id": name', 'back\\slash'];

function archive(i: number, next: () => number): Record<string, unknown> {
  const streams = Array.from({ length: Math.floor(next() * 4) }, (_v, k) => ({ streamId: `stream-${i}-${k}`, hasAudio: true, hasVideo: k % 2 === 0 }));
  return {
    id: `b8f5c7e2-1234-4abc-9def-${String(i).padStart(12, '0')}`,
    status: next() < 0.5 ? 'started' : 'available',
    name: `${NAMES[i % NAMES.length]}-${i}`,
    sessionId: '2_MX40NTMyODc3Mn5-MTY4MjUyOTI0NzQ1OX5abc',
    createdAt: 1_700_000_000_000 + i,
    duration: Math.floor(next() * 1000),
    url: next() < 0.3 ? null : `https://example.com/a/${i}.mp4`,
    streams,
    outputs: { hls: {}, rtmp: [] },
  };
}

/** A body split as a socket might deliver it: chunks of random sizes, cutting anywhere (inside a UTF-8 sequence too). */
function chunked(text: string, next: () => number): ResponseBody {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(next() * 70_000);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return new ResponseBody(chunks);
}

/** What the pieces handed out make up (the page as JSON.parse gives it), and how many there were; undefined when refused. */
function readInPieces(body: ResponseBody): { page: unknown; pieces: number } | undefined {
  let envelope: Record<string, unknown> = {};
  const items: unknown[] = [];
  let pieces = 0;
  const read = parsePageInPieces(body, {
    envelope: (value) => {
      expect(items).toHaveLength(0);
      envelope = value;
    },
    items: (piece) => {
      pieces += 1;
      items.push(...piece);
    },
  });
  return read ? { page: { ...envelope, items }, pieces } : undefined;
}

const jackson = (value: unknown) =>
  JSON.stringify(value, null, 2)
    .replace(/\n(\s*)\},\n\s*\{/g, '\n$1}, {')
    .replace(/": /g, '" : ');

describe('list pages parsed a piece at a time', () => {
  test.each([
    ['compact', (v: unknown) => JSON.stringify(v)],
    ['indented', (v: unknown) => JSON.stringify(v, null, 2)],
    ['as the real service prints it', jackson],
    ['with a byte order mark', (v: unknown) => `\uFEFF${JSON.stringify(v)}`],
  ])('%s: the same value as JSON.parse of the whole body, read in pieces', (_name, print) => {
    for (let seed = 1; seed <= 6; seed++) {
      const next = mulberry32(seed);
      const page = { count: 5000 + seed, items: Array.from({ length: 300 + seed * 150 }, (_v, i) => archive(i, next)) };
      const text = print(page);
      expect(Buffer.byteLength(text)).toBeGreaterThan(2 * PIECE_BYTES);
      const body = chunked(text, next);
      const read = readInPieces(body);
      expect(read?.page).toEqual(JSON.parse(text.replace(/^\uFEFF/, '')));
      // Bytes lent to a piece's brackets are given back.
      expect(Buffer.concat(body.chunks).toString()).toBe(text);
      expect(read!.pieces).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(text) / PIECE_BYTES) - 1);
    }
  });

  test('items whose nested objects begin like an item still come out whole', () => {
    // Every item's streams begin with "id" too: cuts inside them do not parse and are passed over,
    // and after a few such misses the rest of the page is parsed in one go.
    const next = mulberry32(7);
    const items = Array.from({ length: 2000 }, (_v, i) => ({ id: `a${i}`, streams: Array.from({ length: 6 }, (_w, k) => ({ id: `s${k}`, n: k })) }));
    const text = JSON.stringify({ count: 2000, items });
    expect(readInPieces(chunked(text, next))?.page).toEqual({ count: 2000, items });
  });

  test('other members before the items, in any order', () => {
    const items = Array.from({ length: 5000 }, (_v, i) => ({ id: `x${i}`, status: 'paused' }));
    const text = JSON.stringify({ count: 5000, next: { items: 'not this one' }, items });
    const body = new ResponseBody([Buffer.from(text)]);
    expect(readInPieces(body)?.page).toEqual(JSON.parse(text));
    expect(body.text).toBe(text);
  });

  test('a page with no items', () => {
    const text = `{"count": 0, "padding": "${'x'.repeat(2 * PIECE_BYTES)}", "items": [ ]}`;
    expect(readInPieces(ResponseBody.fromText(text))).toEqual({ page: JSON.parse(text), pieces: 0 });
  });

  test('a body that stops being JSON after pieces were handed out fails as malformed', () => {
    const items = Array.from({ length: 5000 }, (_v, i) => ({ id: `x${i}`, status: 'paused' }));
    const text = JSON.stringify({ count: 5000, items }).replace('"x4990","status":"paused"', '"x4990","status":');
    const handed: unknown[] = [];
    expect(() => parsePageInPieces(ResponseBody.fromText(text), { envelope: () => undefined, items: (piece) => handed.push(...piece) })).toThrow(
      'malformed response: body is not valid JSON',
    );
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.length).toBeLessThan(4990);
  });

  test.each([
    ['the first item cut short', (t: string) => t.replace('"x0","status":"paused"', '"x0","status":')],
    ['a member after the items', (t: string) => t.replace(/\]\}$/, '], "more": 1}')],
    ['a page that is an array', (t: string) => `[${t}]`],
    ['items that are not objects', (t: string) => t.replace(/\{"id"/g, '["id"').replace(/\}(,|\])/g, ']$1')],
    ['a stray bracket', (t: string) => t.replace('"count":', '"count":[')],
  ])('%s: left to the whole-body parse, nothing handed out', (_name, spoil) => {
    const items = Array.from({ length: 5000 }, (_v, i) => ({ id: `x${i}`, status: 'paused' }));
    const text = spoil(JSON.stringify({ count: 5000, items }));
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * PIECE_BYTES);
    expect(readInPieces(new ResponseBody([Buffer.from(text)]))).toBeUndefined();
  });

  test('small pages are left to one JSON.parse', () => {
    const text = JSON.stringify({ count: 1, items: [{ id: 'a' }] });
    expect(readInPieces(ResponseBody.fromText(text))).toBeUndefined();
  });
});

describe('ResponseBody', () => {
  test('decodes UTF-8 split across chunks, drops a byte order mark, and copies ASCII as it is', () => {
    const text = 'caf\u00e9 \u4f1a\u8bae \ud83c\udfa5 plain';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(new ResponseBody([bytes.subarray(0, cut), bytes.subarray(cut)]).text).toBe(text);
    }
    expect(ResponseBody.fromText('{"a":1}').text).toBe('{"a":1}');
    expect(new ResponseBody([]).text).toBe('');
  });
});

describe('a list parser on a large page', () => {
  const context = responseContext('GET', '/v2/project/k/archive', 200, () => []);
  const items = listedArchives(1000);

  test('reads the items a piece at a time and checks them as before', () => {
    const text = JSON.stringify({ count: 1000, items });
    expect(readInPieces(ResponseBody.fromText(text))?.pieces).toBeGreaterThan(1);
    const page = parseArchiveList(ResponseBody.fromText(text), 'application/json', context);
    expect(page.count).toBe(1000);
    expect(page.items.map((item) => ({ id: item.id, status: item.status }))).toEqual(items.map(({ id, status }) => ({ id, status })));
  });

  test('a large page cut short fails as malformed JSON, as a small one does', () => {
    const text = JSON.stringify({ count: 1000, items }).slice(0, -100);
    expect(() => parseArchiveList(ResponseBody.fromText(text), 'application/json', context)).toThrow('malformed response: body is not valid JSON');
  });
});

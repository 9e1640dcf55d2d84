import { parseArchiveList } from '../../src/api/archives';
import { ResponseBody } from '../../src/api/body';
import { responseContext } from '../../src/api/http';
import { asReceived } from '../../src/api/lists';
import { type ScannedPage, scanPage } from '../../src/api/page-scan';
import { mulberry32 } from '../../src/emulator/insights/random';
import { listedArchives } from './support/listed-archives';

const NAMES = ['rec', 'Réunion d’équipe', '会议', '🎥 stand-up', 'a "quoted" }, {"id": "name"', 'back\\slash', 'tab\tnew\nline', '\u0001\u001f'];

function archive(i: number, next: () => number): Record<string, unknown> {
  return {
    id: i % 7 === 3 ? `ïd-${i}-"q"\\` : `b8f5c7e2-1234-4abc-9def-${String(i).padStart(12, '0')}`,
    status: next() < 0.5 ? 'started' : 'available',
    name: `${NAMES[i % NAMES.length]}-${i}`,
    createdAt: 1_700_000_000_000 + i,
    duration: Math.floor(next() * 1000),
    size: next() < 0.1 ? -1.5e-3 : Math.floor(next() * 1e9),
    url: next() < 0.3 ? null : `https://example.com/a/${i}.mp4`,
    hasAudio: next() < 0.5,
    // Nested objects whose first key is "id", like an item's.
    streams: Array.from({ length: Math.floor(next() * 4) }, (_v, k) => ({ id: `s${k}`, streamId: `stream-${i}-${k}`, hasVideo: k % 2 === 0 })),
    outputs: { hls: {}, rtmp: [[], [{}]] },
  };
}

const PRINTERS: [string, (value: unknown) => string][] = [
  ['compact', (v) => JSON.stringify(v)],
  ['indented', (v) => JSON.stringify(v, null, 2)],
  ['with CRLF and tabs', (v) => JSON.stringify(v, null, '\t').replace(/\n/g, '\r\n')],
  // Some letters of every string, keys too, written as \u escapes.
  [
    'with escaped ASCII',
    (v) =>
      JSON.stringify(v).replace(/"(?:[^"\\]|\\.)*"/g, (s) =>
        s.replace(/[a-z]/g, (c) => (c.charCodeAt(0) % 5 === 0 ? `\\u00${c.charCodeAt(0).toString(16)}` : c)),
      ),
  ],
  ['with a byte order mark', (v) => `\uFEFF${JSON.stringify(v)}`],
];

/** `text` scanned to be compared with later (its items' fingerprints taken), against `previous` if given. */
function scan(text: string, previous?: ScannedPage): ScannedPage | undefined {
  const bytes = Buffer.from(text);
  const start = text.startsWith('\uFEFF') ? 3 : 0;
  return scanPage(bytes, start, bytes.length, { previous });
}

/** `text` scanned as the previous answer for the next scan. */
function previousOf(text: string, previous?: ScannedPage): ScannedPage {
  const page = scan(text, previous);
  if (page === undefined) throw new Error('not a page');
  return page;
}

/** What the scan found, built back: the page as JSON.parse gives it. */
function rebuilt(text: string, page: ScannedPage): unknown {
  const bytes = Buffer.from(text);
  const items = page.starts.map((start, i) => JSON.parse(bytes.toString('utf8', start, page.ends[i])));
  return { ...page.envelope, items };
}

/** Edits that break JSON and edits that keep it: the characters of its grammar, and a letter beyond ASCII. */
const EDIT_ALPHABET = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', '1', '-', '.', 'e', 'u', 'n', 't', 'é', '\n'];

/** `text` with one to three characters deleted, inserted or replaced at random. */
function randomlyEdited(text: string, next: () => number): string {
  let edited = text;
  for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
    const at = Math.floor(next() * edited.length);
    const c = EDIT_ALPHABET[Math.floor(next() * EDIT_ALPHABET.length)]!;
    const how = next();
    edited =
      how < 0.4
        ? edited.slice(0, at) + edited.slice(at + 1)
        : how < 0.7
          ? edited.slice(0, at) + c + edited.slice(at)
          : edited.slice(0, at) + c + edited.slice(at + 1);
  }
  return edited;
}

describe('a list page scanned without building its items', () => {
  test.each(PRINTERS)('%s: every item found whole, with the id JSON.parse gives it, and the envelope', (_name, print) => {
    for (let seed = 1; seed <= 5; seed++) {
      const next = mulberry32(seed);
      const page = {
        count: 5000 + seed,
        next: { items: ['not these'] },
        items: Array.from({ length: 50 + seed * 60 }, (_v, i) => archive(i, next)),
        after: [1, 'x'],
      };
      const text = print(page);
      const parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as typeof page;
      const scanned = scan(text);
      expect(scanned).toBeDefined();
      expect(scanned!.ids).toEqual(parsed.items.map((item) => item.id));
      expect(rebuilt(text, scanned!)).toEqual(parsed);
      expect(scanned!.envelope).toEqual({ ...parsed, items: [] });
    }
  });

  test('the last of an item’s ids counts, as in JSON.parse; ids of nested objects do not', () => {
    const text = '{"items":[{"id":"first","nested":{"id":"inner"},"id":"last"},{"streams":[{"id":"x"}],"id":"\\u00e9t\\u00e9"}],"count":2}';
    expect(scan(text)?.ids).toEqual(['last', 'été']);
    expect(scan('{"items":[{"\\u0069d":"escaped key"}],"count":1}')?.ids).toEqual(['escaped key']);
  });

  test('an empty page', () => {
    expect(scan(' {"count": 0, "items": [ ] } ')).toEqual({ envelope: { count: 0, items: [] }, ids: [], starts: [], ends: [], versions: [], fingerprints: [] });
  });

  test('fingerprints are taken only for a page scanned to be compared with: the same for the same bytes wherever they are', () => {
    const text = JSON.stringify({
      count: 3,
      items: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
        { id: 'a', n: 1 },
      ],
    });
    const bytes = Buffer.from(text);
    expect(scanPage(bytes, 0, bytes.length)!.fingerprints).toEqual([]);
    const [first, second, third] = scanPage(bytes, 0, bytes.length, {})!.fingerprints;
    expect(first).toBe(third);
    expect(first).not.toBe(second);
  });

  test.each([
    ['not an object', '[{"id":"a"}]'],
    ['no items', '{"count":1}'],
    ['an empty object', '{}'],
    ['items that are not an array', '{"count":1,"items":{"id":"a"}}'],
    ['an item that is not an object', '{"count":2,"items":[{"id":"a"},"b"]}'],
    ['an item without an id', '{"count":2,"items":[{"id":"a"},{"name":"b"}]}'],
    ['an id that is not a string', '{"count":1,"items":[{"id":7}]}'],
    ['a string id replaced by a later one that is not', '{"count":1,"items":[{"id":"a","id":null}]}'],
    ['two items members', '{"items":[{"id":"a"}],"count":1,"items":[{"id":"b"}]}'],
    ['nesting deeper than the scan follows', `{"count":1,"items":[{"id":"a","deep":${'['.repeat(300)}${']'.repeat(300)}}]}`],
  ])('%s: left to the whole-body parse', (_name, text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(scan(text)).toBeUndefined();
  });

  test.each([
    ['cut short', '{"count":1,"items":[{"id":"a","n":1}]'],
    ['a trailing comma', '{"count":1,"items":[{"id":"a",}]}'],
    ['a raw control character in a string', '{"count":1,"items":[{"id":"a\u0001"}]}'],
    ['a bad escape', '{"count":1,"items":[{"id":"a","n":"\\x41"}]}'],
    ['a short unicode escape', '{"count":1,"items":[{"id":"a","n":"\\u12"}]}'],
    ['a number with a leading zero', '{"count":01,"items":[{"id":"a"}]}'],
    ['a bare minus', '{"count":1,"items":[{"id":"a","n":-}]}'],
    ['a fraction without digits', '{"count":1,"items":[{"id":"a","n":1.}]}'],
    ['an exponent without digits', '{"count":1,"items":[{"id":"a","n":1e+}]}'],
    ['a misspelt literal', '{"count":1,"items":[{"id":"a","n":nul}]}'],
    ['something after the page', '{"count":1,"items":[{"id":"a"}]} x'],
    ['a single-quoted string', '{\'count\':1,"items":[{"id":"a"}]}'],
  ])('%s: not JSON, so not a page', (_name, text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(scan(text)).toBeUndefined();
  });

  test('a page the scan takes is always JSON, and exactly what JSON.parse gives (random edits of a page)', () => {
    const next = mulberry32(99);
    const base = JSON.stringify({ count: 3, items: [archive(1, next), archive(3, next), archive(5, next)] }, null, 1);
    let taken = 0;
    let refused = 0;
    for (let round = 0; round < 4000; round++) {
      let text = randomlyEdited(base, next);
      // As a body arrives: bytes (an edit that split a surrogate pair leaves U+FFFD, as decoding does).
      text = Buffer.from(text).toString();
      const scanned = scan(text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        expect(scanned).toBeUndefined();
        refused += 1;
        continue;
      }
      if (scanned === undefined) continue;
      taken += 1;
      expect(rebuilt(text, scanned)).toEqual(parsed);
      expect(scanned.ids).toEqual((parsed as { items: { id: string }[] }).items.map((item) => item.id));
    }
    // The edits both broke pages and left many whole: the comparison above ran on both kinds.
    expect(refused).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThan(300);
  });
});

describe('a page scanned against the last answer to the same request', () => {
  const next = mulberry32(7);
  const items = Array.from({ length: 200 }, (_v, i) => archive(i, next));
  const text = JSON.stringify({ count: 200, items });

  test('an answer byte for byte the same: the same items, ids (the same strings) and versions', () => {
    const first = previousOf(text);
    const again = scan(text, first)!;
    expect({ ...again, versions: [] }).toEqual({ ...scan(text), versions: [] });
    expect(again.versions).toEqual(first.versions);
    again.ids.forEach((id, i) => expect(Object.is(id, first.ids[i])).toBe(true));
    // Versions are never given twice.
    expect(new Set(first.versions).size).toBe(200);
  });

  test('an item changed, added, moved or removed: a new version for new bytes, the old one for the same bytes wherever they are', () => {
    const first = previousOf(text);
    const versionOf = new Map(first.ids.map((id, i) => [id, first.versions[i]!]));
    const newest = Math.max(...first.versions);
    const edited = [
      { ...archive(900, next), id: 'new-at-the-top' },
      ...items.slice(0, 10),
      { ...items[10]!, status: 'paused' },
      ...items.slice(11, 50),
      ...items.slice(51, 120),
      items[150]!,
      ...items.slice(120, 150),
      ...items.slice(151),
    ];
    const changed = JSON.stringify({ count: 201, items: edited });
    const scanned = scan(changed, first)!;
    expect(scanned).toMatchObject({ ...scan(changed), versions: expect.any(Array) });
    expect(rebuilt(changed, scanned)).toEqual(JSON.parse(changed));
    scanned.ids.forEach((id, i) => {
      if (id === 'new-at-the-top' || id === items[10]!.id) expect(scanned.versions[i]).toBeGreaterThan(newest);
      else expect(scanned.versions[i]).toBe(versionOf.get(id));
    });
    // And the answer after it is compared with this one.
    expect(scan(changed, scanned)!.versions).toEqual(scanned.versions);
  });

  test('the same item printed otherwise (spaces inside it) is new bytes; spaces between items are not', () => {
    const first = previousOf(text);
    const spaced = `{"count":200,"items":[${items.map((item) => JSON.stringify(item)).join(' ,\n ')}]}`;
    expect(scan(spaced, first)!.versions).toEqual(first.versions);
    const indented = JSON.stringify({ count: 200, items }, null, 1);
    const rescanned = scan(indented, first)!;
    expect(rescanned.ids).toEqual(first.ids);
    expect(rescanned.versions.every((version) => !first.versions.includes(version))).toBe(true);
  });

  test('an answer that is not JSON is refused as without the last one, wherever it breaks (random edits)', () => {
    const random = mulberry32(1234);
    const base = JSON.stringify({ count: 6, items: items.slice(0, 6) }, null, 1);
    const first = previousOf(base);
    let taken = 0;
    let refused = 0;
    for (let round = 0; round < 3000; round++) {
      const edited = randomlyEdited(base, random);
      const alone = scan(edited);
      const compared = scan(edited, first);
      let parses = true;
      try {
        JSON.parse(edited);
      } catch {
        parses = false;
      }
      if (!parses) {
        expect(compared).toBeUndefined();
        refused += 1;
        continue;
      }
      expect(compared === undefined).toBe(alone === undefined);
      if (compared === undefined) continue;
      taken += 1;
      expect({ ...compared, versions: [] }).toEqual({ ...alone, versions: [] });
      // An item keeps its version exactly when its bytes are those it had.
      compared.ids.forEach((id, i) => {
        const before = first.ids.indexOf(id);
        const bytes = Buffer.from(edited);
        const same =
          before >= 0 && bytes.subarray(compared.starts[i], compared.ends[i]).equals(Buffer.from(base).subarray(first.starts[before], first.ends[before]));
        expect(compared.versions[i] === first.versions[before]).toBe(same);
      });
    }
    expect(refused).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThan(300);
  });
});

describe('a list kept by its caller (lazyList), its items parsed when read', () => {
  const context = responseContext('GET', '/v2/project/k/archive', 200, () => []);
  // A field the schema does not know, and one name beyond ASCII.
  const items = listedArchives(1000).map((item, i) => ({ ...item, ...(i === 500 && { name: 'Réunion 🎥' }), extraField: { kept: true } }));

  test('ids without a parse, fields checked and normalised as before, the item as received', () => {
    const text = JSON.stringify({ count: 1000, items });
    // Large enough to be scanned (smaller pages are parsed whole).
    expect(Buffer.byteLength(text)).toBeGreaterThan(128 * 1024);
    // Chunks as a socket delivers them, one cutting through the UTF-8 of item 500's name.
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf('🎥');
    const page = parseArchiveList(new ResponseBody([bytes.subarray(0, cut + 2), bytes.subarray(cut + 2)]), 'application/json', context);
    expect(page.count).toBe(1000);
    expect(page.items.map((item) => item.id)).toEqual(items.map((item) => item.id));
    expect(page.items[500]!.name).toBe('Réunion 🎥');
    expect(page.items[999]!.status).toBe('available');
    expect(asReceived(page.items[3]!)).toEqual(items[3]);
    expect(JSON.parse(JSON.stringify(page.items[7]))).toMatchObject({ id: items[7]!.id, status: 'available', duration: 22 });
  });

  test('every item read, in any order, is the item sent (items parsed a block at a time, the last block short)', () => {
    const sent = [...items, ...items.slice(0, 3).map((item) => ({ ...item, id: `${item.id}-more`, status: 'started' }))];
    const page = parseArchiveList(ResponseBody.fromText(JSON.stringify({ count: sent.length, items: sent }, null, 2)), 'application/json', context);
    const read = [...page.items].reverse().map((item) => asReceived(item));
    expect(read.reverse()).toEqual(sent);
    expect(page.items.map((item) => item.status)).toEqual(sent.map((item) => item.status));
  });

  test('a malformed item fails when it is read, naming itself; the others read', () => {
    const text = JSON.stringify({ count: 1000, items: items.map((item, i) => (i === 10 ? { ...item, duration: 'long' } : item)) });
    const page = parseArchiveList(ResponseBody.fromText(text), 'application/json', context);
    expect(page.items[10]!.id).toBe(items[10]!.id);
    expect(() => page.items[10]!.status).toThrow(/item "b8f5c7e2-1234-4abc-9def-000000000010"/);
    expect(page.items[11]!.status).toBe('available');
  });

  test('a body that is not JSON fails as malformed, as before', () => {
    const text = JSON.stringify({ count: 1000, items }).slice(0, -100);
    expect(() => parseArchiveList(ResponseBody.fromText(text), 'application/json', context)).toThrow('malformed response: body is not valid JSON');
  });
});

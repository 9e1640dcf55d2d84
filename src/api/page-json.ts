/**
 * `JSON.parse` of a list page, a piece at a time.
 *
 * A page of 1,000 items is ~460 KB of JSON. Decoded and parsed whole, it costs a string of that
 * size, which V8 places outside its young generation in memory fresh from the kernel, page
 * faults and all: on the project's machine decoding it took longer than parsing it, and each
 * such string is garbage the next full collection has to find. Here the bytes are parsed in
 * pieces of about 64 KB cut between two items, each piece a short-lived young string.
 *
 * The result is exactly `JSON.parse` of the whole body, or undefined when the body is not the
 * usual page shape (an object whose last member is an array of objects) or any piece does not
 * parse: the caller then parses the whole text as before, and reports malformed JSON the same way.
 * A cut is only ever taken where the piece before it parses as whole values, which rules out
 * cutting inside a string or a nested object.
 */
import { type ResponseBody, decodeUtf8, hasBom } from './body';

/** About how many bytes each piece holds (it ends at the next item boundary after this). */
export const PIECE_BYTES = 64 * 1024;
/** Failed cuts tolerated before the rest is parsed in one go (a nested object that looks like an item). */
const MAX_MISSED_CUTS = 4;
/** Pages held in a reused buffer up to this size; larger ones (rare) get one of their own. */
const MAX_SCRATCH_BYTES = 8 * 1024 * 1024;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ITEMS_KEY = Buffer.from('"items"');

let scratch = Buffer.alloc(0);

/** The page's JSON value, parsed a piece at a time; undefined when it must be parsed whole. */
export function parsePageInPieces(body: ResponseBody): unknown {
  if (body.byteLength < 2 * PIECE_BYTES) return undefined;
  const bytes = contiguous(body);
  return parsePieces(bytes, hasBom(bytes) ? 3 : 0, bytes.length);
}

/** The body's bytes in one buffer: the only chunk, or a copy into memory reused from page to page. */
function contiguous(body: ResponseBody): Buffer {
  if (body.chunks.length === 1) return body.chunks[0]!;
  if (body.byteLength > MAX_SCRATCH_BYTES) return Buffer.concat(body.chunks, body.byteLength);
  if (scratch.length < body.byteLength) scratch = Buffer.allocUnsafeSlow(Math.max(body.byteLength, 2 * scratch.length));
  let offset = 0;
  for (const chunk of body.chunks) offset += chunk.copy(scratch, offset);
  return scratch.subarray(0, offset);
}

function parsePieces(bytes: Buffer, start: number, end: number): unknown {
  const open = itemsArrayStart(bytes, start);
  const close = lastArrayEnd(bytes, start, end);
  if (open < 0 || close < open) return undefined;
  const envelope = tryParse(decodeUtf8(bytes, start, open) + decodeUtf8(bytes, close, end));
  if (!isObject(envelope) || !Array.isArray(envelope.items) || envelope.items.length !== 0) return undefined;
  const items: unknown[] = envelope.items;
  let from = skipSpace(bytes, open, close);
  if (from === close) return envelope;
  const key = firstKey(bytes, from, close);
  if (key === undefined) return undefined;
  let missed = 0;
  while (from < close) {
    let searchFrom = from + PIECE_BYTES;
    for (;;) {
      const cut = missed < MAX_MISSED_CUTS ? nextItemBoundary(bytes, key, searchFrom, close) : undefined;
      const piece = tryParse(`[${decodeUtf8(bytes, from, cut?.pieceEnd ?? close)}]`);
      if (Array.isArray(piece)) {
        for (let i = 0; i < piece.length; i++) items.push(piece[i]);
        from = cut?.nextItem ?? close;
        break;
      }
      if (cut === undefined) return undefined;
      missed += 1;
      searchFrom = cut.nextItem + 1;
    }
  }
  return envelope;
}

/**
 * Where the contents of the first `"items": [` begin (just after the bracket), or -1. That it is
 * the top level's is for the envelope's parse to say.
 */
function itemsArrayStart(bytes: Buffer, start: number): number {
  for (let at = bytes.indexOf(ITEMS_KEY, start); at >= 0; at = bytes.indexOf(ITEMS_KEY, at + 1)) {
    let i = skipSpace(bytes, at + ITEMS_KEY.length, bytes.length);
    if (bytes[i] !== COLON) continue;
    i = skipSpace(bytes, i + 1, bytes.length);
    if (bytes[i] === OPEN_BRACKET) return i + 1;
  }
  return -1;
}

/** The `]` of an array that is the body's last member (`...]}` but for whitespace), or -1. */
function lastArrayEnd(bytes: Buffer, start: number, end: number): number {
  let i = skipSpaceBack(bytes, end - 1, start);
  if (bytes[i] !== CLOSE_BRACE) return -1;
  i = skipSpaceBack(bytes, i - 1, start);
  return bytes[i] === CLOSE_BRACKET ? i : -1;
}

/** The first item's first key, quotes included (`"id"`): every item of a page begins with it. */
function firstKey(bytes: Buffer, itemStart: number, limit: number): Buffer | undefined {
  if (bytes[itemStart] !== OPEN_BRACE) return undefined;
  const quote = skipSpace(bytes, itemStart + 1, limit);
  if (bytes[quote] !== QUOTE) return undefined;
  const closing = bytes.indexOf(QUOTE, quote + 1);
  if (closing < 0 || closing >= limit || bytes.subarray(quote, closing).includes(BACKSLASH)) return undefined;
  return bytes.subarray(quote, closing + 1);
}

/**
 * The next `}, {"key"` at or after `from`: where the piece before it ends (after the brace) and
 * where the next item begins (its brace). Whether it is an item boundary at all is for the parse
 * of the piece to say.
 */
function nextItemBoundary(bytes: Buffer, key: Buffer, from: number, limit: number): { pieceEnd: number; nextItem: number } | undefined {
  for (let at = bytes.indexOf(key, from); at >= 0 && at < limit; at = bytes.indexOf(key, at + 1)) {
    const nextItem = skipSpaceBack(bytes, at - 1, from);
    if (bytes[nextItem] !== OPEN_BRACE) continue;
    const comma = skipSpaceBack(bytes, nextItem - 1, from);
    if (bytes[comma] !== COMMA) continue;
    const brace = skipSpaceBack(bytes, comma - 1, from);
    if (bytes[brace] !== CLOSE_BRACE) continue;
    return { pieceEnd: brace + 1, nextItem };
  }
  return undefined;
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Buffer, i: number, limit: number): number {
  while (i < limit && isSpace(bytes[i])) i++;
  return i;
}

function skipSpaceBack(bytes: Buffer, i: number, floor: number): number {
  while (i > floor && isSpace(bytes[i])) i--;
  return i;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `JSON.parse` of a list page, a piece at a time.
 *
 * A page of 1,000 items is ~460 KB of JSON. Decoded and parsed whole, it costs a string of that
 * size, which V8 places outside its young generation in memory fresh from the kernel, page
 * faults and all (on the project's machine decoding it took longer than parsing it), and a
 * thousand items alive at once, which every young-generation collection meanwhile copies. Here the
 * bytes are parsed in pieces of about 64 KB cut between two items, and each piece's items are
 * handed to the caller before the next piece is parsed: a caller that looks at each item once
 * holds a piece, not the page.
 *
 * The items handed out are exactly those of `JSON.parse` of the whole body. A body that is not
 * the usual page shape (an object whose last member is an array of objects) is left to the caller
 * to parse whole, before anything is handed out. A cut is only ever taken where the piece before
 * it parses as whole values, which rules out cutting inside a string or a nested object.
 */
import { type ResponseBody, decodeUtf8, textStart } from './body';
import { notJson } from './http';

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

/** Reused from page to page; only ever used within one synchronous call. */
let scratch = Buffer.alloc(0);

export interface PageHandlers {
  /** The page without its items (`items: []`), before its first items; may throw to refuse the page. */
  envelope(envelope: Record<string, unknown>): void;
  /** The next piece's items, in order. */
  items(items: unknown[]): void;
}

/**
 * Parses a list page a piece at a time, into `handlers`. False when the body is small or not the
 * usual shape: nothing was handed out, and the caller parses it whole. Throws the malformed-body
 * error when a piece is not JSON after earlier pieces were handed out.
 */
export function parsePageInPieces(body: ResponseBody, handlers: PageHandlers): boolean {
  if (body.byteLength < 2 * PIECE_BYTES) return false;
  const bytes = contiguous(body);
  return parsePieces(bytes, textStart(bytes), bytes.length, handlers);
}

/**
 * The body's bytes in one buffer: the only chunk, or a copy into memory reused from page to page
 * (valid until the next call: keep a copy, not the buffer).
 */
export function contiguous(body: ResponseBody): Buffer {
  if (body.chunks.length === 1) return body.chunks[0]!;
  if (body.byteLength > MAX_SCRATCH_BYTES) return Buffer.concat(body.chunks, body.byteLength);
  if (scratch.length < body.byteLength) scratch = Buffer.allocUnsafeSlow(Math.max(body.byteLength, 2 * scratch.length));
  let offset = 0;
  for (const chunk of body.chunks) offset += chunk.copy(scratch, offset);
  return scratch.subarray(0, offset);
}

function parsePieces(bytes: Buffer, start: number, end: number, handlers: PageHandlers): boolean {
  const open = itemsArrayStart(bytes, start);
  const close = lastArrayEnd(bytes, start, end);
  if (open < 0 || close < open) return false;
  const envelope = tryParse(decodeUtf8(bytes, start, open) + decodeUtf8(bytes, close, end));
  if (!isObject(envelope) || !Array.isArray(envelope.items) || envelope.items.length !== 0) return false;
  let from = skipSpace(bytes, open, close);
  const key = from === close ? undefined : firstKey(bytes, from, close);
  if (from < close && key === undefined) return false;
  if (from === close) handlers.envelope(envelope);
  let missed = 0;
  let handedOut = false;
  while (from < close) {
    let searchFrom = from + PIECE_BYTES;
    for (;;) {
      const cut = missed < MAX_MISSED_CUTS ? nextItemBoundary(bytes, key!, searchFrom, close) : undefined;
      const piece = tryParse(arrayText(bytes, from, cut?.pieceEnd ?? close));
      if (Array.isArray(piece)) {
        if (!handedOut) handlers.envelope(envelope);
        handlers.items(piece);
        handedOut = true;
        from = cut?.nextItem ?? close;
        break;
      }
      if (cut === undefined) {
        // The rest is not JSON, so neither is the body (the envelope parsed and every cut so far
        // fell between two items).
        if (handedOut) throw notJson();
        return false;
      }
      missed += 1;
      searchFrom = cut.nextItem + 1;
    }
  }
  return true;
}

/**
 * `[` + bytes[from, to) + `]` as one flat string. The byte before `from` (the array's bracket, a
 * comma or a space) and the one at `to` (a comma, a space or the closing bracket) are briefly
 * made brackets and decoded with the piece: `[${text}]` would be a second copy of every piece,
 * made when `JSON.parse` flattens it.
 */
function arrayText(bytes: Buffer, from: number, to: number): string {
  const before = bytes[from - 1]!;
  const after = bytes[to]!;
  bytes[from - 1] = OPEN_BRACKET;
  bytes[to] = CLOSE_BRACKET;
  try {
    return decodeUtf8(bytes, from - 1, to + 1);
  } finally {
    bytes[from - 1] = before;
    bytes[to] = after;
  }
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

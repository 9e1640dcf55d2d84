/**
 * A list page's items found in its bytes, without building them.
 *
 * A page kept for its caller (`lazyList`: the Slack commands') is mostly never read past its
 * ids: a command shows a few items of up to 1,000. `JSON.parse` of the whole page builds every
 * item anyway, and that is most of a list call's CPU and nearly all its garbage. Here one pass
 * over the bytes checks that the body is JSON (the grammar `JSON.parse` accepts, without building
 * a value), finds where each item of the top-level `items` array begins and ends and reads each
 * item's top-level `id`; an item's other fields are parsed from its bytes when first read.
 *
 * A body that is not the usual page shape — a top-level object with one `items` member, an array
 * of objects each with a string `id` — is left to the caller to parse whole (undefined), as is one
 * nested deeper than `MAX_DEPTH` and anything that is not JSON, whose whole parse then fails as
 * before.
 *
 * Scanned against the page the same request answered last time (`previous`), an item found there
 * byte for byte is compared, not scanned: its bytes were JSON with this id then, and are now. It
 * keeps the `version` it had there; an item whose bytes are new gets a version never given
 * before. A caller that read the item's fields at that version knows what they say. The last
 * page's bytes are not kept for this: each item's length and fingerprint are (fingerprint.ts).
 */
import { decodeUtf8 } from './body';
import { fingerprint } from './fingerprint';

export interface ScannedPage {
  /** The page without its items (`items: []`), parsed. */
  envelope: Record<string, unknown>;
  /** Each item's top-level `id`, in order. */
  ids: string[];
  /** Item `i` is `bytes[starts[i], ends[i])`. */
  starts: number[];
  ends: number[];
  /** Item `i`'s version: the same as long as its bytes are, from one scan against the previous to the next. */
  versions: number[];
  /** Item `i`'s bytes' fingerprint, what the next scan compares its items with (none when scanned against nothing). */
  fingerprints: number[];
}

/** The last version given to an item's bytes (process-wide: a version names one item's bytes in one request's answers). */
let lastVersion = 0;

/** Nesting deeper than this is left to `JSON.parse` (here it would be recursion). */
const MAX_DEPTH = 256;

// The bytes the scan looks for, as constants of this module (page-json.ts has its own): imported
// ones are property loads in the scan's loops, getters under tsx (15× the scan's time, measured).
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const SMALL_E = 0x65;
const LARGE_E = 0x45;
const SMALL_U = 0x75;

/** Thrown inside the scan when the body is not JSON or not the usual page: the scan answers undefined. */
const NOT_A_PAGE = new Error('not a list page');

/** What a page is scanned against (`scanPage`). */
export interface ScanAgainst {
  /** The last page the same request answered, scanned against whatever came before it. */
  previous?: ScannedPage;
  /** A page nobody reads any more (not `previous`): its arrays are written over for this one. */
  into?: ScannedPage;
}

/**
 * `bytes[start, end)` scanned as a list page, or undefined when it is not one (see above). With
 * `against`, the page is compared with its `previous` and its items' fingerprints are taken for
 * the next scan to be compared with it; without, `fingerprints` is left empty.
 */
export function scanPage(bytes: Buffer, start: number, end: number, against?: ScanAgainst): ScannedPage | undefined {
  try {
    return new Scanner(bytes, start, end, against).page();
  } catch (error) {
    if (error === NOT_A_PAGE) return undefined;
    throw error;
  }
}

/** 1 for each byte that may follow a backslash in a JSON string, but `u` (four hex digits follow it): quote, backslash, / b f n r t. */
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

class Scanner {
  readonly #bytes: Buffer;
  readonly #start: number;
  readonly #end: number;
  #i: number;
  /** Whether the last string scanned held an escape, and whether its bytes were all ASCII. */
  #escaped = false;
  #ascii = true;
  readonly #previous: ScannedPage | undefined;
  /** Whether fingerprints are taken (a page scanned against something). */
  readonly #remembered: boolean;
  /** The previous page's item expected next (the one after the last found there). */
  #guess = 0;
  /** The previous page's items by id, built at the first item not where the guess put it. */
  #previousIndex: Map<string, number> | undefined;
  /** Items found so far. */
  #found = 0;
  readonly #into: ScannedPage | undefined;
  /** The last fingerprint taken, of `bytes[#hashedFrom, #hashedTo)`: an item is often compared twice, then kept, over the same bytes. */
  #hashedFrom = -1;
  #hashedTo = -1;
  #hashed = 0;

  constructor(bytes: Buffer, start: number, end: number, against: ScanAgainst | undefined) {
    this.#bytes = bytes;
    this.#start = start;
    this.#end = end;
    this.#i = start;
    this.#previous = against?.previous;
    this.#into = against?.into;
    this.#remembered = against !== undefined;
  }

  page(): ScannedPage {
    // Sized as the last answer, which the next one nearly always matches: no array grown and copied item by item.
    const expected = this.#previous?.ids.length ?? 0;
    const page: ScannedPage = this.#into ?? {
      envelope: {},
      ids: new Array(expected),
      starts: new Array(expected),
      ends: new Array(expected),
      versions: new Array(expected),
      fingerprints: this.#remembered ? new Array(expected) : [],
    };
    let open = -1;
    let close = -1;
    this.#space();
    if (this.#peek() !== OPEN_BRACE || this.#opened(CLOSE_BRACE)) throw NOT_A_PAGE;
    do {
      if (this.#key('items')) {
        if (open >= 0 || this.#peek() !== OPEN_BRACKET) throw NOT_A_PAGE;
        open = this.#i + 1;
        this.#items(page);
        close = this.#i - 1;
      } else {
        this.#value(1);
      }
    } while (!this.#separator(CLOSE_BRACE));
    this.#space();
    if (this.#i !== this.#end || open < 0) throw NOT_A_PAGE;
    const envelope: unknown = JSON.parse(decodeUtf8(this.#bytes, this.#start, open) + decodeUtf8(this.#bytes, close, this.#end));
    if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) throw NOT_A_PAGE;
    page.envelope = envelope as Record<string, unknown>;
    return page;
  }

  /** The `items` array, at its bracket: each item an object with a string `id`; the page's arrays end with its last item. */
  #items(page: ScannedPage): void {
    this.#itemsOf(page);
    const found = this.#found;
    if (found < page.ids.length) for (const list of [page.ids, page.starts, page.ends, page.versions, page.fingerprints]) list.length = found;
  }

  /** Item `#found` of the page: from `itemStart` to here. */
  #keep(page: ScannedPage, itemStart: number, id: string, version: number, fingerprint: number): void {
    const n = this.#found++;
    page.starts[n] = itemStart;
    page.ends[n] = this.#i;
    page.ids[n] = id;
    page.versions[n] = version;
    if (this.#remembered) page.fingerprints[n] = fingerprint;
  }

  /** Each item, kept in the page's arrays as it is found (`#keep`). */
  #itemsOf(page: ScannedPage): void {
    if (this.#opened(CLOSE_BRACKET)) return;
    do {
      if (this.#peek() !== OPEN_BRACE) throw NOT_A_PAGE;
      const itemStart = this.#i;
      const previous = this.#previous;
      let known = previous === undefined ? -1 : this.#sameAt(previous, this.#guess, itemStart);
      if (known >= 0) {
        this.#i = itemStart + previous!.ends[known]! - previous!.starts[known]!;
      } else {
        const id = this.#item();
        if (id === undefined) throw NOT_A_PAGE;
        if (previous !== undefined) known = this.#sameAt(previous, this.#indexOf(previous, id), itemStart, this.#i);
        if (known < 0) {
          this.#keep(page, itemStart, id, ++lastVersion, this.#remembered ? this.#fingerprint(itemStart, this.#i) : 0);
          continue;
        }
      }
      // The previous page's id string too: one string for the item from read to read.
      this.#keep(page, itemStart, previous!.ids[known]!, previous!.versions[known]!, previous!.fingerprints[known]!);
      this.#guess = known + 1;
    } while (!this.#separator(CLOSE_BRACKET));
  }

  /**
   * `index` when the previous page's item `index` is byte for byte what starts at `at` (and ends
   * at `end`, when known), else -1: the same length and fingerprint. Only the item is compared:
   * the separator after it is checked as after any item.
   */
  #sameAt(previous: ScannedPage, index: number, at: number, end?: number): number {
    const { starts, ends } = previous;
    if (index < 0 || index >= starts.length) return -1;
    const length = ends[index]! - starts[index]!;
    if (at + length > this.#end || (end !== undefined && end - at !== length)) return -1;
    return this.#fingerprint(at, at + length) === previous.fingerprints[index] ? index : -1;
  }

  #fingerprint(from: number, to: number): number {
    if (from !== this.#hashedFrom || to !== this.#hashedTo) {
      this.#hashed = fingerprint(this.#bytes, from, to);
      this.#hashedFrom = from;
      this.#hashedTo = to;
    }
    return this.#hashed;
  }

  /** Where the previous page held the item `id`: the guess first (an item changed in place), then by id. */
  #indexOf(previous: ScannedPage, id: string): number {
    const ids = previous.ids;
    if (ids[this.#guess] === id) return this.#guess;
    this.#previousIndex ??= new Map(ids.map((known, index) => [known, index]));
    return this.#previousIndex.get(id) ?? -1;
  }

  /** One item, at its brace: its top-level `id` if that is a string (the last one, as `JSON.parse` keeps). */
  #item(): string | undefined {
    if (this.#opened(CLOSE_BRACE)) return undefined;
    let id: string | undefined;
    do {
      const isId = this.#key('id');
      if (isId && this.#peek() === QUOTE) {
        const valueStart = this.#i;
        this.#string();
        id = this.#stringValue(valueStart);
      } else {
        // An id that is not a string leaves none, unless a later one is.
        if (isId) id = undefined;
        this.#value(3);
      }
    } while (!this.#separator(CLOSE_BRACE));
    return id;
  }

  /** Any value, at its first byte. */
  #value(depth: number): void {
    const c = this.#peek();
    if (c === QUOTE) this.#string();
    else if (c === OPEN_BRACE) this.#object(depth);
    else if (c === OPEN_BRACKET) this.#array(depth);
    else if (c === MINUS || (c >= ZERO && c <= NINE)) this.#number();
    else if (c === 0x74) this.#literal('true');
    else if (c === 0x66) this.#literal('false');
    else if (c === 0x6e) this.#literal('null');
    else throw NOT_A_PAGE;
  }

  #object(depth: number): void {
    if (depth > MAX_DEPTH) throw NOT_A_PAGE;
    if (this.#opened(CLOSE_BRACE)) return;
    do {
      this.#key();
      this.#value(depth + 1);
    } while (!this.#separator(CLOSE_BRACE));
  }

  #array(depth: number): void {
    if (depth > MAX_DEPTH) throw NOT_A_PAGE;
    if (this.#opened(CLOSE_BRACKET)) return;
    do this.#value(depth + 1);
    while (!this.#separator(CLOSE_BRACKET));
  }

  /** Past an opening brace or bracket and the space after it: true when the container is empty (its `close` consumed too). */
  #opened(close: number): boolean {
    this.#i += 1;
    this.#space();
    if (this.#peek() !== close) return false;
    this.#i += 1;
    return true;
  }

  /** A member's key and its colon, up to its value: whether the key is `name`. */
  #key(name?: string): boolean {
    const start = this.#i;
    this.#string();
    const is = name !== undefined && this.#keyIs(start, name);
    this.#space();
    this.#expect(COLON);
    this.#space();
    return is;
  }

  /** After a member or element: true at the closing `last` (consumed), false after a comma and the space that follows it. */
  #separator(last: number): boolean {
    this.#space();
    const c = this.#peek();
    this.#i += 1;
    if (c === last) return true;
    if (c !== COMMA) throw NOT_A_PAGE;
    this.#space();
    return false;
  }

  /** A string, at its opening quote; `#escaped` and `#ascii` say what it held. */
  #string(): void {
    const bytes = this.#bytes;
    const end = this.#end;
    if (bytes[this.#i] !== QUOTE) throw NOT_A_PAGE;
    let i = this.#i + 1;
    let escaped = false;
    // Every byte OR'ed together: the top bit tells whether any was beyond ASCII.
    let high = 0;
    for (;;) {
      // The plain run first: most of a page's bytes are inside strings.
      let c = -1;
      while (i < end) {
        c = bytes[i]!;
        if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        high |= c;
        i += 1;
      }
      if (c === QUOTE && i < end) break;
      if (c !== BACKSLASH || i + 1 >= end) throw NOT_A_PAGE;
      escaped = true;
      const after = bytes[i + 1]!;
      if (after === SMALL_U) {
        if (i + 6 > end) throw NOT_A_PAGE;
        for (let k = 2; k < 6; k++) if (!isHex(bytes[i + k]!)) throw NOT_A_PAGE;
        i += 6;
      } else if (SIMPLE_ESCAPE[after] === 1) {
        i += 2;
      } else {
        throw NOT_A_PAGE;
      }
    }
    this.#i = i + 1;
    this.#escaped = escaped;
    this.#ascii = high < 0x80;
  }

  /** The string just scanned, which began at `start`, as `JSON.parse` gives it. */
  #stringValue(start: number): string {
    if (this.#escaped) return JSON.parse(decodeUtf8(this.#bytes, start, this.#i)) as string;
    return this.#bytes.toString(this.#ascii ? 'latin1' : 'utf8', start + 1, this.#i - 1);
  }

  /** Whether the key just scanned, which began at `start`, is `name` (an ASCII name). */
  #keyIs(start: number, name: string): boolean {
    if (this.#escaped || !this.#ascii) return this.#stringValue(start) === name;
    if (this.#i - start - 2 !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.#bytes[start + 1 + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** A number, as JSON's grammar has it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  #number(): void {
    if (this.#peek() === MINUS) this.#i += 1;
    if (this.#peek() === ZERO) this.#i += 1;
    else this.#digits();
    if (this.#peek() === DOT) {
      this.#i += 1;
      this.#digits();
    }
    const e = this.#peek();
    if (e === SMALL_E || e === LARGE_E) {
      this.#i += 1;
      const sign = this.#peek();
      if (sign === PLUS || sign === MINUS) this.#i += 1;
      this.#digits();
    }
  }

  /** One or more digits. */
  #digits(): void {
    const from = this.#i;
    while (this.#i < this.#end && this.#bytes[this.#i]! >= ZERO && this.#bytes[this.#i]! <= NINE) this.#i += 1;
    if (this.#i === from) throw NOT_A_PAGE;
  }

  #literal(word: string): void {
    if (this.#i + word.length > this.#end) throw NOT_A_PAGE;
    for (let k = 0; k < word.length; k++) if (this.#bytes[this.#i + k] !== word.charCodeAt(k)) throw NOT_A_PAGE;
    this.#i += word.length;
  }

  #space(): void {
    const bytes = this.#bytes;
    let i = this.#i;
    while (i < this.#end) {
      const c = bytes[i];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i += 1;
    }
    this.#i = i;
  }

  #expect(c: number): void {
    if (this.#peek() !== c) throw NOT_A_PAGE;
    this.#i += 1;
  }

  /** The byte at the cursor, or -1 at the end. */
  #peek(): number {
    return this.#i < this.#end ? this.#bytes[this.#i]! : -1;
  }
}

/**
 * List pages whose items are validated when they are used. A page arrives with its envelope
 * checked (`count`, `items`, every item an object with a string `id`); the rest of an item is
 * checked and normalised by its zod schema the first time a field other than `id` is read, and
 * the result kept. The poller reads the id of every item of pages of up to 1,000 and the fields
 * of the few it watches; validating every item on arrival cost about 10× the `JSON.parse` of the
 * page (bench/README.md, `bench:api`). A large page kept for its caller (`lazyList`) is not even
 * parsed until an item is read past its id (page-scan.ts).
 *
 * Items are Proxies over the item as received, so callers see plain objects of the schema's
 * output type: property reads, `in`, `Object.keys`, spreads and `JSON.stringify` all go through
 * the validated object. An item that does not match its schema throws, when it is read, the
 * VideoApiError its response would have thrown, naming the item.
 */
import { z } from 'zod';
import { type ResponseBody, decodeUtf8, textStart } from './body';
import { VideoApiError } from './errors';
import { type ResponseContext, type ResponseParser, jsonValue, parseData } from './http';
import { contiguous, parsePageInPieces } from './page-json';
import { type ScannedPage, scanPage } from './page-scan';
import type { Page } from './schemas';

type WireItem = { readonly id: string } & Record<string, unknown>;

function isWireItem(value: unknown): value is WireItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
}

/** One check over the array: `z.array` would copy it, which costs as much as the rest of the page. */
const wireItems = z.custom<readonly WireItem[]>((value) => Array.isArray(value) && value.every(isWireItem), {
  error: (issue) => {
    if (!Array.isArray(issue.input)) return `expected an array of items, received ${issue.input === null ? 'null' : typeof issue.input}`;
    const index = issue.input.findIndex((item) => !isWireItem(item));
    return `item ${index} is not an object with a string id`;
  },
});

const envelopeSchema = z.looseObject({ count: z.number().int(), items: wireItems });

/**
 * A page's items as `visitPage` hands them over: each one's id and version at hand, the item
 * itself (a Proxy, checked when read past its id) built when asked for. The poller settles most
 * items of its pages by id and version alone.
 */
export interface PageItems<T> {
  readonly length: number;
  id(index: number): string;
  /** See `receivedVersion`. */
  version(index: number): number | undefined;
  item(index: number): T;
}

/** Every item of `items`, built. */
export function allItems<T>(items: PageItems<T>): T[] {
  return Array.from({ length: items.length }, (_v, i) => items.item(i));
}

/** `PageItems` over items already built (each an object with a string `id`, as the envelope's check made sure). */
export class ArrayItems<T extends object> implements PageItems<T> {
  readonly #items: readonly T[];

  constructor(items: readonly T[]) {
    this.#items = items;
  }

  get length(): number {
    return this.#items.length;
  }

  id(index: number): string {
    return (this.#items[index] as { readonly id: string }).id;
  }

  version(index: number): number | undefined {
    return receivedVersion(this.#items[index]);
  }

  item(index: number): T {
    return this.#items[index]!;
  }
}

/** What a page read item by item leaves (`visitPage`): its total, how many items it held, its last. */
export interface VisitedPage<T> {
  count: number;
  length: number;
  last: T | undefined;
}

/**
 * A parser for a list page of items checked lazily against `item`. Its caller keeps the page and
 * most often reads few items past their ids: a large body is scanned (page-scan.ts), every item's
 * id read and the JSON checked, and an item is parsed from its bytes when first read. A small
 * body, or one that is not the usual page, is parsed whole. (Pieces, as `visitPage` reads, cost
 * more here: a page parsed in pieces and then carried back through the call's `await`s cost about
 * a quarter more CPU per call in young-generation collections; bench/README.md, "A kept page
 * parsed whole".)
 */
export function lazyList<S extends z.ZodType<object>>(item: S): ResponseParser<Page<z.output<S>>> {
  return (body, _contentType, response) => {
    if (body.byteLength < SCAN_FROM_BYTES) return wholePage(body, item, response);
    const bytes = body.chunks.length === 1 ? body.chunks[0]! : Buffer.concat(body.chunks, body.byteLength);
    const scanned = scanPage(bytes, textStart(bytes), bytes.length);
    if (scanned === undefined) return wholePage(body, item, response);
    const page = parseData(envelopeSchema, scanned.envelope);
    return { count: page.count, items: allItems(new ScannedPageItems(new ScannedItems(bytes, scanned), item, response)) };
  };
}

/**
 * Smaller bodies are parsed whole: decoded, they are strings V8 keeps in its young generation, and
 * `JSON.parse` of a 300-item page (107 KB) cost what the scan does (230 µs); from 128 KB on the
 * text goes to the large-object space and the parse costs four times as much (400 items: 1.1
 * against 0.3 ms).
 */
const SCAN_FROM_BYTES = 128 * 1024;

/** The page parsed in one go: its envelope and every item's id checked, the rest of each item when first read. */
function wholePage<S extends z.ZodType<object>>(body: ResponseBody, item: S, response: ResponseContext): Page<z.output<S>> {
  const page = parseData(envelopeSchema, jsonValue(body.text));
  return { count: page.count, items: lazyItems(page.items, item, response) };
}

/**
 * What one request (the same path and query) answered last time, for the next read of it to be
 * compared with (`visitPage`): where each of its items was, its id, length, fingerprint and
 * version, not its bytes. A caller that reads the same pages again and again (the poller) keeps
 * one per request; most items come back byte for byte, and their `receivedVersion` tells it so
 * without their being parsed.
 *
 * A read's arrays are written over by the read after next once the caller has said it reads the
 * last read's items no more (`release`); until then a read takes new arrays.
 */
export class PageMemory {
  #last: ScannedPage | undefined;
  /**
   * The page read before the last, once its items are read no more: the next scan writes over its
   * arrays. Each read's arrays were otherwise new, and lived until the read after next (a sweep
   * later): the poller's largest share of what its collector promoted and then marked.
   */
  #spare: ScannedPage | undefined;
  /** Whether items of the last page were handed out since `release`. */
  #inUse = false;
  readonly #onResize: ((delta: number) => void) | undefined;

  /** `onResize`: told by how many items the memory grew (or shrank) each time it does. */
  constructor(onResize?: (delta: number) => void) {
    this.#onResize = onResize;
  }

  /** The items held: the last page's. */
  get itemCount(): number {
    return this.#last?.ids.length ?? 0;
  }

  /** The last page read, if it was the usual page. */
  get last(): ScannedPage | undefined {
    return this.#last;
  }

  /** A page whose arrays the next scan may write over (see `#spare`), if there is one. */
  get spare(): ScannedPage | undefined {
    return this.#inUse ? undefined : this.#spare;
  }

  /** Keeps `page`, the page just read, for the next read to be compared with. */
  remember(page: ScannedPage): void {
    const before = this.itemCount;
    // Released, the last page's items are read no more: its arrays are the next scan's to write over.
    this.#spare = this.#inUse ? undefined : this.#last;
    this.#last = page;
    this.#inUse = true;
    if (page.ids.length !== before) this.#onResize?.(page.ids.length - before);
  }

  /** The items of the reads so far are read no more: the next read may write over their arrays. */
  release(): void {
    this.#inUse = false;
  }

  forget(): void {
    const before = this.itemCount;
    this.#last = undefined;
    this.#spare = undefined;
    if (before !== 0) this.#onResize?.(-before);
  }
}

/**
 * One list page read with `read`, its items handed to `visit` as the page is parsed, a piece at a
 * time (page-json.ts), and not kept: a caller that looks at each item once (the poller) holds a
 * piece of a page, not the page. With `memory`, the page is instead scanned against the body the
 * same request answered last time: items found there byte for byte are not parsed nor scanned,
 * and keep their `receivedVersion`; each item is parsed (with its block of neighbours) when
 * something but its id is read. What `visit` throws is thrown as it is once the call is over, not
 * taken for a malformed answer; the items after it are not handed out.
 */
export async function visitPage<S extends z.ZodType<object>>(
  read: (parse: ResponseParser<VisitedPage<z.output<S>>>) => Promise<VisitedPage<z.output<S>>>,
  item: S,
  visit: (items: PageItems<z.output<S>>) => void,
  memory?: PageMemory,
): Promise<VisitedPage<z.output<S>>> {
  let failure: { error: unknown } | undefined;
  const page = await read((body, _contentType, response) => {
    let length = 0;
    let last: z.output<S> | undefined;
    const read = memory === undefined ? readPage : remembered(memory);
    const count = read(body, item, response, (items) => {
      if (items.length === 0 || failure !== undefined) return;
      length += items.length;
      last = items.item(items.length - 1);
      try {
        visit(items);
      } catch (error) {
        failure = { error };
      }
    });
    return { count, length, last };
  });
  if (failure !== undefined) throw failure.error;
  return page;
}

/**
 * Reads a list page into `visit`: a large one a piece at a time, any other whole. The envelope and
 * every item's id are checked before the items are handed out; the rest of each item is checked
 * against `item` when first read. Returns the page's `count`.
 */
function readPage<S extends z.ZodType<object>>(body: ResponseBody, item: S, response: ResponseContext, visit: (items: PageItems<z.output<S>>) => void): number {
  let count = 0;
  let offset = 0;
  const inPieces = parsePageInPieces(body, {
    envelope: (envelope) => {
      count = parseData(envelopeSchema, envelope).count;
    },
    items: (raw) => {
      visit(new ArrayItems(lazyItems(wireItemsAt(raw, offset), item, response)));
      offset += raw.length;
    },
  });
  if (inPieces) return count;
  const page = wholePage(body, item, response);
  visit(new ArrayItems(page.items));
  return page.count;
}

/**
 * `readPage` against the page `memory` holds, which then holds this one (a page not the usual
 * shape is read as `readPage` does, and forgotten). The bytes are the body's only while `visit`
 * runs: the items it took are parsed before they are let go.
 */
function remembered(memory: PageMemory): typeof readPage {
  return (body, item, response, visit) => {
    const bytes = contiguous(body);
    const scanned = scanPage(bytes, textStart(bytes), bytes.length, { previous: memory.last, into: memory.spare });
    if (scanned === undefined) {
      memory.forget();
      return readPage(body, item, response, visit);
    }
    const { count } = parseData(envelopeSchema, scanned.envelope);
    memory.remember(scanned);
    const items = new ScannedPageItems(new ScannedItems(bytes, scanned), item, response);
    try {
      visit(items);
    } finally {
      items.letGo();
    }
    return count;
  };
}

/** A piece's items, each checked to be an object with a string id (`offset`: the piece's place in the page). */
function wireItemsAt(items: unknown[], offset: number): readonly WireItem[] {
  for (let i = 0; i < items.length; i++) {
    if (!isWireItem(items[i])) {
      throw new VideoApiError(`unexpected response: items: item ${offset + i} is not an object with a string id`, { code: 'UNEXPECTED_RESPONSE' });
    }
  }
  return items as WireItem[];
}

/** Where an item as received keeps the outcome of its check (a symbol: never seen through the Proxy). */
const CHECKED = Symbol('checked');
/** What a Proxy answers with the item as received, unchecked (see `asReceived`). */
const RECEIVED = Symbol('received');
/** What a scanned item's Proxy answers with its bytes' version (see `receivedVersion`). */
const VERSION = Symbol('version');

/**
 * A listed item's fields as the service sent them, before any check or normalisation; undefined
 * for anything else (an item read by GET is checked whole). For a caller that only needs to know
 * whether a few fields are what it saw last time: equal values need no second check.
 */
export function asReceived(item: object): Readonly<Record<string, unknown>> | undefined {
  return (item as { [RECEIVED]?: Record<string, unknown> })[RECEIVED];
}

/**
 * The version of a listed item's bytes in a page read against the last (`visitPage` with a
 * `PageMemory`): the same number as long as the same request answers this item byte for byte, a
 * number never seen before when its bytes change; undefined for any other item. What a caller
 * worked out from an item's fields at one version holds for every item of that version.
 */
export function receivedVersion(item: unknown): number | undefined {
  return typeof item === 'object' && item !== null ? (item as { [VERSION]?: number })[VERSION] : undefined;
}

type Received = WireItem & { [CHECKED]?: { value: object } | { error: Error } };

function lazyItems<S extends z.ZodType<object>>(wire: readonly WireItem[], item: S, response: ResponseContext): z.output<S>[] {
  const handler = itemHandler<Received>(item, response, (raw) => raw);
  return wire.map((raw) => new Proxy(raw, handler) as z.output<S>);
}

/**
 * A scanned page's items as received, parsed a block at a time when first read: a caller that
 * reads one item past its id often reads its neighbours too (a list shown in Slack), and one
 * `JSON.parse` per item cost twice the parse of the whole page when every item was read.
 */
class ScannedItems {
  /** Undefined once let go (`letGo`). */
  #bytes: Buffer | undefined;
  readonly #page: ScannedPage;
  /** Made at the first item read: most pages the poller reads again are never read past their ids. */
  #received: (Received | undefined)[] | undefined;

  constructor(bytes: Buffer, page: ScannedPage) {
    this.#bytes = bytes;
    this.#page = page;
  }

  get ids(): readonly string[] {
    return this.#page.ids;
  }

  version(index: number): number | undefined {
    return this.#page.versions[index];
  }

  /**
   * Item `index` as received (the scan checked that its bytes are a JSON object with its string
   * id), parsed with the items after it up to the next one parsed already: a page read in order
   * is parsed a block at a time, and its last item alone (what the poller reads of a page to
   * decide on the next) is parsed alone.
   */
  received(index: number): Received {
    const received = this.#receivedSoFar();
    const known = received[index];
    if (known !== undefined) return known;
    const until = Math.min(index + ITEMS_PER_PARSE, received.length);
    let to = index;
    while (to + 1 < until && received[to + 1] === undefined) to++;
    return this.#parse(received, index, to);
  }

  /**
   * Parses the items at `indexes` (ascending) not parsed yet, each run of neighbours in one go, and
   * lets the bytes go: they were lent for a while only (`remembered`). Any other item can then no
   * longer be read.
   */
  letGo(indexes: readonly number[]): void {
    const received = this.#receivedSoFar();
    for (let k = 0; k < indexes.length; k++) {
      const from = indexes[k]!;
      if (received[from] !== undefined) continue;
      let to = from;
      while (k + 1 < indexes.length && indexes[k + 1] === to + 1 && received[to + 1] === undefined) to = indexes[++k]!;
      this.#parse(received, from, to);
    }
    this.#bytes = undefined;
  }

  #receivedSoFar(): (Received | undefined)[] {
    return (this.#received ??= new Array(this.#page.ids.length));
  }

  /** Items `from` to `to` parsed into `received`; the first returned. */
  #parse(received: (Received | undefined)[], from: number, to: number): Received {
    if (this.#bytes === undefined) throw new Error(`item ${from} of a list page read after the page's bytes were let go`);
    // The items and what lies between them (commas, spaces) make an array once bracketed.
    const block = JSON.parse(`[${decodeUtf8(this.#bytes, this.#page.starts[from]!, this.#page.ends[to]!)}]`) as Received[];
    for (let i = 0; i < block.length; i++) received[from + i] = block[i];
    return block[0]!;
  }
}

/** Items of a scanned page parsed together when one of them is first read. */
const ITEMS_PER_PARSE = 50;

/** An item of a scanned page (a plain object: what its Proxy answers for a prototype is its target's). */
interface ScannedItem {
  readonly id: string;
  readonly items: ScannedItems;
  readonly index: number;
}

const receivedOf = (target: ScannedItem): Received => target.items.received(target.index);
const versionOf = (target: ScannedItem): number | undefined => target.items.version(target.index);

/** A scanned page's `PageItems`: an item's Proxy is built when the item is first asked for. */
class ScannedPageItems<S extends z.ZodType<object>> implements PageItems<z.output<S>> {
  readonly #received: ScannedItems;
  readonly #handler: ProxyHandler<ScannedItem>;
  readonly #items: (z.output<S> | undefined)[];

  constructor(received: ScannedItems, item: S, response: ResponseContext) {
    this.#received = received;
    this.#handler = itemHandler<ScannedItem>(item, response, receivedOf, versionOf);
    this.#items = new Array(received.ids.length);
  }

  get length(): number {
    return this.#items.length;
  }

  id(index: number): string {
    return this.#received.ids[index]!;
  }

  version(index: number): number | undefined {
    return this.#received.version(index);
  }

  item(index: number): z.output<S> {
    return (this.#items[index] ??= new Proxy({ id: this.id(index), items: this.#received, index }, this.#handler) as unknown as z.output<S>);
  }

  /** The items handed out are parsed, and the page's bytes let go (`ScannedItems.letGo`). */
  letGo(): void {
    const handedOut: number[] = [];
    for (let i = 0; i < this.#items.length; i++) if (this.#items[i] !== undefined) handedOut.push(i);
    this.#received.letGo(handedOut);
  }
}

/**
 * What an item's Proxy does: `id` from the target, the item as received from `received`, and
 * every other read from the item checked against `item` (once; the outcome kept on it).
 */
function itemHandler<T extends { readonly id: string }>(
  item: z.ZodType<object>,
  response: ResponseContext,
  received: (target: T) => Received,
  version: (target: T) => number | undefined = () => undefined,
): ProxyHandler<T> {
  const full = (target: T): object => {
    const raw = received(target);
    let result = raw[CHECKED];
    if (result === undefined) {
      try {
        result = { value: parseData(item, raw, `item ${JSON.stringify(raw.id)}`) };
      } catch (cause) {
        result = { error: response.unexpected(cause, JSON.stringify(raw)) };
      }
      raw[CHECKED] = result;
    }
    if ('error' in result) throw result.error;
    return result.value;
  };
  return {
    get: (target, key) => (key === 'id' ? target.id : key === RECEIVED ? received(target) : key === VERSION ? version(target) : Reflect.get(full(target), key)),
    has: (target, key) => key === 'id' || Reflect.has(full(target), key),
    ownKeys: (target) => Reflect.ownKeys(full(target)),
    getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(full(target), key),
    set: (target, key, value) => Reflect.set(full(target), key, value),
    defineProperty: (target, key, descriptor) => Reflect.defineProperty(full(target), key, descriptor),
    deleteProperty: (target, key) => Reflect.deleteProperty(full(target), key),
  };
}

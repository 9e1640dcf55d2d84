/**
 * List pages whose items are validated when they are used. A page arrives with its envelope
 * checked (`count`, `items`, every item an object with a string `id`); the rest of an item is
 * checked and normalised by its zod schema the first time a field other than `id` is read, and
 * the result kept. The poller reads the id of every item of pages of up to 1,000 and the fields
 * of the few it watches; validating every item on arrival cost about 10× the `JSON.parse` of the
 * page (bench/README.md, `bench:api`).
 *
 * Items are Proxies over the item as received, so callers see plain objects of the schema's
 * output type: property reads, `in`, `Object.keys`, spreads and `JSON.stringify` all go through
 * the validated object. An item that does not match its schema throws, when it is read, the
 * VideoApiError its response would have thrown, naming the item.
 */
import { z } from 'zod';
import type { ResponseBody } from './body';
import { VideoApiError } from './errors';
import { type ResponseContext, type ResponseParser, jsonValue, parseData } from './http';
import { parsePageInPieces } from './page-json';
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

/** What a page read item by item leaves (`visitPage`): its total, how many items it held, its last. */
export interface VisitedPage<T> {
  count: number;
  length: number;
  last: T | undefined;
}

/**
 * A parser for a list page of items checked lazily against `item`. The page is parsed whole: its
 * caller keeps every item, so pieces would hold nothing less at once, and a page parsed in pieces
 * and then carried back through the call's `await`s cost about a quarter more CPU per call in
 * young-generation collections (bench/README.md, "A kept page parsed whole").
 */
export function lazyList<S extends z.ZodType<object>>(item: S): ResponseParser<Page<z.output<S>>> {
  return (body, _contentType, response) => wholePage(body, item, response);
}

/** The page parsed in one go: its envelope and every item's id checked, the rest of each item when first read. */
function wholePage<S extends z.ZodType<object>>(body: ResponseBody, item: S, response: ResponseContext): Page<z.output<S>> {
  const page = parseData(envelopeSchema, jsonValue(body.text));
  return { count: page.count, items: lazyItems(page.items, item, response) };
}

/**
 * One list page read with `read`, its items handed to `visit` as the page is parsed, a piece at a
 * time (page-json.ts), and not kept: a caller that looks at each item once (the poller) holds a
 * piece of a page, not the page. What `visit` throws is thrown as it is once the call is over,
 * not taken for a malformed answer; the items after it are not handed out.
 */
export async function visitPage<S extends z.ZodType<object>>(
  read: (parse: ResponseParser<VisitedPage<z.output<S>>>) => Promise<VisitedPage<z.output<S>>>,
  item: S,
  visit: (items: readonly z.output<S>[]) => void,
): Promise<VisitedPage<z.output<S>>> {
  let failure: { error: unknown } | undefined;
  const page = await read((body, _contentType, response) => {
    let length = 0;
    let last: z.output<S> | undefined;
    const count = readPage(body, item, response, (items) => {
      if (items.length === 0 || failure !== undefined) return;
      length += items.length;
      last = items[items.length - 1];
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
function readPage<S extends z.ZodType<object>>(body: ResponseBody, item: S, response: ResponseContext, visit: (items: z.output<S>[]) => void): number {
  let count = 0;
  let offset = 0;
  const inPieces = parsePageInPieces(body, {
    envelope: (envelope) => {
      count = parseData(envelopeSchema, envelope).count;
    },
    items: (raw) => {
      visit(lazyItems(wireItemsAt(raw, offset), item, response));
      offset += raw.length;
    },
  });
  if (inPieces) return count;
  const page = wholePage(body, item, response);
  visit(page.items);
  return page.count;
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

/**
 * A listed item's fields as the service sent them, before any check or normalisation; undefined
 * for anything else (an item read by GET is checked whole). For a caller that only needs to know
 * whether a few fields are what it saw last time: equal values need no second check.
 */
export function asReceived(item: object): Readonly<Record<string, unknown>> | undefined {
  return (item as { [RECEIVED]?: Record<string, unknown> })[RECEIVED];
}

function lazyItems<S extends z.ZodType<object>>(wire: readonly WireItem[], item: S, response: ResponseContext): z.output<S>[] {
  type Item = z.output<S>;
  type Checked = { value: Item } | { error: Error };
  const full = (raw: WireItem & { [CHECKED]?: Checked }): Item => {
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
  const handler: ProxyHandler<WireItem> = {
    get: (raw, key) => (key === 'id' ? raw.id : key === RECEIVED ? raw : Reflect.get(full(raw), key)),
    has: (raw, key) => key === 'id' || Reflect.has(full(raw), key),
    ownKeys: (raw) => Reflect.ownKeys(full(raw)),
    getOwnPropertyDescriptor: (raw, key) => Reflect.getOwnPropertyDescriptor(full(raw), key),
    set: (raw, key, value) => Reflect.set(full(raw), key, value),
    defineProperty: (raw, key, descriptor) => Reflect.defineProperty(full(raw), key, descriptor),
    deleteProperty: (raw, key) => Reflect.deleteProperty(full(raw), key),
  };
  return wire.map((raw) => new Proxy(raw, handler) as Item);
}

/**
 * A response body as the socket delivered it: its chunks, decoded to text only when asked.
 *
 * A list page of 1,000 items is ~460 KB. Decoded whole it becomes one string V8 allocates
 * outside its young generation, in memory fresh from the kernel every time, and that cost more
 * than parsing the page (bench/README.md, "List pages parsed a piece at a time"). A large list page
 * takes the bytes instead: visited piece by piece (the poller's, lists.ts `visitPage`; page-json.ts)
 * or scanned (the commands', `lazyList`; page-scan.ts). Every other parser reads `text`.
 */
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

export class ResponseBody {
  readonly chunks: readonly Buffer[];
  readonly byteLength: number;
  #text: string | undefined;

  constructor(chunks: readonly Buffer[]) {
    this.chunks = chunks;
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  static fromText(text: string): ResponseBody {
    return new ResponseBody(text === '' ? [] : [Buffer.from(text)]);
  }

  /** The body as UTF-8 text (a byte order mark dropped), decoded once. */
  get text(): string {
    if (this.#text === undefined) {
      const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.byteLength);
      this.#text = decodeUtf8(bytes, textStart(bytes), bytes.length);
    }
    return this.#text;
  }
}

/** Reads a response stream to its end, keeping its chunks as they came. */
export function readBody(stream: Readable): Promise<ResponseBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', reject);
    stream.once('end', () => {
      ended = true;
      resolve(new ResponseBody(chunks));
    });
    // 'close' follows every end: the error (a stack trace, microseconds) only when it came first.
    stream.once('close', () => {
      if (!ended) reject(new Error('the response body closed before its end'));
    });
  });
}

/** Where the text begins: after a UTF-8 byte order mark, if there is one. */
export function textStart(bytes: Buffer): number {
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  return bom ? UTF8_BOM.length : 0;
}

/** `bytes[start, end)` as text; ASCII (nearly every body) is copied as it is, without UTF-8 decoding. */
export function decodeUtf8(bytes: Buffer, start: number, end: number): string {
  return bytes.toString(isAscii(bytes.subarray(start, end)) ? 'latin1' : 'utf8', start, end);
}

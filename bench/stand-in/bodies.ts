/**
 * Response bodies for the benches' stand-in service, built from the recorded bodies in
 * test/reference/fixtures (public SDK test data, see its INDEX.md). A list of n items repeats
 * the recorded items in order, each with its own id; every other field is as recorded
 * (`partnerId` as number or string, missing `hasAudio`, RTMP outputs keyed by id, …).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '..', '..', 'test', 'reference', 'fixtures');

type Item = Record<string, unknown> & { id: string };

function recorded(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>;
}

function itemsOf(file: string): Item[] {
  return recorded(file).items as Item[];
}

const ARCHIVES: readonly Item[] = [
  ...itemsOf('archive.list.vonage-node.json'),
  ...itemsOf('archive.list.ruby.json'),
  ...itemsOf('archive.list.opentok-node.json'),
  ...itemsOf('archive.list.php.json'),
];

const RECORDED_BROADCASTS: readonly Item[] = itemsOf('broadcast.list.ruby.json');

/** Broadcasts every stand-in project holds. */
export const BROADCASTS = 100;

/** A distinct id per position, shaped like the service's (a UUID). */
export function itemId(prefix: 'a' | 'b', index: number): string {
  return `${prefix}${index.toString(16).padStart(7, '0')}-0000-4000-8000-000000000000`;
}

function page(pool: readonly Item[], prefix: 'a' | 'b', size: number): string {
  const items = Array.from({ length: size }, (_, i) => ({ ...pool[i % pool.length]!, id: itemId(prefix, i) }));
  return JSON.stringify({ count: size, items });
}

/** `GET …/archive/{id}`: a complete recorded archive (vonage-node's test body). */
export const ARCHIVE_BODY = JSON.stringify(recorded('archive.get.vonage-node.json'));
export const ARCHIVE_ID = recorded('archive.get.vonage-node.json').id as string;

export function archiveListBody(size: number): string {
  return page(ARCHIVES, 'a', size);
}

export function broadcastListBody(size: number): string {
  return page(RECORDED_BROADCASTS, 'b', size);
}

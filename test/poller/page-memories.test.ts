import { scanPage } from '../../src/api/page-scan';
import { PageMemories } from '../../src/poller/page-memories';

/** A memory's read of a page of `items` items. */
function read(memories: PageMemories, project: string, offset: number, items: number) {
  const memory = memories.of(project, 'archive', { offset, count: 1000 });
  const listed = Array.from({ length: items }, (_v, i) => ({ id: `A${offset + i}`, name: `recording ${i}` }));
  const body = Buffer.from(JSON.stringify({ count: items, items: listed }));
  const page = scanPage(body, 0, body.length, { previous: memory.last, into: memory.spare })!;
  memory.remember(page);
  return { memory, page };
}

describe('PageMemories', () => {
  test('one memory per project, kind and query; the same one for the same request', () => {
    const memories = new PageMemories();
    const first = memories.of('prod', 'archive', { offset: 0, count: 1000 });
    expect(memories.of('prod', 'archive', { offset: 0, count: 1000 })).toBe(first);
    expect(memories.of('prod', 'archive', { offset: 1000, count: 1000 })).not.toBe(first);
    expect(memories.of('prod', 'archive', { offset: 0, count: 1000, sessionId: 'S1' })).not.toBe(first);
    expect(memories.of('prod', 'broadcast', { offset: 0, count: 1000 })).not.toBe(first);
    expect(memories.of('staging', 'archive', { offset: 0, count: 1000 })).not.toBe(first);
  });

  test('holds no more items than it may: the pages read least recently are forgotten first', () => {
    const memories = new PageMemories(1000);
    const oldest = read(memories, 'prod', 0, 300).memory;
    const kept = read(memories, 'prod', 1000, 300).memory;
    read(memories, 'prod', 2000, 300);
    // Read again: now the most recently used.
    expect(memories.of('prod', 'archive', { offset: 1000, count: 1000 })).toBe(kept);
    read(memories, 'prod', 3000, 300);
    // The next request past the bound forgets the page read least recently, offset 0.
    memories.of('prod', 'archive', { offset: 4000, count: 1000 });
    expect(memories.itemCount).toBeLessThanOrEqual(1000);
    expect(memories.of('prod', 'archive', { offset: 0, count: 1000 })).not.toBe(oldest);
    expect(memories.of('prod', 'archive', { offset: 1000, count: 1000 }).last).toBeDefined();
  });

  test('counts what its memories hold, and no longer what one forgotten meanwhile takes', () => {
    const memories = new PageMemories(1000);
    const first = memories.of('prod', 'archive', { offset: 0, count: 1000 });
    const a = read(memories, 'prod', 1000, 400).memory;
    const b = read(memories, 'prod', 2000, 400).memory;
    expect(memories.itemCount).toBe(800);
    expect(a.itemCount + b.itemCount).toBe(800);
    const c = read(memories, 'prod', 3000, 400).memory;
    // Past the bound: the next request forgets the first (nothing held yet, a read of it under way) and then a.
    memories.of('prod', 'archive', { offset: 4000, count: 1000 });
    expect(memories.itemCount).toBe(b.itemCount + c.itemCount);
    const body = Buffer.from('{"count":1,"items":[{"id":"A0"}]}');
    first.remember(scanPage(body, 0, body.length, {})!);
    expect(first.itemCount).toBe(1);
    expect(memories.itemCount).toBe(800);
  });

  test('a page that grows or shrinks is counted as it is now; a page forgotten by its memory is no longer counted', () => {
    const memories = new PageMemories();
    const { memory } = read(memories, 'prod', 0, 300);
    read(memories, 'prod', 0, 500);
    expect(memories.itemCount).toBe(500);
    read(memories, 'prod', 0, 200);
    expect(memories.itemCount).toBe(200);
    memory.forget();
    expect(memories.itemCount).toBe(0);
  });

  test('release lets every memory write its read after next over the arrays of its last', () => {
    const memories = new PageMemories();
    const first = read(memories, 'prod', 0, 50).page;
    read(memories, 'prod', 0, 50);
    // Not released: the first page's items may still be read; the third read takes arrays of its own.
    expect(read(memories, 'prod', 0, 50).page).not.toBe(first);
    memories.release();
    const released = memories.of('prod', 'archive', { offset: 0, count: 1000 }).last;
    read(memories, 'prod', 0, 50);
    memories.release();
    expect(read(memories, 'prod', 0, 50).page).toBe(released);
  });
});

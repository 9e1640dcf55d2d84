import { scanPage } from '../../src/api/page-scan';
import { PageMemories } from '../../src/poller/page-memories';

/** A memory's read of a page of `bytes` bytes (the scan of a page with one item padded to the size). */
function read(memories: PageMemories, project: string, offset: number, bytes: number) {
  const memory = memories.of(project, 'archive', { offset, count: 1000 });
  const body = Buffer.from(`{"count":1,"items":[{"id":"A${offset}","name":"${'x'.repeat(bytes - 40)}"}]}`);
  return { memory, items: memory.remember(body, scanPage(body, 0, body.length)!) };
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

  test('holds no more bytes than it may: the pages read least recently are forgotten first', () => {
    const memories = new PageMemories(100_000);
    const oldest = read(memories, 'prod', 0, 30_000).memory;
    const kept = read(memories, 'prod', 1000, 30_000).memory;
    read(memories, 'prod', 2000, 30_000);
    // Read again: now the most recently used.
    expect(memories.of('prod', 'archive', { offset: 1000, count: 1000 })).toBe(kept);
    read(memories, 'prod', 3000, 30_000);
    // The next request past the bound forgets the page read least recently, offset 0.
    memories.of('prod', 'archive', { offset: 4000, count: 1000 });
    expect(memories.byteLength).toBeLessThanOrEqual(100_000);
    expect(memories.of('prod', 'archive', { offset: 0, count: 1000 })).not.toBe(oldest);
    expect(memories.of('prod', 'archive', { offset: 1000, count: 1000 }).last).toBeDefined();
  });

  test('counts what its memories hold, and no longer what one forgotten meanwhile takes', () => {
    const memories = new PageMemories(100_000);
    const first = memories.of('prod', 'archive', { offset: 0, count: 1000 });
    const a = read(memories, 'prod', 1000, 40_000).memory;
    const b = read(memories, 'prod', 2000, 40_000).memory;
    expect(memories.byteLength).toBe(a.byteLength + b.byteLength);
    const c = read(memories, 'prod', 3000, 40_000).memory;
    // Past the bound: the next request forgets the first (nothing held yet, a read of it under way) and then a.
    memories.of('prod', 'archive', { offset: 4000, count: 1000 });
    expect(memories.byteLength).toBe(b.byteLength + c.byteLength);
    const body = Buffer.from('{"count":1,"items":[{"id":"A0"}]}');
    first.remember(body, scanPage(body, 0, body.length)!);
    expect(first.byteLength).toBeGreaterThan(0);
    expect(memories.byteLength).toBe(b.byteLength + c.byteLength);
  });

  test('release lets every memory write its next read over its last', () => {
    const memories = new PageMemories();
    const { memory } = read(memories, 'prod', 0, 5_000);
    const buffer = memory.last!.bytes.buffer;
    read(memories, 'prod', 0, 5_000);
    expect(memory.last!.bytes.buffer).not.toBe(buffer);
    memories.release();
    const released = memory.last!.bytes.buffer;
    read(memories, 'prod', 0, 5_000);
    expect(memory.last!.bytes.buffer).toBe(released);
  });
});

import { byTime, oldestFirst } from '../../src/poller/order';

const T0 = 1_700_000_000_000;

/** The reference: a comparator sort, which is stable. */
const bySort = <T extends { at: number }>(items: T[]): T[] => [...items].sort((a, b) => a.at - b.at);

test('orders by time, ties in the order given, as a stable comparator sort does', () => {
  let seed = 7;
  const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const items = Array.from({ length: 5_000 }, (_v, i) => ({ id: `w${i}`, at: T0 + Math.floor(random() * 200) * 250 }));
  const ordered = oldestFirst(items, (item) => item.at);
  expect(ordered).toEqual(bySort(items));
  expect(ordered).not.toBe(items);
  expect(items[0]!.id).toBe('w0');
});

test('falls back to the comparator for times it cannot fold (fractions, spans too wide to fold with the index)', () => {
  const fractions = [{ at: T0 + 0.5 }, { at: T0 }, { at: T0 + 0.25 }];
  expect(oldestFirst(fractions, (item) => item.at)).toEqual(bySort(fractions));
  const wide = [
    { at: Number.MAX_SAFE_INTEGER - 1, id: 'a' },
    { at: 0, id: 'b' },
    { at: T0, id: 'c' },
    { at: 0, id: 'd' },
  ];
  expect(oldestFirst(wide, (item) => item.at).map((item) => item.id)).toEqual(['b', 'd', 'c', 'a']);
});

test('gives the positions of times in order, ties in the order given', () => {
  expect([...byTime(Float64Array.of(T0 + 5, T0, T0 + 5, T0 - 1, T0))]).toEqual([3, 1, 4, 0, 2]);
  expect([...byTime(Float64Array.of(0.5, 0.25, 0.5, 0))]).toEqual([3, 1, 0, 2]);
  expect([...byTime(new Float64Array(0))]).toEqual([]);
});

test('an empty or single list comes back as a copy', () => {
  const one = [{ at: T0 }];
  expect(oldestFirst(one, (item) => item.at)).toEqual(one);
  expect(oldestFirst([], () => 0)).toEqual([]);
});

/**
 * Oldest first, for the thousands of kept watches a cycle may choose from. `Array#sort` with a
 * comparator calls it ~140,000 times for 10,000 watches (~5 ms per cycle in `bench:poller`);
 * whole-millisecond times and the position fold into one number that a typed array sorts natively.
 */

/** The positions of `times` (0 to length − 1), earliest time first; equal times keep their order. */
export function byTime(times: Float64Array): Uint32Array {
  const count = times.length;
  const order = new Uint32Array(count);
  let min = Infinity;
  let max = -Infinity;
  let whole = true;
  for (let i = 0; i < count; i++) {
    const time = times[i]!;
    if (time < min) min = time;
    if (time > max) max = time;
    if (!Number.isInteger(time)) whole = false;
  }
  if (count < 2 || !whole || !Number.isSafeInteger((max - min + 1) * count)) {
    for (let i = 0; i < count; i++) order[i] = i;
    return order.sort((a, b) => times[a]! - times[b]! || a - b);
  }
  // Ties keep the order given: the position breaks them in the fold.
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = (times[i]! - min) * count + i;
  keys.sort();
  for (let i = 0; i < count; i++) order[i] = keys[i]! % count;
  return order;
}

/** The items, earliest `timeOf` first; equal times keep their order. */
export function oldestFirst<T>(items: readonly T[], timeOf: (item: T) => number): T[] {
  const times = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) times[i] = timeOf(items[i]!);
  const order = byTime(times);
  const ordered = new Array<T>(items.length);
  for (let i = 0; i < order.length; i++) ordered[i] = items[order[i]!]!;
  return ordered;
}

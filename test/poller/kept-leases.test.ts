import { KeptLeases } from '../../src/poller/kept-leases';
import type { WatchKind } from '../../src/poller/snapshot';

interface TestLease {
  watch: { id: string; kind: WatchKind; resourceId: string; projectName: string; nextPollAt: number };
  owner: string;
  releaseAt: number;
  keptSlot?: number;
}

const lease = (id: string, kind: WatchKind, resourceId: string, nextPollAt = 0, releaseAt = 0, projectName = 'prod'): TestLease => ({
  watch: { id, kind, resourceId, projectName, nextPollAt },
  owner: 'p:1',
  releaseAt,
});

const ids = (visit: (collect: (l: TestLease) => void) => void): string[] => {
  const seen: string[] = [];
  visit((l) => seen.push(l.watch.id));
  return seen;
};

test('finds kept leases by the resource they follow, one or several, and forgets them as they go', () => {
  const kept = new KeptLeases<TestLease>();
  const a = lease('w1', 'archive', 'A1');
  const b = lease('w2', 'archive', 'A1');
  const c = lease('w3', 'broadcast', 'A1');
  const sip = lease('w4', 'sip', 'S1');
  for (const l of [a, b, c, sip]) kept.set(l.watch.id, l);
  expect(kept.size).toBe(4);
  expect(kept.following('archive', 'A1')).toEqual([a, b]);
  expect(kept.following('broadcast', 'A1')).toBe(c);
  expect(kept.following('render', 'A1')).toBeUndefined();

  expect(kept.delete('w1')).toBe(true);
  expect(kept.delete('w1')).toBe(false);
  expect(kept.following('archive', 'A1')).toBe(b);
  // A new lease for the same watch replaces the old one in both views.
  const b2 = lease('w2', 'archive', 'A1');
  kept.set('w2', b2);
  expect(kept.get('w2')).toBe(b2);
  expect(kept.following('archive', 'A1')).toBe(b2);
  kept.set('w2', b2);
  expect(kept.following('archive', 'A1')).toBe(b2);

  expect([...kept.values()].map((l) => l.watch.id)).toEqual(['w2', 'w3', 'w4']);
  kept.clear();
  expect(kept.size).toBe(0);
  expect(kept.following('broadcast', 'A1')).toBeUndefined();
});

test('finds what is due, due soon or at the end of its hold from the times it was told of, in the order kept', () => {
  const kept = new KeptLeases<TestLease>();
  const [a, b, c, d] = [
    lease('a', 'archive', 'A', 100, 500),
    lease('b', 'sip', 'S', 300, 400),
    lease('c', 'render', 'R', 150, 900),
    lease('d', 'archive', 'D', 100, 400),
  ];
  for (const l of [a, b, c, d]) kept.set(l.watch.id, l);
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['a', 'd']);
  expect(ids((collect) => kept.dueBy(99, collect))).toEqual([]);
  expect(ids((collect) => kept.dueWithin(100, 300, collect))).toEqual(['b', 'c']);
  expect(ids((collect) => kept.holdsEndedBy(400, collect))).toEqual(['b', 'd']);

  // Times changed behind its back are not seen until it is told.
  a.watch.nextPollAt = 1_000;
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['a', 'd']);
  kept.rescheduled(a);
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['d']);
  // A kept lease set again is told of too; so is a watch replaced (a hint: due now).
  d.releaseAt = 800;
  kept.set('d', d);
  expect(ids((collect) => kept.holdsEndedBy(400, collect))).toEqual(['b']);
  b.watch = { ...b.watch, nextPollAt: 50 };
  kept.rescheduled(b);
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['b', 'd']);

  // A lease no longer kept is neither found nor told of; its replacement takes its place.
  kept.delete('b');
  kept.rescheduled(b);
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['d']);
  const a2 = lease('a', 'archive', 'A', 10, 10);
  kept.set('a', a2);
  expect(ids((collect) => kept.dueBy(100, collect))).toEqual(['a', 'd']);
  expect(ids((collect) => kept.holdsEndedBy(100, collect))).toEqual(['a']);
});

test('keeps its order and its times as leases come and go by the thousand', () => {
  const kept = new KeptLeases<TestLease>();
  const all = Array.from({ length: 5_000 }, (_v, i) => lease(`w${i}`, 'archive', `A${i}`, i, 10_000 - i));
  for (const l of all) kept.set(l.watch.id, l);
  // Most leave (the slots are compacted on the way), a few come back, a few are rescheduled.
  for (let i = 0; i < 5_000; i++) if (i % 10 !== 0) kept.delete(`w${i}`);
  const back = [lease('w1', 'archive', 'A1', 5, 5), lease('w2', 'archive', 'A2', 6, 6)];
  for (const l of back) kept.set(l.watch.id, l);
  const moved = all[20]!;
  moved.watch.nextPollAt = 1;
  kept.rescheduled(moved);
  const remaining = [...all.filter((_l, i) => i % 10 === 0), ...back];
  expect(kept.size).toBe(remaining.length);
  expect([...kept.values()].map((l) => l.watch.id)).toEqual(remaining.map((l) => l.watch.id));
  expect(ids((collect) => kept.dueBy(10, collect))).toEqual(['w0', 'w10', 'w20', 'w1', 'w2']);
  expect(ids((collect) => kept.dueBy(Infinity, collect))).toEqual(remaining.map((l) => l.watch.id));
  expect(ids((collect) => kept.holdsEndedBy(5_010, collect))).toEqual(remaining.filter((l) => l.releaseAt <= 5_010).map((l) => l.watch.id));
  expect(kept.following('archive', 'A10')).toBe(all[10]);
  expect(kept.following('archive', 'A11')).toBeUndefined();
});

test('picks the due leases within the room and each project’s limit, oldest first, ties in the order kept', () => {
  const kept = new KeptLeases<TestLease>();
  const at = (id: string, due: number, project: string) => lease(id, 'archive', id, due, 1_000, project);
  for (const l of [at('a1', 50, 'a'), at('b1', 10, 'b'), at('a2', 10, 'a'), at('c1', 5, 'c'), at('a3', 30, 'a'), at('b2', 200, 'b')]) kept.set(l.watch.id, l);
  const names = (leases: TestLease[]) => leases.map((l) => l.watch.id);
  const none = new Set<string>();
  // Within every limit: all due, in the order kept.
  expect(names(kept.pickDue(100, 10, () => 10, none))).toEqual(['a1', 'b1', 'a2', 'c1', 'a3']);
  // Room for three: the oldest three.
  expect(names(kept.pickDue(100, 3, () => 10, none))).toEqual(['c1', 'b1', 'a2']);
  // Project a at most one: its oldest, then the others by age.
  expect(names(kept.pickDue(100, 10, (p) => (p === 'a' ? 1 : 10), none))).toEqual(['c1', 'b1', 'a2']);
  // An excluded project's are left out; so are those of a project with no room at all.
  expect(names(kept.pickDue(100, 10, () => 10, new Set(['a', 'unknown'])))).toEqual(['b1', 'c1']);
  expect(names(kept.pickDue(100, 10, (p) => (p === 'c' ? 0 : 10), none))).toEqual(['b1', 'a2', 'a3', 'a1']);
  expect(kept.pickDue(100, 0, () => 10, none)).toEqual([]);
  expect(kept.pickDue(1, 10, () => 10, none)).toEqual([]);
});

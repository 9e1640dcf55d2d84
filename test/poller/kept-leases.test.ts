import { KeptLeases } from '../../src/poller/kept-leases';
import type { WatchKind } from '../../src/poller/snapshot';

const lease = (id: string, kind: WatchKind, resourceId: string) => ({ watch: { id, kind, resourceId }, owner: 'p:1' });

test('finds kept leases by the resource they follow, one or several, and forgets them as they go', () => {
  const kept = new KeptLeases<ReturnType<typeof lease>>();
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

  const seen: string[] = [];
  kept.forEach((l) => seen.push(l.watch.id));
  expect(seen).toEqual(['w2', 'w3', 'w4']);
  kept.clear();
  expect(kept.size).toBe(0);
  expect(kept.following('broadcast', 'A1')).toBeUndefined();
});

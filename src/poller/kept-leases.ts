/**
 * The leases a poller keeps between polls (`keepLeases`), by watch id and, for the kinds read
 * from lists, by the resource they follow: a list page's items find their kept watches without a
 * map of every kept watch built anew each cycle (10,000 entries a cycle at scale, promoted to the
 * old generation and collected with it).
 */
import { isListed } from './batch';
import type { ListedKind } from './resources';
import type { WatchKind } from './snapshot';

interface Keyed {
  watch: { id: string; kind: WatchKind; resourceId: string };
}

export class KeptLeases<L extends Keyed> {
  readonly #byId = new Map<string, L>();
  /** Per kind, resource id → its kept lease, or leases when several watches follow it. */
  readonly #byResource: Record<ListedKind, Map<string, L | L[]>> = { archive: new Map(), broadcast: new Map(), render: new Map() };

  get size(): number {
    return this.#byId.size;
  }

  get(watchId: string): L | undefined {
    return this.#byId.get(watchId);
  }

  set(watchId: string, lease: L): void {
    const previous = this.#byId.get(watchId);
    if (previous === lease) return;
    if (previous) this.#unindex(previous);
    this.#byId.set(watchId, lease);
    this.#index(lease);
  }

  delete(watchId: string): boolean {
    const previous = this.#byId.get(watchId);
    if (previous === undefined) return false;
    this.#byId.delete(watchId);
    this.#unindex(previous);
    return true;
  }

  clear(): void {
    this.#byId.clear();
    for (const kind of Object.keys(this.#byResource) as ListedKind[]) this.#byResource[kind].clear();
  }

  values(): IterableIterator<L> {
    return this.#byId.values();
  }

  forEach(visit: (lease: L) => void): void {
    this.#byId.forEach(visit);
  }

  /** The kept leases of watches that follow the resource: one, several (an array), or none. */
  following(kind: ListedKind, resourceId: string): L | readonly L[] | undefined {
    return this.#byResource[kind].get(resourceId);
  }

  #index(lease: L): void {
    const { kind, resourceId } = lease.watch;
    if (!isListed(kind)) return;
    const byResource = this.#byResource[kind];
    const known = byResource.get(resourceId);
    if (known === undefined) byResource.set(resourceId, lease);
    else if (Array.isArray(known)) known.push(lease);
    else byResource.set(resourceId, [known as L, lease]);
  }

  #unindex(lease: L): void {
    const { kind, resourceId } = lease.watch;
    if (!isListed(kind)) return;
    const byResource = this.#byResource[kind];
    const known = byResource.get(resourceId);
    if (known === lease) {
      byResource.delete(resourceId);
    } else if (Array.isArray(known)) {
      const rest = known.filter((other) => other !== lease);
      if (rest.length === 1) byResource.set(resourceId, rest[0]!);
      else byResource.set(resourceId, rest);
    }
  }
}

/**
 * The leases a poller keeps between polls (`keepLeases`), by watch id and, for the kinds read
 * from lists, by the resource they follow: a list page's items find their kept watches without a
 * map of every kept watch built anew each cycle (10,000 entries a cycle at scale, promoted to the
 * old generation and collected with it).
 *
 * Each kept lease has a slot, in the order kept, where its watch's next poll time, its hold's end
 * and its project are copied into typed arrays: a cycle finds what is due, or whose hold ended, by
 * reading arrays of numbers instead of every lease and watch object (`bench:poller`: the passes
 * over 10,000 kept leases cost ~6 ms of a full sweep, nearly all of it fetching the objects). The
 * copies are exact as long as whoever changes a kept lease's `watch.nextPollAt` or `releaseAt`
 * (or its `watch`) says so (`rescheduled`).
 */
import { isListed } from './batch';
import { byTime } from './order';
import type { ListedKind } from './resources';
import type { WatchKind } from './snapshot';

interface Keyed {
  watch: { id: string; kind: WatchKind; resourceId: string; projectName: string; nextPollAt: number };
  /** When the lease's hold ends. */
  releaseAt: number;
  /** The lease's slot while kept (set here). */
  keptSlot?: number;
}

const INITIAL_SLOTS = 64;

export class KeptLeases<L extends Keyed> {
  readonly #byId = new Map<string, L>();
  /** Per kind, resource id → its kept lease, or leases when several watches follow it. */
  readonly #byResource: Record<ListedKind, Map<string, L | L[]>> = { archive: new Map(), broadcast: new Map(), render: new Map() };
  /** The kept leases in the order kept, with holes where leases left (compacted once they are half). */
  #slots: (L | undefined)[] = [];
  /** Per slot: the lease's `watch.nextPollAt` and `releaseAt`; NaN in a hole (no time compares true with it). */
  #dueAt = new Float64Array(INITIAL_SLOTS);
  #holdEndsAt = new Float64Array(INITIAL_SLOTS);
  /** Per slot: the lease's project, a number (`#projectIds`). */
  #projectAt = new Int32Array(INITIAL_SLOTS);
  readonly #projectIds = new Map<string, number>();
  #holes = 0;

  get size(): number {
    return this.#byId.size;
  }

  get(watchId: string): L | undefined {
    return this.#byId.get(watchId);
  }

  /** Keeps the lease (in the place of the watch's kept lease, if any), or says that its times changed when it is kept already. */
  set(watchId: string, lease: L): void {
    const previous = this.#byId.get(watchId);
    if (previous === lease) return this.rescheduled(lease);
    this.#byId.set(watchId, lease);
    if (previous) {
      this.#unindex(previous);
      this.#slots[previous.keptSlot!] = lease;
      lease.keptSlot = previous.keptSlot;
    } else {
      lease.keptSlot = this.#append(lease);
    }
    this.#index(lease);
    this.#projectAt[lease.keptSlot!] = this.#projectId(lease.watch.projectName);
    this.rescheduled(lease);
  }

  delete(watchId: string): boolean {
    const previous = this.#byId.get(watchId);
    if (previous === undefined) return false;
    this.#byId.delete(watchId);
    this.#unindex(previous);
    const slot = previous.keptSlot!;
    this.#slots[slot] = undefined;
    this.#dueAt[slot] = NaN;
    this.#holdEndsAt[slot] = NaN;
    this.#holes += 1;
    if (this.#holes > INITIAL_SLOTS && this.#holes * 2 > this.#slots.length) this.#compact();
    return true;
  }

  clear(): void {
    this.#byId.clear();
    for (const kind of Object.keys(this.#byResource) as ListedKind[]) this.#byResource[kind].clear();
    this.#slots = [];
    this.#dueAt = new Float64Array(INITIAL_SLOTS);
    this.#holdEndsAt = new Float64Array(INITIAL_SLOTS);
    this.#projectAt = new Int32Array(INITIAL_SLOTS);
    this.#holes = 0;
  }

  /**
   * A kept lease's `watch.nextPollAt` or `releaseAt` changed, or its `watch` was replaced: what
   * `dueBy`, `dueWithin` and `holdsEndedBy` read follows. Nothing for a lease not kept.
   */
  rescheduled(lease: L): void {
    const slot = lease.keptSlot;
    if (slot === undefined || this.#slots[slot] !== lease) return;
    this.#dueAt[slot] = lease.watch.nextPollAt;
    this.#holdEndsAt[slot] = lease.releaseAt;
  }

  /** Every kept lease, in the order kept. */
  values(): IterableIterator<L> {
    return this.#byId.values();
  }

  /** The kept leases whose watches are due by `now` (`watch.nextPollAt <= now`), in the order kept. */
  dueBy(now: number, visit: (lease: L) => void): void {
    this.dueWithin(-Infinity, now, visit);
  }

  /** The kept leases whose watches fall due after `after` and by `until`, in the order kept. */
  dueWithin(after: number, until: number, visit: (lease: L) => void): void {
    const [slots, dueAt] = [this.#slots, this.#dueAt];
    for (let i = 0; i < slots.length; i++) {
      const due = dueAt[i]!;
      if (due > after && due <= until) visit(slots[i]!);
    }
  }

  /**
   * The kept leases due by `now` of the projects not `excluded`: all of them, in the order kept,
   * when they are at most `room` and no project has more than its `limitOf`; else the oldest due
   * first (ties in the order kept), up to `room` and up to each project's limit.
   */
  pickDue(now: number, room: number, limitOf: (projectName: string) => number, excluded: ReadonlySet<string>): L[] {
    const [slots, dueAt, projectAt] = [this.#slots, this.#dueAt, this.#projectAt];
    const names = [...this.#projectIds.keys()];
    const left = new Uint8Array(names.length);
    excluded.forEach((name) => {
      const id = this.#projectIds.get(name);
      if (id !== undefined) left[id] = 1;
    });
    const counts = new Int32Array(names.length);
    const due = new Int32Array(slots.length);
    let n = 0;
    for (let i = 0; i < slots.length; i++) {
      if (!(dueAt[i]! <= now) || left[projectAt[i]!] === 1) continue;
      due[n++] = i;
      counts[projectAt[i]!]! += 1;
    }
    const limits = names.map((name, id) => (counts[id]! > 0 ? limitOf(name) : 0));
    if (n <= room && limits.every((limit, id) => counts[id]! <= limit)) {
      const all = new Array<L>(n);
      for (let k = 0; k < n; k++) all[k] = slots[due[k]!]!;
      return all;
    }
    const times = new Float64Array(n);
    for (let k = 0; k < n; k++) times[k] = dueAt[due[k]!]!;
    const picked: L[] = [];
    counts.fill(0);
    for (const k of byTime(times)) {
      if (picked.length >= room) break;
      const slot = due[k]!;
      const id = projectAt[slot]!;
      if (counts[id]! >= limits[id]!) continue;
      counts[id]! += 1;
      picked.push(slots[slot]!);
    }
    return picked;
  }

  /** The kept leases whose holds ended by `now` (`releaseAt <= now`), in the order kept. */
  holdsEndedBy(now: number, visit: (lease: L) => void): void {
    const [slots, holdEndsAt] = [this.#slots, this.#holdEndsAt];
    for (let i = 0; i < slots.length; i++) if (holdEndsAt[i]! <= now) visit(slots[i]!);
  }

  /** The kept leases that follow the resource: one, several (an array), or none. */
  following(kind: ListedKind, resourceId: string): L | readonly L[] | undefined {
    return this.#byResource[kind].get(resourceId);
  }

  #projectId(projectName: string): number {
    let id = this.#projectIds.get(projectName);
    if (id === undefined) this.#projectIds.set(projectName, (id = this.#projectIds.size));
    return id;
  }

  #append(lease: L): number {
    const slot = this.#slots.length;
    if (slot === this.#dueAt.length) this.#resize(slot * 2);
    this.#slots.push(lease);
    return slot;
  }

  /** The per-slot arrays at `capacity`, what they hold (up to it) kept. */
  #resize(capacity: number): void {
    const keep = <A extends Float64Array | Int32Array>(from: A, to: A): A => {
      to.set(from.subarray(0, Math.min(capacity, from.length)));
      return to;
    };
    this.#dueAt = keep(this.#dueAt, new Float64Array(capacity));
    this.#holdEndsAt = keep(this.#holdEndsAt, new Float64Array(capacity));
    this.#projectAt = keep(this.#projectAt, new Int32Array(capacity));
  }

  /** The slots without their holes, in the same order. */
  #compact(): void {
    const [slots, projectAt] = [this.#slots, this.#projectAt];
    let n = 0;
    for (let i = 0; i < slots.length; i++) {
      const lease = slots[i];
      if (lease === undefined) continue;
      slots[n] = lease;
      projectAt[n] = projectAt[i]!;
      lease.keptSlot = n++;
    }
    slots.length = n;
    this.#holes = 0;
    this.#resize(Math.max(INITIAL_SLOTS, n * 2));
    for (const lease of slots) this.rescheduled(lease!);
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

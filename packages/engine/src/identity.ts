import type { ResourceKind } from '@monitor/api';

/**
 * How a resource is found. A resource in the account is named by its kind and the id the service
 * gave it (its physical id); a construct, and the state entry that records it, by its kind and
 * logical id (`stateKey`). Every lookup by physical identity goes through `ByPhysicalId`, so there
 * is one string form of it and one way to say "not there".
 */
export type PhysicalId = string | number;

/** The one form of a physical id within a kind: ids compare as text, so 42 and "42" are one resource. */
const idKey = (id: PhysicalId): string => (typeof id === 'string' ? id : String(id));

/** Values by the physical identity of a resource, with a `tryFind` / `find` pair. */
export class ByPhysicalId<T> {
  /** By kind, then by id: no key string to build and hash per lookup (a plan of 30,000 resources makes ~200,000). */
  readonly #byKind = new Map<ResourceKind, Map<string, { value: T }>>();
  /** Every entry, in the order it was first set: what `values()` gives. */
  readonly #order = new Set<{ value: T }>();

  /** An index of `items` by the identity `identify` gives each; a later item wins over an earlier one. */
  static of<T>(items: Iterable<T>, identify: (item: T) => [ResourceKind, PhysicalId]): ByPhysicalId<T> {
    const index = new ByPhysicalId<T>();
    for (const item of items) {
      const [kind, id] = identify(item);
      index.set(kind, id, item);
    }
    return index;
  }

  set(kind: ResourceKind, id: PhysicalId, value: T): this {
    let ids = this.#byKind.get(kind);
    if (ids === undefined) {
      ids = new Map();
      this.#byKind.set(kind, ids);
    }
    const key = idKey(id);
    const entry = ids.get(key);
    if (entry !== undefined) entry.value = value;
    else {
      const added = { value };
      ids.set(key, added);
      this.#order.add(added);
    }
    return this;
  }

  /** The value of the resource, or undefined when there is none. */
  tryFind(kind: ResourceKind, id: PhysicalId): T | undefined {
    return this.#byKind.get(kind)?.get(idKey(id))?.value;
  }

  /** The value of the resource; an error naming it when there is none (a bug in the caller). */
  find(kind: ResourceKind, id: PhysicalId): T {
    const value = this.#byKind.get(kind)?.get(idKey(id))?.value;
    if (value === undefined) throw new Error(`no ${kind} with id ${String(id)} in this index`);
    return value;
  }

  has(kind: ResourceKind, id: PhysicalId): boolean {
    return this.#byKind.get(kind)?.has(idKey(id)) === true;
  }

  delete(kind: ResourceKind, id: PhysicalId): boolean {
    const ids = this.#byKind.get(kind);
    const key = idKey(id);
    const entry = ids?.get(key);
    if (ids === undefined || entry === undefined) return false;
    ids.delete(key);
    this.#order.delete(entry);
    return true;
  }

  get size(): number {
    return this.#order.size;
  }

  *values(): IterableIterator<T> {
    for (const entry of this.#order) yield entry.value;
  }
}

import type { ResourceKind } from '@monitor/api';

/**
 * How a resource is found. A resource in the account is named by its kind and the id the service
 * gave it (its physical id); a construct, and the state entry that records it, by its kind and
 * logical id (`stateKey`). Every lookup by physical identity goes through `ByPhysicalId`, so there
 * is one string form of it and one way to say "not there".
 */
export type PhysicalId = string | number;

/** The one string form of a physical identity: ids compare as text, so 42 and "42" are one resource. */
function physicalKey(kind: ResourceKind, id: PhysicalId): string {
  return `${kind}#${String(id)}`;
}

/** Values by the physical identity of a resource, with a `tryFind` / `find` pair. */
export class ByPhysicalId<T> {
  readonly #values = new Map<string, T>();

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
    this.#values.set(physicalKey(kind, id), value);
    return this;
  }

  /** The value of the resource, or undefined when there is none. */
  tryFind(kind: ResourceKind, id: PhysicalId): T | undefined {
    return this.#values.get(physicalKey(kind, id));
  }

  /** The value of the resource; an error naming it when there is none (a bug in the caller). */
  find(kind: ResourceKind, id: PhysicalId): T {
    const value = this.#values.get(physicalKey(kind, id));
    if (value === undefined) throw new Error(`no ${kind} with id ${String(id)} in this index`);
    return value;
  }

  has(kind: ResourceKind, id: PhysicalId): boolean {
    return this.#values.has(physicalKey(kind, id));
  }

  delete(kind: ResourceKind, id: PhysicalId): boolean {
    return this.#values.delete(physicalKey(kind, id));
  }

  get size(): number {
    return this.#values.size;
  }

  values(): IterableIterator<T> {
    return this.#values.values();
  }
}

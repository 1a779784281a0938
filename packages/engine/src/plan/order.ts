import { canonicalJson } from '../hash.js';
import { stateKey } from '../state/state.js';
import { naturalKeyOf } from './resource.js';
import type { CreateOperation, Operation } from './types.js';

/**
 * The ordering stage, for creates: two creates that the account could not tell apart afterwards
 * (the same natural key, or for kinds without one, the same content) never run at once. When the
 * answer to one is lost, the deployer reads the account back to find what it made; with both in
 * flight it could take its twin's resource, and two entries would claim one resource. So each
 * such create waits for the one before it (`dependsOn`); the others still run in parallel.
 */
export function serializeTwinCreates<T extends Operation>(operations: readonly T[]): T[] {
  const last = new Map<string, string>();
  return operations.map((op) => {
    if (op.action !== 'create') return op;
    const twin = `${op.kind}\n${twinKey(op)}`;
    const before = last.get(twin);
    last.set(twin, stateKey(op.kind, op.logicalId));
    return before === undefined ? op : { ...op, dependsOn: [...op.dependsOn, before] };
  });
}

/** What a read-back after a lost answer recognises a create by (`isCreatedFrom`). */
function twinKey(op: CreateOperation): string {
  return naturalKeyOf(op.kind, op.payload) ?? canonicalJson(op.payload);
}

import {
  KINDS,
  naturalKeyOf as naturalKeyIn,
  type ResourceKind,
  replaceSensitive,
  sensitiveValues,
  valuesAt,
} from '@monitor/api';
import { replaceRefs } from '@monitor/constructs';
import { hashJson, type SecretHasher } from '../hash.js';
import type { PhysicalId } from '../identity.js';
import { type Change, diffPayload } from './diff.js';
import type { LiveResource } from './types.js';

/** What the planner asks of one resource (a desired payload or a live one), by its kind's definition. */

/** Sensitive values in a payload, by the path the diff names them with. */
export function secretValues(kind: ResourceKind, payload: Record<string, unknown>): Record<string, string> {
  return sensitiveValues(KINDS[kind], payload);
}

/** The natural key of a resource (desired payload or live), by the kind's definition. */
export function naturalKeyOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  return naturalKeyIn(KINDS[kind], resource)?.key;
}

/** The name people know a resource by, if its kind has one. */
export function displayNameOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  return KINDS[kind].displayName(resource);
}

/**
 * What tells one resource of a kind from another that later holds its id: its natural key, else
 * its display name. Recorded in state at every write, and checked before a delete, so that a
 * resource that took the recorded id (another server, an emulator that numbers from 1) is never
 * deleted as if it were ours.
 */
export function identityOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  const natural = naturalKeyOf(kind, resource);
  if (natural !== undefined) return natural;
  const name = displayNameOf(kind, resource);
  return name === undefined ? undefined : `name:${name}`;
}

/**
 * The hash recorded in state after a write: over the desired payload as synthesized (references
 * still as logical ids, so a recreated target does not look like drift), with secret values
 * replaced by their keyed hashes (or one constant without a key: the hash never depends on a
 * secret that is not keyed). The deployer must record exactly this.
 */
export function appliedHash(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  secrets: SecretHasher,
): string {
  return hashJson(replaceSensitive(KINDS[kind], payload, (value) => secrets.hash(value) ?? 'unkeyed'));
}

/** A key a resource holds that the service keeps unique: a second resource with it is refused (409). */
export interface UniqueKey {
  field: string;
  value: string;
  /** Compared lower-cased, as the service compares them. */
  key: string;
}

/** The unique keys a resource holds (by the kind's definition): null and empty values never clash. */
export function uniqueKeysOf(kind: ResourceKind, resource: Record<string, unknown>): UniqueKey[] {
  const out: UniqueKey[] = [];
  for (const field of KINDS[kind].uniqueKeys) {
    const value = resource[field];
    if (typeof value !== 'string' || value === '') continue;
    out.push({ field, value, key: `${field}:${value.toLowerCase()}` });
  }
  return out;
}

/** The physical ids a live resource refers to, by the kind's reference paths. */
export function liveReferences(
  kind: ResourceKind,
  resource: Record<string, unknown>,
): { kind: ResourceKind; id: PhysicalId }[] {
  const out: { kind: ResourceKind; id: PhysicalId }[] = [];
  for (const ref of KINDS[kind].references) {
    for (const { value } of valuesAt(resource, ref.path))
      if (typeof value === 'string' || typeof value === 'number') out.push({ kind: ref.kind, id: value });
  }
  return out;
}

/**
 * Whether a live resource nobody owns is the one a create of `payload` made: the same natural
 * key, or for kinds without one (alert channels) every field of the payload equal.
 */
export function isCreatedFrom(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  live: LiveResource,
): boolean {
  const key = naturalKeyOf(kind, payload);
  if (key !== undefined) return naturalKeyOf(kind, live) === key;
  const changes: Change[] = [];
  // Secrets the service masks cannot tell a create apart.
  diffPayload(payload, live, { kind: KINDS[kind], secretUnchanged: () => true }, changes);
  return changes.length === 0;
}

/** Replace `{ $ref }` by physical ids where known; unknown ones stay refs ("known after create"). */
export function resolveRefs(value: unknown, ids: ReadonlyMap<string, PhysicalId>): unknown {
  return replaceRefs(value, (ref) => ids.get(ref.$ref) ?? ref);
}

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
 * What tells one resource of a kind from another that later holds its id, recorded in state at
 * every write: what the service's UI cannot change (an alert channel's type, the creation time the
 * service answers with) and what it can (the natural key, else the display name). Compared before
 * any update or delete (`matchIdentity`), so that a resource that took the recorded id (another
 * server, an emulator that numbers from 1, a state edited by hand) is never changed or deleted as
 * if it were ours, while one merely renamed in the UI still is ours.
 *
 * Written as `v2 {"type":…,"created":…,"key":…}`; entries of older monitors hold the key alone
 * (`name:Payments`, `url:acme`).
 */
export function identityOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  const parts = identityParts(kind, resource);
  if (parts.type === undefined && parts.created === undefined && parts.key === undefined) return undefined;
  return `${IDENTITY_V2}${JSON.stringify(parts)}`;
}

const IDENTITY_V2 = 'v2 ';

/** An identity's parts: `type` and `created` the UI cannot change, `key` it can. */
export interface IdentityParts {
  type?: string;
  created?: string;
  key?: string;
}

function identityParts(kind: ResourceKind, resource: Record<string, unknown>): IdentityParts {
  const natural = naturalKeyOf(kind, resource);
  const name = natural === undefined ? displayNameOf(kind, resource) : undefined;
  const key = natural ?? (name === undefined ? undefined : `name:${name}`);
  const type = kind === 'AlertChannel' && typeof resource.type === 'string' ? resource.type : undefined;
  const created = typeof resource.created_at === 'string' ? resource.created_at : undefined;
  return {
    ...(type === undefined ? {} : { type }),
    ...(created === undefined ? {} : { created }),
    ...(key === undefined ? {} : { key }),
  };
}

/** The parts of a recorded identity; an older monitor's holds the key alone. */
export function parseIdentity(identity: string): IdentityParts & { legacy?: true } {
  if (!identity.startsWith(IDENTITY_V2)) return { key: identity, legacy: true };
  try {
    return JSON.parse(identity.slice(IDENTITY_V2.length)) as IdentityParts;
  } catch {
    return { key: identity, legacy: true };
  }
}

/**
 * Whether the live resource at a recorded id is the one state recorded:
 * - `same`;
 * - `renamed`: what the UI cannot change agrees (a type, and a creation time to the second both
 *   sides know) and only its name or key moved: drift of a resource still ours;
 * - `renamed-day`: the same, but the service gave the creation time as a date alone (check
 *   groups, windows): ours renamed, or another resource made that day at the same id (an
 *   emulator reset): enough to keep it, not to delete it;
 * - `unsure`: its key moved and nothing the UI cannot change was recorded to tell by (an older
 *   entry, or one written without the service's answer): a rename or a stranger;
 * - `other`: a type or a creation time differs: a stranger.
 * An entry with no identity (written before 0.2) has nothing to tell by: `same`.
 */
export function matchIdentity(
  kind: ResourceKind,
  recorded: string | undefined,
  live: Record<string, unknown>,
): IdentityMatch {
  if (recorded === undefined) return 'same';
  const was = parseIdentity(recorded);
  const now = identityParts(kind, live);
  if (was.legacy === true) return was.key === now.key ? 'same' : 'unsure';
  if (was.type !== undefined && was.type !== now.type) return 'other';
  const created =
    was.created === undefined || now.created === undefined
      ? undefined
      : sameCreation(was.created, now.created);
  if (created === 'differs') return 'other';
  if (was.key === now.key) return 'same';
  if (created === undefined) return 'unsure';
  return created === 'same-day' ? 'renamed-day' : 'renamed';
}

export type IdentityMatch = 'same' | 'renamed' | 'renamed-day' | 'unsure' | 'other';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Two creation times, compared as far as both go: `same` to the second (the answer to a create
 * and a list may differ below it), `same-day` when one is a date alone (the service sends both
 * forms), compared as UTC dates.
 */
function sameCreation(a: string, b: string): 'same' | 'same-day' | 'differs' {
  const dayOf = (t: string) =>
    DATE_ONLY.test(t)
      ? t
      : Number.isNaN(Date.parse(t))
        ? t.slice(0, 10)
        : new Date(Date.parse(t)).toISOString().slice(0, 10);
  if (DATE_ONLY.test(a) || DATE_ONLY.test(b)) return dayOf(a) === dayOf(b) ? 'same-day' : 'differs';
  const [ta, tb] = [Date.parse(a), Date.parse(b)];
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a === b ? 'same' : 'differs';
  return Math.floor(ta / 1000) === Math.floor(tb / 1000) ? 'same' : 'differs';
}

/** An identity for messages: `name:Checkout (prod)`, or `a SLACK channel made 2026-11-01`. */
export function describeIdentity(identity: string | undefined): string {
  if (identity === undefined) return '(nothing to tell it by)';
  const { type, created, key } = parseIdentity(identity);
  if (key !== undefined) return key;
  return [
    type === undefined ? undefined : `a ${type} channel`,
    created === undefined ? undefined : `made ${created}`,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
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

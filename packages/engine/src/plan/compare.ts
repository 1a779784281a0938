import { KINDS, type ResourceKind } from '@monitor/api';
import { type DesiredResource, isPayloadRef } from '@monitor/constructs';
import type { SecretHasher } from '../hash.js';
import { ByPhysicalId, type PhysicalId } from '../identity.js';
import { type State, stateKey } from '../state/state.js';
import { fieldHashesOf, labelCauses } from './causes.js';
import { type Change, diffPayload } from './diff.js';
import { type EntryName, isIgnored, keepLiveValues, plainEntryName, withoutIgnored } from './ignore.js';
import type { AccountIndex, Matching } from './match.js';
import { appliedHash, displayNameOf, identityOf, resolveRefs } from './resource.js';
import type { CreateOperation, LiveResource, Plan, ReplaceOperation, UpdateOperation } from './types.js';

/**
 * The comparing stage: for each placed construct, the live resource it is (if any) compared field
 * by field with its desired payload: a create, an update (adopt, move), or unchanged.
 */

export interface CompareContext {
  account: AccountIndex;
  secrets: SecretHasher;
  /** Physical ids known before anything is applied, by state key: references resolve to them. */
  ids: ReadonlyMap<string, PhysicalId>;
  /** Logical ids by physical id, to name referenced resources in change paths. */
  names: ByPhysicalId<string>;
  /** State keys of the creates an interrupted deploy sent. */
  pending: ReadonlySet<string>;
  /** State keys of the constructs to delete and create again. */
  replace?: ReadonlySet<string>;
  /** What the resources that reference other projects' constructs use (`project/Kind:logicalId`), by state key. */
  uses?: ReadonlyMap<string, string[]>;
}

export interface Comparison {
  writes: (CreateOperation | UpdateOperation | ReplaceOperation)[];
  unchanged: number;
  protectChanged: Plan['protectChanged'];
  unverifiedSecrets: number;
}

/** The live resource a construct is: the one its state entry records, or the one it adopts. */
export function currentOf(
  d: DesiredResource,
  matching: Matching,
  account: AccountIndex,
): LiveResource | undefined {
  const claim = matching.claims.get(d);
  return claim !== undefined ? account.byId.tryFind(d.kind, claim.entry.physicalId) : matching.adopted.get(d);
}

/** Physical ids of the constructs that have a live resource now, by state key. */
export function knownPhysicalIds(
  desired: readonly DesiredResource[],
  matching: Matching,
  account: AccountIndex,
): Map<string, PhysicalId> {
  const ids = new Map<string, PhysicalId>();
  for (const d of desired) {
    const current = currentOf(d, matching, account);
    if (current !== undefined) ids.set(stateKey(d.kind, d.logicalId), current.id);
  }
  return ids;
}

/** Logical ids by physical id: state's entries, and what the constructs resolved to. */
export function logicalNames(state: State, ids: ReadonlyMap<string, PhysicalId>): ByPhysicalId<string> {
  // A later entry of the same resource wins, as everywhere state is indexed by physical id.
  const logical = new ByPhysicalId<string>();
  for (const e of Object.values(state.resources)) logical.set(e.kind, e.physicalId, e.logicalId);
  for (const [key, id] of ids) {
    const colon = key.indexOf(':');
    logical.set(key.slice(0, colon) as ResourceKind, id, key.slice(colon + 1));
  }
  return logical;
}

type Compared =
  | { outcome: 'write'; operation: CreateOperation | UpdateOperation | ReplaceOperation }
  | { outcome: 'unchanged'; protectChanged?: boolean };

/** How keyed list entries are named in paths (a reference by the logical id), as the differ names them. */
function entryNameFor(ctx: CompareContext): EntryName {
  return (item, keyField, refKind) => {
    const key = (item as Record<string, unknown>)[keyField];
    if (refKind !== undefined && (typeof key === 'string' || typeof key === 'number')) {
      const named = ctx.names.tryFind(refKind as ResourceKind, key);
      if (named !== undefined) return named;
    }
    return plainEntryName(item, keyField);
  };
}

/** What an operation of `d` carries, sending `sent`: made only for a resource that gets one (hashing is not free). */
/**
 * What every written operation holds, which each adds its own fields to (with `Object.assign`: in
 * Node 20's V8, `{ ...base, action }` gives every object a hidden class of its own, 30,000 of
 * them in a plan of 30,000 creates, and each property read of them a slow lookup).
 */
function operationBase(d: DesiredResource, sent: Record<string, unknown>, ctx: CompareContext) {
  const { secrets } = ctx;
  const uses = ctx.uses?.get(stateKey(d.kind, d.logicalId));
  const name = displayNameOf(d.kind, d.payload);
  const ignore = d.options.ignoreChanges;
  // Over what the code manages: an edit of an ignored field in the code is no change either.
  const managed = withoutIgnored(KINDS[d.kind], d.payload, ignore);
  return {
    kind: d.kind,
    logicalId: d.logicalId,
    ...(name === undefined ? {} : { name }),
    construct: d.construct,
    payload: sent,
    dependsOn: d.dependsOn,
    desiredHash: appliedHash(d.kind, managed, secrets),
    fieldHashes: fieldHashesOf(d.kind, managed, Object.keys(managed), secrets),
    protect: d.options.protect,
    ...(ignore.length === 0 ? {} : { ignoreChanges: ignore }),
    ...(uses === undefined ? {} : { uses }),
  };
}

/** The fields of `current` that differ from `payload`, ignored ones left out, and how many did not. */
function changedFields(
  d: DesiredResource,
  payload: Record<string, unknown>,
  current: LiveResource,
  secretHashes: Readonly<Record<string, string>>,
  ctx: CompareContext,
): { changes: Change[]; unchangedAttributes: number } {
  const compared: Change[] = [];
  const unchangedAttributes = diffPayload(
    payload,
    current,
    {
      kind: KINDS[d.kind],
      secretUnchanged: (path, value) => {
        const hash = ctx.secrets.hash(value);
        return hash === undefined ? undefined : secretHashes[path] === hash;
      },
      refName: (kind, id) =>
        typeof id === 'string' || typeof id === 'number' ? ctx.names.tryFind(kind, id) : undefined,
    },
    compared,
  );
  const ignore = d.options.ignoreChanges;
  const changes = ignore.length === 0 ? compared : compared.filter((c) => !isIgnored(c.path, ignore));
  return { changes, unchangedAttributes };
}

/** One construct against the live resource it is. */
export function compareResource(d: DesiredResource, matching: Matching, ctx: CompareContext): Compared {
  const key = stateKey(d.kind, d.logicalId);
  const payload = resolveRefs(d.payload, ctx.ids) as Record<string, unknown>;
  const claim = matching.claims.get(d);
  const adopt = matching.adopted.get(d);
  const current = currentOf(d, matching, ctx.account);
  if (current === undefined) {
    return {
      outcome: 'write',
      // Ignored fields are sent when the resource is made: they are the code's starting values.
      operation: Object.assign(operationBase(d, payload, ctx), {
        action: 'create' as const,
        recreate: claim !== undefined,
      }),
    };
  }
  if (ctx.replace?.has(key) === true) {
    const lost = lostByReplace(d, payload, current, ctx);
    return {
      outcome: 'write',
      operation: Object.assign(operationBase(d, payload, ctx), {
        action: 'replace' as const,
        physicalId: current.id,
        ...(lost.length === 0 ? {} : { lost }),
      }),
    };
  }
  const { changes: kept, unchangedAttributes } = changedFields(
    d,
    payload,
    current,
    claim?.entry.secretHashes ?? {},
    ctx,
  );
  const action: UpdateOperation['action'] =
    claim?.from !== undefined ? 'move' : adopt !== undefined ? 'adopt' : 'update';
  if (action === 'update' && kept.length === 0) {
    return claim !== undefined && claim.entry.protect !== d.options.protect
      ? { outcome: 'unchanged', protectChanged: d.options.protect }
      : { outcome: 'unchanged' };
  }
  // Ignored fields are never sent on update: the account keeps what people set there.
  const sent = keepLiveValues(KINDS[d.kind], payload, current, d.options.ignoreChanges, entryNameFor(ctx));
  const base = operationBase(d, sent, ctx);
  // The whole resource drifted when the code is what was last applied: each field's cause falls
  // back to it where state does not know the field. Values that could not be compared (no state
  // secret) say nothing about drift.
  const changes = repointedByReplace(
    labelCauses(kept, {
      kind: d.kind,
      entry: claim?.entry,
      codeHashes: base.fieldHashes,
      live: current,
      secrets: ctx.secrets,
      drift: claim !== undefined && claim.entry.appliedHash === base.desiredHash,
    }),
    ctx.replace,
  );
  const own = changes.filter((c) => c.replaced === undefined);
  const drift =
    own.some((c) => c.unverified !== true) &&
    own.every((c) => c.cause === 'account' || c.unverified === true);
  return {
    outcome: 'write',
    operation: Object.assign(base, {
      action,
      physicalId: current.id,
      changes,
      drift,
      unchangedAttributes,
      ...(claim?.from === undefined ? {} : { from: claim.from }),
      ...(adopt !== undefined && ctx.pending.has(key) ? { resumed: true } : {}),
      ...identityEntry(d.kind, current),
    }),
  };
}

/**
 * The changes at a path that point to a resource this plan replaces (its reference is known only
 * once it is made again): one change from the old item to the new, marked `replaced`, where the
 * keyed-list comparison saw an item removed and another added. A subscription moved to the channel
 * made again is the replace's doing, not the code's nor the account's.
 */
function repointedByReplace(changes: Change[], replace: ReadonlySet<string> | undefined): Change[] {
  if (replace === undefined || replace.size === 0) return changes;
  const replacedAt = new Map<string, string>();
  for (const c of changes) {
    const key = replacedRef(c.after, replace);
    if (key !== undefined) replacedAt.set(c.path, key);
  }
  if (replacedAt.size === 0) return changes;
  const out: Change[] = [];
  const merged = new Map<string, Change>();
  for (const c of changes) {
    const key = replacedAt.get(c.path);
    if (key === undefined) {
      out.push(c);
      continue;
    }
    const into = merged.get(c.path);
    if (into === undefined) {
      const one: Change = { path: c.path, before: c.before ?? null, after: c.after ?? null, replaced: key };
      merged.set(c.path, one);
      out.push(one);
    } else {
      if (into.before === null) into.before = c.before ?? null;
      if (into.after === null) into.after = c.after ?? null;
    }
  }
  return out;
}

/**
 * The replaced resource a changed value refers to, if it does: a reference not yet made shows in a
 * change as its state key (`AlertChannel:mail`, see `diff.ts`), or is still `{ $ref }`.
 */
function replacedRef(value: unknown, replace: ReadonlySet<string>): string | undefined {
  if (isPayloadRef(value)) return replace.has(value.$ref) ? value.$ref : undefined;
  if (typeof value === 'string') return replace.has(value) ? value : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const inner of Object.values(value)) {
    const found = replacedRef(inner, replace);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What a replace loses: each `ignoreChanges` field where the account holds another value than the
 * code (set in the UI). An update keeps those; the resource made again takes the code's.
 */
function lostByReplace(
  d: DesiredResource,
  payload: Record<string, unknown>,
  current: LiveResource,
  ctx: CompareContext,
): Change[] {
  const ignore = d.options.ignoreChanges;
  if (ignore.length === 0) return [];
  const differing: Change[] = [];
  diffPayload(
    payload,
    current,
    {
      kind: KINDS[d.kind],
      secretUnchanged: () => undefined,
      refName: (kind, id) =>
        typeof id === 'string' || typeof id === 'number' ? ctx.names.tryFind(kind, id) : undefined,
    },
    differing,
  );
  return differing.filter((c) => isIgnored(c.path, ignore) && c.sensitive !== true);
}

function identityEntry(kind: DesiredResource['kind'], current: LiveResource): { identity?: string } {
  const identity = identityOf(kind, current);
  return identity === undefined ? {} : { identity };
}

/** Every placed construct compared. */
export function compareResources(
  placed: readonly DesiredResource[],
  matching: Matching,
  ctx: CompareContext,
): Comparison {
  const comparison: Comparison = { writes: [], unchanged: 0, protectChanged: [], unverifiedSecrets: 0 };
  for (const d of placed) {
    const compared = compareResource(d, matching, ctx);
    if (compared.outcome === 'unchanged') {
      comparison.unchanged++;
      if (compared.protectChanged !== undefined)
        comparison.protectChanged.push({
          key: stateKey(d.kind, d.logicalId),
          protect: compared.protectChanged,
        });
      continue;
    }
    comparison.writes.push(compared.operation);
    if (compared.operation.action !== 'create' && compared.operation.action !== 'replace')
      comparison.unverifiedSecrets += compared.operation.changes.filter((c) => c.unverified === true).length;
  }
  return comparison;
}

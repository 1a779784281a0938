import { ByPhysicalId } from '../identity.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { type AccountIndex, type Matching, recordedResource } from './match.js';
import { describeIdentity, displayNameOf, identityOf, liveReferences } from './resource.js';
import type { DeleteOperation, MismatchedEntry, Plan } from './types.js';

/**
 * The deleting stage: what state owns that no construct takes. Only such resources are ever
 * deleted, and only when the account still holds the very resource state recorded; protected ones
 * stay, and so does whatever a kept protected resource refers to.
 */

export interface DeletePlan {
  /** In the order they may run: referrers before what they refer to. */
  deletes: DeleteOperation[];
  forget: string[];
  mismatched: MismatchedEntry[];
  protectedKept: string[];
  keptForProtected: Plan['keptForProtected'];
}

export function planDeletes(
  state: State,
  matching: Matching,
  account: AccountIndex,
  keepProtected: boolean,
): DeletePlan {
  const plan: DeletePlan = {
    deletes: [],
    forget: [],
    mismatched: [],
    protectedKept: [],
    keptForProtected: [],
  };
  const claimed = ByPhysicalId.of(
    [...matching.claims.values()].map((c) => c.entry),
    (e) => [e.kind, e.physicalId],
  );
  for (const [key, entry] of Object.entries(state.resources)) {
    if (matching.claimedKeys.has(key)) continue;
    // Another entry that a construct takes records the same resource: never delete what code keeps.
    if (claimed.has(entry.kind, entry.physicalId)) {
      plan.forget.push(key);
      continue;
    }
    const live = account.byId.tryFind(entry.kind, entry.physicalId);
    if (live === undefined) {
      plan.forget.push(key);
      continue;
    }
    // Renamed in the account is still ours; another resource at the recorded id never is.
    const { match } = recordedResource(entry, live, state);
    // Only a resource known to be ours is deleted; one renamed the day it was made may be another
    // made that day at the same id: kept when protected, else left alone.
    const ours =
      match === 'same' || match === 'renamed' || (match === 'renamed-day' && entry.protect && keepProtected);
    if (!ours) {
      plan.forget.push(key);
      plan.mismatched.push({
        key,
        physicalId: entry.physicalId,
        recorded: describeIdentity(entry.identity),
        found: describeIdentity(identityOf(entry.kind, live)),
      });
      continue;
    }
    if (entry.protect && keepProtected) {
      plan.protectedKept.push(key);
      continue;
    }
    const name = displayNameOf(entry.kind, live);
    plan.deletes.push({
      kind: entry.kind,
      logicalId: entry.logicalId,
      ...(name === undefined ? {} : { name }),
      action: 'delete',
      physicalId: entry.physicalId,
      dependsOn: [],
    });
  }
  plan.keptForProtected = keepReferencedByProtected(plan, state, account);
  const kept = new Set(plan.keptForProtected.map((k) => k.key));
  plan.deletes = orderDeletes(
    plan.deletes.filter((op) => !kept.has(stateKey(op.kind, op.logicalId))),
    account,
  );
  return plan;
}

/**
 * What a kept protected resource refers to stays too: deleting it would change the protected one
 * (the service drops the subscription to a deleted channel). Followed through references.
 */
function keepReferencedByProtected(
  plan: DeletePlan,
  state: State,
  account: AccountIndex,
): Plan['keptForProtected'] {
  const kept: Plan['keptForProtected'] = [];
  const deleting = ByPhysicalId.of(plan.deletes, (op) => [op.kind, op.physicalId]);
  const queue = plan.protectedKept.map((key) => state.resources[key] as StateEntry);
  while (queue.length > 0) {
    const holder = queue.shift() as StateEntry;
    const resource = account.byId.tryFind(holder.kind, holder.physicalId);
    if (resource === undefined) continue;
    for (const ref of liveReferences(holder.kind, resource)) {
      const op = deleting.tryFind(ref.kind, ref.id);
      if (op === undefined) continue;
      deleting.delete(ref.kind, ref.id);
      const key = stateKey(op.kind, op.logicalId);
      kept.push({ key, by: stateKey(holder.kind, holder.logicalId) });
      queue.push(state.resources[key] as StateEntry);
    }
  }
  return kept;
}

/**
 * Deletes ordered by the live references between them: a resource that refers to another is
 * deleted first (a group before the channel it subscribes to), recorded in each delete's
 * `dependsOn`; otherwise in the order state lists them.
 */
export function orderDeletes(deletes: readonly DeleteOperation[], account: AccountIndex): DeleteOperation[] {
  const byId = ByPhysicalId.of(
    deletes.map((op) => ({ ...op, dependsOn: [] as string[] })),
    (op) => [op.kind, op.physicalId],
  );
  const ops = [...byId.values()];
  for (const op of ops) {
    const live = account.byId.tryFind(op.kind, op.physicalId);
    if (live === undefined) continue;
    for (const ref of liveReferences(op.kind, live)) {
      const target = byId.tryFind(ref.kind, ref.id);
      if (target !== undefined && target !== op) target.dependsOn.push(stateKey(op.kind, op.logicalId));
    }
  }
  const ordered: DeleteOperation[] = [];
  const placed = new Set<string>();
  // Each pass places every delete whose referrers are placed; references between kinds have no cycle.
  while (ordered.length < ops.length) {
    const before = ordered.length;
    for (const op of ops) {
      const key = stateKey(op.kind, op.logicalId);
      if (placed.has(key) || !op.dependsOn.every((k) => placed.has(k))) continue;
      ordered.push(op);
      placed.add(key);
    }
    if (ordered.length === before) {
      for (const op of ops) if (!placed.has(stateKey(op.kind, op.logicalId))) ordered.push(op);
      break;
    }
  }
  return ordered;
}

import type { DesiredResource } from '@monitor/constructs';
import type { Change } from '../plan/diff.js';
import type { Live, Plan, UpdateOperation } from '../plan/types.js';
import { stateKey } from '../state/state.js';
import { resourceEdits } from './resource-edits.js';
import type { NotPulled, PullPlan, ResourcePull } from './types.js';

/**
 * `monitor pull`, the planning half: for each owned resource that drifted (the account changed
 * it, the code did not), the props to write back and the account's value for each
 * (`resource-edits.ts`). Pure: the rewriting of source files is `rewrite.ts`.
 */

/** Who changed a field since the last deploy: its own cause, or the whole resource's when it has none. */
export const causeOf = (c: Change, op: Pick<UpdateOperation, 'drift'>) =>
  c.cause ?? (op.drift ? 'account' : 'code');

/** Owned resources with fields the account changed: what pull has to look at. */
export function driftedCount(plan: Plan): number {
  return plan.operations.filter(
    (o) => o.action === 'update' && o.changes.some((c) => causeOf(c, o) === 'account'),
  ).length;
}

/**
 * What `pull` writes back: the fields of owned resources that the account changed since the last
 * deploy (`cause: 'account'`). A field the code changed (or both did) stays the code's, and
 * secrets are never written.
 */
export function planPull(plan: Plan, live: Live, desired: readonly DesiredResource[]): PullPlan {
  const byKey = new Map(desired.map((d) => [stateKey(d.kind, d.logicalId), d]));
  const resources: ResourcePull[] = [];
  const notPulled: NotPulled[] = [];
  for (const op of plan.operations) {
    if (op.action !== 'update') continue;
    const key = stateKey(op.kind, op.logicalId);
    const location = byKey.get(key)?.location;
    // Only what the account changed. A change of the code's is the deploy's to make; a field both
    // changed stays the code's, and is listed: it is the account's value that would be lost.
    for (const c of op.changes.filter((c) => causeOf(c, op) === 'both'))
      notPulled.push({
        key,
        kind: op.kind,
        logicalId: op.logicalId,
        location,
        path: c.path,
        reason: 'code-changed',
      });
    const drifted = op.changes.filter((c) => causeOf(c, op) === 'account');
    if (drifted.length === 0) continue;
    const resource = live[op.kind].find((r) => String(r.id) === String(op.physicalId));
    if (resource === undefined) continue;
    const one = resourceEdits({ ...op, changes: drifted }, resource, location);
    if (one.pull !== undefined) resources.push(one.pull);
    notPulled.push(...one.notPulled);
  }
  return { resources, notPulled };
}

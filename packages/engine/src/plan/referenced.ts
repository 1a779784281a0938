import type { DesiredResource } from '@monitor/constructs';
import { type State, stateKey } from '../state/state.js';
import type { Conflict, Operation, Plan, PlanOptions } from './types.js';

/**
 * The stage that keeps what other projects reference: a delete or a replace of a resource that
 * another project's state `uses` (its constructs' `X.fromProject`) would leave their references
 * pointing at nothing, so it is a `referenced` conflict, unless `--force-orphan`.
 */

/**
 * This project's resources that the other projects' states use: state key → the constructs that
 * use each (`project/Kind:logicalId`), sorted.
 */
export function referencedBy(project: string, others: ReadonlyMap<string, State>): Map<string, string[]> {
  const prefix = `${project}/`;
  const out = new Map<string, string[]>();
  for (const [name, state] of others) {
    if (name === project) continue;
    for (const [key, entry] of Object.entries(state.resources)) {
      for (const use of entry.uses ?? []) {
        if (!use.startsWith(prefix)) continue;
        const used = use.slice(prefix.length);
        out.set(used, [...(out.get(used) ?? []), `${name}/${key}`]);
      }
    }
  }
  for (const [key, users] of out) out.set(key, [...new Set(users)].sort());
  return out;
}

/**
 * The deletes and replaces of referenced resources: a conflict each (at the construct, when the
 * code still has it), or with `forceOrphan` the references they orphan.
 */
export function referencedDeletes(
  operations: readonly Operation[],
  code: readonly DesiredResource[],
  options: Pick<PlanOptions, 'referencedBy' | 'forceOrphan'>,
): { conflicts: Conflict[]; orphaned: NonNullable<Plan['orphaned']> } {
  const referenced = options.referencedBy ?? new Map<string, readonly string[]>();
  const forceOrphan = options.forceOrphan === true;
  const conflicts: Conflict[] = [];
  const orphaned: NonNullable<Plan['orphaned']> = [];
  if (referenced.size === 0) return { conflicts, orphaned };
  for (const op of operations) {
    if (op.action !== 'delete' && op.action !== 'replace') continue;
    const key = stateKey(op.kind, op.logicalId);
    const usedBy = referenced.get(key);
    if (usedBy === undefined || usedBy.length === 0) continue;
    if (forceOrphan) {
      orphaned.push({ key, usedBy: [...usedBy] });
      continue;
    }
    const d = code.find((c) => c.kind === op.kind && c.logicalId === op.logicalId);
    const construct = d?.construct ?? op.construct;
    conflicts.push({
      reason: 'referenced',
      kind: op.kind,
      logicalId: op.logicalId,
      ...(construct === undefined ? {} : { construct }),
      location: d?.location,
      field: 'action',
      value: op.action,
      live: { id: op.physicalId, ...(op.name === undefined ? {} : { name: op.name }) },
      usedBy: [...usedBy],
    });
  }
  return { conflicts, orphaned };
}

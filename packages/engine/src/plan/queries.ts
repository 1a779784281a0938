import type { Operation, Plan } from './types.js';

/** What the plan says of itself: questions about it that the flows and the renderers ask. */

/**
 * Whether an operation only sends secrets again that could not be compared (no state secret): a
 * deploy sends it, so that no rotation is missed, but it is no change a diff reports, or every
 * drift check without the key would be red.
 */
export function isResendOnly(op: Operation): boolean {
  return op.action === 'update' && op.changes.length > 0 && op.changes.every((c) => c.unverified === true);
}

/** How many operations of each action, and the unchanged count. */
export function summarize(operations: readonly Operation[], unchanged: number): Plan['summary'] {
  const count = (a: Operation['action']) =>
    operations.filter((o) => o.action === a && !isResendOnly(o)).length;
  return {
    create: count('create'),
    update: count('update'),
    delete: count('delete'),
    adopt: count('adopt'),
    move: count('move'),
    replace: count('replace'),
    resend: operations.filter(isResendOnly).length,
    unchanged,
  };
}

/** How many resources the plan deletes, replacements included: what needs consent to delete. */
export function deletionCount(plan: Plan): number {
  return plan.summary.delete + plan.summary.replace;
}

/**
 * Whether the plan changes anything a diff reports: an operation, or an entry of state to drop or
 * record. Updates that only send unverifiable secrets again do not count (`isResendOnly`).
 */
export function hasChanges(plan: Plan): boolean {
  return (
    plan.operations.some((op) => !isResendOnly(op)) ||
    plan.forget.length > 0 ||
    plan.abandonedCreates.length > 0 ||
    plan.protectChanged.length > 0 ||
    (plan.usesChanged?.length ?? 0) > 0
  );
}

/** Whether a deploy of the plan has anything to do: what `hasChanges` reports, or secrets to send again. */
export function hasWork(plan: Plan): boolean {
  return hasChanges(plan) || plan.operations.length > 0;
}

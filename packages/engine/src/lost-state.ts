import { KINDS, naturalKeyOf, type ResourceKind } from '@monitor/api';
import type { Plan } from './plan/plan.js';

/** What a plan shows when the project's state is missing: how many of its constructs, by kind. */
export interface LostState {
  /** Constructs found in the account, unowned, by their natural or unique key. */
  found: number;
  byKind: Partial<Record<ResourceKind, number>>;
}

/**
 * Whether `plan` looks like a project whose state is missing rather than one meeting resources
 * made by hand: the state is empty (no entry, never written), and every construct the account
 * could show by a key is there, owned by no one (`exists` conflicts, and nothing else). What the
 * plan would still create has no key to be found by (alert channels, a dashboard without a custom
 * URL): the same resources, made again, if that state is not found.
 */
export function lostState(plan: Plan): LostState | undefined {
  const state = plan.priorState;
  if (state.serial !== 0 || Object.keys(state.resources).length > 0 || state.pendingCreates.length > 0)
    return undefined;
  if (plan.conflicts.length === 0 || plan.conflicts.some((c) => c.reason !== 'exists')) return undefined;
  const findable = plan.operations.some(
    (op) => op.action === 'create' && naturalKeyOf(KINDS[op.kind], op.payload) !== undefined,
  );
  if (findable) return undefined;
  const byKind: Partial<Record<ResourceKind, number>> = {};
  for (const c of plan.conflicts) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
  return { found: plan.conflicts.length, byKind };
}

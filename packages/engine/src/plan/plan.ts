import type { DesiredResource } from '@monitor/constructs';
import { secretHasher } from '../hash.js';
import type { State } from '../state/state.js';
import { stateKey } from '../state/state.js';
import { uniqueKeyConflicts } from './collisions.js';
import { compareResources, knownPhysicalIds, logicalNames } from './compare.js';
import { planDeletes } from './deletes.js';
import { indexAccount, matchResources } from './match.js';
import { serializeTwinCreates } from './order.js';
import { resolveTargets } from './targets.js';
import { type Live, type Operation, PLAN_FORMAT_VERSION, type Plan, type PlanOptions } from './types.js';

export {
  appliedHash,
  displayNameOf,
  identityOf,
  isCreatedFrom,
  naturalKeyOf,
  resolveRefs,
  secretValues,
} from './resource.js';
export type {
  Conflict,
  CreateOperation,
  DeleteOperation,
  Live,
  LiveResource,
  MismatchedEntry,
  Operation,
  Plan,
  PlanMode,
  PlanOptions,
  UpdateOperation,
} from './types.js';
export { PLAN_FORMAT_VERSION } from './types.js';

/**
 * The plan: what to create, update, adopt, move and delete so that the account matches the code,
 * and the constructs that cannot be placed (conflicts). Pure: no I/O, no clock, no environment.
 * Made in stages, each its own module: resolve the targets, match constructs to state and the
 * live account, compare fields, plan the deletes, find unique-key collisions of the creates.
 */
export function plan(code: readonly DesiredResource[], live: Live, state: State, options: PlanOptions): Plan {
  const mode = options.mode ?? 'apply';
  const desired = resolveTargets(code, mode);
  const secrets = secretHasher(options.secretKey, state.salt);
  const account = indexAccount(live, state, options.otherOwners);

  const matching = matchResources(desired, state, account);
  const conflicted = new Set(matching.conflicts.map((c) => stateKey(c.kind, c.logicalId)));
  const placed = desired.filter((d) => !conflicted.has(stateKey(d.kind, d.logicalId)));

  const ids = knownPhysicalIds(desired, matching, account);
  const comparison = compareResources(placed, matching, {
    account,
    secrets,
    ids,
    names: logicalNames(state, ids),
    pending: new Set(state.pendingCreates),
  });
  const keepProtected = !(mode === 'destroy' && options.forceProtected === true);
  const deleting = planDeletes(state, matching, account, keepProtected);

  const creates = placed.filter((d) => !matching.claims.has(d) && !matching.adopted.has(d));
  const collisions = uniqueKeyConflicts(creates, matching, account, deleting.deletes);
  const conflicts = [...matching.conflicts, ...collisions];
  for (const c of collisions) conflicted.add(stateKey(c.kind, c.logicalId));
  // A construct in conflict is not placed; the deletes stay in the plan to show what the code asks for.
  const operations: Operation[] = [
    ...serializeTwinCreates(
      comparison.writes.filter((op) => !conflicted.has(stateKey(op.kind, op.logicalId))),
    ),
    ...deleting.deletes,
  ];
  const resumed = new Set(
    operations
      .filter((op) => op.action === 'create' || op.action === 'adopt')
      .map((op) => stateKey(op.kind, op.logicalId)),
  );
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    mode,
    createdAt: options.now.toISOString(),
    operations,
    unchanged: comparison.unchanged,
    forget: deleting.forget,
    mismatched: deleting.mismatched,
    protectedKept: deleting.protectedKept,
    keptForProtected: deleting.keptForProtected,
    protectChanged: comparison.protectChanged,
    conflicts,
    unverifiedSecrets: comparison.unverifiedSecrets,
    abandonedCreates: state.pendingCreates.filter((key) => !resumed.has(key) && !conflicted.has(key)).sort(),
    summary: summarize(operations, comparison.unchanged),
    stateSerial: state.serial,
    priorState: state,
    secrets,
  };
}

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
    resend: operations.filter(isResendOnly).length,
    unchanged,
  };
}

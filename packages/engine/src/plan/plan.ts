import type { DesiredResource } from '@monitor/constructs';
import { secretHasher } from '../hash.js';
import type { State } from '../state/state.js';
import { stateKey } from '../state/state.js';
import { uniqueKeyConflicts } from './collisions.js';
import { compareResources, knownPhysicalIds, logicalNames } from './compare.js';
import { type DeletePlan, planDeletes } from './deletes.js';
import { TargetError } from './errors.js';
import { indexAccount, matchResources } from './match.js';
import { serializeTwinCreates } from './order.js';
import { resolveProjectRefs } from './project-refs.js';
import { isResendOnly, summarize } from './queries.js';
import { referencedDeletes } from './referenced.js';
import { resolveIds, resolveTargets, type Selection } from './targets.js';
import { type Live, type Operation, PLAN_FORMAT_VERSION, type Plan, type PlanOptions } from './types.js';

export { isResendOnly, summarize } from './queries.js';

import { liveReferences } from './resource.js';

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
  ReplaceOperation,
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
  const replace = options.replace === undefined ? [] : replacements(options.replace, code, state);
  const { desired: selected, selection } = resolveTargets(code, mode, {
    ...(options.targets === undefined
      ? {}
      : { targets: resolveIds(options.targets, code, state, '--target') }),
  });
  const secrets = secretHasher(options.secretKey, state.salt);
  const account = indexAccount(live, state, options.otherOwners);
  if (selection !== undefined) checkReplacedInSelection(replace, selection, state, account);
  // Other projects' constructs the code references, as the ids their states record.
  const projectRefs = resolveProjectRefs(selected, options.projectStates ?? new Map(), account);
  const desired = projectRefs.desired;

  const matching = matchResources(desired, state, account);
  const conflicted = new Set(
    [...projectRefs.conflicts, ...matching.conflicts].map((c) => stateKey(c.kind, c.logicalId)),
  );
  const placed = desired.filter((d) => !conflicted.has(stateKey(d.kind, d.logicalId)));

  const replacing = new Set(replace);
  // A replaced resource's id is known only once it is made again: what refers to it waits for that.
  const ids = knownPhysicalIds(desired, matching, account);
  for (const key of replacing) ids.delete(key);
  const comparison = compareResources(placed, matching, {
    account,
    secrets,
    ids,
    names: logicalNames(state, ids),
    pending: new Set(state.pendingCreates),
    replace: replacing,
    uses: projectRefs.uses,
  });
  const keepProtected = !(mode === 'destroy' && options.forceProtected === true);
  const deleting = inSelection(planDeletes(state, matching, account, keepProtected), selection);

  const creates = placed.filter((d) => !matching.claims.has(d) && !matching.adopted.has(d));
  const collisions = uniqueKeyConflicts(creates, matching, account, {
    deleted: deleting.deletes,
    keptProtected: deleting.protectedKept.flatMap((key) => state.resources[key] ?? []),
    // An entry not deleted because its resource may be another one is still, maybe, ours renamed:
    // a create with its name is told as a rename, not made as a twin.
    undecided: deleting.mismatched.flatMap((m) => state.resources[m.key] ?? []),
  });
  const referenced = referencedDeletes([...comparison.writes, ...deleting.deletes], code, options);
  const conflicts = [...projectRefs.conflicts, ...matching.conflicts, ...collisions, ...referenced.conflicts];
  for (const c of collisions) conflicted.add(stateKey(c.kind, c.logicalId));
  // Of what targets need, only the creates: the rest of the project is not compared.
  const writes = comparison.writes.filter((op) => {
    const key = stateKey(op.kind, op.logicalId);
    return (
      !conflicted.has(key) &&
      (selection === undefined || selection.targeted.has(key) || op.action === 'create')
    );
  });
  // A construct in conflict is not placed; the deletes stay in the plan to show what the code asks for.
  const operations: Operation[] = [...serializeTwinCreates(writes), ...deleting.deletes];
  const resumed = new Set(
    operations
      .filter((op) => op.action === 'create' || op.action === 'adopt')
      .map((op) => stateKey(op.kind, op.logicalId)),
  );
  const pending = state.pendingCreates.filter(
    (key) => selection === undefined || selection.targeted.has(key),
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
    ...optionalParts({
      usesChanged: usesChanged(placed, matching, comparison.writes, projectRefs.uses),
      projectRefs: shownRefs(projectRefs.resolved, operations),
      orphaned: referenced.orphaned,
    }),
    conflicts,
    findings: [],
    unverifiedSecrets: comparison.unverifiedSecrets,
    abandonedCreates: pending.filter((key) => !resumed.has(key) && !conflicted.has(key)).sort(),
    summary: summarize(operations, comparison.unchanged),
    stateSerial: state.serial,
    priorState: state,
    secrets,
    ...(selection === undefined ? {} : { targets: [...selection.targeted].sort() }),
    ...(replace.length === 0 ? {} : { replace }),
  };
}

/** The parts of a plan that are left out when empty. */
function optionalParts(parts: Pick<Plan, 'usesChanged' | 'projectRefs' | 'orphaned'>): Partial<Plan> {
  return Object.fromEntries(
    Object.entries(parts).filter(([, list]) => list !== undefined && list.length > 0),
  );
}

/**
 * The resources that stay as they are but reference other projects' constructs otherwise than
 * state records (a `fromId` written as the `fromProject` of the same resource): recorded, no call.
 */
function usesChanged(
  placed: readonly DesiredResource[],
  matching: ReturnType<typeof matchResources>,
  writes: readonly Operation[],
  uses: ReadonlyMap<string, string[]>,
): NonNullable<Plan['usesChanged']> {
  const written = new Set(writes.map((op) => stateKey(op.kind, op.logicalId)));
  const changed: NonNullable<Plan['usesChanged']> = [];
  for (const d of placed) {
    const entry = matching.claims.get(d)?.entry;
    const key = stateKey(d.kind, d.logicalId);
    if (entry === undefined || written.has(key)) continue;
    const now = uses.get(key) ?? [];
    const recorded = entry.uses ?? [];
    if (now.length !== recorded.length || now.some((use, i) => use !== recorded[i]))
      changed.push({ key, uses: now });
  }
  return changed;
}

/** The resolved references of what the plan creates or changes: what a reviewer is shown. */
function shownRefs(
  resolved: NonNullable<Plan['projectRefs']>,
  operations: readonly Operation[],
): NonNullable<Plan['projectRefs']> {
  if (resolved.length === 0) return [];
  const written = new Set(
    operations
      .filter((op) => op.action !== 'delete' && !isResendOnly(op))
      .map((op) => stateKey(op.kind, op.logicalId)),
  );
  return resolved.filter((r) => written.has(r.from));
}

/**
 * The constructs to replace: each must be a construct of the code (an entry alone is deleted by
 * leaving the code), and never one with `protect: true`, which is never deleted.
 */
function replacements(ids: readonly string[], code: readonly DesiredResource[], state: State): string[] {
  const keys = resolveIds(ids, code, state, '--replace');
  for (const key of keys) {
    const d = code.find((c) => stateKey(c.kind, c.logicalId) === key);
    if (d === undefined) {
      throw new TargetError(
        `--replace ${key}: it is not in the code, so there is nothing to create again`,
        'to delete it, remove it from the code and deploy',
      );
    }
    if (d.options.protect) {
      throw new TargetError(
        `--replace ${key}: it is protect: true, and a protected resource is never deleted`,
        'remove protect: true from the construct’s options and deploy, then replace it',
      );
    }
  }
  return [...new Set(keys)].sort();
}

/**
 * A replace with `--target` must stay whole: the replaced construct inside the selection, and so
 * must this project's resources that refer to it, which are subscribed again to the resource made
 * again in the same run; outside the selection they would be left on a deleted resource.
 */
function checkReplacedInSelection(
  replace: readonly string[],
  selection: Selection,
  state: State,
  account: ReturnType<typeof indexAccount>,
): void {
  const inside = (key: string) => selection.targeted.has(key) || selection.needed.has(key);
  for (const key of replace) {
    // Only a target is written: one a target merely needs is compared, never replaced.
    if (!selection.targeted.has(key)) {
      throw new TargetError(
        `--replace ${key} is outside --target (${[...selection.targeted].sort().join(', ')}): it would not be replaced`,
        `add --target ${key}, or run without --target`,
      );
    }
    const entry = state.resources[key];
    if (entry === undefined) continue;
    const left = Object.values(state.resources)
      .filter((e) => !inside(stateKey(e.kind, e.logicalId)))
      .filter((e) => {
        const resource = account.byId.tryFind(e.kind, e.physicalId);
        return (
          resource !== undefined &&
          liveReferences(e.kind, resource).some((r) => r.kind === entry.kind && r.id === entry.physicalId)
        );
      })
      .map((e) => stateKey(e.kind, e.logicalId))
      .sort();
    if (left.length > 0) {
      throw new TargetError(
        `--replace ${key} with --target: ${left.join(', ')} refer${left.length === 1 ? 's' : ''} to it and ${left.length === 1 ? 'is' : 'are'} outside --target, so ${left.length === 1 ? 'it' : 'they'} would be left on the deleted resource (a group subscribed to a channel that is gone pages no one)`,
        `add ${left.map((k) => `--target ${k}`).join(' ')}, or run without --target: each is then subscribed to the resource made again in the same deploy`,
      );
    }
  }
}

/** What a targeted plan deletes and drops: only what its targets name. */
function inSelection(plan: DeletePlan, selection: Selection | undefined): DeletePlan {
  if (selection === undefined) return plan;
  const named = (key: string) => selection.targeted.has(key);
  return {
    deletes: plan.deletes.filter((op) => named(stateKey(op.kind, op.logicalId))),
    forget: plan.forget.filter(named),
    mismatched: plan.mismatched.filter((m) => named(m.key)),
    protectedKept: plan.protectedKept.filter(named),
    keptForProtected: plan.keptForProtected.filter((k) => named(k.key)),
  };
}

import { KINDS, naturalKeyOf, type ResourceKind } from '@monitor/api';
import { readLive } from '../live/read-live.js';
import { type Live, plan as makePlan, type Plan } from '../plan/plan.js';
import { projectRefsIn } from '../plan/project-refs.js';
import { planAcrossProjects } from './other-projects.js';
import type { Target } from './target.js';

/** What a plan shows when the project's state is missing: how many of its constructs, by kind. */
export interface LostState {
  /** Constructs found in the account, unowned, by their natural or unique key. */
  found: number;
  byKind: Partial<Record<ResourceKind, number>>;
}

/**
 * Whether `plan` could be that of a project whose state is missing: the state is empty (no entry,
 * never written), and every construct the account could show by a key is there, owned by no one
 * (`exists` conflicts, and nothing else). What the plan would still create has no key to be found
 * by (alert channels, a dashboard without a custom URL). Pure; `lostState` looks closer.
 */
export function lostStateCandidate(plan: Plan): LostState | undefined {
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

/**
 * A candidate (above) whose resources also look like the project's: most of them hold exactly
 * what the code says, secrets aside, as the resources of an earlier deploy of this code would.
 * Resources that were made by hand and share a name differ in their other fields: those remain
 * conflicts, each with its way out. Reads the conflicting kinds of the account unless `live` is
 * given; writes nothing.
 */
export async function lostState(plan: Plan, target: Target, live?: Live): Promise<LostState | undefined> {
  const candidate = lostStateCandidate(plan);
  if (candidate === undefined) return undefined;
  // And the kinds of other projects' constructs the code references: they resolve against the account too.
  const referenced = projectRefsIn(target.project.resources).map((at) => at.ref.$ref.split(':')[0]);
  const kinds = [...new Set([...Object.keys(candidate.byKind), ...referenced])] as ResourceKind[];
  const account = live ?? (await readLive(target.client, kinds));
  // The plan had every construct said `adopt: true`: how far each found resource is from the code.
  const adopted = await planAcrossProjects(target, false, (projects) =>
    makePlan(
      target.project.resources.map((r) => ({ ...r, options: { ...r.options, adopt: true } })),
      account,
      plan.priorState,
      { ...projects, now: new Date(plan.createdAt), secretKey: target.secretKey },
    ),
  );
  const conflicted = new Set(plan.conflicts.map((c) => `${c.kind}:${c.logicalId}`));
  // Secrets cannot be compared without state, nor references to what has no id yet (a channel
  // that would be created): the other fields tell.
  const telling = (kind: ResourceKind, path: string, sensitive: boolean | undefined) =>
    sensitive !== true && !KINDS[kind].references.some((r) => topField(r.path) === topField(path));
  const alike = adopted.operations.filter(
    (op) =>
      op.action === 'adopt' &&
      conflicted.has(`${op.kind}:${op.logicalId}`) &&
      !op.changes.some((c) => telling(op.kind, c.path, c.sensitive)),
  ).length;
  return alike * 2 > candidate.found ? candidate : undefined;
}

/** `alertChannelSubscriptions` of `alertChannelSubscriptions[mail].alertChannelId`. */
function topField(path: string): string {
  return path.split(/[[.]/)[0] as string;
}

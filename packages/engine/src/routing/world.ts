import type { ResourceKind } from '@monitor/api';
import { type DesiredResource, isPayloadRef } from '@monitor/constructs';
import { ByPhysicalId, type PhysicalId } from '../identity.js';
import type { Live, Plan } from '../plan/types.js';
import { stateKey } from '../state/key.js';
import type { State } from '../state/state.js';

/**
 * What routing reads: the resources of one account as they are (live), as the code declares them
 * (desired) or as they will be once a plan is applied. Each resource carries the names it is known
 * by: its logical id when the project has one for it, its physical id when the account has it.
 */
export interface WorldResource {
  kind: ResourceKind;
  logicalId?: string;
  physicalId?: PhysicalId;
  /** The payload: references as physical ids, or `{ $ref: 'Kind:logicalId' }` before they exist. */
  payload: Record<string, unknown>;
}

/** How resources are named in routes: `CheckGroup:payments`, or `CheckGroup id 42` when the project has no name for it. */
export function nameOf(r: Pick<WorldResource, 'kind' | 'logicalId' | 'physicalId'>): string {
  if (r.logicalId !== undefined) return stateKey(r.kind, r.logicalId);
  return `${r.kind} id ${String(r.physicalId)}`;
}

export interface World {
  resources: readonly WorldResource[];
  /** Resources of the account that `resources` may refer to by id though they are not in it (the code's `fromId`). */
  account?: readonly WorldResource[];
}

/** The code: every construct by its logical id; references as `$ref`, or ids for `fromId`. */
export function worldFromCode(code: readonly DesiredResource[], live?: Live): World {
  return {
    resources: code.map((d) => ({ kind: d.kind, logicalId: d.logicalId, payload: d.payload })),
    ...(live === undefined ? {} : { account: worldFromLive(live, undefined).resources }),
  };
}

/** The account: every live resource, named by its logical id when state records it. */
export function worldFromLive(live: Live, state: State | undefined): World {
  const names = ByPhysicalId.of(Object.values(state?.resources ?? {}), (e) => [e.kind, e.physicalId]);
  const resources: WorldResource[] = [];
  for (const kind of Object.keys(live) as ResourceKind[]) {
    for (const r of live[kind]) {
      const logicalId = names.tryFind(kind, r.id)?.logicalId;
      resources.push({
        kind,
        physicalId: r.id,
        payload: r,
        ...(logicalId === undefined ? {} : { logicalId }),
      });
    }
  }
  return { resources };
}

/**
 * `world` (the live account) with the resources the plan adopts or renames named by their logical
 * id in the code, so that their route before the plan lines up with the route after it.
 */
export function namedByPlan(world: World, plan: Plan): World {
  const names = new ByPhysicalId<string>();
  for (const op of plan.operations)
    if (op.action !== 'create') names.set(op.kind, op.physicalId, op.logicalId);
  return {
    ...world,
    resources: world.resources.map((r) => {
      const logicalId = r.physicalId === undefined ? undefined : names.tryFind(r.kind, r.physicalId);
      return logicalId === undefined ? r : { ...r, logicalId };
    }),
  };
}

/**
 * The account as it will be once `plan` is applied to `before` (the live world): creates added,
 * updates, adoptions, moves and replacements with their desired payload, deletes gone. What the
 * plan does not touch (unchanged, or outside `--target`) stays as it is.
 */
export function worldAfterPlan(before: World, plan: Plan): World {
  const byId = new ByPhysicalId<WorldResource>();
  for (const r of before.resources) if (r.physicalId !== undefined) byId.set(r.kind, r.physicalId, r);
  const added: WorldResource[] = [];
  for (const op of plan.operations) {
    if (op.action === 'delete') {
      byId.delete(op.kind, op.physicalId);
    } else if (op.action === 'create') {
      added.push({ kind: op.kind, logicalId: op.logicalId, payload: op.payload });
    } else if (op.action === 'replace') {
      // Created again: a new id, so references to the old one find nothing.
      byId.delete(op.kind, op.physicalId);
      added.push({ kind: op.kind, logicalId: op.logicalId, payload: op.payload });
    } else {
      // An update is a partial PUT: what it does not send (a field in ignoreChanges) stays as the
      // account has it, so a group muted in the account and ignored in the code stays muted.
      const now = byId.tryFind(op.kind, op.physicalId);
      byId.set(op.kind, op.physicalId, {
        kind: op.kind,
        logicalId: op.logicalId,
        physicalId: op.physicalId,
        payload: now === undefined ? op.payload : { ...now.payload, ...op.payload },
      });
    }
  }
  return { resources: [...byId.values(), ...added] };
}

/** Finds what a payload's reference names: a logical id (`$ref`) or a physical id. */
export interface Resolver {
  resolve(kind: ResourceKind, ref: unknown): WorldResource | undefined;
  all(kind: ResourceKind): WorldResource[];
}

export function resolverOf(world: World): Resolver {
  const byLogical = new Map<string, WorldResource>();
  const byPhysical = new ByPhysicalId<WorldResource>();
  const byKind = new Map<ResourceKind, WorldResource[]>();
  for (const r of world.account ?? [])
    if (r.physicalId !== undefined) byPhysical.set(r.kind, r.physicalId, r);
  for (const r of world.resources) {
    if (r.logicalId !== undefined) byLogical.set(stateKey(r.kind, r.logicalId), r);
    if (r.physicalId !== undefined) byPhysical.set(r.kind, r.physicalId, r);
    const ofKind = byKind.get(r.kind);
    if (ofKind === undefined) byKind.set(r.kind, [r]);
    else ofKind.push(r);
  }
  return {
    resolve(kind, ref) {
      if (isPayloadRef(ref)) return byLogical.get(ref.$ref);
      if (typeof ref === 'string' || typeof ref === 'number') return byPhysical.tryFind(kind, ref);
      return undefined;
    },
    all: (kind) => byKind.get(kind) ?? [],
  };
}

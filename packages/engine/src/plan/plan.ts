import { KINDS, type ResourceKind, replaceSensitive, sensitiveValues } from '@monitor/api';
import { type DesiredResource, isPayloadRef } from '@monitor/constructs';
import { hashJson, hashSecret } from '../hash.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { type Change, diffPayload } from './diff.js';

export const PLAN_FORMAT_VERSION = 1;

/** A live resource as read from the API. */
export type LiveResource = Record<string, unknown> & { id: string | number };
/** Every live resource of each managed kind, as read from the list endpoints. */
export type Live = Record<ResourceKind, LiveResource[]>;

interface Base {
  kind: ResourceKind;
  logicalId: string;
  /** The construct class; absent for deletes of constructs removed from code. */
  construct?: string;
}
/** What a create or an update records in state once written. */
interface Desired {
  /** The payload to send, references resolved where the physical id is known. Holds secrets: never print it. */
  payload: Record<string, unknown>;
  /** State keys (`Kind:logicalId`) this resource refers to. */
  dependsOn: string[];
  /** `appliedHash` of the desired payload: recorded in state after the write. */
  desiredHash: string;
  protect: boolean;
}
export interface CreateOperation extends Base, Desired {
  action: 'create';
  /** A state entry existed but the resource is gone from the account. */
  recreate: boolean;
}
export interface UpdateOperation extends Base, Desired {
  action: 'update' | 'adopt' | 'move';
  physicalId: string | number;
  changes: Change[];
  /** The live values changed outside monitor since the last deploy: the code did not change. */
  drift: boolean;
  unchangedAttributes: number;
  /** For `move`: the logical id in state before the rename. */
  from?: string;
  /** For `adopt`: the resource an interrupted deploy created (state had its create pending). */
  resumed?: boolean;
}
export interface DeleteOperation extends Base {
  action: 'delete';
  physicalId: string | number;
}
export type Operation = CreateOperation | UpdateOperation | DeleteOperation;

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  /** `destroy`: every owned resource goes, whatever the code says. */
  mode: PlanMode;
  /** When the plan was made (the `now` it was given). */
  createdAt: string;
  operations: Operation[];
  /** Resources in code whose live values match. */
  unchanged: number;
  /** State entries whose resource is gone from the account and from code: dropped from state, no call. */
  forget: string[];
  /** Resources removed from code but kept because they are protected. */
  protectedKept: string[];
  /**
   * Pending creates of an interrupted deploy that this plan does not resume (their constructs are
   * gone from the code): dropped from state. If the service made them, they stay unmanaged.
   */
  abandonedCreates: string[];
  summary: { create: number; update: number; delete: number; adopt: number; move: number; unchanged: number };
  stateSerial: number;
  /** The state the plan was made against: what apply starts from. Never printed. */
  priorState: State;
}

export type PlanMode = 'apply' | 'destroy';

export interface PlanOptions {
  /** The planner is pure: the clock comes in, and the plan records it. */
  now: Date;
  /** @default 'apply' */
  mode?: PlanMode;
  /** In `destroy` mode, delete `protect: true` resources too. @default false */
  forceProtected?: boolean;
}

/** Sensitive values in a payload, by the path the diff names them with. */
export function secretValues(kind: ResourceKind, payload: Record<string, unknown>): Record<string, string> {
  return sensitiveValues(KINDS[kind], payload);
}

/** The natural key of a resource (desired payload or live), by the kind's definition. */
export function naturalKeyOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  return KINDS[kind].naturalKey?.(resource);
}

/**
 * The hash recorded in state after a write: over the desired payload as synthesized (references
 * still as logical ids, so a recreated target does not look like drift), with secret values
 * replaced by their salted hashes. The deployer must record exactly this.
 */
export function appliedHash(kind: ResourceKind, payload: Record<string, unknown>, salt: string): string {
  return hashJson(replaceSensitive(KINDS[kind], payload, (value) => hashSecret(value, salt)));
}

/**
 * Whether a live resource nobody owns is the one a create of `payload` made: the same natural
 * key, or for kinds without one (alert channels) every field of the payload equal.
 */
export function isCreatedFrom(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  live: LiveResource,
): boolean {
  const key = naturalKeyOf(kind, payload);
  if (key !== undefined) return naturalKeyOf(kind, live) === key;
  const changes: Change[] = [];
  // Secrets the service masks cannot tell a create apart.
  diffPayload(payload, live, { kind: KINDS[kind], secretUnchanged: () => true }, changes);
  return changes.length === 0;
}

/** Replace `{ $ref }` by physical ids where known; unknown ones stay refs ("known after create"). */
export function resolveRefs(value: unknown, ids: ReadonlyMap<string, string | number>): unknown {
  if (isPayloadRef(value)) return ids.get(value.$ref) ?? value;
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, ids));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, ids)]));
  }
  return value;
}

/**
 * The plan: what to create, update, adopt, move and delete so that the account matches the code.
 * Pure: no I/O, no clock, no environment.
 */
export function plan(code: readonly DesiredResource[], live: Live, state: State, options: PlanOptions): Plan {
  const mode = options.mode ?? 'apply';
  // Destroying is planning against a project that declares nothing.
  const desired = mode === 'destroy' ? [] : code;
  const keepProtected = !(mode === 'destroy' && options.forceProtected === true);
  const operations: Operation[] = [];
  const forget: string[] = [];
  const protectedKept: string[] = [];
  let unchanged = 0;

  const liveById = new Map<string, LiveResource>();
  for (const kind of Object.keys(live) as ResourceKind[]) {
    for (const r of live[kind]) liveById.set(`${kind}#${String(r.id)}`, r);
  }
  const liveOf = (kind: ResourceKind, id: string | number) => liveById.get(`${kind}#${String(id)}`);
  const ownedIds = new Set(Object.values(state.resources).map((e) => `${e.kind}#${String(e.physicalId)}`));

  // Which state entry each construct takes: its own, or one of its aliases (a move).
  const claimed = new Map<string, StateEntry>();
  const entryFor = new Map<DesiredResource, { entry: StateEntry; from?: string }>();
  for (const d of desired) {
    const own = state.resources[stateKey(d.kind, d.logicalId)];
    if (own !== undefined) {
      entryFor.set(d, { entry: own });
      claimed.set(stateKey(d.kind, d.logicalId), own);
      continue;
    }
    for (const alias of d.options.aliases) {
      const aliased = state.resources[stateKey(d.kind, alias)];
      if (aliased !== undefined && !claimed.has(stateKey(d.kind, alias))) {
        entryFor.set(d, { entry: aliased, from: alias });
        claimed.set(stateKey(d.kind, alias), aliased);
        break;
      }
    }
  }

  // Adoption: constructs without state whose natural key matches a live resource nobody owns,
  // and creates an interrupted deploy sent (found by content when the kind has no natural key).
  // Unowned live resources are indexed by natural key once, so adopting N resources is linear.
  const unowned = (kind: ResourceKind) => live[kind].filter((r) => !ownedIds.has(`${kind}#${String(r.id)}`));
  const byNaturalKey = new Map<string, LiveResource[]>();
  for (const kind of Object.keys(live) as ResourceKind[]) {
    if (KINDS[kind].naturalKey === undefined) continue;
    for (const r of unowned(kind)) {
      const naturalKey = naturalKeyOf(kind, r);
      if (naturalKey === undefined) continue;
      const key = `${kind}#${naturalKey}`;
      const same = byNaturalKey.get(key);
      if (same === undefined) byNaturalKey.set(key, [r]);
      else same.push(r);
    }
  }
  const pending = new Set(state.pendingCreates);
  const adopted = new Map<DesiredResource, LiveResource>();
  const taken = new Set<LiveResource>();
  for (const d of desired) {
    if (entryFor.has(d)) continue;
    const key = naturalKeyOf(d.kind, d.payload);
    let candidates: LiveResource[] | undefined;
    if (key !== undefined) candidates = byNaturalKey.get(`${d.kind}#${key}`);
    else if (pending.has(stateKey(d.kind, d.logicalId)))
      candidates = unowned(d.kind).filter((r) => isCreatedFrom(d.kind, d.payload, r));
    const match = candidates?.find((r) => !taken.has(r));
    if (match !== undefined) {
      adopted.set(d, match);
      taken.add(match);
    }
  }

  // Physical ids known before anything is applied, to resolve references.
  const ids = new Map<string, string | number>();
  for (const d of desired) {
    const entry = entryFor.get(d)?.entry;
    const physical =
      entry !== undefined && liveOf(d.kind, entry.physicalId) !== undefined
        ? entry.physicalId
        : adopted.get(d)?.id;
    if (physical !== undefined) ids.set(stateKey(d.kind, d.logicalId), physical);
  }

  for (const d of desired) {
    const payload = resolveRefs(d.payload, ids) as Record<string, unknown>;
    const claim = entryFor.get(d);
    const adopt = adopted.get(d);
    const current = claim !== undefined ? liveOf(d.kind, claim.entry.physicalId) : adopt;
    const desiredHash = appliedHash(d.kind, d.payload, state.salt);
    const base = {
      kind: d.kind,
      logicalId: d.logicalId,
      construct: d.construct,
      payload,
      dependsOn: d.dependsOn,
      desiredHash,
      protect: d.options.protect,
    };
    if (current === undefined) {
      operations.push({ ...base, action: 'create', recreate: claim !== undefined });
      continue;
    }
    const changes: Change[] = [];
    const secretHashes = claim?.entry.secretHashes ?? {};
    const unchangedAttributes = diffPayload(
      payload,
      current,
      {
        kind: KINDS[d.kind],
        secretUnchanged: (path, value) => secretHashes[path] === hashSecret(value, state.salt),
      },
      changes,
    );
    const action = claim?.from !== undefined ? 'move' : adopt !== undefined ? 'adopt' : 'update';
    if (action === 'update' && changes.length === 0) {
      unchanged++;
      continue;
    }
    const drift = claim !== undefined && changes.length > 0 && claim.entry.appliedHash === desiredHash;
    operations.push({
      ...base,
      action,
      physicalId: current.id,
      changes,
      drift,
      unchangedAttributes,
      ...(claim?.from === undefined ? {} : { from: claim.from }),
      ...(adopt !== undefined && pending.has(stateKey(d.kind, d.logicalId)) ? { resumed: true } : {}),
    });
  }

  // Deletes: only what state owns and code no longer declares; never protected resources, and
  // never a resource another entry still claims (two keys for one id after a hand-edited state).
  const claimedIds = new Set([...claimed.values()].map((e) => `${e.kind}#${String(e.physicalId)}`));
  for (const [key, entry] of Object.entries(state.resources)) {
    if (claimed.has(key)) continue;
    if (claimedIds.has(`${entry.kind}#${String(entry.physicalId)}`)) {
      forget.push(key);
      continue;
    }
    if (liveOf(entry.kind, entry.physicalId) === undefined) {
      forget.push(key);
      continue;
    }
    if (entry.protect && keepProtected) {
      protectedKept.push(key);
      continue;
    }
    operations.push({
      kind: entry.kind,
      logicalId: entry.logicalId,
      action: 'delete',
      physicalId: entry.physicalId,
    });
  }

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
    unchanged,
    forget,
    protectedKept,
    abandonedCreates: state.pendingCreates.filter((key) => !resumed.has(key)).sort(),
    summary: summarize(operations, unchanged),
    stateSerial: state.serial,
    priorState: state,
  };
}

/** How many operations of each action, and the unchanged count. */
export function summarize(operations: readonly Operation[], unchanged: number): Plan['summary'] {
  const count = (a: Operation['action']) => operations.filter((o) => o.action === a).length;
  return {
    create: count('create'),
    update: count('update'),
    delete: count('delete'),
    adopt: count('adopt'),
    move: count('move'),
    unchanged,
  };
}

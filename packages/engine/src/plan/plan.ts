import {
  KINDS,
  naturalKeyOf as naturalKeyIn,
  type ResourceKind,
  replaceSensitive,
  sensitiveValues,
  valuesAt,
} from '@monitor/api';
import { type DesiredResource, replaceRefs, type SourceLocation } from '@monitor/constructs';
import { hashJson, type SecretHasher, secretHasher } from '../hash.js';
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
  /** What people call it (its name, header or address): from the code, or the account for deletes. */
  name?: string;
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

/**
 * A construct the plan cannot place without taking or breaking something: deploy refuses the
 * whole plan while one stands.
 * - `exists`: a live resource that no project owns has the construct's natural key or a unique
 *   key. Creating would duplicate it or fail with 409; adopting it needs `adopt: true`.
 * - `rename`: the construct would be created while the resource of another logical id, which holds
 *   the same key, is deleted: a renamed logical id without `aliases`.
 * - `taken`: a resource this project owns under another logical id holds a unique key the create needs.
 * - `owned`: another project (sharing this state database) owns the live resource; `adopt: true`
 *   does not take it: that project has to let it go first.
 */
export interface Conflict {
  reason: 'exists' | 'rename' | 'taken' | 'owned';
  kind: ResourceKind;
  logicalId: string;
  construct: string;
  location?: SourceLocation | undefined;
  /** The field whose value collides, e.g. `name` or `customUrl`, and that value. */
  field: string;
  value: string;
  /** The live resource in the way. */
  live: { id: string | number; name?: string };
  /** For `rename` and `taken`: the logical id that holds the live resource; for `owned`, the project. */
  holder?: string;
}

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
   * Resources that would be deleted but are kept because a kept protected resource refers to them
   * (deleting an alert channel would change the protected group that subscribes to it).
   */
  keptForProtected: { key: string; by: string }[];
  /** Owned resources whose `protect` changed in code and nothing else: recorded in state, no call. */
  protectChanged: { key: string; protect: boolean }[];
  /** Constructs that cannot be placed: deploy refuses while there are any. */
  conflicts: Conflict[];
  /**
   * Sensitive values the service masks that could not be compared, because no state secret was
   * given: they are sent again on every deploy.
   */
  unverifiedSecrets: number;
  /**
   * Pending creates of an interrupted deploy that this plan does not resume (their constructs are
   * gone from the code): dropped from state. If the service made them, they stay unmanaged.
   */
  abandonedCreates: string[];
  summary: { create: number; update: number; delete: number; adopt: number; move: number; unchanged: number };
  stateSerial: number;
  /** The state the plan was made against: what apply starts from. Never printed. */
  priorState: State;
  /** Fingerprints sensitive values for state, keyed by the state secret. Never printed. */
  secrets: SecretHasher;
}

export type PlanMode = 'apply' | 'destroy';

export interface PlanOptions {
  /** The planner is pure: the clock comes in, and the plan records it. */
  now: Date;
  /**
   * The state secret: the key of the hashes of sensitive values (`secretHasher`). Without it, values
   * the service masks cannot be compared and are sent on every deploy.
   */
  secretKey?: string | undefined;
  /** @default 'apply' */
  mode?: PlanMode;
  /** In `destroy` mode, delete `protect: true` resources too. @default false */
  forceProtected?: boolean;
  /** Live resources other projects own (`Kind#physicalId` → project): never taken or touched. */
  otherOwners?: ReadonlyMap<string, string>;
}

/** Sensitive values in a payload, by the path the diff names them with. */
export function secretValues(kind: ResourceKind, payload: Record<string, unknown>): Record<string, string> {
  return sensitiveValues(KINDS[kind], payload);
}

/** The natural key of a resource (desired payload or live), by the kind's definition. */
export function naturalKeyOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  return naturalKeyIn(KINDS[kind], resource)?.key;
}

/**
 * The hash recorded in state after a write: over the desired payload as synthesized (references
 * still as logical ids, so a recreated target does not look like drift), with secret values
 * replaced by their keyed hashes (or one constant without a key: the hash never depends on a
 * secret that is not keyed). The deployer must record exactly this.
 */
export function appliedHash(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  secrets: SecretHasher,
): string {
  return hashJson(replaceSensitive(KINDS[kind], payload, (value) => secrets.hash(value) ?? 'unkeyed'));
}

/** The name people know a resource by, if its kind has one. */
export function displayNameOf(kind: ResourceKind, resource: Record<string, unknown>): string | undefined {
  return KINDS[kind].displayName(resource);
}

/**
 * The keys a create must not share with a live resource: its natural key and each unique key that
 * is set (unique keys compared lower-cased, as the service does).
 */
function collidingKeys(
  kind: ResourceKind,
  resource: Record<string, unknown>,
): { field: string; value: string; key: string }[] {
  const def = KINDS[kind];
  const out: { field: string; value: string; key: string }[] = [];
  const natural = naturalKeyIn(def, resource);
  if (natural !== undefined) out.push(natural);
  for (const field of def.uniqueKeys) {
    const value = resource[field];
    if (typeof value !== 'string' || value === '') continue;
    const key = `${field}:${value.toLowerCase()}`;
    if (!out.some((k) => k.key.toLowerCase() === key)) out.push({ field, value, key });
  }
  return out;
}

/** The physical ids a live resource refers to, by the kind's reference paths. */
function liveReferences(
  kind: ResourceKind,
  resource: Record<string, unknown>,
): { kind: ResourceKind; id: string }[] {
  const out: { kind: ResourceKind; id: string }[] = [];
  for (const ref of KINDS[kind].references) {
    for (const { value } of valuesAt(resource, ref.path))
      if (typeof value === 'string' || typeof value === 'number')
        out.push({ kind: ref.kind, id: String(value) });
  }
  return out;
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
  return replaceRefs(value, (ref) => ids.get(ref.$ref) ?? ref);
}

/**
 * The plan: what to create, update, adopt, move and delete so that the account matches the code,
 * and the constructs that cannot be placed (conflicts). Pure: no I/O, no clock, no environment.
 */
export function plan(code: readonly DesiredResource[], live: Live, state: State, options: PlanOptions): Plan {
  const mode = options.mode ?? 'apply';
  // Destroying is planning against a project that declares nothing.
  const desired = mode === 'destroy' ? [] : code;
  const keepProtected = !(mode === 'destroy' && options.forceProtected === true);
  const secrets = secretHasher(options.secretKey, state.salt);
  const otherOwners = options.otherOwners ?? new Map<string, string>();
  const operations: Operation[] = [];
  const forget: string[] = [];
  const protectedKept: string[] = [];
  const protectChanged: Plan['protectChanged'] = [];
  const conflicts: Conflict[] = [];
  let unchanged = 0;
  let unverifiedSecrets = 0;

  const liveById = new Map<string, LiveResource>();
  for (const kind of Object.keys(live) as ResourceKind[]) {
    for (const r of live[kind]) liveById.set(`${kind}#${String(r.id)}`, r);
  }
  const liveOf = (kind: ResourceKind, id: string | number) => liveById.get(`${kind}#${String(id)}`);
  const ownerOf = new Map(
    Object.values(state.resources).map((e) => [`${e.kind}#${String(e.physicalId)}`, e]),
  );

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

  // Live resources by natural and unique key, each once, so that matching N constructs is linear.
  const byKey = new Map<string, LiveResource[]>();
  for (const kind of Object.keys(live) as ResourceKind[]) {
    for (const r of live[kind]) {
      for (const { key } of collidingKeys(kind, r)) {
        const at = `${kind}#${key.toLowerCase()}`;
        const same = byKey.get(at);
        if (same === undefined) byKey.set(at, [r]);
        else same.push(r);
      }
    }
  }
  const owned = (kind: ResourceKind, r: LiveResource) => ownerOf.get(`${kind}#${String(r.id)}`);

  // A construct without state takes a live resource only when an interrupted deploy created it
  // (its create is pending) or the construct says `adopt: true`; any other live resource with its
  // natural key is a conflict. Alert channels, which have no natural key, are found by content,
  // and only for a pending create.
  const pending = new Set(state.pendingCreates);
  const adopted = new Map<DesiredResource, LiveResource>();
  const taken = new Set<LiveResource>();
  for (const d of desired) {
    if (entryFor.has(d)) continue;
    const resuming = pending.has(stateKey(d.kind, d.logicalId));
    const natural = naturalKeyIn(KINDS[d.kind], d.payload);
    const candidates =
      natural !== undefined
        ? (byKey.get(`${d.kind}#${natural.key.toLowerCase()}`) ?? []).filter(
            (r) => naturalKeyOf(d.kind, r) === natural.key,
          )
        : resuming
          ? live[d.kind].filter((r) => isCreatedFrom(d.kind, d.payload, r))
          : [];
    const match = candidates.find((r) => !taken.has(r) && owned(d.kind, r) === undefined);
    if (match === undefined) continue;
    const owner = otherOwners.get(`${d.kind}#${String(match.id)}`);
    if (owner !== undefined && natural !== undefined) {
      conflicts.push(conflictOf('owned', d, natural, match, owner));
      continue;
    }
    if (resuming || d.options.adopt) {
      adopted.set(d, match);
      taken.add(match);
    } else if (natural !== undefined) {
      conflicts.push(conflictOf('exists', d, natural, match));
    }
  }
  const conflicted = new Set(conflicts.map((c) => stateKey(c.kind, c.logicalId)));

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

  // Physical ids back to logical ids, to name referenced resources in change paths.
  const logicalIds = new Map<string, string>();
  for (const e of Object.values(state.resources))
    logicalIds.set(`${e.kind}#${String(e.physicalId)}`, e.logicalId);
  for (const [key, id] of ids) {
    const colon = key.indexOf(':');
    logicalIds.set(`${key.slice(0, colon)}#${String(id)}`, key.slice(colon + 1));
  }
  const refName = (kind: ResourceKind, id: unknown) => logicalIds.get(`${kind}#${String(id)}`);

  for (const d of desired) {
    const key = stateKey(d.kind, d.logicalId);
    if (conflicted.has(key)) continue;
    const payload = resolveRefs(d.payload, ids) as Record<string, unknown>;
    const claim = entryFor.get(d);
    const adopt = adopted.get(d);
    const current = claim !== undefined ? liveOf(d.kind, claim.entry.physicalId) : adopt;
    // What an operation carries; made only for a resource that gets one (hashing is not free).
    const operationBase = () => {
      const name = displayNameOf(d.kind, d.payload);
      return {
        kind: d.kind,
        logicalId: d.logicalId,
        ...(name === undefined ? {} : { name }),
        construct: d.construct,
        payload,
        dependsOn: d.dependsOn,
        desiredHash: appliedHash(d.kind, d.payload, secrets),
        protect: d.options.protect,
      };
    };
    if (current === undefined) {
      operations.push({ ...operationBase(), action: 'create', recreate: claim !== undefined });
      continue;
    }
    const changes: Change[] = [];
    const secretHashes = claim?.entry.secretHashes ?? {};
    const unchangedAttributes = diffPayload(
      payload,
      current,
      {
        kind: KINDS[d.kind],
        secretUnchanged: (path, value) => {
          const hash = secrets.hash(value);
          return hash === undefined ? undefined : secretHashes[path] === hash;
        },
        refName,
      },
      changes,
    );
    unverifiedSecrets += changes.filter((c) => c.unverified === true).length;
    const action = claim?.from !== undefined ? 'move' : adopt !== undefined ? 'adopt' : 'update';
    if (action === 'update' && changes.length === 0) {
      unchanged++;
      if (claim !== undefined && claim.entry.protect !== d.options.protect)
        protectChanged.push({ key, protect: d.options.protect });
      continue;
    }
    // Drift: the code is what was last applied, yet the live values differ. Values that could not
    // be compared (no state secret) say nothing about drift.
    const base = operationBase();
    const drift =
      claim !== undefined &&
      changes.some((c) => c.unverified !== true) &&
      claim.entry.appliedHash === base.desiredHash;
    operations.push({
      ...base,
      action,
      physicalId: current.id,
      changes,
      drift,
      unchangedAttributes,
      ...(claim?.from === undefined ? {} : { from: claim.from }),
      ...(adopt !== undefined && pending.has(key) ? { resumed: true } : {}),
    });
  }

  // Deletes: only what state owns and code no longer declares; never protected resources, and
  // never a resource another entry still claims (backends refuse such a state when they read it;
  // the planner, which takes any state, still never deletes what code keeps).
  const claimedIds = new Set([...claimed.values()].map((e) => `${e.kind}#${String(e.physicalId)}`));
  const deletes: DeleteOperation[] = [];
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
    const name = displayNameOf(entry.kind, liveOf(entry.kind, entry.physicalId) ?? {});
    deletes.push({
      kind: entry.kind,
      logicalId: entry.logicalId,
      ...(name === undefined ? {} : { name }),
      action: 'delete',
      physicalId: entry.physicalId,
    });
  }

  // What a kept protected resource refers to stays too: deleting it would change the protected one
  // (the service drops the subscription to a deleted channel). Followed through references.
  const keptForProtected: Plan['keptForProtected'] = [];
  const deleteById = new Map(deletes.map((op) => [`${op.kind}#${String(op.physicalId)}`, op]));
  const keptQueue = protectedKept.map((key) => state.resources[key] as StateEntry);
  while (keptQueue.length > 0) {
    const holder = keptQueue.shift() as StateEntry;
    const resource = liveOf(holder.kind, holder.physicalId);
    if (resource === undefined) continue;
    for (const ref of liveReferences(holder.kind, resource)) {
      const op = deleteById.get(`${ref.kind}#${ref.id}`);
      if (op === undefined) continue;
      deleteById.delete(`${ref.kind}#${ref.id}`);
      const key = stateKey(op.kind, op.logicalId);
      keptForProtected.push({ key, by: stateKey(holder.kind, holder.logicalId) });
      keptQueue.push(state.resources[key] as StateEntry);
    }
  }
  const kept = new Set(keptForProtected.map((k) => k.key));
  operations.push(...deletes.filter((op) => !kept.has(stateKey(op.kind, op.logicalId))));

  // A create that needs a key a live resource holds: a rename without `aliases` when that resource
  // is being deleted, another owned resource's when it stays (either would fail with 409 or
  // duplicate), and not ours at all when no project owns it (found above by natural key; here by
  // a unique key).
  const deleting = new Map(
    operations
      .filter((op) => op.action === 'delete')
      .map((op) => [`${op.kind}#${String(op.physicalId)}`, op]),
  );
  for (const d of desired) {
    const key = stateKey(d.kind, d.logicalId);
    if (conflicted.has(key) || entryFor.has(d) || adopted.has(d)) continue;
    for (const colliding of collidingKeys(d.kind, d.payload)) {
      const holder = (byKey.get(`${d.kind}#${colliding.key.toLowerCase()}`) ?? []).find((r) => !taken.has(r));
      if (holder === undefined) continue;
      const id = `${d.kind}#${String(holder.id)}`;
      const gone = deleting.get(id);
      const owner = ownerOf.get(id);
      const other = otherOwners.get(id);
      if (gone !== undefined) conflicts.push(conflictOf('rename', d, colliding, holder, gone.logicalId));
      else if (owner !== undefined)
        conflicts.push(conflictOf('taken', d, colliding, holder, owner.logicalId));
      else if (other !== undefined) conflicts.push(conflictOf('owned', d, colliding, holder, other));
      else conflicts.push(conflictOf('exists', d, colliding, holder));
      conflicted.add(key);
      break;
    }
  }
  const placed =
    conflicts.length === 0
      ? operations
      : operations.filter((op) => !conflicted.has(stateKey(op.kind, op.logicalId)));

  const resumed = new Set(
    placed
      .filter((op) => op.action === 'create' || op.action === 'adopt')
      .map((op) => stateKey(op.kind, op.logicalId)),
  );

  return {
    formatVersion: PLAN_FORMAT_VERSION,
    mode,
    createdAt: options.now.toISOString(),
    operations: placed,
    unchanged,
    forget,
    protectedKept,
    keptForProtected,
    protectChanged,
    conflicts,
    unverifiedSecrets,
    abandonedCreates: state.pendingCreates.filter((key) => !resumed.has(key) && !conflicted.has(key)).sort(),
    summary: summarize(placed, unchanged),
    stateSerial: state.serial,
    priorState: state,
    secrets,
  };
}

function conflictOf(
  reason: Conflict['reason'],
  d: DesiredResource,
  colliding: { field: string; value: string },
  holder: LiveResource,
  holderLogicalId?: string,
): Conflict {
  const name = displayNameOf(d.kind, holder);
  return {
    reason,
    kind: d.kind,
    logicalId: d.logicalId,
    construct: d.construct,
    location: d.location,
    field: colliding.field,
    value: colliding.value,
    live: { id: holder.id, ...(name === undefined ? {} : { name }) },
    ...(holderLogicalId === undefined ? {} : { holder: holderLogicalId }),
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

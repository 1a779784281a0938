import {
  AmbiguousWriteError,
  type Client,
  KINDS,
  type ManagedResource,
  NotFoundError,
  type ResourceKind,
  type RetryPolicy,
  retryDelay,
  valuesAt,
} from '@monitor/api';
import type { SecretHasher } from '../hash.js';
import { ByPhysicalId, type PhysicalId } from '../identity.js';
import { readKind } from '../live/read-live.js';
import { recordedFieldHashes } from '../plan/causes.js';
import { type Change, diffPayload } from '../plan/diff.js';
import { identityOf, isCreatedFrom, resolveRefs, secretValues } from '../plan/resource.js';
import type {
  CreateOperation,
  DeleteOperation,
  Operation,
  ReplaceOperation,
  UpdateOperation,
} from '../plan/types.js';
import type { PendingChanges, StateChanges } from '../state/backend.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';

/** What apply needs of a client: the kinds' operations and a request count. */
export type KindClient = Pick<Client, 'managed' | 'requestCount'>;

/** What one operation works with: the client, the working state and how to record on it. */
export interface OperationContext {
  client: KindClient;
  /** The working copy of state that records are applied to. */
  state: State;
  record: (changes: StateChanges, pending?: PendingChanges) => Promise<void>;
  /** Physical ids by state key, filled in as creates finish: references resolve to them. */
  ids: Map<string, PhysicalId>;
  secrets: SecretHasher;
  /** How a write of unknown outcome is read back and tried again. */
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** What a value the service shows only once is, and where it came from. Never printed in logs or JSON. */
export interface OneTimeValue {
  /** `Kind:logicalId` of the resource. */
  key: string;
  /** The path of the value in the create response, e.g. `keys[0].rawKey`. */
  path: string;
  value: string;
}

export interface OperationOutcome {
  physicalId: PhysicalId;
  /** An ambiguous create that was found in the account instead of created again. */
  reconciled?: boolean;
  /** Values the create response alone carries (a private dashboard's key). */
  oneTimeValues?: OneTimeValue[];
}

/** Run one operation and record it in state: the only place that calls the kinds' write operations. */
export async function runOperation(op: Operation, ctx: OperationContext): Promise<OperationOutcome> {
  if (op.action === 'delete') return deleteResource(op, ctx);
  if (op.action === 'create') return createResource(op, ctx);
  if (op.action === 'replace') return replaceResource(op, ctx);
  return updateResource(op, ctx);
}

/**
 * Send a write; when its outcome is unknown (`AmbiguousWriteError`: a timeout or a 5xx after it was
 * sent), read back whether it happened (`settled`) before sending it again, by the retry policy.
 */
async function reconciled<T>(
  write: () => Promise<T>,
  settled: () => Promise<{ done: true; value: T } | { done: false }>,
  ctx: OperationContext,
): Promise<{ value: T; reconciled: boolean }> {
  for (let failures = 1; ; failures++) {
    try {
      return { value: await write(), reconciled: false };
    } catch (error) {
      if (!(error instanceof AmbiguousWriteError)) throw error;
      const after = await settled();
      if (after.done) return { value: after.value, reconciled: true };
      if (failures >= ctx.retry.attempts) throw error;
      await ctx.sleep(retryDelay(ctx.retry, failures, ctx.random));
    }
  }
}

/**
 * Delete the resource and create it again. The entry is dropped and the create marked pending in
 * one record before anything is sent: a run that dies at any point leaves either the old resource
 * (found again by the pending create, which adopts it) or the new one (found the same way).
 */
async function replaceResource(op: ReplaceOperation, ctx: OperationContext): Promise<OperationOutcome> {
  const key = stateKey(op.kind, op.logicalId);
  await ctx.record({ [key]: null }, { [key]: true });
  await deleteLive(op.kind, op.physicalId, ctx);
  return createResource({ ...op, action: 'create', recreate: true }, ctx);
}

async function createResource(op: CreateOperation, ctx: OperationContext): Promise<OperationOutcome> {
  const key = stateKey(op.kind, op.logicalId);
  const payload = resolveRefs(op.payload, ctx.ids) as Record<string, unknown>;
  // Written before the request leaves, so a run killed before the answer arrives leaves a trace the
  // next plan follows instead of creating again. A record that fails stops the create here.
  if (!ctx.state.pendingCreates.includes(key)) await ctx.record({}, { [key]: true });
  let made: { value: ManagedResource; reconciled: boolean };
  // Once one attempt's outcome is unknown, only a read that settles it may drop the pending mark:
  // a read-back that fails too leaves a resource the account may hold, which the next plan adopts.
  let outcomeUnknown = false;
  try {
    made = await reconciled<ManagedResource>(
      async () => {
        try {
          return await ctx.client.managed(op.kind).create(payload);
        } catch (error) {
          if (error instanceof AmbiguousWriteError) outcomeUnknown = true;
          throw error;
        }
      },
      async () => {
        const found = await findCreated(op, payload, ctx);
        return found === undefined ? { done: false } : { done: true, value: found };
      },
      ctx,
    );
  } catch (error) {
    // The service answered every attempt: nothing was created. (An unknown outcome stays pending for
    // the next plan.) A failure to record that is no loss: a pending create that made nothing is
    // dropped next time.
    if (!outcomeUnknown) await ctx.record({}, { [key]: false }).catch(() => {});
    throw error;
  }
  const resource = made.value;
  ctx.ids.set(key, resource.id);
  await ctx.record({ [key]: entryFor(op, resource.id, payload, resource, ctx) }, { [key]: false });
  const oneTimeValues = made.reconciled ? [] : oneTimeValuesOf(op, resource);
  return {
    physicalId: resource.id,
    ...(made.reconciled ? { reconciled: true } : {}),
    ...(oneTimeValues.length > 0 ? { oneTimeValues } : {}),
  };
}

/**
 * After an ambiguous create: the resource, if the account holds one by its natural key or content
 * that nothing else of the project's has: no state entry, and no other operation of this run.
 */
async function findCreated(
  op: CreateOperation,
  payload: Record<string, unknown>,
  ctx: OperationContext,
): Promise<ManagedResource | undefined> {
  const taken = new ByPhysicalId<true>();
  for (const e of Object.values(ctx.state.resources)) taken.set(e.kind, e.physicalId, true);
  for (const [key, id] of ctx.ids) if (key.startsWith(`${op.kind}:`)) taken.set(op.kind, id, true);
  return (await readKind(ctx.client, op.kind)).find(
    (r) => !taken.has(op.kind, r.id) && isCreatedFrom(op.kind, payload, r),
  );
}

async function updateResource(op: UpdateOperation, ctx: OperationContext): Promise<OperationOutcome> {
  const key = stateKey(op.kind, op.logicalId);
  const payload = resolveRefs(op.payload, ctx.ids) as Record<string, unknown>;
  let live: ManagedResource | undefined;
  if (op.changes.length > 0) {
    const managed = ctx.client.managed(op.kind);
    ({ value: live } = await reconciled(
      () => managed.update(op.physicalId, payload),
      async () => {
        const now = await managed.get(op.physicalId);
        return now !== undefined && holds(op, payload, now) ? { done: true, value: now } : { done: false };
      },
      ctx,
    ));
  }
  const changes: StateChanges = { [key]: entryFor(op, op.physicalId, payload, live, ctx) };
  // A move re-keys the entry in the same record, so a crash never leaves both or neither.
  if (op.action === 'move' && op.from !== undefined) changes[stateKey(op.kind, op.from)] = null;
  await ctx.record(changes, ctx.state.pendingCreates.includes(key) ? { [key]: false } : {});
  const oneTimeValues = live === undefined ? [] : oneTimeValuesOf(op, live);
  return { physicalId: op.physicalId, ...(oneTimeValues.length > 0 ? { oneTimeValues } : {}) };
}

/** Whether the live resource has every field of the payload: an update of unknown outcome happened. */
function holds(op: UpdateOperation, payload: Record<string, unknown>, live: ManagedResource): boolean {
  const changes: Change[] = [];
  // A secret the service masks cannot be read back: it counts as not yet there, and is sent again.
  diffPayload(payload, live, { kind: KINDS[op.kind], secretUnchanged: () => undefined }, changes);
  return changes.length === 0;
}

async function deleteResource(op: DeleteOperation, ctx: OperationContext): Promise<OperationOutcome> {
  await deleteLive(op.kind, op.physicalId, ctx);
  await ctx.record({ [stateKey(op.kind, op.logicalId)]: null });
  return { physicalId: op.physicalId };
}

/** Delete a live resource; gone already (404) is what a delete wants, and one of unknown outcome is read back. */
async function deleteLive(kind: ResourceKind, id: PhysicalId, ctx: OperationContext): Promise<void> {
  const managed = ctx.client.managed(kind);
  const gone = async () =>
    (await managed.get(id)) === undefined
      ? { done: true as const, value: undefined }
      : { done: false as const };
  try {
    await reconciled(() => managed.delete(id), gone, ctx);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/** The state entry of a written resource: what was applied, fingerprints of its secrets, what tells it apart. */
function entryFor(
  op: CreateOperation | UpdateOperation,
  physicalId: PhysicalId,
  payload: Record<string, unknown>,
  live: Record<string, unknown> | undefined,
  ctx: OperationContext,
): StateEntry {
  const previous = ctx.state.resources[stateKey(op.kind, op.logicalId)];
  // The service's answer knows the creation time; so does the plan's read of the live resource (an
  // adopt or move with nothing to send). The payload alone knows only the key: the last resort.
  const identity =
    (live === undefined ? undefined : identityOf(op.kind, live)) ??
    ('identity' in op ? op.identity : undefined) ??
    previous?.identity ??
    identityOf(op.kind, payload);
  return {
    kind: op.kind,
    logicalId: op.logicalId,
    physicalId,
    appliedHash: op.desiredHash,
    // Without a state secret nothing is fingerprinted: masked values are sent on every deploy.
    secretHashes: Object.fromEntries(
      Object.entries(secretValues(op.kind, payload)).flatMap(([path, value]) => {
        const hash = ctx.secrets.hash(value);
        return hash === undefined ? [] : [[path, hash]];
      }),
    ),
    protect: op.protect,
    ...(identity === undefined ? {} : { identity }),
    ...fieldHashesEntry(op, live, previous, ctx),
    ...(op.uses === undefined || op.uses.length === 0 ? {} : { uses: op.uses }),
  };
}

/**
 * What each field was: the code's hashes of the operation, the account's of its write's answer.
 * Without an answer (nothing was sent) what state had stays; without hashes, none.
 */
function fieldHashesEntry(
  op: CreateOperation | UpdateOperation,
  live: Record<string, unknown> | undefined,
  previous: StateEntry | undefined,
  ctx: OperationContext,
): Pick<StateEntry, 'fieldHashes'> {
  if (op.fieldHashes !== undefined && live !== undefined)
    return { fieldHashes: recordedFieldHashes(op.fieldHashes, op.kind, live, ctx.secrets) };
  return previous?.fieldHashes === undefined ? {} : { fieldHashes: previous.fieldHashes };
}

/** The values of the kind's one-time fields that a write's response shows whole. */
function oneTimeValuesOf(
  op: CreateOperation | UpdateOperation,
  resource: Record<string, unknown>,
): OneTimeValue[] {
  const key = stateKey(op.kind, op.logicalId);
  return (KINDS[op.kind].oneTimeValues ?? []).flatMap((field) => {
    const holderPath = field.path.includes('.') ? field.path.slice(0, field.path.lastIndexOf('.')) : '';
    const name = field.path.slice(field.path.lastIndexOf('.') + 1);
    const holders =
      holderPath === '' ? [{ path: '', value: resource as unknown }] : valuesAt(resource, holderPath);
    return holders.flatMap(({ path, value: holder }) => {
      if (holder === null || typeof holder !== 'object') return [];
      const value = (holder as Record<string, unknown>)[name];
      const masked =
        field.maskedAs === undefined ? undefined : (holder as Record<string, unknown>)[field.maskedAs];
      if (typeof value !== 'string' || value === '' || value === masked) return [];
      return [{ key, path: path === '' ? name : `${path}.${name}`, value }];
    });
  });
}

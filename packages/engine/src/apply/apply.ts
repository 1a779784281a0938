import {
  AmbiguousWriteError,
  type Client,
  isApiError,
  NotFoundError,
  RESOURCE_KINDS,
  type ResourceKind,
} from '@monitor/api';
import { readKind } from '../live.js';
import {
  type CreateOperation,
  isCreatedFrom,
  type Operation,
  type Plan,
  resolveRefs,
  secretValues,
  type UpdateOperation,
} from '../plan/plan.js';
import { copyState, type PendingChanges, type StateBackend, type StateChanges } from '../state/backend.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';

export type OperationStatus = 'done' | 'failed' | 'skipped' | 'not-started';

export interface OperationResult {
  key: string;
  action: Operation['action'];
  kind: ResourceKind;
  logicalId: string;
  status: OperationStatus;
  physicalId?: string | number;
  /** An ambiguous create that was found in the account by its natural key instead of created again. */
  reconciled?: boolean;
  /** For `failed`: what went wrong; for `skipped`: which dependency failed. */
  error?: { code: string; message: string; hint?: string };
  durationMs: number;
}

export type ApplyEvent =
  | { type: 'start'; operation: Operation; running: number }
  | { type: 'finish'; operation: Operation; result: OperationResult; done: number; total: number };

/** What apply needs of a client: the kinds' operations and a request count. */
export type KindClient = Pick<Client, 'managed' | 'requestCount'>;

export interface ApplyOptions {
  client: KindClient;
  /** Where each write is recorded as it happens; the plan's prior state is what it builds on. */
  backend: StateBackend;
  /** Operations in flight at once. @default 8 */
  parallelism?: number;
  /** Aborting lets in-flight operations finish and starts nothing new. */
  signal?: AbortSignal;
  onEvent?: (event: ApplyEvent) => void;
  /** Attempts of one create whose outcome stays unknown. @default 4 */
  createAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ApplyResult {
  /** Every operation done (forgotten entries dropped too). */
  ok: boolean;
  results: OperationResult[];
  /** The state as saved at the end. */
  state: State;
  elapsedMs: number;
  /** API calls made, retries included. */
  requests: number;
}

const operationKey = (op: Operation) => stateKey(op.kind, op.logicalId);

/**
 * Apply a plan: the only code that writes. Creates and updates run in reference order, the
 * independent ones `parallelism` at a time; deletes run after them, referrers before what they
 * refer to. State is recorded after every successful write, so a crash loses nothing. On the
 * first failure the operations in flight finish and nothing new starts.
 */
export async function apply(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const started = Date.now();
  const requestsBefore = options.client.requestCount;
  const { client, backend } = options;
  const parallelism = Math.max(1, options.parallelism ?? 8);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // The working copy the records are applied to; the plan's prior state stays as it was.
  const state = copyState(plan.priorState);
  const record = (changes: StateChanges, pending?: PendingChanges) => backend.record(state, changes, pending);
  /** Settles the pending create of `key` along with `changes`, when there is one. */
  const settled = (key: string): PendingChanges =>
    state.pendingCreates.includes(key) ? { [key]: false } : {};

  if (plan.forget.length > 0 || plan.abandonedCreates.length > 0 || plan.protectChanged.length > 0) {
    const changes: StateChanges = Object.fromEntries(plan.forget.map((key) => [key, null]));
    for (const { key, protect } of plan.protectChanged) {
      const entry = state.resources[key];
      if (entry !== undefined) changes[key] = { ...entry, protect };
    }
    await record(changes, Object.fromEntries(plan.abandonedCreates.map((key) => [key, false])));
  }

  // Physical ids of every resource the plan knows, filled in as creates finish.
  const ids = new Map<string, string | number>();
  for (const entry of Object.values(state.resources))
    ids.set(stateKey(entry.kind, entry.logicalId), entry.physicalId);
  for (const op of plan.operations) if (op.action !== 'create') ids.set(operationKey(op), op.physicalId);

  const ownedIds = () =>
    new Set(Object.values(state.resources).map((e) => `${e.kind}#${String(e.physicalId)}`));

  const entryFor = (
    op: CreateOperation | UpdateOperation,
    physicalId: string | number,
    payload: Record<string, unknown>,
  ): StateEntry => ({
    kind: op.kind,
    logicalId: op.logicalId,
    physicalId,
    appliedHash: op.desiredHash,
    // Without a state secret nothing is fingerprinted: masked values are sent on every deploy.
    secretHashes: Object.fromEntries(
      Object.entries(secretValues(op.kind, payload)).flatMap(([path, value]) => {
        const hash = plan.secrets.hash(value);
        return hash === undefined ? [] : [[path, hash]];
      }),
    ),
    protect: op.protect,
  });

  /** After an ambiguous create: the resource if the account holds it, matched by natural key or content. */
  const findCreated = async (op: CreateOperation, payload: Record<string, unknown>) => {
    const owned = ownedIds();
    return (await readKind(client, op.kind)).find(
      (r) => !owned.has(`${op.kind}#${String(r.id)}`) && isCreatedFrom(op.kind, payload, r),
    );
  };

  const create = async (op: CreateOperation, payload: Record<string, unknown>) => {
    const attempts = options.createAttempts ?? 4;
    const key = operationKey(op);
    // Written before the request leaves, so a run killed before the answer arrives leaves a trace
    // the next plan follows instead of creating again.
    if (!state.pendingCreates.includes(key)) await record({}, { [key]: true });
    for (let attempt = 1; ; attempt++) {
      try {
        return { resource: await client.managed(op.kind).create(payload), reconciled: false };
      } catch (error) {
        if (!(error instanceof AmbiguousWriteError)) {
          // The service answered: nothing was created.
          await record({}, { [key]: false });
          throw error;
        }
        const found = await findCreated(op, payload);
        if (found !== undefined) return { resource: found, reconciled: true };
        if (attempt >= attempts) throw error;
        await sleep(Math.min(8000, 250 * 2 ** attempt) * Math.random());
      }
    }
  };

  const run = async (op: Operation): Promise<Omit<OperationResult, 'durationMs' | 'status'>> => {
    const key = operationKey(op);
    const base = { key, action: op.action, kind: op.kind, logicalId: op.logicalId };
    if (op.action === 'delete') {
      try {
        await client.managed(op.kind).delete(op.physicalId);
      } catch (error) {
        // Gone already: what a delete wants.
        if (!(error instanceof NotFoundError)) throw error;
      }
      await record({ [key]: null });
      return { ...base, physicalId: op.physicalId };
    }
    const payload = resolveRefs(op.payload, ids) as Record<string, unknown>;
    if (op.action === 'create') {
      const { resource, reconciled } = await create(op, payload);
      ids.set(key, resource.id);
      await record({ [key]: entryFor(op, resource.id, payload) }, { [key]: false });
      return { ...base, physicalId: resource.id, ...(reconciled ? { reconciled } : {}) };
    }
    if (op.changes.length > 0) await client.managed(op.kind).update(op.physicalId, payload);
    const changes: StateChanges = { [key]: entryFor(op, op.physicalId, payload) };
    // A move re-keys the entry in the same journal line, so a crash never leaves both or neither.
    if (op.action === 'move' && op.from !== undefined) changes[stateKey(op.kind, op.from)] = null;
    await record(changes, settled(key));
    return { ...base, physicalId: op.physicalId };
  };

  const results = new Map<string, OperationResult>();
  let stopping = false;
  let done = 0;
  const total = plan.operations.length;

  const runGroup = async (group: Operation[]) => {
    const inGroup = new Map(group.map((op) => [operationKey(op), op]));
    const waitingOn = new Map<string, number>();
    const dependents = new Map<string, string[]>();
    const ready: Operation[] = [];
    for (const op of group) {
      const deps =
        op.action === 'delete' ? [] : op.dependsOn.filter((d) => inGroup.has(d) && d !== operationKey(op));
      waitingOn.set(operationKey(op), deps.length);
      for (const d of deps) {
        const list = dependents.get(d);
        if (list === undefined) dependents.set(d, [operationKey(op)]);
        else list.push(operationKey(op));
      }
      if (deps.length === 0) ready.push(op);
    }
    const skipDependents = (key: string, because: string) => {
      for (const k of dependents.get(key) ?? []) {
        if (results.has(k)) continue;
        const op = inGroup.get(k) as Operation;
        results.set(k, {
          key: k,
          action: op.action,
          kind: op.kind,
          logicalId: op.logicalId,
          status: 'skipped',
          error: { code: 'dependency_failed', message: `${because} did not complete` },
          durationMs: 0,
        });
        skipDependents(k, because);
      }
    };
    const running = new Set<Promise<void>>();
    const start = (op: Operation) => {
      const key = operationKey(op);
      const t0 = Date.now();
      options.onEvent?.({ type: 'start', operation: op, running: running.size + 1 });
      const p = run(op).then(
        (r) => {
          const result: OperationResult = { ...r, status: 'done', durationMs: Date.now() - t0 };
          results.set(key, result);
          for (const k of dependents.get(key) ?? []) {
            const left = (waitingOn.get(k) ?? 1) - 1;
            waitingOn.set(k, left);
            if (left === 0) ready.push(inGroup.get(k) as Operation);
          }
          options.onEvent?.({ type: 'finish', operation: op, result, done: ++done, total });
        },
        (error: unknown) => {
          stopping = true;
          const result: OperationResult = {
            key,
            action: op.action,
            kind: op.kind,
            logicalId: op.logicalId,
            status: 'failed',
            ...(op.action === 'create' ? {} : { physicalId: op.physicalId }),
            error: describeError(error),
            durationMs: Date.now() - t0,
          };
          results.set(key, result);
          skipDependents(key, key);
          options.onEvent?.({ type: 'finish', operation: op, result, done: ++done, total });
        },
      );
      const tracked = p.finally(() => running.delete(tracked));
      running.add(tracked);
    };
    for (;;) {
      while (
        !stopping &&
        options.signal?.aborted !== true &&
        running.size < parallelism &&
        ready.length > 0
      ) {
        start(ready.shift() as Operation);
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
  };

  // Creates and updates first, in reference order; then deletes, one kind at a time, referrers first.
  const writes = plan.operations.filter((op) => op.action !== 'delete');
  const groups: Operation[][] = [writes];
  for (const kind of [...RESOURCE_KINDS].reverse()) {
    const deletes = plan.operations.filter((op) => op.action === 'delete' && op.kind === kind);
    if (deletes.length > 0) groups.push(deletes);
  }
  for (const group of groups) {
    if (stopping || options.signal?.aborted === true) break;
    await runGroup(group);
  }

  const ordered = plan.operations.map(
    (op): OperationResult =>
      results.get(operationKey(op)) ?? {
        key: operationKey(op),
        action: op.action,
        kind: op.kind,
        logicalId: op.logicalId,
        status: 'not-started',
        durationMs: 0,
      },
  );
  return {
    ok: ordered.every((r) => r.status === 'done'),
    results: ordered,
    state: await backend.commit(state),
    elapsedMs: Date.now() - started,
    requests: client.requestCount - requestsBefore,
  };
}

function describeError(error: unknown): { code: string; message: string; hint?: string } {
  if (isApiError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { code: 'internal', message: e.message };
}

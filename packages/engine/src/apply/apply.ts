import { setTimeout as wait } from 'node:timers/promises';
import { DEFAULT_RETRY_POLICY, isApiError, type ResourceKind, type RetryPolicy } from '@monitor/api';
import type { PhysicalId } from '../identity.js';
import type { Operation, Plan } from '../plan/types.js';
import { copyState, type StateBackend, type StateChanges } from '../state/backend.js';
import { type State, stateKey } from '../state/state.js';
import {
  type KindClient,
  type OneTimeValue,
  type OperationContext,
  type OperationOutcome,
  runOperation,
} from './operations.js';
import { runScheduled, type Schedule, type TaskOutcome } from './scheduler.js';

export type { KindClient, OneTimeValue } from './operations.js';

export type OperationStatus = 'done' | 'failed' | 'skipped' | 'not-started';

export interface ErrorSummary {
  code: string;
  message: string;
  hint?: string;
}

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
  error?: ErrorSummary;
  durationMs: number;
}

export type ApplyEvent =
  | { type: 'start'; operation: Operation; running: number }
  | { type: 'finish'; operation: Operation; result: OperationResult; done: number; total: number };

export interface ApplyOptions {
  client: KindClient;
  /** Where each write is recorded as it happens; the plan's prior state is what it builds on. */
  backend: StateBackend;
  /** The service the state belongs to (`State.service`), recorded with the first write. */
  service?: string | undefined;
  /** Operations in flight at once. @default 8 */
  parallelism?: number;
  /** Aborting lets in-flight operations finish and starts nothing new. */
  signal?: AbortSignal | undefined;
  onEvent?: ((event: ApplyEvent) => void) | undefined;
  /** How a write of unknown outcome is read back and tried again. @default the client's, else DEFAULT_RETRY_POLICY */
  retry?: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** What the state should say of this run besides its entries (`lastDeploy`), from how it ended. */
  annotate?: (results: readonly OperationResult[]) => Pick<State, 'lastDeploy'>;
}

export interface ApplyResult {
  /** Every operation done (forgotten entries dropped too), and the state saved. */
  ok: boolean;
  results: OperationResult[];
  /** The state as saved at the end (or as recorded, when saving it failed: see `stateError`). */
  state: State;
  /**
   * Saving the state at the end failed (a full disk, a lost database): every write was recorded as
   * it happened, and the next run continues from there.
   */
  stateError?: ErrorSummary;
  /**
   * Values the service showed once (a private dashboard's key), for the caller to hand to the
   * person: never in a log, `--json` or state.
   */
  oneTimeValues: OneTimeValue[];
  elapsedMs: number;
  /** API calls made, retries included. */
  requests: number;
}

/**
 * Apply a plan: the only code that writes. Creates and updates run in reference order, the
 * independent ones `parallelism` at a time; deletes run after them, referrers before what they
 * refer to, and only when every write succeeded. State is recorded around every write, so a crash
 * loses nothing. On the first failure the operations in flight finish and nothing new starts.
 */
export async function apply(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const started = Date.now();
  const requestsBefore = options.client.requestCount;
  // The working copy the records are applied to; the plan's prior state stays as it was.
  const state = copyState(plan.priorState);
  if (options.service !== undefined) state.service = options.service;
  const ctx = operationContext(plan, state, options);
  await recordHousekeeping(plan, ctx);

  let done = 0;
  const total = plan.operations.length;
  const results = new Map<string, OperationResult>();
  const schedule = (operations: Operation[]): Promise<Schedule<OperationOutcome>> =>
    runScheduled(
      operations.map((operation) => ({ key: keyOf(operation), dependsOn: operation.dependsOn, operation })),
      (task) => runOperation(task.operation, ctx),
      {
        parallelism: options.parallelism ?? 8,
        stopOnFailure: true,
        signal: options.signal,
        onStart: (task, running) => options.onEvent?.({ type: 'start', operation: task.operation, running }),
        onFinish: (task, outcome) => {
          const result = resultOf(task.operation, outcome);
          results.set(task.key, result);
          options.onEvent?.({ type: 'finish', operation: task.operation, result, done: ++done, total });
        },
      },
    );
  const writes = await schedule(plan.operations.filter((op) => op.action !== 'delete'));
  const deletes = plan.operations.filter((op) => op.action === 'delete');
  const oneTimeValues = [...writes.outcomes.values()].flatMap((o) =>
    o.status === 'done' ? (o.value.oneTimeValues ?? []) : [],
  );
  if (!writes.failed && options.signal?.aborted !== true) await schedule(deletes);

  const ordered = plan.operations.map(
    (op) => results.get(keyOf(op)) ?? resultOf(op, { status: 'not-started' }),
  );
  const saved = await commitOrKeep(options.backend, { ...state, ...options.annotate?.(ordered) });
  return {
    ok: ordered.every((r) => r.status === 'done') && saved.error === undefined,
    results: ordered,
    state: saved.state,
    ...(saved.error === undefined ? {} : { stateError: saved.error }),
    oneTimeValues,
    elapsedMs: Date.now() - started,
    requests: options.client.requestCount - requestsBefore,
  };
}

const keyOf = (op: Operation) => stateKey(op.kind, op.logicalId);

function operationContext(plan: Plan, state: State, options: ApplyOptions): OperationContext {
  const ids = new Map<string, PhysicalId>();
  for (const entry of Object.values(state.resources))
    ids.set(stateKey(entry.kind, entry.logicalId), entry.physicalId);
  // A replaced resource's new id is filled in when it is made again.
  for (const op of plan.operations)
    if (op.action !== 'create' && op.action !== 'replace') ids.set(keyOf(op), op.physicalId);
  const clientPolicy = (options.client as { retryPolicy?: RetryPolicy }).retryPolicy;
  return {
    client: options.client,
    state,
    record: (changes, pending) => options.backend.record(state, changes, pending),
    ids,
    secrets: plan.secrets,
    retry: options.retry ?? clientPolicy ?? DEFAULT_RETRY_POLICY,
    sleep: options.sleep ?? ((ms) => wait(ms)),
    random: options.random ?? Math.random,
  };
}

/** What the plan settles in state without a call: forgotten entries, abandoned creates, protect flags, uses. */
async function recordHousekeeping(plan: Plan, ctx: OperationContext): Promise<void> {
  const usesChanged = plan.usesChanged ?? [];
  if (
    plan.forget.length === 0 &&
    plan.abandonedCreates.length === 0 &&
    plan.protectChanged.length === 0 &&
    usesChanged.length === 0
  )
    return;
  const changes: StateChanges = Object.fromEntries(plan.forget.map((key) => [key, null]));
  for (const { key, protect } of plan.protectChanged) {
    const entry = ctx.state.resources[key];
    if (entry !== undefined) changes[key] = { ...entry, protect };
  }
  for (const { key, uses } of usesChanged) {
    const entry = changes[key] ?? ctx.state.resources[key];
    if (entry === undefined || entry === null) continue;
    const { uses: _recorded, ...rest } = entry;
    changes[key] = uses.length === 0 ? rest : { ...rest, uses };
  }
  await ctx.record(changes, Object.fromEntries(plan.abandonedCreates.map((key) => [key, false])));
}

function resultOf(op: Operation, outcome: TaskOutcome<OperationOutcome>): OperationResult {
  // Added to with `Object.assign`, not spread: see `operationBase` in plan/compare.ts.
  const base = { key: keyOf(op), action: op.action, kind: op.kind, logicalId: op.logicalId };
  switch (outcome.status) {
    case 'done':
      return Object.assign(base, {
        status: 'done' as const,
        physicalId: outcome.value.physicalId,
        ...(outcome.value.reconciled === true ? { reconciled: true } : {}),
        durationMs: outcome.durationMs,
      });
    case 'failed':
      return Object.assign(base, {
        status: 'failed' as const,
        ...(op.action === 'create' ? {} : { physicalId: op.physicalId }),
        error: describeError(outcome.error),
        durationMs: outcome.durationMs,
      });
    case 'skipped':
      return Object.assign(base, {
        status: 'skipped' as const,
        error: { code: 'dependency_failed', message: `${outcome.because} did not complete` },
        durationMs: 0,
      });
    case 'not-started':
      return Object.assign(base, { status: 'not-started' as const, durationMs: 0 });
  }
}

/** Save the state whole; when that fails, what was recorded stands, and the failure is reported. */
async function commitOrKeep(
  backend: StateBackend,
  state: State,
): Promise<{ state: State; error?: ErrorSummary }> {
  try {
    return { state: await backend.commit(state) };
  } catch (error) {
    return { state, error: describeError(error) };
  }
}

function describeError(error: unknown): ErrorSummary {
  if (isApiError(error) || isCodedEngineError(error)) {
    const { code, message, hint } = error as { code: string; message: string; hint?: string };
    return { code, message, ...(hint === undefined ? {} : { hint }) };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { code: 'internal', message: e.message };
}

/** A coded error of the engine (state storage, say): its code and hint are for people. */
function isCodedEngineError(error: unknown): boolean {
  return (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[a-z_]+$/.test((error as unknown as { code: string }).code)
  );
}

import type { Client } from '@monitor/api';
import { type ApplyEvent, type ApplyResult, apply } from '../apply/apply.js';
import type { ByPhysicalId } from '../identity.js';
import { readLive } from '../live/read-live.js';
import type { LoadedProject } from '../load/load.js';
import { type Live, type Plan, type PlanMode, plan } from '../plan/plan.js';
import { checkSavedPlan, type SavedPlan, savePlan } from '../plan/saved-plan.js';
import { hasChanges } from '../render/render.js';
import type { StateBackend } from '../state/backend.js';
import type { LockHolder } from '../state/lock.js';
import type { State } from '../state/state.js';

/** What a flow works on: a loaded project, an account's client and its state backend. */
export interface Target {
  project: LoadedProject;
  client: Client;
  accountId: string;
  backend: StateBackend;
  /** The key of the hashes of sensitive values in state (`MONITOR_STATE_SECRET`); never stored. */
  secretKey?: string | undefined;
}

/** Progress of a deploy or destroy, as it happens. */
export type FlowEvent =
  | { type: 'lock-wait'; holder: LockHolder | undefined; timeoutMs: number }
  | { type: 'locked' }
  | { type: 'planned'; plan: Plan }
  | ApplyEvent;

/** What a plan is made of besides the code: state, the live account, and what other projects own. */
export interface AccountSnapshot {
  state: State;
  live: Live;
  /** Resources other projects own (→ the project), when the state backend is shared. */
  otherOwners: ByPhysicalId<string> | undefined;
  /** API calls the read made. */
  requests: number;
}

/**
 * Read state, the live account and the other projects' ownership, all at once. Needs no project:
 * `diff` can be handed it started while the construct files still load.
 */
export async function readAccount({
  client,
  backend,
}: Pick<Target, 'client' | 'backend'>): Promise<AccountSnapshot> {
  const before = client.requestCount;
  const [state, live, otherOwners] = await Promise.all([
    backend.read(),
    readLive(client),
    backend.owners?.(),
  ]);
  return { state, live, otherOwners, requests: client.requestCount - before };
}

export interface DiffOptions {
  /** @default new Date() */
  now?: Date;
  /**
   * The account as `readAccount` read it for this target, started early (diff takes no lock, so
   * reading before the project has loaded changes nothing). @default read now
   */
  snapshot?: Promise<AccountSnapshot>;
}

export interface DiffResult {
  plan: Plan;
  /** The plan as `deploy --plan` takes it, with fingerprints of the live resources it touches. */
  saved: SavedPlan;
  /** API calls the diff made. */
  requests: number;
}

/** Read state and the live account, and plan: what a deploy would change. Reads only; takes no lock. */
export async function diff(target: Target, options: DiffOptions = {}): Promise<DiffResult> {
  const snapshot = options.snapshot ?? readAccount(target);
  const { plan: made, live } = await makePlan(target, 'apply', options.now ?? new Date(), false, snapshot);
  return {
    plan: made,
    saved: savePlan(made, live, {
      accountId: target.accountId,
      projectName: target.project.config.projectName,
    }),
    requests: (await snapshot).requests,
  };
}

/**
 * The answer to "apply this plan?": the caller asks a person or checks its flags. A refusal says
 * why, and with `hint` what would make it go through.
 */
export type Consent = { approved: true } | { approved: false; reason: string; hint?: string };

export interface ApplyFlowOptions {
  /** What holds the lock, e.g. `monitor deploy`. */
  command: string;
  /** Asked once, with the plan, when it changes anything. */
  confirm: (plan: Plan) => Promise<Consent>;
  /** @default 0 */
  lockTimeoutMs?: number;
  parallelism?: number;
  /** Aborting lets in-flight operations finish and starts nothing new. */
  signal?: AbortSignal;
  onEvent?: (event: FlowEvent) => void;
  /** @default new Date() */
  now?: Date;
}

/**
 * How a deploy or destroy ended. Only `applied` wrote anything. `conflicts`: constructs that cannot
 * be placed (`plan.conflicts`), so nothing was asked or done.
 */
export type ApplyOutcome =
  | { status: 'no-changes'; plan: Plan }
  | { status: 'stale'; plan: Plan; stale: string[] }
  | { status: 'conflicts'; plan: Plan }
  | { status: 'refused'; plan: Plan; reason: string; hint?: string }
  | { status: 'applied'; plan: Plan; result: ApplyResult };

export interface DeployOptions extends ApplyFlowOptions {
  /** Apply exactly this plan from `diff`; `stale` when the account, the code or state moved since. */
  savedPlan?: SavedPlan;
  /**
   * Let a project that declares nothing delete what it owns. Without it, such a plan is refused:
   * an empty project is far more often a wrong `include` or a broken checkout than an intent.
   * @default false
   */
  allowEmpty?: boolean;
}

/** Make the account match the code: lock, read, plan, ask, apply, commit. */
export function deploy(target: Target, options: DeployOptions): Promise<ApplyOutcome> {
  return withLock(target, options, async () => {
    const { plan: fresh, live } = await makePlan(target, 'apply', options.now ?? new Date());
    if (fresh.conflicts.length > 0) {
      options.onEvent?.({ type: 'planned', plan: fresh });
      return { status: 'conflicts', plan: fresh };
    }
    const deletes = fresh.operations.filter((op) => op.action === 'delete').length;
    if (target.project.resources.length === 0 && deletes > 0 && options.allowEmpty !== true) {
      options.onEvent?.({ type: 'planned', plan: fresh });
      return {
        status: 'refused',
        plan: fresh,
        reason: `the project declares no resources, and the plan would delete all ${deletes} it owns`,
        hint: 'check the include globs in the config; to delete everything on purpose, use monitor destroy, or deploy with --allow-empty',
      };
    }
    if (options.savedPlan === undefined) return confirmAndApply(target, fresh, options);
    const checked = checkSavedPlan(options.savedPlan, fresh, live);
    if (checked.stale.length > 0) return { status: 'stale', plan: fresh, stale: checked.stale };
    return confirmAndApply(target, checked.plan, options);
  });
}

export interface DestroyOptions extends ApplyFlowOptions {
  /** Delete `protect: true` resources too. @default false */
  forceProtected?: boolean;
}

/** Delete every resource the project owns, referrers first: a plan in destroy mode. */
export function destroy(target: Target, options: DestroyOptions): Promise<ApplyOutcome> {
  return withLock(target, options, async () => {
    const { plan: made } = await makePlan(
      target,
      'destroy',
      options.now ?? new Date(),
      options.forceProtected === true,
    );
    return confirmAndApply(target, made, options);
  });
}

async function makePlan(
  target: Target,
  mode: PlanMode,
  now: Date,
  forceProtected = false,
  snapshot: Promise<AccountSnapshot> = readAccount(target),
): Promise<{ plan: Plan; live: Live }> {
  const { state, live, otherOwners } = await snapshot;
  return {
    plan: plan(target.project.resources, live, state, {
      now,
      mode,
      forceProtected,
      secretKey: target.secretKey,
      ...(otherOwners === undefined ? {} : { otherOwners }),
    }),
    live,
  };
}

async function withLock(
  target: Target,
  options: ApplyFlowOptions,
  body: () => Promise<ApplyOutcome>,
): Promise<ApplyOutcome> {
  const timeoutMs = options.lockTimeoutMs ?? 0;
  const release = await target.backend.lock({
    command: options.command,
    timeoutMs,
    onWait: (holder) => options.onEvent?.({ type: 'lock-wait', holder, timeoutMs }),
  });
  try {
    options.onEvent?.({ type: 'locked' });
    return await body();
  } finally {
    await release();
  }
}

async function confirmAndApply(target: Target, made: Plan, options: ApplyFlowOptions): Promise<ApplyOutcome> {
  options.onEvent?.({ type: 'planned', plan: made });
  if (!hasChanges(made)) return { status: 'no-changes', plan: made };
  const consent = await options.confirm(made);
  if (!consent.approved) {
    const { reason, hint } = consent;
    return { status: 'refused', plan: made, reason, ...(hint === undefined ? {} : { hint }) };
  }
  const result = await apply(made, {
    client: target.client,
    backend: target.backend,
    ...(options.parallelism === undefined ? {} : { parallelism: options.parallelism }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  return { status: 'applied', plan: made, result };
}

import type { Diagnostic } from '@monitor/constructs';
import type { ApplyResult } from '../apply/apply.js';
import { type ApplyEvent, type ApplyOptions, apply } from '../apply/apply.js';
import { deletionCount, hasWork } from '../plan/queries.js';
import { checkSavedPlan, type SavedPlan, scopeOf } from '../plan/saved-plan.js';
import type { Plan } from '../plan/types.js';
import { blockingFindings } from '../policy/run.js';
import {
  type Baseline,
  EMPTY_BASELINE,
  groupsChangedBy,
  keptBaseline,
  ownedGroups,
  readBaseline,
  withChanges,
} from '../verify/baseline.js';
import type { CheckRun, GroupToVerify, VerificationReport } from '../verify/report.js';
import { makePlan, type Scope } from './diff.js';
import { type LockEvent, lockedFlow } from './locked.js';
import type { Target } from './target.js';
import { verifyGroups } from './verify.js';

/** Progress of a deploy or destroy, as it happens. */
export type FlowEvent = LockEvent | { type: 'locked' } | { type: 'planned'; plan: Plan } | ApplyEvent;

/**
 * The answer to "apply this plan?": the caller asks a person or checks its flags. A refusal says
 * why, and with `hint` what would make it go through.
 */
export type Consent = { approved: true } | { approved: false; reason: string; hint?: string };

/** What a run that asks no one was allowed to do: apply at all, and delete. */
export interface StandingConsent {
  apply: boolean;
  deletes: boolean;
}

/** What a standing consent lacked for a plan: `apply` (it was not given), `deletes` (the plan deletes). */
export type MissingConsent = 'apply' | 'deletes';

/**
 * The consent of a run that asks no one (CI): approved when it was allowed to apply, and, when the
 * plan deletes anything, to delete; otherwise refused, naming what was missing for `describe` to
 * turn into a reason and a hint (the CLI names its flags there).
 */
export function standingConsent(
  allowed: StandingConsent,
  describe: (missing: MissingConsent[], plan: Plan) => { reason: string; hint?: string },
): (plan: Plan) => Promise<Consent> {
  return async (plan) => {
    const missing: MissingConsent[] = [];
    if (!allowed.apply) missing.push('apply');
    if (deletionCount(plan) > 0 && !allowed.deletes) missing.push('deletes');
    if (missing.length === 0) return { approved: true };
    const { reason, hint } = describe(missing, plan);
    return { approved: false, reason, ...(hint === undefined ? {} : { hint }) };
  };
}

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
  /**
   * Delete (or replace) resources that other projects' constructs reference, leaving their
   * references unresolved; without it such a delete is a `referenced` conflict. @default false
   */
  forceOrphan?: boolean;
}

/**
 * How a deploy or destroy ended. Only `applied` wrote anything. `conflicts`: constructs that cannot
 * be placed (`plan.conflicts`), so nothing was asked or done; `policy-errors`: policy findings of
 * severity `error` (`plan.findings`), likewise.
 */
export type ApplyOutcome =
  | {
      status: 'no-changes';
      plan: Plan;
      /** With `verify`: nothing to verify, or with `all` every group of the project. */
      verification?: VerificationReport;
    }
  | { status: 'stale'; plan: Plan; stale: string[] }
  | { status: 'conflicts'; plan: Plan }
  | { status: 'policy-errors'; plan: Plan; errors: Diagnostic[] }
  | { status: 'refused'; plan: Plan; reason: string; hint?: string }
  | {
      status: 'applied';
      plan: Plan;
      result: ApplyResult;
      /** With `verify`: the checks the deploy touched, run after it (absent when it did not complete). */
      verification?: VerificationReport;
    };

/** `deploy --verify`: run the checks the deploy touched, after it, against how they stood before. */
export interface DeployVerification {
  /** Every check group of the project, not only those the deploy touched. @default false */
  all?: boolean;
  strict?: boolean;
  rca?: boolean;
  /** How long runs and analyses may take, from the end of the apply. */
  timeoutMs: number;
  /** Reading the baseline, triggering, each run as it ends. */
  onEvent?: (event: VerifyEvent) => void;
}

export type VerifyEvent =
  | { type: 'verify-start'; groups: GroupToVerify[] }
  | { type: 'verify-run'; run: CheckRun };

export interface DeployOptions extends ApplyFlowOptions, Scope {
  /** Run the checks the deploy touched once it is applied (the deploy is never rolled back). */
  verify?: DeployVerification;
  /** Apply exactly this plan from `diff`; `stale` when the account, the code or state moved since. */
  savedPlan?: SavedPlan;
  /**
   * Let a project that declares nothing delete what it owns. Without it, such a plan is refused:
   * an empty project is far more often a wrong `include` or a broken checkout than an intent.
   * @default false
   */
  allowEmpty?: boolean;
}

/**
 * Make the account match the code: lock, read, plan, ask, apply, commit; with `verify`, then run
 * the checks the deploy touched (the lock is released first: a wait for runs blocks no one).
 */
export async function deploy(target: Target, options: DeployOptions): Promise<ApplyOutcome> {
  let baseline: Baseline | undefined;
  const hooks = (plan: Plan): ApplyHooks => {
    let at = '';
    return {
      // How the checks stood before anything changed: what tells "broke with this deploy" apart.
      beforeApply: async () => {
        at = new Date().toISOString();
        if (options.verify !== undefined) baseline = await readBaseline(target.client);
      },
      annotate: (results) => {
        const changed = groupsChangedBy(plan, results);
        // Kept with the deploy's record, so that `verify --since-deploy` judges against it too
        // when this verification never ends (a cancelled CI job).
        const ids = changed.map((g) => g.id);
        const kept = baseline === undefined ? {} : { baseline: keptBaseline(baseline, ids) };
        return { lastDeploy: { at, groups: changed.map((g) => g.key), ...kept } };
      },
    };
  };
  const outcome = await withLock(target, options, async () => {
    // A saved plan is applied with the targets and replacements it was made with.
    const scope = options.savedPlan === undefined ? options : scopeOf(options.savedPlan);
    const { plan: fresh, live } = await makePlan(target, 'apply', options.now ?? new Date(), {
      scope,
      forceOrphan: options.forceOrphan === true,
    });
    if (fresh.conflicts.length > 0) {
      options.onEvent?.({ type: 'planned', plan: fresh });
      return { status: 'conflicts', plan: fresh };
    }
    const errors = blockingFindings(fresh.findings);
    if (errors.length > 0) {
      options.onEvent?.({ type: 'planned', plan: fresh });
      return { status: 'policy-errors', plan: fresh, errors };
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
    if (options.savedPlan === undefined) return confirmAndApply(target, fresh, options, hooks(fresh));
    const checked = checkSavedPlan(options.savedPlan, fresh, live);
    if (checked.stale.length > 0) return { status: 'stale', plan: fresh, stale: checked.stale };
    return confirmAndApply(target, checked.plan, options, hooks(checked.plan));
  });
  const verify = options.verify;
  if (verify === undefined) return outcome;
  if (outcome.status === 'no-changes') {
    // Nothing changed, so nothing the deploy did can be verified; `all` still runs every group.
    const groups = verify.all === true ? ownedGroups(await target.backend.read()) : [];
    const before = groups.length === 0 ? EMPTY_BASELINE : await readBaseline(target.client);
    return { ...outcome, verification: await runVerification(target, groups, before, verify, options) };
  }
  if (outcome.status !== 'applied' || !outcome.result.ok || baseline === undefined) return outcome;
  const changed = groupsChangedBy(outcome.plan, outcome.result.results);
  const groups = verify.all === true ? withChanges(ownedGroups(outcome.result.state), changed) : changed;
  return { ...outcome, verification: await runVerification(target, groups, baseline, verify, options) };
}

function runVerification(
  target: Target,
  groups: GroupToVerify[],
  baseline: Baseline,
  verify: DeployVerification,
  options: ApplyFlowOptions,
): Promise<VerificationReport> {
  verify.onEvent?.({ type: 'verify-start', groups });
  return verifyGroups(target.client, groups, {
    deadline: Date.now() + verify.timeoutMs,
    baseline,
    strict: verify.strict === true,
    rca: verify.rca === true,
    signal: options.signal,
    onRun: (run) => verify.onEvent?.({ type: 'verify-run', run }),
  });
}

export interface DestroyOptions extends ApplyFlowOptions {
  /** Delete `protect: true` resources too. @default false */
  forceProtected?: boolean;
}

/** Delete every resource the project owns, referrers first: a plan in destroy mode. */
export function destroy(target: Target, options: DestroyOptions): Promise<ApplyOutcome> {
  return withLock(target, options, async () => {
    const { plan: made } = await makePlan(target, 'destroy', options.now ?? new Date(), {
      forceProtected: options.forceProtected === true,
      forceOrphan: options.forceOrphan === true,
    });
    // What other projects reference is never destroyed under them, unless --force-orphan.
    if (made.conflicts.length > 0) {
      options.onEvent?.({ type: 'planned', plan: made });
      return { status: 'conflicts', plan: made };
    }
    // What the last deploy changed is gone with what it owned.
    return confirmAndApply(target, made, options, { annotate: () => ({ lastDeploy: undefined }) });
  });
}

function withLock(target: Target, options: ApplyFlowOptions, body: () => Promise<ApplyOutcome>) {
  return lockedFlow(target.backend, options, async () => {
    options.onEvent?.({ type: 'locked' });
    return body();
  });
}

/** What a flow adds around the apply: work once consent is given, and what the state should say of the run. */
interface ApplyHooks {
  beforeApply?: () => Promise<void>;
  annotate?: ApplyOptions['annotate'];
}

async function confirmAndApply(
  target: Target,
  made: Plan,
  options: ApplyFlowOptions,
  hooks: ApplyHooks = {},
): Promise<ApplyOutcome> {
  options.onEvent?.({ type: 'planned', plan: made });
  // Secrets that could not be compared are sent again even when nothing else changed: no rotation is missed.
  if (!hasWork(made)) return { status: 'no-changes', plan: made };
  const consent = await options.confirm(made);
  if (!consent.approved) {
    const { reason, hint } = consent;
    return { status: 'refused', plan: made, reason, ...(hint === undefined ? {} : { hint }) };
  }
  await hooks.beforeApply?.();
  const result = await apply(made, {
    ...(hooks.annotate === undefined ? {} : { annotate: hooks.annotate }),
    client: target.client,
    backend: target.backend,
    service: target.service,
    ...(options.parallelism === undefined ? {} : { parallelism: options.parallelism }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  return { status: 'applied', plan: made, result };
}

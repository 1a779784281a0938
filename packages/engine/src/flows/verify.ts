import type { CheckSession, Client } from '@monitor/api';
import { TargetError } from '../plan/errors.js';
import { resolveIds } from '../plan/targets.js';
import type { LastDeploy } from '../state/state.js';
import { type Baseline, baselineFromKept, ownedGroups, readBaseline } from '../verify/baseline.js';
import { analyseNewErrorGroups, attachErrorGroups } from '../verify/error-groups.js';
import { type FailureRead, failureOf, isFailedResult } from '../verify/failures.js';
import type { CheckRun, GroupToVerify, VerificationReport } from '../verify/report.js';
import { emptySummary, failedRuns, isNewLocation, verdictOf } from '../verify/verdict.js';
import { NothingToVerifyError } from './errors.js';
import { checkService, type Target } from './target.js';
import { checksOfGroups, triggerChecks, waitForSessions } from './trigger.js';

/**
 * Verification after a deploy: run the checks of the check groups the deploy touched in a way that
 * can change a run, wait for them, and tell what broke with this deploy from what was failing
 * before, with the error group of each failure and, on request, its root cause analysis. The
 * deploy is never rolled back: verification reports. The decisions are `verify/`'s: the baseline
 * and the groups to run (`baseline.ts`), each run's verdict (`verdict.ts`), its failures
 * (`failures.ts`) and their error groups (`error-groups.ts`); this runs them in order.
 */

export interface VerifyOptions {
  /** When to stop waiting (epoch ms): runs, then analyses. */
  deadline: number;
  baseline: Baseline;
  /** Fail on any failure or degradation, not only on what broke with this deploy. @default false */
  strict?: boolean;
  /** @default 'deploy' */
  context?: VerificationReport['context'];
  /** Ask for a root cause analysis of each new error group, and wait for it. @default false */
  rca?: boolean;
  signal?: AbortSignal | undefined;
  /** Each run as it ends. */
  onRun?: (run: CheckRun) => void;
  /** Check results read in detail at most (one request each). @default 20 */
  maxDetails?: number;
}

/** Run the checks of `groups`, wait, and report each run against the baseline. */
export async function verifyGroups(
  client: Client,
  groups: readonly GroupToVerify[],
  options: VerifyOptions,
): Promise<VerificationReport> {
  const started = Date.now();
  // A deactivated check was turned off on purpose, and a heartbeat is not run: neither is verified.
  const checksByGroup = await checksOfGroups(
    client,
    groups.map((g) => g.id),
    (check) => check.activated !== false && check.checkType !== 'HEARTBEAT',
  );
  const withChecks = groups.filter((g) => (checksByGroup.get(g.id) ?? []).length > 0);
  const report: VerificationReport = {
    groups: groups.map((g) => ({ ...g, checks: checksByGroup.get(g.id)?.length ?? 0 })),
    runs: [],
    running: [],
    outcome: 'nothing',
    strict: options.strict === true,
    context: options.context ?? 'deploy',
    summary: { ...emptySummary(), running: 0 },
    baselineAt: options.baseline.at,
    elapsedMs: 0,
  };
  if (withChecks.length === 0) return { ...report, elapsedMs: Date.now() - started };

  const groupOfCheck = new Map<string, GroupToVerify>();
  for (const g of withChecks) for (const id of checksByGroup.get(g.id) ?? []) groupOfCheck.set(id, g);
  const sessions = await triggerChecks(client, { checkIds: [...groupOfCheck.keys()] });
  const waited = await waitForSessions(
    client,
    sessions.map((s) => s.checkSessionId),
    { deadline: options.deadline, signal: options.signal },
  );
  // After Ctrl-C nothing more is read: what finished is reported as the sessions said it.
  const details = { left: waited.interrupted ? 0 : (options.maxDetails ?? 20) };
  for (const session of waited.finished) {
    const groupKey = groupOfCheck.get(session.checkId)?.key ?? '';
    report.runs.push(await runOf(client, session, groupKey, details));
  }
  if (!waited.interrupted) await attachErrorGroups(client, report.runs, options.baseline);
  for (const run of report.runs) {
    judge(run, options.baseline);
    report.summary[run.verdict]++;
    options.onRun?.(run);
  }
  const names = new Map(sessions.map((s) => [s.checkSessionId, s]));
  report.running = waited.running.map((id) => ({
    sessionId: id,
    name: names.get(id)?.name ?? id,
    groupKey: groupOfCheck.get(names.get(id)?.checkId ?? '')?.key ?? '',
  }));
  report.summary.running = report.running.length;
  if (!waited.interrupted && options.rca === true) await analyseNewErrorGroups(client, report.runs, options);
  report.outcome = outcomeOf(report, waited.interrupted);
  report.elapsedMs = Date.now() - started;
  return report;
}

function outcomeOf(report: VerificationReport, interrupted: boolean): VerificationReport['outcome'] {
  if (interrupted) return 'interrupted';
  if (report.running.length > 0) return 'timeout';
  return failedRuns(report.runs, report.strict).length > 0 ? 'failed' : 'passed';
}

/** A run as the session tells it, with its failed locations read (the verdict comes once error groups are known). */
async function runOf(
  client: Client,
  session: CheckSession,
  groupKey: string,
  details: { left: number },
): Promise<CheckRun> {
  const failures: FailureRead[] = [];
  if (session.status !== 'PASSED') {
    for (const result of session.results) {
      if (isFailedResult(result)) failures.push(await failureOf(client, session.checkId, result, details));
    }
  }
  return {
    checkId: session.checkId,
    name: session.name,
    groupKey,
    sessionId: session.checkSessionId,
    sessionLink: session.checkSessionLink,
    checkType: session.checkType,
    locations: session.runLocations,
    elapsedMs: session.timeElapsed,
    status: session.status,
    verdict: 'passed',
    failures,
  };
}

/** The run's verdict against how its check stood before, and which of its failed locations are new. */
function judge(run: CheckRun, baseline: Baseline): void {
  const before = baseline.checks.get(run.checkId);
  for (const failure of run.failures) if (isNewLocation(failure.location, before)) failure.newLocation = true;
  run.verdict = verdictOf({ status: run.status, before, failures: run.failures });
}

export interface VerifyProjectOptions extends Omit<VerifyOptions, 'deadline' | 'baseline' | 'context'> {
  /** Only these check groups (a logical id or `CheckGroup:logicalId`, as `--target` takes them). */
  targets?: readonly string[];
  /**
   * The groups the last deploy changed, against how their checks stood before it (kept with its
   * record by `deploy --verify`), or else their status now and error groups new since it.
   */
  sinceDeploy?: boolean;
  timeoutMs: number;
  /** Once the groups are known, before anything runs. */
  onStart?: (groups: GroupToVerify[]) => void;
}

/**
 * `monitor verify`: the verification of a deploy without deploying (after a rollback, on a
 * schedule). The check groups the project owns, or those named, or those the last deploy changed;
 * a run is measured against the checks' results before it, or before the deploy (`sinceDeploy`).
 */
export async function verifyProject(
  target: Target,
  options: VerifyProjectOptions,
): Promise<VerificationReport & { lastDeploy?: LastDeploy }> {
  const state = checkService(await target.backend.read(), target.service, target.backend.location);
  let only: Set<string> | undefined;
  if (options.targets !== undefined && options.targets.length > 0) {
    only = new Set(resolveIds(options.targets, target.project.resources, state, '--target'));
    for (const key of only) {
      const kind = key.slice(0, key.indexOf(':'));
      if (kind !== 'CheckGroup')
        throw new TargetError(
          `--target ${key} is a ${kind}: verify runs the checks of check groups`,
          'name a check group; monitor state list shows what the project owns',
        );
      if (state.resources[key] === undefined)
        throw new TargetError(
          `--target ${key} is not deployed yet: there is nothing of it to run`,
          'deploy it first',
        );
    }
  }
  const { lastDeploy } = state;
  if (options.sinceDeploy === true) {
    if (lastDeploy === undefined)
      throw new NothingToVerifyError(
        `the state at ${target.backend.location} records no deploy yet`,
        'deploy with monitor deploy, or verify every group with monitor verify',
      );
    const since = new Set(lastDeploy.groups);
    only = new Set([...(only ?? since)].filter((key) => since.has(key)));
  }
  const groups = ownedGroups(state, only);
  options.onStart?.(groups);
  const since = options.sinceDeploy === true ? lastDeploy : undefined;
  // A verified deploy kept how its groups' checks stood before it: the same verdicts as its own
  // verification, also when that one never finished. Else: the checks now, and error groups new since it.
  const baseline =
    since?.baseline === undefined
      ? await readBaseline(target.client, since?.at)
      : baselineFromKept(since.baseline, since.at);
  const report = await verifyGroups(target.client, groups, {
    ...options,
    deadline: Date.now() + options.timeoutMs,
    baseline,
    context: 'verify',
  });
  return {
    ...report,
    ...(since === undefined ? {} : { lastDeploy: { at: since.at, groups: since.groups } }),
  };
}

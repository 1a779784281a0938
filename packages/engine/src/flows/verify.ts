import { type CheckSession, type Client, collect, KINDS, pause } from '@monitor/api';
import type { OperationResult } from '../apply/apply.js';
import { EngineError } from '../errors.js';
import { resolveIds, TargetError } from '../plan/targets.js';
import type { Plan } from '../plan/types.js';
import { type LastDeploy, stateKey } from '../state/state.js';
import { checkService, type Target } from './target.js';
import { checksOfGroups, triggerChecks, waitForSessions } from './trigger.js';

/**
 * Verification after a deploy: run the checks of the check groups the deploy touched in a way that
 * can change a run, wait for them, and tell what broke with this deploy from what was failing
 * before, with the error group of each failure and, on request, its root cause analysis. The
 * deploy is never rolled back: verification reports.
 */

/** A check group to verify, and why. */
export interface GroupToVerify {
  key: string;
  logicalId: string;
  id: number;
  name?: string;
  reason: 'created' | 'changed' | 'replaced' | 'selected';
}

/** What the account said before the deploy: failing checks and known error groups. */
export interface Baseline {
  failing: ReadonlySet<string>;
  degraded: ReadonlySet<string>;
  /** The error groups there were: any other is new. */
  errorGroups: ReadonlySet<string>;
  /** Instead of `errorGroups`: an error group first seen at or after this time (ISO 8601) is new. */
  newSince?: string;
}

/** How a check ran after the deploy, against how it stood before. */
export type Verdict = 'passed' | 'fixed' | 'degraded' | 'broke' | 'still-failing';

export interface RootCause {
  id: string;
  status: 'completed' | 'pending' | 'failed';
  classification?: string;
  rootCause?: string;
  userImpact?: string;
  /** Why it is not there: still pending at the deadline, or the request failed. */
  note?: string;
}

export interface Failure {
  location: string;
  resultId: string;
  link?: string;
  /** The assertion or error the run reported. */
  error: string;
  errorGroup?: { id: string; message: string; new: boolean; rootCause?: RootCause };
}

export interface CheckRun {
  checkId: string;
  name: string;
  groupKey: string;
  sessionId: string;
  sessionLink: string;
  checkType: string;
  locations: string[];
  /** How long the session took (ms). */
  elapsedMs: number;
  status: string;
  verdict: Verdict;
  failures: Failure[];
}

export interface VerificationReport {
  groups: (GroupToVerify & { checks: number })[];
  runs: CheckRun[];
  /** Sessions still running at the deadline, or when interrupted. */
  running: { sessionId: string; name: string; groupKey: string }[];
  outcome: 'passed' | 'failed' | 'timeout' | 'interrupted' | 'nothing';
  strict: boolean;
  /** After a deploy (`deploy --verify`), or on its own (`monitor verify`): what a verdict is measured against. */
  context: 'deploy' | 'verify';
  summary: Record<Verdict, number> & { running: number };
  elapsedMs: number;
}

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

/** The check groups a deploy created, replaced, or changed in a field that affects runs (`runFields`). */
export function groupsChangedBy(plan: Plan, results: readonly OperationResult[]): GroupToVerify[] {
  const done = new Map(results.filter((r) => r.status === 'done').map((r) => [r.key, r]));
  const runFields = new Set(KINDS.CheckGroup.runFields ?? []);
  const out: GroupToVerify[] = [];
  for (const op of plan.operations) {
    if (op.kind !== 'CheckGroup' || op.action === 'delete') continue;
    const key = stateKey(op.kind, op.logicalId);
    const r = done.get(key);
    if (r?.physicalId === undefined) continue;
    const reason =
      op.action === 'create'
        ? 'created'
        : op.action === 'replace'
          ? 'replaced'
          : op.changes.some((c) => runFields.has(c.path.split(/[.[]/)[0] as string))
            ? 'changed'
            : undefined;
    if (reason === undefined) continue;
    out.push({
      key,
      logicalId: op.logicalId,
      id: Number(r.physicalId),
      ...(op.name === undefined ? {} : { name: op.name }),
      reason,
    });
  }
  return out;
}

/** Every check group the project owns, by its state: what `--verify all` and `monitor verify` run. */
export function ownedGroups(
  state: { resources: Record<string, { kind: string; logicalId: string; physicalId: string | number }> },
  only?: ReadonlySet<string>,
): GroupToVerify[] {
  return Object.values(state.resources)
    .filter(
      (e) => e.kind === 'CheckGroup' && (only === undefined || only.has(stateKey('CheckGroup', e.logicalId))),
    )
    .map((e) => ({
      key: stateKey('CheckGroup', e.logicalId),
      logicalId: e.logicalId,
      id: Number(e.physicalId),
      reason: 'selected' as const,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * The failing and degraded checks, and the error groups, as they are now: read before a deploy.
 * With `newSince`, error groups are told new by when they were first seen, and not listed.
 */
export async function readBaseline(
  client: Pick<Client, 'checks' | 'errorGroups'>,
  newSince?: string,
): Promise<Baseline> {
  const [failing, degraded, groups] = await Promise.all([
    collect(client.checks.all({ status: 'failing' })),
    collect(client.checks.all({ status: 'degraded' })),
    newSince === undefined ? collect(client.errorGroups.all()) : [],
  ]);
  return {
    failing: new Set(failing.map((c) => c.id)),
    degraded: new Set(degraded.map((c) => c.id)),
    errorGroups: new Set(groups.map((g) => g.id)),
    ...(newSince === undefined ? {} : { newSince }),
  };
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
    summary: { passed: 0, fixed: 0, degraded: 0, broke: 0, 'still-failing': 0, running: 0 },
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
    const run = await runOf(client, session, groupOfCheck.get(session.checkId)?.key ?? '', options, details);
    report.runs.push(run);
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
  if (!waited.interrupted) await attachErrorGroups(client, report.runs, options);
  report.outcome = waited.interrupted
    ? 'interrupted'
    : report.running.length > 0
      ? 'timeout'
      : failedRuns(report.runs, report.strict).length > 0
        ? 'failed'
        : 'passed';
  report.elapsedMs = Date.now() - started;
  return report;
}

/** The runs that fail verification: what broke with the deploy, or with `strict` any failure or degradation. */
export function failedRuns(runs: readonly CheckRun[], strict: boolean): CheckRun[] {
  return runs.filter((r) =>
    strict
      ? r.verdict === 'broke' || r.verdict === 'still-failing' || r.verdict === 'degraded'
      : r.verdict === 'broke',
  );
}

async function runOf(
  client: Client,
  session: CheckSession,
  groupKey: string,
  options: VerifyOptions,
  details: { left: number },
): Promise<CheckRun> {
  const failingBefore = options.baseline.failing.has(session.checkId);
  const verdict: Verdict =
    session.status === 'PASSED'
      ? failingBefore
        ? 'fixed'
        : 'passed'
      : session.status === 'DEGRADED'
        ? 'degraded'
        : failingBefore
          ? 'still-failing'
          : 'broke';
  const failures: Failure[] = [];
  if (verdict !== 'passed' && verdict !== 'fixed') {
    for (const result of session.results) {
      if (!(result.hasFailures || result.hasErrors || result.isDegraded)) continue;
      if (result.resultType !== undefined && result.resultType !== 'FINAL') continue;
      failures.push(await failureOf(client, session.checkId, result, details));
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
    verdict,
    failures,
  };
}

/** One failed result: its location, and the assertion or error, read in detail while the budget lasts. */
async function failureOf(
  client: Client,
  checkId: string,
  result: CheckSession['results'][number],
  details: { left: number },
): Promise<Failure & { errorGroupIds?: string[] }> {
  const base = {
    location: result.runLocation,
    resultId: result.checkResultId,
    ...(result.checkResultLink === undefined ? {} : { link: result.checkResultLink }),
  };
  const fallback =
    result.isDegraded && !result.hasFailures ? 'degraded' : result.hasErrors ? 'error' : 'failed';
  if (details.left <= 0) return { ...base, error: fallback };
  details.left--;
  const full = (await client.checkResults.get(checkId, result.checkResultId).catch(() => undefined)) as
    | Record<string, unknown>
    | undefined;
  const error = full === undefined ? fallback : (errorOf(full) ?? fallback);
  const errorGroupIds = Array.isArray(full?.errorGroupIds) ? (full.errorGroupIds as string[]) : [];
  return { ...base, error, errorGroupIds };
}

/** The error a result reports: a request error, a failed assertion, or the first error of a script. */
function errorOf(result: Record<string, unknown>): string | undefined {
  const api = result.apiCheckResult as Record<string, unknown> | null | undefined;
  if (api !== null && api !== undefined) {
    if (typeof api.requestError === 'string' && api.requestError !== '') return api.requestError;
    const failed = (Array.isArray(api.assertions) ? api.assertions : []).find(
      (a) => (a as { passed?: unknown }).passed === false,
    ) as Record<string, unknown> | undefined;
    if (failed !== undefined) {
      return `assertion ${String(failed.source ?? '')} ${String(failed.comparison ?? '')} ${String(failed.target ?? '')} failed${failed.actual === undefined ? '' : `, got ${JSON.stringify(failed.actual)}`}`.replace(
        / +/g,
        ' ',
      );
    }
  }
  for (const field of ['browserCheckResult', 'multiStepCheckResult', 'playwrightCheckResult']) {
    const script = result[field] as { errors?: unknown[] } | null | undefined;
    const first = script?.errors?.[0];
    if (first !== undefined) return typeof first === 'string' ? first : JSON.stringify(first);
  }
  return undefined;
}

/**
 * The error group of each failure, marked new when the baseline did not have it; with `rca`, an
 * analysis of each new group, waited for until the deadline.
 */
async function attachErrorGroups(client: Client, runs: CheckRun[], options: VerifyOptions): Promise<void> {
  const wanted = new Set(
    runs.flatMap((r) => r.failures.flatMap((f) => (f as { errorGroupIds?: string[] }).errorGroupIds ?? [])),
  );
  if (wanted.size === 0) return;
  const groups = new Map((await collect(client.errorGroups.all())).map((g) => [g.id, g]));
  const analyses = new Map<string, Promise<RootCause>>();
  for (const run of runs) {
    for (const failure of run.failures as (Failure & { errorGroupIds?: string[] })[]) {
      const id = failure.errorGroupIds?.[0];
      delete failure.errorGroupIds;
      const group = id === undefined ? undefined : groups.get(id);
      if (group === undefined) continue;
      const { newSince } = options.baseline;
      const isNew =
        newSince === undefined
          ? !options.baseline.errorGroups.has(group.id)
          : firstSeenSince(group.firstSeen, newSince);
      if (isNew && options.rca === true && !analyses.has(group.id))
        analyses.set(group.id, analyse(client, group.id, options));
      failure.errorGroup = { id: group.id, message: group.cleanedErrorMessage, new: isNew };
    }
  }
  for (const run of runs) {
    for (const failure of run.failures) {
      const analysis = failure.errorGroup === undefined ? undefined : analyses.get(failure.errorGroup.id);
      if (analysis !== undefined && failure.errorGroup !== undefined)
        failure.errorGroup.rootCause = await analysis;
    }
  }
}

/**
 * An error group first seen at or after `since`. The service may send `firstSeen` as a date
 * (api-addendum: dates or date-times, compared as instants); a date alone is compared by day, so a
 * group first seen on the day of `since` counts as new.
 */
export function firstSeenSince(firstSeen: string, since: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(firstSeen)) return firstSeen >= new Date(since).toISOString().slice(0, 10);
  return Date.parse(firstSeen) >= Date.parse(since);
}

/** Ask for a root cause analysis of an error group and wait for it until the deadline. */
async function analyse(client: Client, errorGroupId: string, options: VerifyOptions): Promise<RootCause> {
  let id: string;
  try {
    ({ id } = await client.rootCauseAnalyses.generate({ errorGroupId }));
  } catch (error) {
    return { id: '', status: 'failed', note: (error as Error).message };
  }
  for (;;) {
    const result = await client.rootCauseAnalyses.get(id).catch(() => undefined);
    if (result !== undefined && result.status === 'COMPLETED') {
      const analysis = (
        result as { analysis?: { classification?: string; rootCause?: string; userImpact?: string } }
      ).analysis;
      return {
        id,
        status: 'completed',
        ...(analysis?.classification === undefined ? {} : { classification: analysis.classification }),
        ...(analysis?.rootCause === undefined ? {} : { rootCause: analysis.rootCause }),
        ...(analysis?.userImpact === undefined ? {} : { userImpact: analysis.userImpact }),
      };
    }
    const left = options.deadline - Date.now();
    if (left <= 0 || options.signal?.aborted === true)
      return { id, status: 'pending', note: 'still being generated at the verification deadline' };
    await pause(Math.min(2_000, left), options.signal);
  }
}

/** `monitor verify` found nothing to verify by what it was asked. */
export class NothingToVerifyError extends EngineError {
  static override readonly code = 'nothing_to_verify';
  override readonly name = 'NothingToVerifyError';
}

export interface VerifyProjectOptions extends Omit<VerifyOptions, 'deadline' | 'baseline' | 'context'> {
  /** Only these check groups (a logical id or `CheckGroup:logicalId`, as `--target` takes them). */
  targets?: readonly string[];
  /** The groups the last deploy changed, and error groups new since it. */
  sinceDeploy?: boolean;
  timeoutMs: number;
  /** Once the groups are known, before anything runs. */
  onStart?: (groups: GroupToVerify[]) => void;
}

/**
 * `monitor verify`: the verification of a deploy without deploying (after a rollback, on a
 * schedule). The check groups the project owns, or those named, or those the last deploy changed;
 * a run is measured against the checks' results before it.
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
  const baseline = await readBaseline(
    target.client,
    options.sinceDeploy === true ? lastDeploy?.at : undefined,
  );
  const report = await verifyGroups(target.client, groups, {
    ...options,
    deadline: Date.now() + options.timeoutMs,
    baseline,
    context: 'verify',
  });
  return { ...report, ...(options.sinceDeploy === true && lastDeploy !== undefined ? { lastDeploy } : {}) };
}

import {
  ACTION_SYMBOL,
  type ApplyFlowOptions,
  type ApplyOutcome,
  type ApplyResult,
  type Consent,
  type DeployVerification,
  deletionCount,
  describeHolder,
  type FlowEvent,
  type LostState,
  lostState,
  lostStateCandidate,
  type Operation,
  type OperationResult,
  type Plan,
  planToPrintedJson,
  renderApplyMarkdown,
  renderPlanText,
  standingConsent,
  type Target,
  type VerificationReport,
} from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import { EXIT, type ExitCode } from './exit-codes.js';
import { CLEAR_LINE, type Io, type Paint, paint } from './io.js';
import { staleLockNotice } from './lock-notice.js';
import { type LostStateWhere, lostStateMarkdown, reportLostState, stateWhere } from './lost-state-ui.js';
import { handOver } from './one-time-values.js';
import { type ApplyArgs, type CommentArgs, commandLine, type ProjectArgs } from './options.js';
import type { RunContext } from './output.js';
import {
  type ConnectedProject,
  headerLine,
  loadAndConnect,
  recordFindings,
  reportConflicts,
  reportPolicyErrors,
} from './project.js';
import { DEFAULT_VERIFY_SECONDS, type DeployVerifyArgs } from './verify-options.js';
import { reportingContext, reportVerification, verifyProgress } from './verify-ui.js';
import { planFacts } from './workspace-summary.js';

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Consent to a plan: a prompt on a terminal (only "yes" counts); otherwise `--yes`, and for
 * deletes `--allow-deletes`, or a refusal that says what is missing.
 */
export function consent(command: string, args: ApplyArgs & ProjectArgs, io: Io, accountId: string) {
  return async (plan: Plan): Promise<Consent> => {
    const p = paint(io.color);
    const deletes = deletionCount(plan);
    if (!io.interactive || args.yes === true) {
      const flagOf = { apply: '--yes', deletes: '--allow-deletes' } as const;
      return standingConsent(
        { apply: args.yes === true, deletes: args.allowDeletes === true },
        (missing) => ({
          reason: `refused: this is a non-interactive run and it needs ${missing
            .map((m) =>
              m === 'apply'
                ? '--yes to apply it'
                : `--allow-deletes, because it deletes ${deletes} resource${deletes === 1 ? '' : 's'}`,
            )
            .join(' and ')}. Nothing was changed.`,
          hint: `review the plan above, then run ${commandLine(args, command, ...missing.map((m) => flagOf[m]))}`,
        }),
      )(plan);
    }
    const question = `\nApply these changes to account ${accountId}${deletes > 0 ? p.red(` (${deletes} DELETE${deletes === 1 ? '' : 'S'})`) : ''}? Only "yes" is accepted: `;
    const answer = await io.prompt?.(question);
    if (answer?.trim() === 'yes') return { approved: true };
    return {
      approved: false,
      reason: `Cancelled${answer === undefined ? ' (no answer)' : ''}: nothing was changed. Run ${commandLine(args, command)} again to apply.`,
    };
  };
}

/** Live progress on a terminal, one line per operation otherwise; both on stderr. */
export function progressReporter({ io, out }: RunContext, header: () => string) {
  const p = paint(io.color);
  const started = Date.now();
  let total = 0;
  let lastLine = '';
  let held: string | undefined;
  return {
    /** The plan held back as a candidate for a lost state: printed when it is not one. */
    release(lost: LostState | undefined) {
      if (held !== undefined && lost === undefined) io.stdout(held);
      held = undefined;
    },
    onEvent(event: FlowEvent) {
      if (event.type === 'lock-stale') {
        io.stderr(staleLockNotice(event.removed));
        return;
      }
      if (event.type === 'lock-wait') {
        io.stderr(
          `Waiting up to ${Math.round(event.timeoutMs / 1000)} s for the state lock held by ${escapeTerminal(describeHolder(event.holder))}\n`,
        );
        return;
      }
      if (event.type === 'locked') {
        if (!out.json) io.stdout(p.dim(header()));
        return;
      }
      if (event.type === 'planned') {
        total = event.plan.operations.length;
        if (out.json) return;
        const text = renderPlanText(event.plan, p, { cwd: io.cwd });
        // A plan made without the project's state is not worth reading: held until that is known.
        if (lostStateCandidate(event.plan) === undefined) io.stdout(text);
        else held = text;
        return;
      }
      if (event.type !== 'finish') return;
      const { result } = event;
      const id = result.physicalId === undefined ? '' : ` (id ${String(result.physicalId)})`;
      const what = escapeTerminal(`${ACTION_SYMBOL[result.action]} ${result.kind} ${result.logicalId}${id}`);
      const error = escapeTerminal(result.error?.message ?? '');
      if (io.interactive) {
        const rate = event.done / Math.max(0.001, (Date.now() - started) / 1000);
        lastLine = `[${event.done}/${total}] ${rate.toFixed(1)} ops/s  ${what}`;
        io.stderr(`${CLEAR_LINE}${lastLine}`);
        if (result.status === 'failed') io.stderr(`\n${p.red('✗')} ${what}: ${error}\n`);
        return;
      }
      const mark =
        result.status === 'done' ? p.green('✓') : result.status === 'failed' ? p.red('✗') : p.yellow('·');
      const detail =
        result.status === 'done'
          ? `${result.durationMs} ms${result.reconciled ? ', found after an ambiguous create' : ''}`
          : `${result.status}: ${error}`;
      io.stderr(`${mark} ${what}  ${p.dim(detail)}\n`);
    },
    end() {
      // The live line only says how far the apply got: the result says the rest, once.
      if (io.interactive && lastLine !== '') io.stderr(CLEAR_LINE);
      lastLine = '';
    },
  };
}

function resultLine(r: OperationResult, p: Paint): string[] {
  const id = r.physicalId === undefined ? '' : ` (id ${String(r.physicalId)})`;
  const status =
    r.status === 'done'
      ? p.green('done       ')
      : r.status === 'failed'
        ? p.red('failed     ')
        : r.status === 'skipped'
          ? p.yellow('skipped    ')
          : p.dim('not started');
  const lines = [
    `  ${status}  ${escapeTerminal(`${ACTION_SYMBOL[r.action]} ${r.kind} ${r.logicalId}${id}`)}`,
  ];
  if (r.error !== undefined) {
    lines.push(`               ${escapeTerminal(r.error.message)}`);
    if (r.error.hint !== undefined) lines.push(p.dim(`               hint: ${escapeTerminal(r.error.hint)}`));
  }
  return lines;
}

function reportResult(result: ApplyResult, io: Io, p: Paint): void {
  const count = (action: Operation['action']) =>
    result.results.filter((r) => r.status === 'done' && r.action === action).length;
  const totals = `${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('adopt')} adopted, ${count('move')} moved${count('replace') > 0 ? `, ${count('replace')} replaced` : ''}`;
  if (result.results.every((r) => r.status === 'done')) {
    io.stdout(
      `${p.green('✓')} Applied in ${seconds(result.elapsedMs)}: ${totals}; ${result.requests} API call${result.requests === 1 ? '' : 's'}.\n`,
    );
    if (result.stateError !== undefined) reportStateError(result.stateError, io, p);
    return;
  }
  const shown =
    result.results.length <= 50 ? result.results : result.results.filter((r) => r.status !== 'done');
  io.stdout(
    `\n${p.bold('Results:')}${shown.length < result.results.length ? p.dim(' (done operations not listed)') : ''}\n`,
  );
  for (const r of shown) io.stdout(`${resultLine(r, p).join('\n')}\n`);
  const by = (s: OperationResult['status']) => result.results.filter((r) => r.status === s).length;
  io.stdout(
    `${p.red('✗')} Stopped after ${seconds(result.elapsedMs)}: ${by('failed')} failed, ${by('done')} done (${totals}), ${by('skipped')} skipped, ${by('not-started')} not started; ${result.requests} API calls.\n`,
  );
  if (result.stateError !== undefined) reportStateError(result.stateError, io, p);
  io.stdout(p.dim('State holds everything that was done: run the same command again to continue.\n'));
}

/** The state could not be saved at the end: what was recorded as it happened still stands. */
function reportStateError(error: NonNullable<ApplyResult['stateError']>, io: Io, p: Paint): void {
  io.stdout(`${p.red('✗')} Saving the state at the end failed: ${escapeTerminal(error.message)}\n`);
  if (error.hint !== undefined) io.stdout(p.dim(`hint: ${escapeTerminal(error.hint)}\n`));
}

/** Report how a deploy or destroy ended, in text or in the output; its exit code. */
export function finish(
  command: string,
  outcome: ApplyOutcome,
  { io, out }: RunContext,
  args: ProjectArgs & { secretsOut?: string | undefined },
  savedPlanPath?: string,
  projectDir = io.cwd,
  lost?: { state: LostState; where: LostStateWhere },
): ExitCode {
  const p = paint(io.color);
  // Only `--json` prints it: a plan of 30,000 creates is tens of MB as JSON.
  out.planFacts = planFacts(outcome.plan);
  if (out.json) out.plan = planToPrintedJson(outcome.plan);
  if (lost === undefined) recordFindings(outcome.plan, { io, out });
  switch (outcome.status) {
    case 'no-changes':
      out.result = { status: outcome.status, applied: false };
      return EXIT.ok;
    case 'stale': {
      const message = `the saved plan ${savedPlanPath ?? ''} is stale; nothing was changed`;
      const path = savedPlanPath ?? 'plan.json';
      const hint = `make a new one with ${commandLine(args, 'diff', '--out', path)}, review it, then ${commandLine(args, 'deploy', '--plan', path)}`;
      out.result = { status: outcome.status, applied: false };
      out.error = { code: 'stale_plan', message, hint, details: outcome.stale };
      if (!out.json) {
        io.stderr(
          `${p.red('error')}: ${escapeTerminal(message)}:\n${outcome.stale.map((s) => `  - ${escapeTerminal(s)}`).join('\n')}\n${p.dim('hint')}: ${hint}\n`,
        );
      }
      return EXIT.stalePlan;
    }
    case 'conflicts': {
      out.result = { status: outcome.status, applied: false };
      if (lost !== undefined) return reportLostState(lost.state, lost.where, { io, out });
      return reportConflicts(outcome.plan, { io, out });
    }
    case 'policy-errors': {
      out.result = { status: outcome.status, applied: false };
      return reportPolicyErrors(outcome.plan, { io, out });
    }
    case 'refused': {
      const { reason, hint } = outcome;
      out.result = { status: outcome.status, applied: false };
      out.error = { code: 'refused', message: reason, ...(hint === undefined ? {} : { hint }) };
      if (!out.json) {
        // A declined prompt is the person's own answer; a refusal by missing flags is an error with a way out.
        if (hint === undefined) io.stderr(`${escapeTerminal(reason)}\n`);
        else
          io.stderr(
            `${p.red('error')}: ${escapeTerminal(reason)}\n${p.dim('hint')}: ${escapeTerminal(hint)}\n`,
          );
      }
      return EXIT.refused;
    }
    case 'applied': {
      const { result } = outcome;
      out.result = {
        status: outcome.status,
        applied: true,
        ok: result.ok,
        elapsedMs: result.elapsedMs,
        requests: result.requests,
        results: result.results,
      };
      const failed = result.results.find((r) => r.status === 'failed');
      if (failed !== undefined || result.stateError === undefined) {
        if (!result.ok) {
          out.error = {
            code: failed?.error?.code ?? 'apply_failed',
            message: `${command} stopped: ${failed === undefined ? 'interrupted' : `${failed.key}: ${failed.error?.message ?? ''}`}`,
            hint: 'state holds everything that was done: run the same command again to continue',
          };
        }
      } else {
        out.error = {
          code: result.stateError.code,
          message: `${command} applied every operation, but saving the state failed: ${result.stateError.message}`,
          hint: `every write was recorded as it happened; ${result.stateError.hint ?? 'fix the cause and run the same command again: it continues from there'}`,
        };
      }
      if (!out.json) reportResult(result, io, p);
      // Written before anything else can fail: the service never shows these again.
      const oneTime = handOver(result.oneTimeValues, { io, out }, { file: args.secretsOut, projectDir });
      if (oneTime.length > 0) out.result.oneTimeValues = oneTime;
      return result.ok ? EXIT.ok : EXIT.error;
    }
  }
}

/**
 * What deploy and destroy share: load the project, connect, hand the engine flow its consent,
 * progress and Ctrl-C, report how it ended, and with `--comment` post that to the pull request.
 */
export async function runApplyCommand(
  command: 'deploy' | 'destroy',
  args: ProjectArgs & ApplyArgs & CommentArgs & DeployVerifyArgs,
  given: RunContext,
  flow: (
    target: Target,
    options: ApplyFlowOptions,
    verify: DeployVerification | undefined,
  ) => Promise<ApplyOutcome>,
  savedPlanPath?: string,
): Promise<ExitCode> {
  const { ctx, xml: xmlOut } = reportingContext(args.reporter, given);
  const connected = await loadAndConnect(args, ctx);
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  const note = savedPlanPath === undefined ? '' : `, saved plan ${savedPlanPath}`;
  const progress = progressReporter(ctx, () => headerLine(command, project, connection, note));
  let verifying = false;
  const trap = ctx.io.trapInterrupts?.(() =>
    verifying
      ? 'stopping the wait for the checks; the deploy stays applied, the sessions go on in the service'
      : 'finishing the operations in flight, starting nothing new',
  );
  const verify = deployVerification(args, ctx, () => {
    verifying = true;
    // The apply is over: its live line goes before the verification says anything.
    progress.end();
  });
  const ask = consent(command, args, ctx.io, connection.accountId);
  let outcome: ApplyOutcome;
  let lost: LostState | undefined;
  try {
    outcome = await flow(
      connection.target,
      {
        command: `monitor ${command}`,
        confirm: async (plan) => {
          const answer = await ask(plan);
          if (answer.approved) given.io.holdLessGarbage?.();
          return answer;
        },
        lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
        ...(args.forceOrphan === true ? { forceOrphan: true } : {}),
        ...(args.parallelism === undefined ? {} : { parallelism: args.parallelism }),
        ...(trap === undefined ? {} : { signal: trap.signal }),
        onEvent: (e) => progress.onEvent(e),
      },
      verify,
    );
    progress.end();
    if (outcome.status === 'conflicts') lost = await lostState(outcome.plan, connection.target);
    progress.release(lost);
    // The long polls in flight would hold the exit for up to 20 s.
    if (verificationOf(outcome)?.outcome === 'interrupted') await connection.target.client.destroy();
  } finally {
    trap?.release();
    await connection.close();
  }
  const where = stateWhere(
    project.config.projectName,
    connection.accountId,
    connection.target.backend.location,
    ctx.io.cwd,
  );
  let code = finish(
    command,
    outcome,
    ctx,
    args,
    savedPlanPath,
    project.projectDir,
    lost && { state: lost, where },
  );
  const verification = verificationOf(outcome);
  if (verification !== undefined && code === EXIT.ok) {
    code = reportVerification(verification, args, ctx, xmlOut);
  }
  if (args.comment !== true) return code;
  return postResultComment(command, outcome, lost, connected, args, ctx, code);
}

/**
 * What `--verify` asks of the deploy flow, or undefined without it; `onStart` is told when the
 * first verification event comes (Ctrl-C then stops the wait, not the apply).
 */
function deployVerification(
  args: DeployVerifyArgs,
  ctx: RunContext,
  onStart: () => void,
): DeployVerification | undefined {
  if (args.verify === undefined) return undefined;
  const showVerify = verifyProgress(ctx);
  return {
    all: args.verify.all,
    strict: args.verify.strict,
    rca: args.rca === true,
    timeoutMs: (args.verifyTimeout ?? DEFAULT_VERIFY_SECONDS) * 1000,
    onEvent: (event) => {
      onStart();
      showVerify(event);
    },
  };
}

/** `--comment`: how the deploy or destroy ended, as a comment on the pull request. */
async function postResultComment(
  command: 'deploy' | 'destroy',
  outcome: ApplyOutcome,
  lost: LostState | undefined,
  { project, connection }: Pick<ConnectedProject, 'project' | 'connection'>,
  args: CommentArgs,
  ctx: RunContext,
  code: ExitCode,
): Promise<ExitCode> {
  const { postComment } = await import('./comment-ui.js');
  const options = {
    project: project.config.projectName,
    environment: project.config.environment,
    account: connection.accountId,
    local: connection.local,
  };
  return postComment(
    {
      purpose: 'result',
      ...options,
      // A deploy that had nothing to do (or verify) does not start a comment on every merged pull request.
      createIfMissing: outcome.status !== 'no-changes' || (verificationOf(outcome)?.runs.length ?? 0) > 0,
      render: (maxLength) =>
        lost !== undefined
          ? lostStateMarkdown(lost, connection.accountId, command)
          : renderApplyMarkdown(outcome, { ...options, command, maxLength }),
    },
    args,
    ctx,
    code,
  );
}

function verificationOf(outcome: ApplyOutcome): VerificationReport | undefined {
  return outcome.status === 'applied' || outcome.status === 'no-changes' ? outcome.verification : undefined;
}

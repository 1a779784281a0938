import type { GroupToVerify, VerificationReport, VerifyEvent } from '@monitor/engine';
import {
  failsVerification,
  renderVerificationMarkdown,
  renderVerificationText,
  verdictMark,
  verificationSummary,
} from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import { EXIT, type ExitCode } from './exit-codes.js';
import { paint } from './io.js';
import { commandLine } from './options.js';
import type { RunContext } from './output.js';
import { type JunitCase, junitDocument } from './session-report.js';
import { writeStepSummary } from './session-ui.js';
import { DEFAULT_VERIFY_SECONDS, type VerifyReportArgs } from './verify-options.js';

/**
 * Verification in the CLI, for `deploy --verify` and `monitor verify`: the options, progress on
 * stderr, the report in text, JUnit or a GitHub job summary, and the exit code.
 */

/**
 * The context a verification's command writes to: with `--reporter junit` the XML alone goes to
 * stdout (`xml`), and everything for people to stderr.
 */
export function reportingContext(
  reporter: VerifyReportArgs['reporter'],
  given: RunContext,
): { ctx: RunContext; xml: (text: string) => void } {
  const xml = given.io.stdout;
  if (reporter !== 'junit') return { ctx: given, xml };
  return { ctx: { ...given, io: { ...given.io, stdout: given.io.stderr } }, xml };
}

/** Progress of a verification on stderr: what runs, then each run as it ends. */
export function verifyProgress({ io, out }: RunContext): (event: VerifyEvent) => void {
  const p = paint(io.color);
  return (event) => {
    if (out.json) return;
    if (event.type === 'verify-start') {
      if (event.groups.length === 0) return;
      const names = event.groups.map((g) => g.logicalId).join(', ');
      io.stderr(
        `\n${p.bold('Verifying')} ${event.groups.length} check group${event.groups.length === 1 ? '' : 's'} (${escapeTerminal(names)}): running their checks…\n`,
      );
      return;
    }
    const { run } = event;
    const mark = verdictMark(run.verdict);
    const paintMark = mark === '✗' ? p.red : mark === '!' ? p.yellow : p.green;
    io.stderr(`${paintMark(mark)} ${escapeTerminal(`${run.name}: ${run.status.toLowerCase()}`)}\n`);
  };
}

/**
 * The re-run of the groups concerned, named (past ten of them, every group the project owns). After
 * a deploy, or a run since it, it is `--since-deploy`: judged against the baseline the deploy kept,
 * what broke with it is still reported so, not as "still failing" against the checks as they are now.
 */
function rerunCommand(report: VerificationReport, args: VerifyReportArgs, groups: GroupToVerify[]): string {
  const targets = groups.length > 10 ? [] : groups.flatMap((g) => ['--target', g.logicalId]);
  const since =
    report.context === 'deploy'
      ? groups.length > 0 && groups.every((g) => g.reason !== 'selected')
      : (args as { sinceDeploy?: boolean }).sinceDeploy === true;
  return commandLine(
    args,
    'verify',
    ...(since ? ['--since-deploy'] : []),
    ...targets,
    ...(report.strict ? ['--strict'] : []),
    ...(args.rca === true ? ['--rca'] : []),
  );
}

/**
 * Report a verification with the chosen reporter and give its exit code: 0 passed (or nothing to
 * verify), 8 failed, 7 timed out, 130 interrupted. `xml` is where JUnit goes (the real stdout).
 */
export function reportVerification(
  report: VerificationReport,
  args: VerifyReportArgs,
  ctx: RunContext,
  xml: (text: string) => void = ctx.io.stdout,
): ExitCode {
  const { io, out } = ctx;
  const p = paint(io.color);
  out.result = { ...out.result, verification: report };
  const reporter = args.reporter ?? 'text';
  if (!out.json) io.stdout(`\n${renderVerificationText(report, p)}`);
  if (reporter === 'junit')
    xml(renderVerificationJunit(report, args.verifyTimeout ?? DEFAULT_VERIFY_SECONDS));
  if (reporter === 'github') writeStepSummary(renderVerificationMarkdown(report), io);
  if (report.outcome === 'passed' || report.outcome === 'nothing') return EXIT.ok;

  const deployed = report.context === 'deploy';
  const notRolledBack = deployed ? ' The deploy stays applied: nothing is rolled back.' : '';
  const concerned = new Set(
    report.outcome === 'failed'
      ? report.runs.filter((r) => r.verdict !== 'passed' && r.verdict !== 'fixed').map((r) => r.groupKey)
      : report.running.map((r) => r.groupKey),
  );
  const rerun = rerunCommand(
    report,
    args,
    report.groups.filter((g) => concerned.has(g.key)),
  );
  const lines: string[] = [];
  let code: ExitCode;
  let message: string;
  if (report.outcome === 'failed') {
    code = EXIT.verifyFailed;
    message = `verification failed: ${verificationSummary(report)}`;
    const failed = report.runs.filter((r) => r.verdict !== 'passed' && r.verdict !== 'fixed');
    for (const run of failed.slice(0, 5))
      lines.push(`see ${escapeTerminal(run.name)}: ${commandLine(args, 'sessions', 'get', run.sessionId)}`);
    if (failed.length > 5) lines.push(`and ${failed.length - 5} more: monitor sessions get <id> for each`);
  } else {
    const ids = report.running.map((r) => r.sessionId);
    code = report.outcome === 'timeout' ? EXIT.timeout : EXIT.interrupted;
    message =
      report.outcome === 'timeout'
        ? `verification timed out after ${args.verifyTimeout ?? DEFAULT_VERIFY_SECONDS} s: ${ids.length} session${ids.length === 1 ? '' : 's'} still running`
        : `verification interrupted: ${ids.length} session${ids.length === 1 ? '' : 's'} still running (they go on in the service)`;
    lines.push(`wait for them: ${commandLine(args, 'sessions', 'wait', ...ids)}`);
  }
  lines.push(`verify again: ${rerun}`);
  out.error = {
    code:
      report.outcome === 'failed'
        ? 'verification_failed'
        : report.outcome === 'timeout'
          ? 'timeout'
          : 'interrupted',
    message: `${message}.${notRolledBack}`,
    hint: lines.join('; '),
  };
  if (!out.json) {
    io.stderr(`${p.red('error')}: ${escapeTerminal(message)}.${notRolledBack}\n`);
    for (const line of lines) io.stderr(`${p.dim(line)}\n`);
  }
  return code;
}

/**
 * The verification as JUnit, through the same document as `trigger --reporter junit`: a
 * `<failure>` for a run that fails verification, `<skipped>` for a failure it does not count
 * (failing before the deploy too, or on its first run, without strict), an `<error>` for a run
 * still going.
 */
export function renderVerificationJunit(report: VerificationReport, timeoutSeconds: number): string {
  const cases: JunitCase[] = report.runs.map((run) => {
    const output = `session ${run.sessionId} (${run.sessionLink}), check ${run.checkId}, group ${run.groupKey}, locations ${run.locations.join(', ')}`;
    const base = {
      classname: `monitor.verify.${run.groupKey}`,
      name: run.name,
      seconds: run.elapsedMs / 1000,
      output,
    };
    if (run.verdict === 'passed' || run.verdict === 'fixed') return base;
    const text = run.failures
      .map(
        (f) =>
          `${f.location}${f.newLocation === true ? ' (new location)' : ''}: ${f.error}${f.errorGroup === undefined ? '' : ` (error group ${f.errorGroup.id}${f.errorGroup.new ? ', new' : ''})`}${f.errorGroup?.rootCause?.rootCause === undefined ? '' : `\nroot cause: ${f.errorGroup.rootCause.rootCause}`}`,
      )
      .join('\n');
    const message = `${run.status}: ${run.verdict.replaceAll('-', ' ')}`;
    if (failsVerification(run.verdict, report.strict))
      return { ...base, outcome: { kind: 'failure', type: run.status, message, text } };
    return { ...base, outcome: { kind: 'skipped', message: `${message}; not counted without strict`, text } };
  });
  for (const r of report.running) {
    cases.push({
      classname: `monitor.verify.${r.groupKey}`,
      name: r.name,
      seconds: timeoutSeconds,
      output: `session ${r.sessionId}`,
      outcome: {
        kind: 'error',
        type: 'TIMEOUT',
        message: `still running after ${timeoutSeconds} s`,
        text: `session ${r.sessionId}; wait with monitor sessions wait ${r.sessionId}`,
      },
    });
  }
  return junitDocument('monitor verification', cases);
}

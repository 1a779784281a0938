import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MarkdownOptions } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import {
  type CommentArgs,
  commandLine,
  type ProjectArgs,
  type ScopeArgs,
  scopeOf,
  withCommentOptions,
  withProjectOptions,
  withScopeOptions,
} from '../options.js';
import type { RunContext } from '../output.js';
import { unseenLines } from '../unseen.js';
import { planFacts } from '../workspace-summary.js';

export interface DiffArgs extends ProjectArgs, CommentArgs, ScopeArgs {
  detailedExitcode?: boolean | undefined;
  out?: string | undefined;
  format?: 'text' | 'json' | 'markdown' | undefined;
}

export const builder = (y: Argv) =>
  withScopeOptions(withCommentOptions(withProjectOptions(y), 'the plan as markdown', true))
    .option('detailed-exitcode', {
      type: 'boolean',
      describe: 'Exit 2 when there are changes, 0 when none (for CI)',
    })
    .option('format', {
      choices: ['text', 'json', 'markdown'] as const,
      default: 'text' as const,
      describe:
        "text for people; json the envelope (as --json); markdown for a pull-request comment or a job summary (fits GitHub's 65,536 characters)",
    })
    .option('out', {
      type: 'string',
      describe: 'Save the plan (with fingerprints of the live resources) for deploy --plan',
    })
    .example('$0 diff', 'preview the changes')
    .example('$0 diff --target payments', 'only the construct payments, and what it needs created first')
    .example('$0 diff --json > plan.json', 'the plan for a script or a pull-request comment')
    .example('$0 diff --out plan.json && $0 deploy --plan plan.json', 'apply exactly what was reviewed')
    .example('$0 diff --comment', 'in CI: the plan as a comment on the pull request, updated on every push')
    .example('$0 diff --issue', 'nightly: one issue for drift, closed when it is gone')
    .example('$0 diff --format markdown >> "$GITHUB_STEP_SUMMARY"', 'the plan as the job summary')
    .example('$0 diff --local', 'against the embedded emulator');

type Engine = typeof import('@monitor/engine');
/** The modules `diff` loads when it runs (not before: `--help` loads none of them). */
interface DiffModules {
  engine: Engine;
  projectUi: typeof import('../project.js');
  lostUi: typeof import('../lost-state-ui.js');
}
type DiffResult = Awaited<ReturnType<Engine['diff']>>;
type LostState = NonNullable<Awaited<ReturnType<Engine['lostState']>>>;
type Connected = Exclude<Awaited<ReturnType<DiffModules['projectUi']['loadAndConnect']>>, number>;
/** What the markdown of a plan is headed with. */
type Heading = Pick<MarkdownOptions, 'project' | 'environment' | 'account' | 'local'>;

/** `monitor diff`: what a deploy would change, field by field. Reads only; takes no lock. */
export async function run(args: DiffArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [engine, projectUi, lostUi] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
    import('../lost-state-ui.js'),
  ]);
  const modules: DiffModules = { engine, projectUi, lostUi };
  const connected = await projectUi.loadAndConnect(args, ctx, { readAccount: true });
  if (typeof connected === 'number') return connected;
  const { project, connection, snapshot } = connected;
  try {
    const result = await engine.diff(connection.target, {
      ...scopeOf(args),
      ...(snapshot === undefined ? {} : { snapshot }),
    });
    const changed = engine.hasChanges(result.plan);
    if (args.out !== undefined) savePlan(resolve(io.cwd, args.out), result.saved, engine);
    out.planFacts = planFacts(result.plan);
    if (out.json) out.plan = engine.planToPrintedJson(result.plan);
    out.result = {
      changes: changed,
      requests: result.requests,
      savedPlan: args.out ?? null,
      unseen: result.unseen,
    };
    const heading: Heading = {
      project: project.config.projectName,
      environment: project.config.environment,
      account: connection.accountId,
      local: connection.local,
    };
    // The project's own resources, unowned because its state is missing: say that, not a conflict each.
    const lost = await engine.lostState(
      result.plan,
      connection.target,
      snapshot === undefined ? undefined : (await snapshot).live,
    );
    if (!out.json) printPlan(args, ctx, connected, { result, lost, heading }, modules);
    if (lost === undefined) projectUi.recordFindings(result.plan, ctx);
    let code: ExitCode =
      lost === undefined
        ? planExitCode(result, changed, args, ctx, modules)
        : lostUi.reportLostState(
            lost,
            lostUi.stateWhere(
              project.config.projectName,
              connection.accountId,
              connection.target.backend.location,
              io.cwd,
            ),
            ctx,
          );
    if (args.comment === true || args.issue === true) {
      code = await postReview(args, ctx, code, { result, changed, lost, heading }, modules);
    }
    return code;
  } finally {
    await connection.close();
  }
}

/** Write the saved plan for `deploy --plan`; an InvalidPlanError when it cannot be written. */
function savePlan(path: string, saved: DiffResult['saved'], engine: Engine): void {
  try {
    writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
  } catch (e) {
    const named = engine.fileSystemError('write the plan to', path, e);
    if (named !== e) throw named;
    throw new engine.InvalidPlanError(
      `cannot write the plan to ${path}: ${(e as Error).message}`,
      'check that the directory exists and is writable',
    );
  }
}

/** The plan on stdout, as text or markdown; a lost state instead of the plan when there is one. */
function printPlan(
  args: DiffArgs,
  { io }: RunContext,
  { project, connection }: Connected,
  { result, lost, heading }: { result: DiffResult; lost: LostState | undefined; heading: Heading },
  { engine, projectUi, lostUi }: DiffModules,
): void {
  const p = paint(io.color);
  if (args.format === 'markdown') {
    io.stdout(
      lost !== undefined
        ? lostUi.lostStateMarkdown(lost, connection.accountId, 'diff')
        : engine.renderPlanMarkdown(result.plan, {
            ...heading,
            ...(args.out === undefined ? {} : { fullPlanHint: `the whole plan is in ${args.out}` }),
          }),
    );
    return;
  }
  io.stdout(p.dim(projectUi.headerLine('diff', project, connection)));
  if (lost !== undefined) return;
  io.stdout(engine.renderPlanText(result.plan, p, { cwd: io.cwd }));
  // Said once, not per variable: what no diff can see.
  for (const line of unseenLines(result.unseen, 'diff')) io.stdout(p.dim(`${line}\n`));
  if (args.out !== undefined) {
    io.stdout(
      p.dim(
        `\nSaved the plan to ${escapeTerminal(args.out)}; apply exactly it with: ${commandLine(args, 'deploy', '--plan', args.out)}\n`,
      ),
    );
  }
}

/** Conflicts and blocking findings are reported and refuse; else changes (with --detailed-exitcode) or ok. */
function planExitCode(
  result: DiffResult,
  changed: boolean,
  args: DiffArgs,
  ctx: RunContext,
  { engine, projectUi }: DiffModules,
): ExitCode {
  if (result.plan.conflicts.length > 0) return projectUi.reportConflicts(result.plan, ctx);
  if (engine.blockingFindings(result.plan.findings).length > 0)
    return projectUi.reportPolicyErrors(result.plan, ctx);
  return args.detailedExitcode === true && changed ? EXIT.changes : EXIT.ok;
}

/**
 * With --comment, the plan as a comment on the pull request; with --issue, drift as an issue.
 * Either is created only when there is something to say, and updated or closed otherwise.
 */
async function postReview(
  args: DiffArgs,
  ctx: RunContext,
  code: ExitCode,
  given: { result: DiffResult; changed: boolean; lost: LostState | undefined; heading: Heading },
  { engine, lostUi }: DiffModules,
): Promise<ExitCode> {
  const { result, changed, lost, heading } = given;
  const { postComment, postDriftIssue } = await import('../comment-ui.js');
  const savedHint = args.out === undefined ? undefined : `the whole plan is in ${args.out}`;
  const request = {
    ...heading,
    createIfMissing:
      changed || result.plan.conflicts.length > 0 || engine.blockingFindings(result.plan.findings).length > 0,
    render: (maxLength: number, hint?: string) =>
      lost !== undefined
        ? lostUi.lostStateMarkdown(lost, heading.account, 'diff')
        : engine.renderPlanMarkdown(result.plan, {
            ...heading,
            maxLength,
            ...((hint ?? savedHint) === undefined ? {} : { fullPlanHint: hint ?? savedHint }),
          }),
  };
  let outcome = code;
  if (args.comment === true) outcome = await postComment({ ...request, purpose: 'plan' }, args, ctx, outcome);
  if (args.issue === true)
    outcome = await postDriftIssue({ ...request, purpose: 'drift' }, args, ctx, outcome);
  return outcome;
}

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
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

/** `monitor diff`: what a deploy would change, field by field. Reads only; takes no lock. */
export async function run(args: DiffArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [
    {
      blockingFindings,
      diff,
      hasChanges,
      InvalidPlanError,
      lostState,
      planToPrintedJson,
      renderPlanMarkdown,
      renderPlanText,
    },
    { headerLine, loadAndConnect, recordFindings, reportConflicts, reportPolicyErrors },
    { lostStateMarkdown, reportLostState, stateWhere },
  ] = await Promise.all([import('@monitor/engine'), import('../project.js'), import('../lost-state-ui.js')]);
  const connected = await loadAndConnect(args, ctx, { readAccount: true });
  if (typeof connected === 'number') return connected;
  const { project, connection, snapshot } = connected;
  try {
    const result = await diff(connection.target, {
      ...scopeOf(args),
      ...(snapshot === undefined ? {} : { snapshot }),
    });
    const changed = hasChanges(result.plan);
    if (args.out !== undefined) {
      const path = resolve(io.cwd, args.out);
      try {
        writeFileSync(path, `${JSON.stringify(result.saved, null, 2)}\n`);
      } catch (e) {
        throw new InvalidPlanError(
          `cannot write the plan to ${path}: ${(e as Error).message}`,
          'check that the directory exists and is writable',
        );
      }
    }
    if (out.json) out.plan = planToPrintedJson(result.plan);
    out.result = { changes: changed, requests: result.requests, savedPlan: args.out ?? null };
    const markdownOptions = {
      project: project.config.projectName,
      environment: project.config.environment,
      account: connection.accountId,
      local: connection.local,
    };
    const savedHint = args.out === undefined ? undefined : `the whole plan is in ${args.out}`;
    // The project's own resources, unowned because its state is missing: say that, not a conflict each.
    const lost = await lostState(
      result.plan,
      connection.target,
      snapshot === undefined ? undefined : (await snapshot).live,
    );
    if (lost !== undefined) {
      if (args.format === 'markdown' && !out.json)
        io.stdout(lostStateMarkdown(lost, connection.accountId, 'diff'));
      else if (!out.json) io.stdout(paint(io.color).dim(headerLine('diff', project, connection)));
    } else if (args.format === 'markdown' && !out.json) {
      io.stdout(
        renderPlanMarkdown(result.plan, {
          ...markdownOptions,
          ...(savedHint === undefined ? {} : { fullPlanHint: savedHint }),
        }),
      );
    } else if (!out.json) {
      const p = paint(io.color);
      io.stdout(p.dim(headerLine('diff', project, connection)));
      io.stdout(renderPlanText(result.plan, p, { cwd: io.cwd }));
      if (args.out !== undefined) {
        io.stdout(
          p.dim(
            `\nSaved the plan to ${escapeTerminal(args.out)}; apply exactly it with: ${commandLine(args, 'deploy', '--plan', args.out)}\n`,
          ),
        );
      }
    }
    const where = stateWhere(
      project.config.projectName,
      connection.accountId,
      connection.target.backend.location,
      io.cwd,
    );
    if (lost === undefined) recordFindings(result.plan, ctx);
    let code: ExitCode =
      lost !== undefined
        ? reportLostState(lost, where, ctx)
        : result.plan.conflicts.length > 0
          ? reportConflicts(result.plan, ctx)
          : blockingFindings(result.plan.findings).length > 0
            ? reportPolicyErrors(result.plan, ctx)
            : args.detailedExitcode === true && changed
              ? EXIT.changes
              : EXIT.ok;
    if (args.comment === true || args.issue === true) {
      const { postComment, postDriftIssue } = await import('../comment-ui.js');
      const request = {
        ...markdownOptions,
        createIfMissing:
          changed || result.plan.conflicts.length > 0 || blockingFindings(result.plan.findings).length > 0,
        render: (maxLength: number, hint?: string) =>
          lost !== undefined
            ? lostStateMarkdown(lost, connection.accountId, 'diff')
            : renderPlanMarkdown(result.plan, {
                ...markdownOptions,
                maxLength,
                ...((hint ?? savedHint) === undefined ? {} : { fullPlanHint: hint ?? savedHint }),
              }),
      };
      if (args.comment === true) code = await postComment({ ...request, purpose: 'plan' }, args, ctx, code);
      if (args.issue === true) code = await postDriftIssue({ ...request, purpose: 'drift' }, args, ctx, code);
    }
    return code;
  } finally {
    await connection.close();
  }
}

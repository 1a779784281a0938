import { relative } from 'node:path';
import type { AuditFinding } from '@monitor/engine';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import {
  type CommentArgs,
  commandLine,
  type ProjectArgs,
  UsageError,
  withProjectOptions,
} from '../options.js';
import type { RunContext } from '../output.js';

export interface AuditArgs extends ProjectArgs, Pick<CommentArgs, 'issue' | 'requireComment'> {
  format?: 'text' | 'json' | 'markdown' | undefined;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .option('format', {
      choices: ['text', 'json', 'markdown'] as const,
      default: 'text' as const,
      describe:
        "text for people; json the envelope (as --json); markdown for an issue or a job summary (fits GitHub's 65,536 characters)",
    })
    .option('issue', {
      type: 'boolean',
      describe:
        'For a scheduled audit: open one issue (label monitor-audit) while the account has an error or a warning, update it in place, close it when there is none',
    })
    .option('require-comment', {
      type: 'boolean',
      describe:
        'Exit 1 when the issue cannot be posted (missing token, no permission, API down); by default a warning',
    })
    .check((args) => {
      if (args['require-comment'] === true && args.issue !== true) {
        throw new UsageError('--require-comment needs --issue', 'add --issue, or drop --require-comment');
      }
      return true;
    })
    .group(['issue', 'require-comment'], 'CI options:')
    .example('$0 audit', "the project's policies and the built-ins over every resource in the account")
    .example(
      '$0 audit --json > audit.json',
      'the findings for a script: each resource, its owner, the import command',
    )
    .example(
      '$0 audit --issue',
      'nightly: one issue while the account breaks a policy, closed when it does not',
    )
    .example('$0 audit --format markdown >> "$GITHUB_STEP_SUMMARY"', 'the findings as the job summary')
    .epilogue(
      'Every resource of the account, owned by this project, by another project of the same state, or by ' +
        'none, is read as the construct that would make it and judged by the construct policies (plan ' +
        'policies need a plan: diff runs them). Secrets stay masked, as in validate. Exit 3 on an error. ' +
        'See docs/policies.md.',
    );

/** `monitor audit`: the project's policies over the live account. Reads only; takes no lock. */
export async function run(args: AuditArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [engine, projectUi] = await Promise.all([import('@monitor/engine'), import('../project.js')]);
  const connected = await projectUi.loadAndConnect(args, ctx, { readAccount: true });
  if (typeof connected === 'number') return connected;
  const { project, connection, snapshot } = connected;
  try {
    const { report, requests } = await engine.audit(connection.target, {
      ...(snapshot === undefined ? {} : { snapshot }),
      importCommand: (kind, id) => commandLine(args, 'import', '--kind', kind, '--id', String(id)),
    });
    const errors = report.findings.filter((f) => f.severity === 'error').length;
    out.result = {
      resources: report.resources,
      summary: summaryOf(report.findings),
      findings: report.findings.map((f) => findingToJson(f, io.cwd)),
      unreadable: report.unreadable,
      requests,
    };
    const heading = {
      project: project.config.projectName,
      environment: project.config.environment,
      account: connection.accountId,
      local: connection.local,
    };
    if (args.format === 'markdown') io.stdout(engine.renderAuditMarkdown(report, heading));
    else if (!out.json) {
      const p = paint(io.color);
      io.stdout(p.dim(projectUi.headerLine('audit', project, connection)));
      io.stdout(engine.renderAuditText(report, p, io.cwd));
    }
    let code: ExitCode = EXIT.ok;
    if (errors > 0) {
      out.error = {
        code: 'audit_errors',
        message: `${errors} policy error${errors === 1 ? '' : 's'} in the account`,
        hint: 'fix each resource the errors name: in the code when this project owns it, in its project when another owns it; take over what no project owns with the import command given, or change it in the account',
      };
      code = EXIT.invalid;
    }
    if (args.issue === true) {
      const { postIssue } = await import('../comment-ui.js');
      code = await postIssue(
        'audit',
        {
          purpose: 'audit',
          project: heading.project,
          account: heading.account,
          render: (maxLength) => engine.renderAuditMarkdown(report, { ...heading, maxLength }),
          createIfMissing: report.findings.some(engine.actionable),
        },
        args,
        ctx,
        code,
      );
    }
    return code;
  } finally {
    await connection.close();
  }
}

function summaryOf(findings: readonly AuditFinding[]) {
  const summary = { errors: 0, warnings: 0, info: 0, waived: 0 };
  for (const f of findings) {
    if (f.waived !== undefined) summary.waived++;
    else if (f.severity === 'error') summary.errors++;
    else if (f.severity === 'warning') summary.warnings++;
    else summary.info++;
  }
  return summary;
}

/** A finding as `--json` prints it: its place in the code (when this project owns the resource) relative. */
function findingToJson(f: AuditFinding, cwd: string): Record<string, unknown> {
  const { location, ...rest } = f;
  return {
    ...rest,
    file: location === undefined ? null : relative(cwd, location.file),
    line: location?.line ?? null,
    column: location?.column ?? null,
  };
}

import { relative } from 'node:path';
import type { PullResult, PullWritten } from '@monitor/engine';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { staleLockNotice } from '../lock-notice.js';
import { commandLine, integerAtLeast, type ProjectArgs, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';
import { unseenLines } from '../unseen.js';

export interface PullArgs extends ProjectArgs {
  target?: string[] | undefined;
  dryRun?: boolean | undefined;
  yes?: boolean | undefined;
  force?: boolean | undefined;
  lockTimeout?: number | undefined;
  pr?: boolean | undefined;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .option('target', {
      type: 'string',
      array: true,
      describe: 'Only this construct: a logical id or Kind:logicalId (repeatable)',
    })
    .option('dry-run', {
      type: 'boolean',
      describe: 'Print the edits as a unified diff; write nothing',
    })
    .option('yes', {
      alias: 'y',
      type: 'boolean',
      describe: 'Write without asking (needed when not on a terminal)',
    })
    .option('force', {
      type: 'boolean',
      describe: 'Edit files that have changes git has not committed (or that are not in a git repository)',
    })
    .option('pr', {
      type: 'boolean',
      // One pull request holds all of the project's drift: a part of it would close the rest's.
      conflicts: ['dry-run', 'force', 'target'],
      describe:
        'Leave the checkout alone: commit the edits on the branch monitor/pull/<project> (on the default branch), push it to origin and keep one pull request (GitLab: merge request) of it, closed once the account agrees with the code; in CI, or with GITHUB_REPOSITORY and GITHUB_TOKEN set (docs/pull.md)',
    })
    .option('lock-timeout', {
      type: 'string',
      default: '0',
      coerce: integerAtLeast('lock-timeout', 0),
      describe: 'Seconds to wait for a deploy to release the state lock (held while pull writes and records)',
    })
    .example('$0 pull --dry-run', 'see what the UI changed, as edits of the code')
    .example('$0 pull --target payments-api --yes', 'bring one construct back in line with the account')
    .example(
      '$0 pull --pr',
      'nightly in CI: the edits as one pull request, updated while the account differs, closed once it agrees',
    )
    .epilogue(
      "For the resources the project owns that were changed outside monitor (drift), writes the account's values into the props of each construct's own `new X('id', { … })`, keeping formatting and comments. A value the code computes (a variable, a call, a spread, a helper or a library) is listed with its line, to change by hand; a secret is never written. State records that code and account agree on what was pulled, so monitor diff shows No changes for it, and a later edit of it in the code is a change of the code's. With --pr the edits go to a branch and a pull request instead (drift it cannot write goes to the drift issue of diff --issue). See docs/pull.md for what pull cannot see.",
    );

function describe(
  result: PullResult,
  projectDir: string,
  io: Io,
  t: (text: string) => string,
  reasons: Engine['NOT_PULLED_REASONS'],
): string {
  const p = paint(io.color);
  const at = (file: string, line: number) => (file === '' ? '' : `${relative(projectDir, file)}:${line}  `);
  const lines: string[] = [];
  if (result.pulled.length > 0) {
    lines.push(p.bold('Pulled into the code:'));
    for (const e of result.pulled) lines.push(`  ${t(`${at(e.file, e.line)}${e.key}  ${e.path}`)}`);
  }
  if (result.manual.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(p.bold('To change by hand:'));
    for (const m of result.manual) {
      lines.push(`  ${t(`${at(m.file, m.line)}${m.key}  ${m.path}`)}: ${m.reason}`);
      lines.push(p.dim(`      the account has: ${t(JSON.stringify(m.value) ?? '(nothing: remove it)')}`));
    }
  }
  if (result.notPulled.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(p.bold('Not pulled:'));
    for (const n of result.notPulled)
      lines.push(`  ${t(`${at(n.file, n.line)}${n.key}  ${n.path}`)}: ${reasons[n.reason]}`);
  }
  return `${lines.join('\n')}\n`;
}

type Engine = typeof import('@monitor/engine');
type Connected = Exclude<Awaited<ReturnType<typeof import('../project.js')['loadAndConnect']>>, number>;

/** `monitor pull`: what the account changed, written back into the code. */
export async function run(args: PullArgs, ctx: RunContext): Promise<ExitCode> {
  const [engine, { headerLine, loadAndConnect }, { escapeTerminal }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
    import('@monitor/engine/escape'),
  ]);
  const connected = await loadAndConnect(args, ctx);
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  try {
    // The code host and the repository first: a run that cannot open the pull request says so before reading.
    const pr = args.pr === true ? await import('../pull-pr.js') : undefined;
    const setup = await pr?.preparePullRequest(ctx, project.projectDir);
    if (typeof setup === 'number') return setup;
    const result = await engine.pullEdits(
      connection.target,
      args.target === undefined ? {} : { targets: args.target },
    );
    const summary = summaryOf(result, project.projectDir);
    ctx.out.result = summary;
    if (!ctx.out.json) {
      ctx.io.stdout(headerLine('pull', project, connection));
      ctx.io.stdout(report(result, project.projectDir, ctx.io, escapeTerminal, engine.NOT_PULLED_REASONS));
    }
    if (pr !== undefined && setup !== undefined) {
      const { projectName: name, environment } = project.config;
      const heading = { project: name, environment, account: connection.accountId, local: connection.local };
      return await pr.publishPull(setup, result, heading, ctx);
    }
    if (result.files.length === 0 || args.dryRun === true) {
      if (!ctx.out.json && args.dryRun === true && result.files.length > 0)
        ctx.io.stdout(
          `\nDry run: nothing was written. Write it with ${commandLine(args, 'pull', ...targetArgs(args))}.\n`,
        );
      return EXIT.ok;
    }
    const refused = await refusal(args, ctx, engine, result, project.projectDir);
    if (refused !== undefined) return refused;
    const written = await engine.writePull(connection.target, result, {
      lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
      onEvent: (event) => {
        if (event.type === 'lock-wait')
          ctx.io.stderr(`Waiting up to ${args.lockTimeout} s for the state lock\n`);
        if (event.type === 'lock-stale') ctx.io.stderr(staleLockNotice(event.removed));
      },
    });
    Object.assign(summary, { written: true, recorded: written.recorded });
    if (!ctx.out.json) ctx.io.stdout(writtenText(args, ctx.io, result, written, project, escapeTerminal));
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/** What `--json` carries: everything the text shows, with paths relative to the project. */
function summaryOf(result: PullResult, projectDir: string) {
  const rel = (file: string) => (file === '' ? '' : relative(projectDir, file));
  return {
    drifted: result.drifted,
    files: result.files.map((f) => ({ file: rel(f.file), patch: f.patch })),
    pulled: result.pulled.map((e) => ({ ...e, file: rel(e.file) })),
    manual: result.manual.map((m) => ({ ...m, file: rel(m.file) })),
    notPulled: result.notPulled.map(({ location: _, ...n }) => ({ ...n, file: rel(n.file) })),
    unseen: result.unseen,
    written: false,
    recorded: [] as string[],
  };
}

/** The text of what pull found: what it writes, what it leaves, what it cannot see, and the edits as a diff. */
function report(
  result: PullResult,
  projectDir: string,
  io: Io,
  t: (text: string, options?: { multiline?: boolean }) => string,
  reasons: Engine['NOT_PULLED_REASONS'],
): string {
  const p = paint(io.color);
  const unseen = unseenLines(result.unseen, 'pull').map((line) => `${p.dim(line)}\n`);
  if (result.drifted === 0 && result.notPulled.length === 0)
    return `Nothing to pull: the account holds what the code last deployed.\n${unseen.join('')}`;
  const patches = result.files.map((f) => t(f.patch, { multiline: true })).join('');
  return `${describe(result, projectDir, io, t, reasons)}${unseen.length > 0 ? `\n${unseen.join('')}` : ''}${patches === '' ? '' : `\n${patches}`}`;
}

/** Why not to write, as an exit code (files git has not committed, no consent); undefined to go on. */
async function refusal(
  args: PullArgs,
  { io, out }: RunContext,
  engine: Engine,
  result: PullResult,
  projectDir: string,
): Promise<ExitCode | undefined> {
  const p = paint(io.color);
  const names = result.files.map((f) => relative(projectDir, f.file));
  const refuse = (message: string, hint: string) => {
    out.error = { code: 'refused', message, hint };
    if (!out.json) io.stderr(`${p.red('error')}: ${message}\nhint: ${hint}\n`);
    return EXIT.refused;
  };
  if (args.force !== true) {
    const git = await engine.uncommittedFiles(
      projectDir,
      result.files.map((f) => f.file),
    );
    const hint = `commit or stash them first, so that the edit can be reviewed and reverted; or ${commandLine(args, 'pull', ...targetArgs(args), '--force')}`;
    if (!git.repository)
      return refuse(
        `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not in a git repository: nothing was written`,
        hint,
      );
    if (git.dirty.length > 0)
      return refuse(
        `${git.dirty.map((f) => relative(projectDir, f)).join(', ')} ${git.dirty.length === 1 ? 'has' : 'have'} changes git has not committed: nothing was written`,
        hint,
      );
  }
  if (args.yes === true) return undefined;
  const question = `\nWrite these edits to ${names.length} file${names.length === 1 ? '' : 's'}? Only "yes" is accepted: `;
  const answer = io.interactive ? await io.prompt?.(question) : undefined;
  if (answer?.trim() === 'yes') return undefined;
  return refuse(
    io.interactive
      ? 'not written: the edits were not accepted'
      : 'pull writes files: confirm with --yes when not on a terminal',
    `review with ${commandLine(args, 'pull', ...targetArgs(args), '--dry-run')}`,
  );
}

/** The files written, and what state now records of them. */
function writtenText(
  args: PullArgs,
  io: Io,
  result: PullResult,
  written: PullWritten,
  project: Connected['project'],
  t: (text: string) => string,
): string {
  const p = paint(io.color);
  const names = result.files.map((f) => relative(project.projectDir, f.file));
  const lines = [
    `\n${p.green('✓')} Wrote ${names.length} file${names.length === 1 ? '' : 's'}: ${t(names.join(', '))}. Review with git diff; ${commandLine(args, 'diff')} shows what is left.`,
  ];
  if (written.recorded.length > 0)
    lines.push(
      p.dim(
        `State records that code and account agree on what was pulled of ${t(written.recorded.join(', '))}: a later edit of it in the code is a change of the code's.`,
      ),
    );
  if (written.notRecorded !== undefined)
    lines.push(
      `${p.yellow('warning')}: ${t(written.notRecorded)}; state was not updated, so ${commandLine(args, 'diff')} still shows what was pulled as drift until the next deploy.`,
    );
  return `${lines.join('\n')}\n`;
}

function targetArgs(args: PullArgs): string[] {
  return (args.target ?? []).flatMap((t) => ['--target', t]);
}

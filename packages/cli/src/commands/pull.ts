import { relative } from 'node:path';
import type { PullResult } from '@monitor/engine';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { commandLine, type ProjectArgs, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

export interface PullArgs extends ProjectArgs {
  target?: string[] | undefined;
  dryRun?: boolean | undefined;
  yes?: boolean | undefined;
  force?: boolean | undefined;
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
    .example('$0 pull --dry-run', 'see what the UI changed, as edits of the code')
    .example('$0 pull --target payments-api --yes', 'bring one construct back in line with the account')
    .epilogue(
      "For the resources the project owns that were changed outside monitor (drift), writes the account's values into the props of each construct's own `new X('id', { … })`, keeping formatting and comments. A value the code computes (a variable, a call, a spread, a helper or a library) is listed with its line, to change by hand; a secret is never written. Then monitor diff shows No changes for what was pulled. See docs/pull.md.",
    );

function describe(result: PullResult, projectDir: string, io: Io, t: (text: string) => string): string {
  const p = paint(io.color);
  const at = (file: string, line: number) => `${relative(projectDir, file)}:${line}`;
  const lines: string[] = [];
  if (result.pulled.length > 0) {
    lines.push(p.bold('Pulled into the code:'));
    for (const e of result.pulled) lines.push(`  ${t(`${at(e.file, e.line)}  ${e.key}  ${e.path}`)}`);
  }
  if (result.manual.length > 0) {
    lines.push('', p.bold('To change by hand:'));
    for (const m of result.manual) {
      lines.push(`  ${t(`${at(m.file, m.line)}  ${m.key}  ${m.path}`)}: ${m.reason}`);
      lines.push(p.dim(`      the account has: ${t(JSON.stringify(m.value) ?? '(nothing: remove it)')}`));
    }
  }
  if (result.notPulled.length > 0) {
    lines.push('', p.bold('Not pulled:'));
    const why = {
      secret: 'a secret is never written into code: change it where the code reads it',
      'code-changed':
        "changed in the code as well since the last deploy: the code's value stays (a deploy writes it); edit by hand to keep the account's",
      'no-prop': 'no prop holds it',
    } as const;
    for (const n of result.notPulled) lines.push(`  ${t(`${n.key}  ${n.path}`)}: ${why[n.reason]}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `monitor pull`: what the account changed, written back into the code. */
export async function run(args: PullArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [{ pullEdits, uncommittedFiles, writePull }, { headerLine, loadAndConnect }, { escapeTerminal }] =
    await Promise.all([import('@monitor/engine'), import('../project.js'), import('@monitor/engine/escape')]);
  const connected = await loadAndConnect(args, ctx);
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  let result: PullResult;
  try {
    result = await pullEdits(connection.target, args.target === undefined ? {} : { targets: args.target });
  } finally {
    await connection.close();
  }
  const p = paint(io.color);
  const summary = {
    drifted: result.drifted,
    files: result.files.map((f) => ({ file: relative(project.projectDir, f.file), patch: f.patch })),
    pulled: result.pulled.map((e) => ({ ...e, file: relative(project.projectDir, e.file) })),
    manual: result.manual.map((m) => ({ ...m, file: relative(project.projectDir, m.file) })),
    notPulled: result.notPulled.map(({ location: _, ...n }) => n),
    written: false,
  };
  out.result = summary;
  if (!out.json) io.stdout(headerLine('pull', project, connection));
  if (result.drifted === 0 && result.notPulled.length === 0) {
    if (!out.json) io.stdout('Nothing to pull: the account holds what the code last deployed.\n');
    return EXIT.ok;
  }
  if (!out.json) {
    io.stdout(describe(result, project.projectDir, io, escapeTerminal));
    if (result.files.length > 0)
      io.stdout(`\n${result.files.map((f) => escapeTerminal(f.patch, { multiline: true })).join('')}`);
  }
  if (result.files.length === 0 || args.dryRun === true) {
    if (!out.json && args.dryRun === true && result.files.length > 0)
      io.stdout(
        `\nDry run: nothing was written. Write it with ${commandLine(args, 'pull', ...targetArgs(args))}.\n`,
      );
    return EXIT.ok;
  }

  const names = result.files.map((f) => relative(project.projectDir, f.file));
  if (args.force !== true) {
    const git = await uncommittedFiles(
      project.projectDir,
      result.files.map((f) => f.file),
    );
    const refuse = (message: string) => {
      out.error = {
        code: 'refused',
        message,
        hint: `commit or stash them first, so that the edit can be reviewed and reverted; or ${commandLine(args, 'pull', ...targetArgs(args), '--force')}`,
      };
      if (!out.json) io.stderr(`${p.red('error')}: ${message}\nhint: ${out.error.hint}\n`);
      return EXIT.refused;
    };
    if (!git.repository)
      return refuse(
        `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not in a git repository: nothing was written`,
      );
    if (git.dirty.length > 0)
      return refuse(
        `${git.dirty.map((f) => relative(project.projectDir, f)).join(', ')} ${git.dirty.length === 1 ? 'has' : 'have'} changes git has not committed: nothing was written`,
      );
  }
  if (args.yes !== true) {
    const question = `\nWrite these edits to ${names.length} file${names.length === 1 ? '' : 's'}? Only "yes" is accepted: `;
    const answer = io.interactive ? await io.prompt?.(question) : undefined;
    if (answer?.trim() !== 'yes') {
      const message = io.interactive
        ? 'not written: the edits were not accepted'
        : 'pull writes files: confirm with --yes when not on a terminal';
      out.error = {
        code: 'refused',
        message,
        hint: `review with ${commandLine(args, 'pull', ...targetArgs(args), '--dry-run')}`,
      };
      if (!out.json) io.stderr(`${p.red('error')}: ${message}\nhint: ${out.error.hint}\n`);
      return EXIT.refused;
    }
  }
  writePull(result);
  summary.written = true;
  if (!out.json)
    io.stdout(
      `\n${p.green('✓')} Wrote ${names.length} file${names.length === 1 ? '' : 's'}: ${names.join(', ')}. Review with git diff; ${commandLine(args, 'diff')} shows what is left.\n`,
    );
  return EXIT.ok;
}

function targetArgs(args: PullArgs): string[] {
  return (args.target ?? []).flatMap((t) => ['--target', t]);
}

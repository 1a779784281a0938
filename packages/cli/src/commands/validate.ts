import { relative } from 'node:path';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { diagnosticsToJson, formatDiagnostic } from '../format-diagnostics.js';
import { paint, writeInPieces } from '../io.js';
import { environmentOf } from '../options.js';
import type { RunContext } from '../output.js';
import { validateOnce } from '../project-loads.js';

export interface ValidateArgs {
  config?: string | undefined;
  env?: string | undefined;
  json?: boolean | undefined;
  verbose?: boolean | undefined;
}

export const builder = (y: Argv) =>
  y
    .option('config', {
      type: 'string',
      describe: 'Path of monitor.config.ts (default: the nearest one upwards)',
    })
    .option('env', {
      type: 'string',
      describe: 'Validate for this environment only (default $MONITOR_ENV; with neither, every environment)',
    })
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope (formatVersion 2) with the diagnostics on stdout',
    })
    .option('verbose', { type: 'boolean', describe: 'Print whole stack traces of files that throw' })
    .example('$0 validate', 'check the project in this directory')
    .example('$0 validate --json > diagnostics.json', 'diagnostics for a script or CI annotation');

/**
 * `monitor validate`: load the project and report every problem; exit 3 when it is invalid. A
 * project with environments is validated for each (the code may differ by environment) unless
 * one is chosen.
 */
export async function run(args: ValidateArgs, ctx: RunContext): Promise<ExitCode> {
  const options = { cwd: ctx.io.cwd, ...(args.config === undefined ? {} : { config: args.config }) };
  const chosen = environmentOf(args, ctx.io.env);
  const report = await validateOnce({ ...options, environment: chosen });
  const environments = report.project?.config.environments ?? [];
  if (chosen !== undefined || environments.length === 0) return reportOne(report, args, ctx);
  let worst: ExitCode = EXIT.ok;
  const results: Record<string, unknown> = {};
  const diagnostics: Record<string, unknown>[] = [];
  for (const environment of environments) {
    if (!ctx.out.json) ctx.io.stdout(paint(ctx.io.color).bold(`${escapeTerminal(environment)}: `));
    const code = reportOne(await validateOnce({ ...options, environment }), args, ctx);
    results[environment] = ctx.out.result;
    diagnostics.push(...ctx.out.diagnostics.map((d) => ({ ...d, environment })));
    if (code !== EXIT.ok) worst = code;
  }
  ctx.out.environment = null;
  ctx.out.result = { valid: worst === EXIT.ok, environments: results };
  ctx.out.diagnostics = diagnostics;
  if (worst === EXIT.ok) ctx.out.error = null;
  return worst;
}

function reportOne(
  report: Awaited<ReturnType<typeof import('@monitor/engine').validateProject>>,
  args: ValidateArgs,
  { io, out }: RunContext,
): ExitCode {
  // The construct rules' findings are diagnostics like the others here: validate has no plan to carry them.
  const diagnostics = [...report.diagnostics, ...report.findings];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const waived = diagnostics.filter((d) => d.waived !== undefined).length;
  const constructs = report.project?.resources.length ?? 0;
  const files = report.project?.files.length ?? 0;
  const counts = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${waived > 0 ? `, ${waived} waived` : ''}`;
  out.project = report.project?.config.projectName ?? null;
  out.environment = report.project?.config.environment ?? null;
  // Made for --json only: at 15,000 findings the copy is not free.
  if (out.json) out.diagnostics = diagnosticsToJson(diagnostics, io.cwd);
  out.result = {
    valid: report.valid,
    config: report.configPath === undefined ? null : relative(io.cwd, report.configPath),
    files,
    constructs,
    summary: { errors, warnings, waived },
  };
  if (!report.valid) out.error = { code: 'invalid_project', message: `the project is invalid: ${counts}` };
  if (out.json) return report.valid ? EXIT.ok : EXIT.invalid;

  const p = paint(io.color);
  const verbose = args.verbose === true;
  writeInPieces(
    io.stdout,
    (function* () {
      for (const d of diagnostics) yield `${formatDiagnostic(d, io.cwd, p, verbose)}\n`;
    })(),
  );
  if (report.valid) {
    const name = report.project?.config.projectName ?? '';
    io.stdout(
      `${p.green('✓')} ${escapeTerminal(name)}: ${constructs} construct${constructs === 1 ? '' : 's'} valid in ${files} file${files === 1 ? '' : 's'}${warnings + waived > 0 ? ` (${counts})` : ''}\n`,
    );
    return EXIT.ok;
  }
  const scope =
    report.project === undefined
      ? 'the project could not be loaded'
      : `${constructs} constructs in ${files} files`;
  io.stdout(`${p.red('✗')} ${counts}: ${scope}\n`);
  return EXIT.invalid;
}

import { createRequire } from 'node:module';
import { isApiError } from '@monitor/api';
import { EngineError } from '@monitor/engine';
import yargs, { type Argv } from 'yargs';
import { type DeployArgs, deployCommand, runDeploy } from './commands/deploy.js';
import { type DestroyArgs, destroyCommand, runDestroy } from './commands/destroy.js';
import { type DiffArgs, diffCommand, runDiff } from './commands/diff.js';
import { type EmulatorArgs, emulatorCommand, runEmulator, untilSignal } from './commands/emulator.js';
import { runValidate, type ValidateArgs, validateCommand } from './commands/validate.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { type Io, paint } from './io.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
export const CLI_VERSION = version;

class UsageError extends Error {}

/** Print an error once, with its hint; the only place that turns errors into exit codes. */
function report(error: unknown, io: Io): ExitCode {
  const p = paint(io.color);
  if (error instanceof UsageError) {
    io.stderr(`${p.red('error')}: ${error.message}\n${p.dim('hint')}: run monitor --help\n`);
    return EXIT.error;
  }
  if (error instanceof EngineError || isApiError(error)) {
    io.stderr(`${p.red('error')}: ${error.message}\n`);
    if (error.hint !== undefined) io.stderr(`${p.dim('hint')}: ${error.hint}\n`);
    if (error instanceof EngineError && error.code === 'invalid_project') return EXIT.invalid;
    if (error instanceof EngineError && error.code === 'locked') return EXIT.locked;
    return EXIT.error;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  io.stderr(`${p.red('error')}: ${e.message}\n${p.dim(e.stack ?? '')}\n`);
  return EXIT.error;
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. Never exits the process. */
export async function main(argv: string[], io: Io): Promise<ExitCode> {
  let code: ExitCode = EXIT.ok;
  const parser: Argv = yargs(argv)
    .scriptName('monitor')
    .usage(
      'monitor <command> [options]\n\nMonitoring-as-code: declare checks, dashboards and status pages in TypeScript.',
    )
    .command({
      ...validateCommand,
      handler: async (args: ValidateArgs) => {
        code = await runValidate(args, io);
      },
    })
    .command({
      ...diffCommand,
      handler: async (args: DiffArgs) => {
        code = await runDiff(args, io);
      },
    })
    .command({
      ...deployCommand,
      handler: async (args: DeployArgs) => {
        code = await runDeploy(args, io);
      },
    })
    .command({
      ...destroyCommand,
      handler: async (args: DestroyArgs) => {
        code = await runDestroy(args, io);
      },
    })
    .command({
      ...emulatorCommand,
      handler: async (args: EmulatorArgs) => {
        code = await runEmulator(args, io, untilSignal());
      },
    })
    .demandCommand(1, 'name a command')
    .strict()
    .version(CLI_VERSION)
    .alias('h', 'help')
    .alias('v', 'version')
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .epilogue(
      'Exit codes: 0 ok, 1 error, 2 changes (diff --detailed-exitcode), 3 invalid project, 4 stale plan, 5 refused, 6 locked.',
    )
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    return report(error, io);
  }
  return code;
}

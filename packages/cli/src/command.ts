import type { Argv } from 'yargs';
import type { ExitCode } from './exit-codes.js';
import type { RunContext } from './output.js';

/**
 * A verb of a noun command (`checks list`): its usage, options and the plain function that runs
 * it; or a noun within the noun (`status-pages incidents`), with verbs of its own.
 */
export type Subcommand = {
  /** Its yargs usage: the verb and positionals, e.g. `get <id>`. */
  command: string;
  describe: string;
} & (
  | {
      builder: (y: Argv) => Argv;
      // biome-ignore lint/suspicious/noExplicitAny: each command types its own arguments.
      run: (args: any, ctx: RunContext) => Promise<ExitCode>;
    }
  | { subcommands: Subcommand[] }
);

/** What a command module gives: its options and run function, or the verbs of a noun. */
export type CommandModule =
  | {
      builder: (y: Argv) => Argv;
      // biome-ignore lint/suspicious/noExplicitAny: each command types its own arguments.
      run: (args: any, ctx: RunContext) => Promise<ExitCode>;
    }
  | { subcommands: Subcommand[] };

import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import type { RunContext } from '../output.js';

interface CancelArgs extends AccountArgs {
  id: string;
  sequenceId?: string[] | undefined;
}

/**
 * `monitor test-sessions cancel <id>`: stop a test session's Playwright runs (all in progress, or
 * the sequences named). Runs of other check types go on until they end, as the service defines.
 */
async function cancel(args: CancelArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const hint = 'a test session id is a UUID, as printed by the run that started it';
  const id = uuidArgument('the test session id', args.id, hint);
  const sequences = (args.sequenceId ?? [])
    .flatMap((s) => String(s).split(','))
    .filter((s) => s.trim() !== '')
    .map((s) => uuidArgument('--sequence-id', s, 'sequence ids are UUIDs'));
  const account = await connectAccount(args, ctx);
  try {
    await explained(
      account.client.testSessions.cancel(id, sequences.length === 0 ? {} : { sequenceId: sequences }),
      { not_found: `no test session ${id} in account ${account.accountId}; ${hint}` },
    );
    out.result = { testSessionId: id, sequenceIds: sequences.length === 0 ? 'all in progress' : sequences };
    if (!out.json) {
      const p = paint(io.color);
      io.stdout(
        `${p.green('✓')} Cancelling ${sequences.length === 0 ? 'every Playwright run in progress' : `${sequences.length} sequence${sequences.length === 1 ? '' : 's'}`} of test session ${id}.\n${p.dim('Only Playwright check suites are cancelled; runs of other check types go on until they end.')}\n`,
      );
    }
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'cancel <id>',
    describe: "Cancel a test session's Playwright runs (other check types run to their end)",
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The test session id (a UUID)' })
        .option('sequence-id', {
          type: 'string',
          array: true,
          describe: 'Only these sequences (UUIDs); repeatable. Default: every sequence in progress',
        })
        .example('$0 test-sessions cancel 3f2a…', 'stop the Playwright runs of a session'),
    run: cancel,
  },
];

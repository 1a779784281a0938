import type { CheckSession } from '@monitor/api';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { commandLine } from '../options.js';
import type { RunContext } from '../output.js';
import { failedLocations, sessionJson } from '../session-report.js';
import { type WaitArgs, waitAndReport } from '../session-ui.js';
import { duration, localTime, renderFields, renderTable } from '../tables.js';
import { withWaitOptions } from '../wait-options.js';

const ID_HINT = 'the ids are printed by monitor trigger (and in its --json)';

interface GetArgs extends AccountArgs {
  id: string;
}

interface WaitForArgs extends WaitArgs {
  ids: string[];
}

function resultOf(r: CheckSession['results'][number]): string {
  if (r.isCancelled === true) return 'cancelled';
  if (r.hasErrors || r.hasFailures) return 'failed';
  return r.isDegraded ? 'degraded' : 'passed';
}

/** `monitor sessions get <id>`: a session and its results (partial while it runs). */
async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const id = uuidArgument('the session id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const session = await explained(account.client.checkSessions.get(id), {
      not_found: `no check session ${id} in account ${account.accountId}; ${ID_HINT}`,
    });
    out.result = { session: sessionJson(session) };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    const failed = failedLocations(session);
    io.stdout(
      renderFields(
        [
          ['session', session.checkSessionId],
          ['check', `${session.name} (${session.checkType}, ${session.checkId})`],
          ['status', `${session.status}${failed.length > 0 ? ` in ${failed.join(', ')}` : ''}`],
          ['started', localTime(session.startedAt)],
          ['stopped', session.stoppedAt === null ? 'still running' : localTime(session.stoppedAt)],
          ['took', duration(session.timeElapsed)],
          ['source', session.runSource ?? undefined],
          ['link', session.checkSessionLink],
        ],
        p,
      ),
    );
    if (session.results.length > 0) {
      io.stdout('\n');
      io.stdout(
        renderTable(
          session.results,
          [
            { header: 'LOCATION', value: (r) => r.runLocation },
            { header: 'RESULT', value: (r) => resultOf(r) },
            { header: 'KIND', value: (r) => r.resultType },
            { header: 'RESPONSE', value: (r) => duration(r.responseTime), align: 'right' },
            { header: 'STOPPED', value: (r) => localTime(r.stoppedAt) },
            { header: 'RESULT ID', value: (r) => r.checkResultId },
          ],
          io,
          p,
        ),
      );
      const first =
        session.results.find((r) => r.resultType === 'FINAL' && resultOf(r) === 'failed') ??
        session.results.find((r) => r.resultType === 'FINAL') ??
        session.results[0];
      if (first !== undefined) {
        io.stdout(
          p.dim(
            `\nDetails of a result: ${commandLine(args, 'results', 'get', session.checkId, first.checkResultId)}\n`,
          ),
        );
      }
    }
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

/** `monitor sessions wait <id...>`: wait for sessions started earlier, as `trigger --wait` does. */
async function wait(args: WaitForArgs, ctx: RunContext): Promise<ExitCode> {
  const ids = args.ids
    .flatMap((i) => String(i).split(','))
    .filter((i) => i.trim() !== '')
    .map((i) => uuidArgument('a session id', i, ID_HINT));
  const account = await connectAccount(args, ctx);
  try {
    // A wrong id fails here, with its hint, instead of inside the wait.
    const names = new Map<string, string>();
    for (const id of ids) {
      const session = await explained(account.client.checkSessions.get(id), {
        not_found: `no check session ${id} in account ${account.accountId}; ${ID_HINT}`,
      });
      names.set(id, session.name);
    }
    return await waitAndReport(account.client, ids, names, args, ctx);
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'get <id>',
    describe: 'Show a check session: status, timing, and the result of each location (partial while it runs)',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The check session id' })
        .example('$0 sessions get 2c1e…', 'what a session found'),
    run: get,
  },
  {
    command: 'wait <ids..>',
    describe:
      'Wait for check sessions to finish, as trigger --wait does: exit 0 all passed, 1 one failed, 7 timeout',
    builder: (y: Argv) =>
      withWaitOptions(withAccountOptions(y))
        .positional('ids', {
          type: 'string',
          array: true,
          describe: 'Check session ids (as trigger prints them)',
        })
        .example('$0 sessions wait 2c1e… 9a7b… --timeout 900', 'resume a wait that was interrupted'),
    run: wait,
  },
];

import { dirname } from 'node:path';
import { nearestConfig } from '@monitor/engine/config-location';
import type { Argv } from 'yargs';
import { connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import { rememberSessions } from '../completion-memory.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { commaList, commandLine, UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { type WaitArgs, waitAndReport } from '../session-ui.js';
import { renderTable } from '../tables.js';
import { withWaitOptions } from '../wait-options.js';

export interface TriggerArgs extends WaitArgs {
  tag?: string[] | undefined;
  check?: string[] | undefined;
  group?: number[] | undefined;
  refreshCache?: boolean | undefined;
  wait?: boolean | undefined;
}

export const builder = (y: Argv) =>
  withWaitOptions(withAccountOptions(y))
    .option('tag', {
      type: 'string',
      array: true,
      describe:
        'Checks with all of these tags (comma list); repeat the flag for either set: --tag a,b --tag c',
    })
    .option('check', {
      type: 'string',
      array: true,
      describe: 'This check (its UUID); repeatable, or a comma list',
    })
    .option('group', {
      type: 'number',
      array: true,
      describe: 'Every check of this check group (numeric id); repeatable',
    })
    .option('refresh-cache', { type: 'boolean', describe: "Refresh the checks' cache before they run" })
    .option('wait', {
      type: 'boolean',
      describe: 'Wait for the results: exit 0 when every check passed, 1 when one failed, 7 at --timeout',
    })
    .check((args) => {
      if (args.reporter !== undefined && args.reporter !== 'text' && args.wait !== true) {
        throw new UsageError(
          `--reporter ${String(args.reporter)} reports results: it needs --wait`,
          'add --wait',
        );
      }
      return true;
    })
    .example('$0 trigger --tag prod --wait', 'run the production checks, as a deployment gate')
    .example('$0 trigger --tag api,eu --tag web --wait', 'checks tagged api and eu, or tagged web')
    .example('$0 trigger --group 12 --wait --reporter junit > monitor.xml', 'a test report for CI')
    .example('$0 trigger --check 6f1c…', 'one check; follow it with monitor sessions wait')
    .epilogue(
      'Without a selection every activated check runs (heartbeats excepted). Ctrl-C while waiting leaves the sessions running and prints the command that resumes the wait.',
    );

/** `monitor trigger`: start check sessions now, and with `--wait` gate on their results. */
export async function run(args: TriggerArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const matchTags = (args.tag ?? []).map((t) => commaList([t])).filter((set) => set.length > 0);
  const checkIds = commaList(args.check).map((c) =>
    uuidArgument('--check', c, 'list the checks and their ids with monitor checks list'),
  );
  const account = await connectAccount(args, ctx);
  try {
    const groups = args.group ?? [];
    const bad = groups.find((group) => !Number.isInteger(group) || group < 1);
    if (bad !== undefined) throw new UsageError(`--group takes a check group's numeric id, got ${bad}`);
    const { NoChecksError, triggerChecks } = await import('@monitor/engine/checks');
    const sessions = await explained(
      triggerChecks(account.client, {
        matchTags,
        checkIds,
        groupIds: groups,
        ...(args.refreshCache === true ? { refreshCache: true } : {}),
      }).catch((error: unknown) => {
        if (error instanceof NoChecksError) {
          throw new UsageError(
            `${error.message} (account ${account.accountId})`,
            'list the checks of a group with monitor checks list --group ID',
          );
        }
        throw error;
      }),
      {
        not_found:
          'no activated check matches: see them with monitor checks list (a --check and a --tag must both match)',
      },
    );
    out.result = { triggered: sessions };
    const ids = sessions.map((s) => s.checkSessionId);
    const names = new Map(sessions.map((s) => [s.checkSessionId, s.name]));
    const config = nearestConfig(io.cwd);
    if (config !== undefined) {
      const started = sessions.map((s) => ({ id: s.checkSessionId, name: s.name }));
      rememberSessions(dirname(config), started, new Date());
    }
    const p = paint(io.color);
    if (args.wait !== true) {
      if (!out.json) {
        io.stdout(
          renderTable(
            sessions,
            [
              { header: 'SESSION', value: (s) => s.checkSessionId },
              { header: 'CHECK', value: (s) => s.name, shrink: true },
              { header: 'TYPE', value: (s) => s.checkType ?? '' },
              { header: 'LOCATIONS', value: (s) => s.runLocations.join(','), shrink: true },
            ],
            io,
            p,
          ),
        );
        io.stdout(
          p.dim(
            `Started ${sessions.length} check session${sessions.length === 1 ? '' : 's'}; wait for them with: ${commandLine(args, 'sessions', 'wait', ...ids)}\n`,
          ),
        );
      }
      return EXIT.ok;
    }
    if (!out.json && args.reporter !== 'junit' && args.reporter !== 'json') {
      io.stderr(
        p.dim(
          `Started ${sessions.length} check session${sessions.length === 1 ? '' : 's'} in account ${account.accountId}; waiting…\n`,
        ),
      );
    }
    return await waitAndReport(account.client, ids, names, args, ctx);
  } finally {
    await account.close();
  }
}

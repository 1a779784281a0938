import { collect, type ErrorGroup, type TestSessionErrorGroup } from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { commandLine } from '../options.js';
import type { RunContext } from '../output.js';
import { localTime, renderFields, renderTable } from '../tables.js';

interface ListArgs extends AccountArgs {
  check?: string | undefined;
  archived?: boolean | undefined;
}

interface GetArgs extends AccountArgs {
  id: string;
  testSession?: boolean | undefined;
}

const LIST_HINT = 'list the error groups and their ids with monitor error-groups list';

/** `monitor error-groups list`: the account's error groups, most recently seen first. */
async function list(args: ListArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const check =
    args.check === undefined
      ? undefined
      : uuidArgument('--check', args.check, 'list the checks with monitor checks list');
  const account = await connectAccount(args, ctx);
  try {
    const groups = (await collect(account.client.errorGroups.all()))
      .filter((g) => check === undefined || g.checkId === check)
      .filter((g) => args.archived === true || !g.archivedUntilNextEvent)
      .sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
    out.result = { errorGroups: groups };
    if (out.json) return EXIT.ok;
    if (groups.length === 0) {
      io.stdout(
        `No error groups${args.archived === true ? '' : ' (archived ones hidden: --archived shows them)'}.\n`,
      );
      return EXIT.ok;
    }
    const p = paint(io.color);
    io.stdout(
      renderTable(
        groups,
        [
          { header: 'ID', value: (g) => g.id },
          { header: 'MESSAGE', value: (g) => g.cleanedErrorMessage, shrink: true },
          { header: 'LAST SEEN', value: (g) => localTime(g.lastSeen) },
          { header: 'FIRST SEEN', value: (g) => localTime(g.firstSeen) },
          { header: 'RCA', value: (g) => String(g.rootCauseAnalyses?.length ?? 0), align: 'right' },
          { header: 'CHECK', value: (g) => g.checkId },
        ],
        io,
        p,
      ),
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

function renderGroup(group: ErrorGroup | TestSessionErrorGroup, args: GetArgs, ctx: RunContext): void {
  const { io } = ctx;
  const p = paint(io.color);
  const rcas = group.rootCauseAnalyses ?? [];
  const ofTestSession = args.testSession === true ? (group as TestSessionErrorGroup) : undefined;
  io.stdout(
    renderFields(
      [
        ['id', group.id],
        ['message', group.cleanedErrorMessage],
        ['raw message', group.rawErrorMessage ?? undefined],
        ['check', ofTestSession === undefined ? (group as ErrorGroup).checkId : undefined],
        ['environments', ofTestSession?.environments?.join(', ')],
        ['first seen', localTime(group.firstSeen)],
        ['last seen', localTime(group.lastSeen)],
        ['archived', group.archivedUntilNextEvent ? 'until the next event' : undefined],
        ['analyses', rcas.length === 0 ? 'none' : rcas.map((r) => r.id ?? '(no id)').join(', ')],
      ],
      p,
    ),
  );
  const tests = ofTestSession?.pwtMetadata ?? [];
  if (tests.length > 0) {
    io.stdout(`\n${p.bold('Seen in')}\n`);
    for (const t of tests)
      io.stdout(
        `${escapeTerminal(`    ${t.testFile}: ${[...t.suitePath, t.testTitle].join(' › ')} (${t.projectName})`)}\n`,
      );
  }
  const latest = rcas.filter((r) => r.id !== undefined).at(-1);
  const next =
    latest === undefined
      ? commandLine(
          args,
          'rca',
          'generate',
          group.id,
          ...(args.testSession === true ? ['--test-session'] : []),
          '--wait',
        )
      : commandLine(args, 'rca', 'get', latest.id ?? '');
  io.stdout(
    p.dim(`\n${latest === undefined ? 'Ask for a root cause analysis' : 'The latest analysis'}: ${next}\n`),
  );
}

/** `monitor error-groups get <id>`: one error group (`--test-session` for a test-session error group). */
async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const { out } = ctx;
  const testSession = args.testSession === true;
  const id = testSession
    ? uuidArgument('the test-session error group id', args.id, LIST_HINT)
    : String(args.id).trim();
  const account = await connectAccount(args, ctx);
  try {
    const hints = {
      not_found: `no ${testSession ? 'test-session ' : ''}error group ${id} in account ${account.accountId}; ${LIST_HINT}`,
    };
    const group = testSession
      ? await explained(account.client.testSessionErrorGroups.get(id), hints)
      : await explained(account.client.errorGroups.get(id), hints);
    out.result = { errorGroup: group };
    if (!out.json) renderGroup(group, args, ctx);
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'list',
    describe: 'List the error groups of the account, most recently seen first',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .option('check', { type: 'string', describe: 'Only the error groups of this check' })
        .option('archived', { type: 'boolean', describe: 'Also the groups archived until their next event' })
        .example('$0 error-groups list --check 8f9a…', 'what goes wrong with one check'),
    run: list,
  },
  {
    command: 'get <id>',
    describe: 'Show one error group and its root cause analyses',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The error group id' })
        .option('test-session', { type: 'boolean', describe: 'The id is of a test-session error group' }),
    run: get,
  },
];

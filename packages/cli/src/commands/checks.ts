import { CHECK_TYPES, type Check, collect } from '@monitor/api';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import type { RunContext } from '../output.js';
import { localTime, renderFields, renderTable } from '../tables.js';

interface ListArgs extends AccountArgs {
  tag?: string[] | undefined;
  group?: number | undefined;
  type?: (typeof CHECK_TYPES)[number] | undefined;
  search?: string | undefined;
  status?: 'passing' | 'failing' | 'degraded' | undefined;
}

interface GetArgs extends AccountArgs {
  id: string;
  applyGroupSettings?: boolean | undefined;
}

const LIST_HINT = 'list the checks and their ids with monitor checks list';

/** `monitor checks list`: every check, filtered; the service filters by tag, type, name and status, monitor by group. */
async function list(args: ListArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const account = await connectAccount(args, ctx);
  try {
    const checks = (
      await collect(
        account.client.checks.all({
          ...(args.tag === undefined || args.tag.length === 0 ? {} : { tag: args.tag }),
          ...(args.type === undefined ? {} : { checkType: args.type }),
          ...(args.search === undefined ? {} : { search: args.search }),
          ...(args.status === undefined ? {} : { status: args.status }),
        }),
      )
    ).filter((c) => args.group === undefined || c.groupId === args.group);
    out.result = { checks };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    if (checks.length === 0) {
      io.stdout('No checks match.\n');
      return EXIT.ok;
    }
    io.stdout(
      renderTable(
        checks,
        [
          { header: 'ID', value: (c) => c.id },
          { header: 'NAME', value: (c) => c.name ?? '', shrink: true },
          { header: 'TYPE', value: (c) => c.checkType },
          {
            header: 'GROUP',
            value: (c) => (c.groupId === null || c.groupId === undefined ? '-' : String(c.groupId)),
          },
          {
            header: 'EVERY',
            value: (c) => (c.frequency === undefined ? '-' : `${c.frequency} min`),
            align: 'right',
          },
          {
            header: 'STATE',
            value: (c) => (c.activated === false ? 'off' : c.muted === true ? 'muted' : 'on'),
          },
          { header: 'TAGS', value: (c) => (c.tags ?? []).join(','), shrink: true },
        ],
        io,
        p,
      ),
    );
    io.stdout(p.dim(`${checks.length} check${checks.length === 1 ? '' : 's'}\n`));
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

function describeRequest(check: Check): string | undefined {
  const request = check.request as { method?: unknown; url?: unknown } | null | undefined;
  if (request === null || request === undefined) return undefined;
  return `${String(request.method ?? 'GET')} ${String(request.url ?? '')}`;
}

/** `monitor checks get <id>`: one check, with its group's settings applied on request. */
async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const id = uuidArgument('the check id', args.id, LIST_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const check = await explained(
      account.client.checks.get(id, args.applyGroupSettings === true ? { applyGroupSettings: true } : {}),
      { not_found: `no check ${id} in account ${account.accountId}; ${LIST_HINT}` },
    );
    out.result = { check };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    io.stdout(
      renderFields(
        [
          ['id', check.id],
          ['name', check.name],
          ['type', check.checkType],
          ['state', check.activated === false ? 'deactivated' : check.muted === true ? 'muted' : 'active'],
          ['every', check.frequency === undefined ? undefined : `${check.frequency} min`],
          [
            'group',
            check.groupId === null || check.groupId === undefined ? undefined : String(check.groupId),
          ],
          ['locations', check.locations?.join(', ')],
          ['tags', check.tags?.join(', ')],
          ['request', describeRequest(check)],
          ['created', check.created_at === undefined ? undefined : localTime(check.created_at)],
          [
            'updated',
            check.updated_at === undefined || check.updated_at === null
              ? undefined
              : localTime(check.updated_at),
          ],
          ['settings', args.applyGroupSettings === true ? "with its group's settings applied" : undefined],
        ],
        p,
      ),
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'list',
    describe: 'List the checks of the account: id, name, type, group, frequency, state, tags',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .option('tag', {
          type: 'string',
          array: true,
          describe: 'Only checks with this tag (repeat: any of them)',
        })
        .option('group', { type: 'number', describe: 'Only checks in this check group (its numeric id)' })
        .option('type', { choices: CHECK_TYPES, describe: 'Only checks of this type' })
        .option('search', { type: 'string', describe: 'Only checks whose name contains this (any case)' })
        .option('status', {
          choices: ['passing', 'failing', 'degraded'] as const,
          describe: 'Only checks in this state',
        })
        .example('$0 checks list --tag prod --status failing', 'what is failing in production')
        .example('$0 checks list --group 12 --json', 'the checks of one group, for a script'),
    run: list,
  },
  {
    command: 'get <id>',
    describe: 'Show one check',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The check id (a UUID)' })
        .option('apply-group-settings', {
          type: 'boolean',
          describe: "Show the check with its group's settings applied (locations, alert settings, …)",
        })
        .example('$0 checks get 6f1c8a4e-… --apply-group-settings', 'what the check runs with'),
    run: get,
  },
];

import { INCIDENT_IMPACTS, INCIDENT_STATUSES, type Incident } from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import {
  type AccountArgs,
  type AccountConnection,
  connectAccount,
  explained,
  uuidArgument,
  withAccountOptions,
} from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { commandLine, UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { localTime, renderFields, renderTable } from '../tables.js';

type Impact = (typeof INCIDENT_IMPACTS)[number];
type Status = (typeof INCIDENT_STATUSES)[number];

interface CreateArgs extends AccountArgs {
  dashboard: string;
  name: string;
  impact?: Impact | undefined;
  status?: Status | undefined;
  message: string;
}
interface IdArgs extends AccountArgs {
  id: string;
}
interface GetArgs extends IdArgs {
  allUpdates?: boolean | undefined;
}
interface ChangeArgs extends IdArgs {
  name?: string | undefined;
  impact?: Impact | undefined;
}
interface PostArgs extends IdArgs {
  status: Status;
  message: string;
}
interface ResolveArgs extends IdArgs {
  message?: string | undefined;
}

const ID_HINT =
  'the id is printed by monitor incidents create (the service has no list of dashboard incidents)';
const notFound = (id: string, account: AccountConnection) => ({
  not_found: `no incident ${id} in account ${account.accountId}; ${ID_HINT}`,
});

/** The dashboard's numeric id: given as it is, or found from its `dashboardId` or custom URL. */
async function dashboardNumber(account: AccountConnection, given: string): Promise<number> {
  if (/^\d+$/.test(given)) return Number(given);
  const hints = {
    not_found: `no dashboard "${given}" in account ${account.accountId}: give its numeric id, dashboardId or custom URL`,
  };
  try {
    return (await account.client.dashboards.get(given)).id;
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'not_found') throw e;
    return (await explained(account.client.dashboards.get(given, { type: 'customUrl' }), hints)).id;
  }
}

export function renderIncident(incident: Incident, p: Paint, io: { columns?: number | undefined }): string {
  let out = renderFields(
    [
      ['incident', incident.id],
      ['name', incident.name],
      ['impact', incident.impact],
      ['dashboard', String(incident.dashboardId)],
      [
        'started',
        incident.startedAt === null || incident.startedAt === undefined
          ? undefined
          : localTime(incident.startedAt),
      ],
      [
        'stopped',
        incident.stoppedAt === null || incident.stoppedAt === undefined
          ? 'ongoing'
          : localTime(incident.stoppedAt),
      ],
      ['created', localTime(incident.created_at)],
    ],
    p,
  );
  out += `\n${renderTable(
    [...incident.incidentUpdates].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)),
    [
      { header: 'WHEN', value: (u) => localTime(u.created_at) },
      { header: 'STATUS', value: (u) => u.status },
      { header: 'MESSAGE', value: (u) => u.description, shrink: true },
    ],
    io,
    p,
  )}`;
  return out;
}

async function show(incident: Incident, ctx: RunContext): Promise<ExitCode> {
  ctx.out.result = { incident };
  if (!ctx.out.json) ctx.io.stdout(renderIncident(incident, paint(ctx.io.color), ctx.io));
  return EXIT.ok;
}

async function create(args: CreateArgs, ctx: RunContext): Promise<ExitCode> {
  const account = await connectAccount(args, ctx);
  try {
    const dashboardId = await dashboardNumber(account, String(args.dashboard).trim());
    const incident = await explained(
      account.client.incidents.create({
        name: args.name,
        impact: args.impact ?? 'MINOR',
        dashboardId,
        // The service takes exactly one update with a new incident; post more with add-update.
        incidentUpdates: [{ status: args.status ?? 'INVESTIGATING', description: args.message }],
        startedAt: new Date().toISOString(),
      }),
      { not_found: `no dashboard ${dashboardId} in account ${account.accountId}` },
    );
    if (!ctx.out.json) {
      const p = paint(ctx.io.color);
      ctx.io.stderr(
        p.dim(
          `Opened incident ${escapeTerminal(incident.id)}; post progress with ${commandLine(args, 'incidents', 'add-update', incident.id, '--status', 'IDENTIFIED', '--message', '…')}\n`,
        ),
      );
    }
    return await show(incident, ctx);
  } finally {
    await account.close();
  }
}

async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const id = uuidArgument('the incident id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const incident = await explained(
      account.client.incidents.get(id, args.allUpdates === true ? { includeAllIncidentUpdates: true } : {}),
      notFound(id, account),
    );
    return await show(incident, ctx);
  } finally {
    await account.close();
  }
}

/** PUT needs name and impact: what is not given is sent as it is now. */
async function change(args: ChangeArgs, ctx: RunContext): Promise<ExitCode> {
  if (args.name === undefined && args.impact === undefined) {
    throw new UsageError('nothing to change', 'give --name, --impact or both');
  }
  const id = uuidArgument('the incident id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const current = await explained(account.client.incidents.get(id), notFound(id, account));
    const incident = await account.client.incidents.update(id, {
      name: args.name ?? current.name,
      impact: args.impact ?? (current.impact as Impact),
    });
    return await show(incident, ctx);
  } finally {
    await account.close();
  }
}

async function addUpdate(args: PostArgs, ctx: RunContext): Promise<ExitCode> {
  const id = uuidArgument('the incident id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    await explained(
      account.client.incidents.createUpdate(id, { status: args.status, description: args.message }),
      notFound(id, account),
    );
    return await show(await account.client.incidents.get(id, { includeAllIncidentUpdates: true }), ctx);
  } finally {
    await account.close();
  }
}

/** Post a RESOLVED update and set the stop time: the incident is over. */
async function resolve(args: ResolveArgs, ctx: RunContext): Promise<ExitCode> {
  const id = uuidArgument('the incident id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const current = await explained(account.client.incidents.get(id), notFound(id, account));
    await account.client.incidents.createUpdate(id, {
      status: 'RESOLVED',
      description: args.message ?? 'This incident has been resolved.',
    });
    await account.client.incidents.update(id, {
      name: current.name,
      impact: current.impact as Impact,
      stoppedAt: new Date().toISOString(),
    });
    return await show(await account.client.incidents.get(id, { includeAllIncidentUpdates: true }), ctx);
  } finally {
    await account.close();
  }
}

async function remove(args: IdArgs, ctx: RunContext): Promise<ExitCode> {
  const id = uuidArgument('the incident id', args.id, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    await explained(account.client.incidents.delete(id), notFound(id, account));
    ctx.out.result = { deleted: id };
    if (!ctx.out.json) ctx.io.stdout(`Deleted incident ${escapeTerminal(id)}.\n`);
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

const idPositional = (y: Argv) =>
  withAccountOptions(y).positional('id', { type: 'string', describe: 'The incident id' });

export const subcommands: Subcommand[] = [
  {
    command: 'create',
    describe: 'Open an incident on a dashboard, with its first update',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .option('dashboard', {
          type: 'string',
          demandOption: true,
          describe: 'The dashboard: numeric id, dashboardId or custom URL',
        })
        .option('name', { type: 'string', demandOption: true, describe: 'What is wrong, as visitors see it' })
        .option('impact', { choices: INCIDENT_IMPACTS, describe: 'Default MINOR' })
        .option('status', {
          choices: INCIDENT_STATUSES,
          describe: 'Of the first update (default INVESTIGATING)',
        })
        .option('message', { type: 'string', demandOption: true, describe: 'The first update' })
        .example(
          '$0 incidents create --dashboard 12 --name "Checkout errors" --impact MAJOR --message "We are looking into it"',
          'open one',
        ),
    run: create,
  },
  {
    command: 'get <id>',
    describe: 'Show an incident and its updates',
    builder: (y: Argv) =>
      idPositional(y).option('all-updates', {
        type: 'boolean',
        describe: 'Every update (default: the newest)',
      }),
    run: get,
  },
  {
    command: 'update <id>',
    describe: "Change an incident's name or impact",
    builder: (y: Argv) =>
      idPositional(y)
        .option('name', { type: 'string', describe: 'A new name' })
        .option('impact', { choices: INCIDENT_IMPACTS, describe: 'A new impact' }),
    run: change,
  },
  {
    command: 'add-update <id>',
    describe: 'Post an update: the status now and what people should know',
    builder: (y: Argv) =>
      idPositional(y)
        .option('status', { choices: INCIDENT_STATUSES, demandOption: true, describe: 'The status now' })
        .option('message', { type: 'string', demandOption: true, describe: 'The update' }),
    run: addUpdate,
  },
  {
    command: 'resolve <id>',
    describe: 'Post a RESOLVED update and mark the incident stopped',
    builder: (y: Argv) =>
      idPositional(y).option('message', {
        type: 'string',
        describe: 'Default "This incident has been resolved."',
      }),
    run: resolve,
  },
  {
    command: 'delete <id>',
    describe: 'Delete an incident',
    builder: idPositional,
    run: remove,
  },
];

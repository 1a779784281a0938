import {
  collect,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  type StatusPageIncident,
  type StatusPageIncidentUpdate,
} from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import {
  type AccountArgs,
  type AccountConnection,
  connectAccount,
  explained,
  withAccountOptions,
} from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { commaList, commandLine, UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { localTime, renderFields, renderTable } from '../tables.js';

type Severity = (typeof INCIDENT_SEVERITIES)[number];
type Status = (typeof INCIDENT_STATUSES)[number];

interface ListArgs extends AccountArgs {
  open?: boolean | undefined;
}
interface IdArgs extends AccountArgs {
  id: string;
}
interface CreateArgs extends AccountArgs {
  name: string;
  severity?: Severity | undefined;
  service: string[];
  status?: Status | undefined;
  message: string;
  notify?: boolean | undefined;
}
interface ChangeArgs extends IdArgs {
  name?: string | undefined;
  severity?: Severity | undefined;
  service?: string[] | undefined;
}
interface PostArgs extends IdArgs {
  status?: Status | undefined;
  message: string;
  notify?: boolean | undefined;
}
interface ResolveArgs extends IdArgs {
  message?: string | undefined;
  notify?: boolean | undefined;
}
interface SubscriptionArgs extends AccountArgs {
  pageId: string;
  subscriptionId: string;
}

const LIST_HINT = 'list them with monitor status-pages incidents list';
const notFound = (id: string, account: AccountConnection) => ({
  not_found: `no status-page incident ${id} in account ${account.accountId}; ${LIST_HINT}`,
});

/** Services named on the command line (ids), as incidents refer to them: id, name and account. */
async function servicesOf(account: AccountConnection, ids: string[]) {
  return Promise.all(
    ids.map(async (id) => {
      const service = await explained(account.client.statusPageServices.get(id), {
        not_found: `no status-page service ${id} in account ${account.accountId}; the ids of services are in monitor state list, or the service's page`,
      });
      return { id: service.id, name: service.name, accountId: service.accountId };
    }),
  );
}

function renderUpdates(
  updates: StatusPageIncidentUpdate[],
  io: { columns?: number | undefined },
  p: Paint,
): string {
  return renderTable(
    [...updates].sort(
      (a, b) =>
        Date.parse(b.publicIncidentUpdateDate ?? b.created_at ?? '') -
        Date.parse(a.publicIncidentUpdateDate ?? a.created_at ?? ''),
    ),
    [
      { header: 'WHEN', value: (u) => localTime(u.publicIncidentUpdateDate ?? u.created_at) },
      { header: 'STATUS', value: (u) => u.status ?? '-' },
      { header: 'NOTIFIED', value: (u) => (u.notifySubscribers === true ? 'yes' : 'no') },
      { header: 'MESSAGE', value: (u) => u.description, shrink: true },
    ],
    io,
    p,
  );
}

function renderIncident(
  incident: StatusPageIncident,
  io: { columns?: number | undefined },
  p: Paint,
): string {
  let out = renderFields(
    [
      ['incident', incident.id],
      ['name', incident.name],
      ['severity', incident.severity],
      ['status', incident.lastUpdateStatus ?? incident.incidentUpdates?.at(-1)?.status ?? undefined],
      ['services', incident.services.map((s) => s.name).join(', ')],
      ['created', incident.created_at === undefined ? undefined : localTime(incident.created_at)],
    ],
    p,
  );
  if ((incident.incidentUpdates ?? []).length > 0)
    out += `\n${renderUpdates(incident.incidentUpdates ?? [], io, p)}`;
  return out;
}

/** An incident with its updates: the 100 latest, which the incident itself does not all carry. */
async function withUpdates(account: AccountConnection, id: string): Promise<StatusPageIncident> {
  const incident = await account.client.statusPageIncidents.get(id);
  return { ...incident, incidentUpdates: await account.client.statusPageIncidents.listUpdates(id) };
}

function show(incident: StatusPageIncident, ctx: RunContext): ExitCode {
  ctx.out.result = { incident };
  if (!ctx.out.json) ctx.io.stdout(renderIncident(incident, ctx.io, paint(ctx.io.color)));
  return EXIT.ok;
}

async function withAccount<A extends AccountArgs>(
  args: A,
  ctx: RunContext,
  work: (account: AccountConnection) => Promise<ExitCode>,
) {
  const account = await connectAccount(args, ctx);
  try {
    return await work(account);
  } finally {
    await account.close();
  }
}

const isResolved = (i: StatusPageIncident) =>
  (i.lastUpdateStatus ?? i.incidentUpdates?.at(-1)?.status) === 'RESOLVED';

const incidentVerbs: Subcommand[] = [
  {
    command: 'list',
    describe: 'List the status-page incidents, newest first',
    builder: (y: Argv) =>
      withAccountOptions(y).option('open', { type: 'boolean', describe: 'Only those not resolved' }),
    run: (args: ListArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const incidents = (await collect(account.client.statusPageIncidents.all())).filter(
          (i) => args.open !== true || !isResolved(i),
        );
        ctx.out.result = { incidents };
        if (ctx.out.json) return EXIT.ok;
        if (incidents.length === 0) {
          ctx.io.stdout(`No ${args.open === true ? 'open ' : ''}incidents.\n`);
          return EXIT.ok;
        }
        const p = paint(ctx.io.color);
        ctx.io.stdout(
          renderTable(
            incidents,
            [
              { header: 'ID', value: (i) => i.id },
              { header: 'NAME', value: (i) => i.name, shrink: true },
              { header: 'SEVERITY', value: (i) => i.severity },
              {
                header: 'STATUS',
                value: (i) => i.lastUpdateStatus ?? i.incidentUpdates?.at(-1)?.status ?? '-',
              },
              { header: 'SERVICES', value: (i) => i.services.map((s) => s.name).join(', '), shrink: true },
              { header: 'CREATED', value: (i) => localTime(i.created_at) },
            ],
            ctx.io,
            p,
          ),
        );
        return EXIT.ok;
      }),
  },
  {
    command: 'get <id>',
    describe: 'Show a status-page incident and its updates',
    builder: (y: Argv) =>
      withAccountOptions(y).positional('id', { type: 'string', describe: 'The incident id' }),
    run: (args: IdArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const id = String(args.id).trim();
        return show(await explained(withUpdates(account, id), notFound(id, account)), ctx);
      }),
  },
  {
    command: 'create',
    describe: 'Open an incident on the status pages that show these services',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .option('name', { type: 'string', demandOption: true, describe: 'What is wrong, as visitors see it' })
        .option('severity', { choices: INCIDENT_SEVERITIES, describe: 'Default MINOR' })
        .option('service', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'An affected service id; repeatable',
        })
        .option('status', {
          choices: INCIDENT_STATUSES,
          describe: 'Of the first update (default INVESTIGATING)',
        })
        .option('message', { type: 'string', demandOption: true, describe: 'The first update' })
        .option('notify', { type: 'boolean', describe: "Notify the pages' subscribers of this update" })
        .example(
          '$0 status-pages incidents create --name "Slow checkout" --service d8b9… --message "Investigating" --notify',
          'open one',
        ),
    run: (args: CreateArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const ids = commaList(args.service);
        if (ids.length === 0)
          throw new UsageError('--service names no service', 'give at least one service id');
        const incident = await account.client.statusPageIncidents.create({
          name: args.name,
          severity: args.severity ?? 'MINOR',
          services: await servicesOf(account, ids),
          incidentUpdates: [
            {
              description: args.message,
              status: args.status ?? 'INVESTIGATING',
              notifySubscribers: args.notify === true,
            },
          ],
        });
        if (!ctx.out.json) {
          ctx.io.stderr(
            paint(ctx.io.color).dim(
              `Opened incident ${escapeTerminal(incident.id)}; post progress with ${commandLine(args, 'status-pages', 'incidents', 'add-update', incident.id, '--status', 'IDENTIFIED', '--message', '…')}\n`,
            ),
          );
        }
        return show(incident, ctx);
      }),
  },
  {
    command: 'update <id>',
    describe: "Change an incident's name, severity or services",
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The incident id' })
        .option('name', { type: 'string', describe: 'A new name' })
        .option('severity', { choices: INCIDENT_SEVERITIES, describe: 'A new severity' })
        .option('service', {
          type: 'string',
          array: true,
          describe: 'The affected services instead (ids); repeatable',
        }),
    run: (args: ChangeArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        if (args.name === undefined && args.severity === undefined && args.service === undefined) {
          throw new UsageError('nothing to change', 'give --name, --severity or --service');
        }
        const id = String(args.id).trim();
        const current = await explained(account.client.statusPageIncidents.get(id), notFound(id, account));
        // PUT needs name, severity and services: what is not given is sent as it is now.
        const incident = await account.client.statusPageIncidents.update(id, {
          name: args.name ?? current.name,
          severity: args.severity ?? (current.severity as Severity),
          services:
            args.service === undefined
              ? current.services.map((s) => ({ id: s.id, name: s.name, accountId: s.accountId }))
              : await servicesOf(account, commaList(args.service)),
        });
        return show(incident, ctx);
      }),
  },
  {
    command: 'add-update <id>',
    describe: 'Post an update to a status-page incident',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The incident id' })
        .option('status', { choices: INCIDENT_STATUSES, describe: 'The status now (default INVESTIGATING)' })
        .option('message', { type: 'string', demandOption: true, describe: 'The update' })
        .option('notify', { type: 'boolean', describe: "Notify the pages' subscribers" }),
    run: (args: PostArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const id = String(args.id).trim();
        await explained(
          account.client.statusPageIncidents.createUpdate(id, {
            description: args.message,
            ...(args.status === undefined ? {} : { status: args.status }),
            notifySubscribers: args.notify === true,
          }),
          notFound(id, account),
        );
        return show(await withUpdates(account, id), ctx);
      }),
  },
  {
    command: 'resolve <id>',
    describe: 'Post a RESOLVED update',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The incident id' })
        .option('message', { type: 'string', describe: 'Default "This incident has been resolved."' })
        .option('notify', { type: 'boolean', describe: "Notify the pages' subscribers" }),
    run: (args: ResolveArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const id = String(args.id).trim();
        await explained(
          account.client.statusPageIncidents.createUpdate(id, {
            description: args.message ?? 'This incident has been resolved.',
            status: 'RESOLVED',
            notifySubscribers: args.notify === true,
          }),
          notFound(id, account),
        );
        return show(await withUpdates(account, id), ctx);
      }),
  },
  {
    command: 'delete <id>',
    describe: 'Delete a status-page incident',
    builder: (y: Argv) =>
      withAccountOptions(y).positional('id', { type: 'string', describe: 'The incident id' }),
    run: (args: IdArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const id = String(args.id).trim();
        await explained(account.client.statusPageIncidents.delete(id), notFound(id, account));
        ctx.out.result = { deleted: id };
        if (!ctx.out.json) ctx.io.stdout(`Deleted status-page incident ${escapeTerminal(id)}.\n`);
        return EXIT.ok;
      }),
  },
];

const subscriptionVerbs: Subcommand[] = [
  {
    command: 'delete <pageId> <subscriptionId>',
    describe: 'Remove a subscriber from a status page',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('pageId', { type: 'string', describe: 'The status page id' })
        .positional('subscriptionId', { type: 'string', describe: 'The subscription id' }),
    run: (args: SubscriptionArgs, ctx: RunContext) =>
      withAccount(args, ctx, async (account) => {
        const pageId = String(args.pageId).trim();
        const subscriptionId = String(args.subscriptionId).trim();
        await explained(account.client.statusPages.deleteSubscription(pageId, subscriptionId), {
          not_found: `no subscription ${subscriptionId} on status page ${pageId} in account ${account.accountId}`,
        });
        ctx.out.result = { deleted: { statusPageId: pageId, subscriptionId } };
        if (!ctx.out.json)
          ctx.io.stdout(
            `${escapeTerminal(`Removed subscription ${subscriptionId} from status page ${pageId}.`)}\n`,
          );
        return EXIT.ok;
      }),
  },
];

export const subcommands: Subcommand[] = [
  {
    command: 'incidents',
    describe: 'List, open, update and resolve status-page incidents',
    subcommands: incidentVerbs,
  },
  {
    command: 'subscriptions',
    describe: "Remove a status page's subscribers",
    subcommands: subscriptionVerbs,
  },
];

import type { GroupRoute } from '@monitor/engine';
import { escapeTerminal as t } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { type ProjectArgs, UsageError, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

export interface RoutesArgs extends ProjectArgs {
  ids?: string[] | undefined;
  live?: boolean | undefined;
  test?: boolean | undefined;
  format?: 'text' | 'mermaid' | 'dot' | undefined;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .positional('ids', {
      type: 'string',
      array: true,
      describe:
        'Only these check groups: a logical id or CheckGroup:logicalId (default: every group of the project)',
    })
    .option('live', {
      type: 'boolean',
      describe:
        'From what the account holds now (the groups the project owns), not from the code; with --test, against the account once the code is deployed',
    })
    .option('test', {
      type: 'boolean',
      describe:
        "Run the config's routingTests (expectRoutes) only: exit 3 when one fails. From the code, no account needed; --live judges the account once the code is deployed, as diff and deploy do",
    })
    .option('format', {
      choices: ['text', 'mermaid', 'dot'] as const,
      describe:
        'text for people (default); mermaid a flowchart (groups → events → channels, silencing windows on the edges) for a markdown file or a pull request; dot the same for Graphviz. At most 40 nodes',
    })
    .check((args) => {
      if (args.test === true && args.format !== undefined && args.format !== 'text') {
        throw new UsageError(
          `--test prints the tests' results, not a picture: it cannot be given with --format ${String(args.format)}`,
          'run monitor routes --format mermaid on its own for the picture',
        );
      }
      return true;
    })
    .example('$0 routes', 'who gets paged for each check group, from the code')
    .example('$0 routes payments --live', 'one group, as the account has it now')
    .example('$0 routes --json', 'the same data, for a script')
    .example('$0 routes --test', "in CI: the config's routing tests, from the code (exit 3 on a failure)")
    .example('$0 routes --format mermaid > routing.mmd', 'a picture of who gets paged')
    .epilogue(
      "Each group's subscriptions (channel type, masked target, activated, which of failure, degraded, recovery and SSL expiry each sends), its escalation, muting, and the maintenance windows that silence it with their next occurrences in their zone and yours (TZ). Never a credential.",
    );

/** `monitor routes`: where the alerts of each check group go, from the code or the account. */
export async function run(args: RoutesArgs, ctx: RunContext): Promise<ExitCode> {
  if (args.test === true) {
    const { runRoutingTests } = await import('../routing-tests-ui.js');
    return runRoutingTests(args, ctx);
  }
  const { io, out } = ctx;
  const routes = await readRoutes(args, ctx);
  if (typeof routes === 'number') return routes;
  const timeZone = (await import('@monitor/engine')).userTimeZone();
  out.result = { source: args.live === true ? 'live' : 'code', timeZone, groups: routes };
  if (args.format === 'mermaid' || args.format === 'dot') return printPicture(routes, args.format, ctx);
  if (out.json) return EXIT.ok;
  const { routeLine } = await import('@monitor/engine');
  const p = paint(io.color);
  if (routes.length === 0) {
    io.stdout(
      args.live === true
        ? 'The project owns no check group in this account yet: deploy first.\n'
        : 'The project declares no check group.\n',
    );
    return EXIT.ok;
  }
  io.stdout(routes.map((r) => groupBlock(r, routeLine(r), p)).join('\n'));
  const unrouted = routes.filter((r) => r.noFailureRoute).length;
  if (unrouted > 0) {
    io.stdout(
      `\n${p.yellow(`${unrouted} of ${routes.length} group${routes.length === 1 ? '' : 's'}: no one is told when ${unrouted === 1 ? 'its' : 'their'} checks fail.`)}\n`,
    );
  }
  return EXIT.ok;
}

/** The routes of the groups asked for, from the code or (`--live`) the account. */
async function readRoutes(args: RoutesArgs, ctx: RunContext): Promise<GroupRoute[] | ExitCode> {
  const [{ projectRoutes, userTimeZone }, { loadAndConnect, loadProject }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
  ]);
  const options = { ids: args.ids ?? [], now: new Date(), timeZone: userTimeZone() };
  if (args.live !== true) {
    const project = await loadProject(args, ctx);
    if (typeof project === 'number') return project;
    return projectRoutes({ code: project.resources }, options);
  }
  const connected = await loadAndConnect(args, ctx, { readAccount: true });
  if (typeof connected === 'number') return connected;
  const { connection, snapshot, project } = connected;
  try {
    const account = await (snapshot as NonNullable<typeof snapshot>);
    return projectRoutes({ account, code: project.resources }, options);
  } finally {
    await connection.close();
  }
}

/** The routes as a Mermaid flowchart or a Graphviz graph, on stdout (in the result with --json). */
async function printPicture(routes: GroupRoute[], format: 'mermaid' | 'dot', { io, out }: RunContext) {
  const { picturedRoutes, renderRoutesDot, renderRoutesMermaid } = await import('@monitor/engine');
  const picture = picturedRoutes(routes);
  const text = format === 'mermaid' ? renderRoutesMermaid(picture) : renderRoutesDot(picture);
  if (out.json) out.result = { ...out.result, format, picture: text };
  else io.stdout(`${text}\n`);
  return EXIT.ok;
}

const KIND_WORDS = {
  failure: 'failure',
  degraded: 'degraded',
  recovery: 'recovery',
  sslExpiry: 'SSL expiry',
};

/** One group: its alerts in a line, its subscriptions, escalation and silencing windows. */
function groupBlock(r: GroupRoute, line: string, p: Paint): string {
  const id = r.physicalId === undefined ? '' : p.dim(` (id ${t(String(r.physicalId))})`);
  const lines = [`${p.bold(t(r.logicalId ?? r.group))} ${t(JSON.stringify(r.name))}${id}`];
  lines.push(`  alerts:       ${r.noFailureRoute ? p.red(t(line)) : t(line)}`);
  if (r.tags.length > 0) lines.push(`  tags:         ${t(r.tags.join(', '))}`);
  lines.push(`  escalation:   ${t(r.escalation.description)}`);
  lines.push(
    `  muted:        ${r.muted ? p.yellow('yes: no notifications on failure or recovery') : 'no'}${r.activated ? '' : p.yellow('  (deactivated: its checks do not run)')}`,
  );
  if (r.subscriptions.length === 0) lines.push(`  channels:     ${p.yellow('none')}`);
  else lines.push('  channels:');
  for (const s of r.subscriptions) {
    const word = (text: string) => text.padEnd(12);
    const unread = s.fromProject === undefined ? '? by id' : '? project';
    const state =
      s.unread === true
        ? p.dim(word(s.activated ? unread : `${unread}, off`))
        : s.missing
          ? p.red(word('✗ missing'))
          : s.activated
            ? p.green(word('✓ on'))
            : p.yellow(word('– off'));
    const sends = s.sends
      .map((k) => (k === 'sslExpiry' ? `SSL expiry (${s.sslExpiryThreshold ?? 30} days)` : KIND_WORDS[k]))
      .join(', ');
    lines.push(
      `    ${state} ${t(s.label)}${s.missing ? '' : p.dim(`  ${t(s.channel)}`)}${sends === '' ? '' : `  sends: ${sends}`}`,
    );
  }
  if (r.silencedBy.length > 0) lines.push('  silenced by:');
  for (const w of r.silencedBy) {
    const why =
      w.reason === 'silenceAllAlerts' ? 'silenceAllAlerts' : `silenceAlertsTags: ${w.tags.join(', ')}`;
    lines.push(`    ${t(JSON.stringify(w.name))} ${p.dim(`(${t(why)})`)}  ${t(w.schedule)}`);
    for (const o of w.next) lines.push(`      next: ${t(o.text)}`);
  }
  return `${lines.join('\n')}\n`;
}

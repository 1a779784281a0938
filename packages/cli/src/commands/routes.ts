import type { GroupRoute } from '@monitor/engine';
import { escapeTerminal as t } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { type ProjectArgs, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

export interface RoutesArgs extends ProjectArgs {
  ids?: string[] | undefined;
  live?: boolean | undefined;
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
      describe: 'From what the account holds now (the groups the project owns), not from the code',
    })
    .example('$0 routes', 'who gets paged for each check group, from the code')
    .example('$0 routes payments --live', 'one group, as the account has it now')
    .example('$0 routes --json', 'the same data, for a script')
    .epilogue(
      "Each group's subscriptions (channel type, masked target, activated, which of failure, degraded, recovery and SSL expiry each sends), its escalation, muting, and the maintenance windows that silence it with their next occurrences in their zone and yours (TZ). Never a credential.",
    );

/** `monitor routes`: where the alerts of each check group go, from the code or the account. */
export async function run(args: RoutesArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [{ projectRoutes, routeLine, userTimeZone }, { loadAndConnect, loadProject }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
  ]);
  const options = { ids: args.ids ?? [], now: new Date(), timeZone: userTimeZone() };
  let routes: GroupRoute[];
  if (args.live === true) {
    const connected = await loadAndConnect(args, ctx, { readAccount: true });
    if (typeof connected === 'number') return connected;
    const { connection, snapshot, project } = connected;
    try {
      const account = await (snapshot as NonNullable<typeof snapshot>);
      routes = projectRoutes({ account, code: project.resources }, options);
    } finally {
      await connection.close();
    }
  } else {
    const project = await loadProject(args, ctx);
    if (typeof project === 'number') return project;
    routes = projectRoutes({ code: project.resources }, options);
  }
  out.result = { source: args.live === true ? 'live' : 'code', timeZone: options.timeZone, groups: routes };
  if (out.json) return EXIT.ok;
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
    const state =
      s.unread === true
        ? p.dim(word(s.activated ? '? by id' : '? by id, off'))
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

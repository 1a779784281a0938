import { resolve } from 'node:path';
import type { MaintenanceSchedule, UpcomingWindow } from '@monitor/engine';
import { escapeTerminal as t } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { invalidValue, type ProjectArgs, UsageError, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

export interface MaintenanceArgs extends ProjectArgs {
  days?: number | undefined;
  from?: Date | undefined;
  ics?: string | undefined;
  live?: boolean | undefined;
}

/** The longest period listed: ten years of a daily window is 3,650 occurrences each. */
const MAX_DAYS = 3660;

function days(value: unknown): number {
  const text = String(value).trim();
  const n = Number(text);
  if (text === '' || !Number.isInteger(n) || n < 1 || n > MAX_DAYS) {
    invalidValue(
      new UsageError(
        `--days must be a whole number of days from 1 to ${MAX_DAYS}, got "${String(value)}"`,
        'e.g. --days 90',
      ),
    );
  }
  return n;
}

function date(value: unknown): Date {
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) {
    invalidValue(
      new UsageError(
        `--from must be a date, got "${String(value)}"`,
        'e.g. --from 2027-01-01 or --from 2027-01-01T09:00:00+01:00',
      ),
    );
  }
  return d;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .option('days', {
      type: 'string',
      coerce: days,
      describe: 'How many days ahead to list (default 30)',
    })
    .option('from', {
      type: 'string',
      coerce: date,
      describe: 'Start of the period, a date or date-time (default now)',
    })
    .option('ics', {
      type: 'string',
      describe:
        'Also write the occurrences as an iCalendar file (.ics) a team calendar can subscribe to; with no file, or -, the calendar alone goes to stdout (the listing to stderr)',
    })
    .option('live', {
      type: 'boolean',
      describe: "From the account's windows (all of them, owned or not), not from the code",
    })
    // yargs reads the `-` of `--ics -` as a word of its own (a positional, which the command has
    // none of): taken back here as the value of --ics, before yargs checks for unknown arguments.
    .middleware((argv) => {
      const dash = argv._.indexOf('-');
      if (argv.ics === '' && dash !== -1) {
        argv._.splice(dash, 1);
        argv.ics = '-';
      }
    }, true)
    .check((args) => {
      if (icsOnStdout(args.ics) && (args as { json?: unknown }).json === true) {
        throw new UsageError(
          '--ics with no file writes the calendar to stdout, where --json writes its envelope',
          'name a file for the calendar, e.g. --ics maintenance.ics',
        );
      }
      return true;
    })
    .example('$0 maintenance', 'the windows of the next 30 days, from the code')
    .example('$0 maintenance --days 90 --live', 'what the account will silence in the next 90 days')
    .example('$0 maintenance --ics maintenance.ics', 'a calendar file for the team')
    .example('$0 maintenance --ics -', 'the calendar on stdout, the listing on stderr')
    .epilogue(
      "Repeats are expanded on the wall clock of each window's time zone (a 02:00 window stays at 02:00 across daylight-saving changes; a start the clocks skip is moved on by the change, as RFC 5545 does) and last as long as the first occurrence; times are shown in that zone and yours (TZ).",
    );

/** `--ics` with no file (yargs reads it as ''), or `--ics -`: the calendar goes to stdout. */
function icsOnStdout(ics: unknown): boolean {
  return ics === '' || ics === '-';
}

/** `monitor maintenance`: the maintenance windows of the coming days, and what each affects. */
export async function run(args: MaintenanceArgs, given: RunContext): Promise<ExitCode> {
  // With the calendar on stdout, everything for people goes to stderr.
  const toStdout = icsOnStdout(args.ics);
  const ctx = toStdout ? { ...given, io: { ...given.io, stdout: given.io.stderr } } : given;
  const { io, out } = ctx;
  const [
    { maintenanceCalendar, upcomingMaintenance, userTimeZone },
    { loadAndConnect, loadProject },
    { CommandError },
    { writeFileAtomic },
  ] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
    import('../account.js'),
    import('@monitor/api'),
  ]);
  const options = { from: args.from ?? new Date(), days: args.days ?? 30, timeZone: userTimeZone() };
  let schedule: MaintenanceSchedule;
  let projectName: string;
  if (args.live === true) {
    const connected = await loadAndConnect(args, ctx, { readAccount: true });
    if (typeof connected === 'number') return connected;
    const { connection, snapshot, project } = connected;
    projectName = project.config.projectName;
    try {
      schedule = upcomingMaintenance({ account: await (snapshot as NonNullable<typeof snapshot>) }, options);
    } finally {
      await connection.close();
    }
  } else {
    const project = await loadProject(args, ctx);
    if (typeof project === 'number') return project;
    projectName = project.config.projectName;
    schedule = upcomingMaintenance({ code: project.resources }, options);
  }
  out.result = {
    source: args.live === true ? 'live' : 'code',
    ...schedule,
    ics: toStdout ? '-' : (args.ics ?? null),
  };
  if (args.ics !== undefined) {
    const calendar = maintenanceCalendar(schedule, { now: new Date(), name: `${projectName} maintenance` });
    if (toStdout) {
      given.io.stdout(calendar);
      await given.io.drained?.();
    } else {
      const path = resolve(io.cwd, args.ics);
      try {
        writeFileAtomic(path, calendar);
      } catch (e) {
        throw new CommandError(
          'cannot_write',
          `cannot write the calendar to ${path}: ${(e as Error).message}`,
          'name a file in a directory you can write to, e.g. --ics maintenance.ics',
        );
      }
    }
  }
  if (out.json) return EXIT.ok;
  const p = paint(io.color);
  const occurrences = schedule.windows.reduce((n, w) => n + w.occurrences.length, 0);
  io.stdout(
    `${p.bold(`Maintenance from ${schedule.from.slice(0, 16).replace('T', ' ')} to ${schedule.until.slice(0, 16).replace('T', ' ')} UTC`)}: ${schedule.windows.length} window${schedule.windows.length === 1 ? '' : 's'}, ${occurrences} occurrence${occurrences === 1 ? '' : 's'}${p.dim(` (times in each window's zone, and in ${t(schedule.timeZone)})`)}\n`,
  );
  for (const w of schedule.windows) io.stdout(`\n${windowBlock(w, p)}`);
  if (schedule.overlaps.length > 0) {
    const names = new Map(schedule.windows.map((w) => [w.window, w.name]));
    io.stdout(
      `\n${p.yellow(`${schedule.overlaps.length} overlap${schedule.overlaps.length === 1 ? '' : 's'}:`)}\n`,
    );
    for (const o of schedule.overlaps) {
      const [a, b] = o.windows.map((w) => t(JSON.stringify(names.get(w) ?? w)));
      io.stdout(
        `  ${a} and ${b}: ${o.start.slice(0, 16).replace('T', ' ')}–${o.end.slice(0, 16).replace('T', ' ')} UTC\n`,
      );
    }
  }
  for (const w of schedule.unreadable) io.stdout(p.yellow(`${t(w)}: its dates cannot be read; left out\n`));
  if (args.ics !== undefined)
    io.stdout(
      p.dim(
        `\nWrote ${occurrences} event${occurrences === 1 ? '' : 's'} to ${toStdout ? 'stdout' : t(args.ics)}\n`,
      ),
    );
  return EXIT.ok;
}

function windowBlock(w: UpcomingWindow, p: Paint): string {
  const silences = w.silenceAllAlerts
    ? p.yellow('all alerts')
    : w.silenceAlertsTags.length > 0
      ? `alerts of tags ${t(w.silenceAlertsTags.join(', '))}`
      : 'no alerts';
  const lines = [
    `${p.bold(t(JSON.stringify(w.name)))} ${p.dim(t(w.window))}`,
    `  schedule:     ${t(w.schedule)}`,
    `  silences:     ${silences}${w.pauseAllChecks ? p.yellow('; pauses every check') : ''}`,
    `  groups:       ${w.groups.length === 0 ? 'none' : t(w.groups.map((g) => `${g.name} (${g.effects.join(', ')})`).join(', '))}`,
    `  status pages: ${w.statusPages.length === 0 ? 'none' : t(w.statusPages.join(', '))}`,
    '  occurrences:',
  ];
  for (const o of w.occurrences) {
    const overlap = o.overlaps.length === 0 ? '' : p.yellow(`  overlaps ${t(o.overlaps.join(', '))}`);
    lines.push(`    ${t(o.text)}${overlap}`);
  }
  return `${lines.join('\n')}\n`;
}

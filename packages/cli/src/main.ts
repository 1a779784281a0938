import { dirname } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { nearest } from '@monitor/api/nearest';
import type { Argv } from 'yargs';
import type { CommandModule, Subcommand } from './command.js';
import { EXIT, type ExitCode, exitCodesLine } from './exit-codes.js';
import { type Io, paint } from './io.js';
import { startLocalEmulatorEarly } from './local-emulator.js';
import { UsageError, usageErrorOf } from './options.js';
import { Output, type RunContext } from './output.js';
import { type RefusedExit, takeRefusedExit } from './refused-exit.js';
import { report } from './report-error.js';
import { CLI_VERSION } from './version.js';
import { choosesProjects, withWorkspaceOptions } from './workspace-options.js';

export { CLI_VERSION };

/**
 * The commands, one file each. A command's module (and with it the engine, esbuild or the
 * emulator) is loaded only when that command runs or shows its help: `monitor --help` and
 * `monitor --version` load none of them.
 */
const COMMANDS: {
  name: string;
  usage?: string;
  describe: string;
  load: () => Promise<CommandModule>;
  /** Bundles the project with esbuild: its service is started while the command's modules load. */
  loadsProject?: true;
  /** Runs on projects of a workspace too: `--all`, `--project`, `--changed-since` (workspace-run.ts). */
  acrossProjects?: true;
}[] = [
  {
    name: 'init',
    usage: 'init [dir]',
    describe:
      'Scaffold a project: config, tsconfig, package.json, .gitignore, an example (and CI workflows with --ci)',
    load: () => import('./commands/init.js'),
  },
  {
    name: 'validate',
    loadsProject: true,
    acrossProjects: true,
    describe: 'Load the project and check every construct; exit 3 when something is wrong',
    load: () => import('./commands/validate.js'),
  },
  {
    name: 'diff',
    loadsProject: true,
    acrossProjects: true,
    describe: 'Show what deploy would change in the account, field by field (reads only)',
    load: () => import('./commands/diff.js'),
  },
  {
    name: 'audit',
    loadsProject: true,
    describe:
      "Run the project's policies over every resource in the account, owned by this project or not; exit 3 on an error",
    load: () => import('./commands/audit.js'),
  },
  {
    name: 'import',
    loadsProject: true,
    describe:
      'Write TypeScript for resources already in the account and record them as owned (the next diff: No changes)',
    load: () => import('./commands/import.js'),
  },
  {
    name: 'pull',
    loadsProject: true,
    acrossProjects: true,
    describe:
      "Write the account's values of what changed outside monitor back into the TypeScript (owned resources only)",
    load: () => import('./commands/pull.js'),
  },
  {
    name: 'deploy',
    loadsProject: true,
    acrossProjects: true,
    describe: 'Make the account match the code: create, update, adopt, move and delete',
    load: () => import('./commands/deploy.js'),
  },
  {
    name: 'verify',
    loadsProject: true,
    acrossProjects: true,
    describe:
      "Run the checks of the deployed check groups (all, named, or the last deploy's) and compare them with before; exit 8 when one broke",
    load: () => import('./commands/verify.js'),
  },
  {
    name: 'destroy',
    loadsProject: true,
    acrossProjects: true,
    describe: 'Delete every resource this project owns (those in state); protected ones are kept',
    load: () => import('./commands/destroy.js'),
  },
  {
    name: 'output',
    usage: 'output [ids..]',
    loadsProject: true,
    describe: 'The ids and the values the service assigned (URLs, generated names) of what the project owns',
    load: () => import('./commands/output.js'),
  },
  {
    name: 'routes',
    usage: 'routes [ids..]',
    loadsProject: true,
    describe:
      'Who gets paged: for each check group, its alert channels, what each sends, escalation, muting and the maintenance windows that silence it',
    load: () => import('./commands/routes.js'),
  },
  {
    name: 'maintenance',
    loadsProject: true,
    describe:
      'The maintenance windows of the coming days (repeats expanded), what each silences, overlaps; --ics writes a calendar file',
    load: () => import('./commands/maintenance.js'),
  },
  {
    name: 'projects',
    describe:
      'The projects of the workspace (monitor.workspace.ts), each after those it references, with their accounts',
    load: () => import('./commands/projects.js'),
  },
  {
    name: 'ci',
    usage: 'ci <action>',
    describe: 'For CI: the matrix of the projects a change touched (ci matrix)',
    load: () => import('./commands/ci.js'),
  },
  {
    name: 'whoami',
    describe:
      'Which project, environment, account and base URL a command would use here, and whether the key works',
    load: () => import('./commands/whoami.js'),
  },
  {
    name: 'state',
    usage: 'state <action> [args..]',
    describe: 'List, show, move, forget, pull, push, migrate, unlock and rebind the state of the project',
    load: () => import('./commands/state.js'),
  },
  {
    name: 'checks',
    describe: 'List the checks of the account, or show one',
    load: () => import('./commands/checks.js'),
  },
  {
    name: 'trigger',
    describe: 'Run checks now (by tag, check or group); with --wait, a gate on their results',
    load: () => import('./commands/trigger.js'),
  },
  {
    name: 'sessions',
    describe: 'Show a check session, or wait for sessions to finish',
    load: () => import('./commands/sessions.js'),
  },
  {
    name: 'results',
    describe: 'Show one check result in full',
    load: () => import('./commands/results.js'),
  },
  {
    name: 'incidents',
    describe: 'Open, update and resolve incidents on dashboards',
    load: () => import('./commands/incidents.js'),
  },
  {
    name: 'status-pages',
    describe: "Status-page incidents (list, open, update, resolve) and a page's subscriptions",
    load: () => import('./commands/status-pages.js'),
  },
  {
    name: 'private-locations',
    describe: "A private location's queue over time, charted",
    load: () => import('./commands/private-locations.js'),
  },
  {
    name: 'test-sessions',
    describe: "Cancel a test session's Playwright runs",
    load: () => import('./commands/test-sessions.js'),
  },
  {
    name: 'analytics',
    describe: 'Availability and response times: a summary of many checks, or one API check charted over time',
    load: () => import('./commands/analytics.js'),
  },
  {
    name: 'error-groups',
    describe: 'List the error groups of the account, or show one',
    load: () => import('./commands/error-groups.js'),
  },
  {
    name: 'rca',
    describe: 'Ask for a root cause analysis of an error group, and read it',
    load: () => import('./commands/rca.js'),
  },
  {
    name: 'agent',
    describe: "Probe a private-location agent's health endpoints (a probe or a deployment gate)",
    load: () => import('./commands/agent.js'),
  },
  {
    name: 'emulator',
    describe: 'Run the local emulator of the whole service API (what --local uses), until Ctrl-C',
    load: () => import('./commands/emulator.js'),
  },
  {
    name: 'completion',
    usage: 'completion [shell]',
    describe: 'Print a completion script for bash, zsh or fish; its --help says how to install it',
    load: () => import('./commands/completion.js'),
  },
];

/** yargs' "Unknown argument: x", with the nearest option of the command: "did you mean --y?". */
function withSuggestion(message: string, context: unknown): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(', ');
  // What yargs hands the fail handler: its usage, which knows the command's described options.
  const options = (
    context as { getDescriptions?: () => Record<string, unknown> } | undefined
  )?.getDescriptions?.();
  if (unknown === undefined || options === undefined) return message;
  const known = Object.keys(options).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
  const hints = unknown.flatMap((word) => {
    const best = nearest(word, known);
    return best === undefined ? [] : [`--${best}`];
  });
  return hints.length === 0 ? message : `${message}; did you mean ${hints.join(', ')}?`;
}

/**
 * Every command line that has its own help, nested verbs included (`['checks', 'list']`), in the
 * order `monitor --help` lists them: what the CLI reference is generated from.
 */
export async function commandPaths(): Promise<string[][]> {
  const paths: string[][] = [];
  const walk = (prefix: string[], subcommands: Subcommand[]) => {
    for (const sub of subcommands) {
      const path = [...prefix, sub.command.split(' ')[0] as string];
      paths.push(path);
      if ('subcommands' in sub) walk(path, sub.subcommands);
    }
  };
  for (const command of COMMANDS) {
    paths.push([command.name]);
    const module = await command.load();
    if ('subcommands' in module) walk([command.name], module.subcommands);
  }
  return paths;
}

const nonEmpty = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/**
 * When a shell asks for completions and the word is an id (`completion-memory.ts`): the ids to
 * offer, from what the project's last load and this checkout's sessions left, without loading the
 * project or asking the API. Found before the parser runs: its completion answers synchronously.
 */
async function idsToOffer(argv: readonly string[], cwd: string): Promise<string[] | undefined> {
  if (argv[0] !== '--get-yargs-completions') return undefined;
  const [{ nearestConfig }, { idCompletions, readCompletionMemory }] = await Promise.all([
    import('@monitor/engine/config-location'),
    import('./completion-memory.js'),
  ]);
  // The words after `monitor`, the one being completed last.
  return idCompletions(argv.slice(2), () => {
    const config = nearestConfig(cwd);
    return config === undefined ? { constructs: [], sessions: [] } : readCompletionMemory(dirname(config));
  });
}

/**
 * The ids of `idsToOffer` where the word is one; elsewhere yargs' completions, less the options
 * where there are verbs or choices to offer: `state <TAB>` lists list, show, mv…; options come when
 * the word starts with `-`, or when nothing else fits.
 */
function completeWords(
  ids: readonly string[] | undefined,
): (
  current: string,
  argv: unknown,
  defaults: (done: (error: Error | null, completions: string[] | undefined) => void) => void,
  done: (completions: string[]) => void,
) => void {
  // Synchronous: yargs goes on (and refuses the completion option as unknown) once this returns.
  return (current, _argv, defaults, done) => {
    if (ids !== undefined) done(ids.filter((id) => id.startsWith(current)));
    else defaultCompletions(current, defaults, done);
  };
}

function defaultCompletions(
  current: string,
  defaults: (done: (error: Error | null, completions: string[] | undefined) => void) => void,
  done: (completions: string[]) => void,
): void {
  defaults((_error, completions = []) => {
    const words = current.startsWith('-') ? [] : completions.filter((c) => !c.startsWith('-'));
    done(words.length > 0 ? words : completions);
  });
}

/**
 * Whether the arguments ask for the JSON envelope, before any parser runs: `--json`, `--json=true`
 * (`--json true`), `--format json` or `--format=json`; `--json=false` and `--no-json` do not.
 */
export function wantsJson(argv: readonly string[]): boolean {
  let json = false;
  for (const [i, a] of argv.entries()) {
    if (a === '--no-json') json = false;
    else if (a === '--json') json = !['false', '0'].includes(argv[i + 1] ?? '');
    else if (a.startsWith('--json=')) json = !['false', '0'].includes(a.slice('--json='.length));
  }
  return json || optionValue(argv, 'format') === 'json';
}

/** The value given to `--name` (as `--name value` or `--name=value`), before any parser runs. */
function optionValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The command the arguments name, if any: the first word that is not an option. */
function requestedCommand(argv: readonly string[]) {
  // A shell asking for completions passes the words typed after the program's name.
  const words = argv[0] === '--get-yargs-completions' ? argv.slice(2) : argv;
  const word = words.find((a) => !a.startsWith('-'));
  return COMMANDS.find((c) => c.name === word);
}

/**
 * yargs renders the whole help of the command being run on every run, to have it at hand should
 * the command fail; monitor reports failures itself (`.fail` below) and never shows that help, and
 * the rendering costs ~15 ms of every command. An internal of yargs: when it moves, nothing breaks.
 */
function skipHelpCache(parser: Argv): void {
  type Internals = {
    getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
  };
  const usage = (parser as unknown as Internals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

/**
 * Start the work a command will need that does not wait for its modules, on the second core:
 * esbuild building the project (its own process), and the `--local` emulator loading its code and
 * data (its own thread). Only head starts: the command checks that what it takes is its own.
 * Resolves once both are under way (never rejects): for a large project the build, not this
 * thread, is what the command waits for, so it goes first.
 */
async function startEarly(
  requested: (typeof COMMANDS)[number] | undefined,
  argv: string[],
  io: Io,
): Promise<void> {
  const local = argv.includes('--local');
  const loadsProject = requested?.loadsProject === true;
  if (!loadsProject && !local) return;
  try {
    const { locateConfig } = await import('@monitor/engine/config-location');
    const configPath = locateConfig({ cwd: io.cwd, config: optionValue(argv, 'config') });
    await Promise.all([
      local
        ? startLocalEmulatorEarly(
            configPath === undefined ? io.cwd : dirname(configPath),
            nonEmpty(optionValue(argv, 'env') ?? io.env.MONITOR_ENV),
          )
        : undefined,
      loadsProject && configPath !== undefined
        ? import('@monitor/engine/prefetch').then((m) => m.prefetchProject(configPath))
        : undefined,
    ]);
  } catch {
    // Only a head start is lost: the command does the same work when it gets there.
  }
}

type Handle = (
  name: string,
  run: (args: Record<string, unknown>, ctx: RunContext) => Promise<ExitCode>,
) => (args: Record<string, unknown>) => Promise<void>;

/**
 * The parser of every command. Only the `requested` command's module is loaded (`loaded`), so only
 * its options are known before it runs; the others load when their handler is reached.
 */
function commandParser(
  yargs: typeof import('./yargs.js')['default'],
  requested: (typeof COMMANDS)[number] | undefined,
  loaded: CommandModule | undefined,
  handle: Handle,
  io: Io,
  ids: readonly string[] | undefined,
): Argv {
  let parser: Argv = yargs()
    .scriptName('monitor')
    .usage(
      'monitor <command> [options]\n\nMonitoring-as-code: declare checks, dashboards and status pages in TypeScript.',
    );
  for (const command of COMMANDS) {
    const module = command === requested ? loaded : undefined;
    parser = parser.command({
      command: command.usage ?? command.name,
      describe: command.describe,
      builder: (y: Argv) => {
        if (module === undefined) return y;
        const own =
          'subcommands' in module ? verbs(y, command.name, module.subcommands, handle) : module.builder(y);
        const built = command.acrossProjects === true ? withWorkspaceOptions(own) : own;
        // Its own exit codes last, in place of the whole table the top level lists.
        return built.epilogue(exitCodesLine(command.name));
      },
      handler: async (args: Record<string, unknown>) => {
        const m = module ?? (await command.load());
        if ('subcommands' in m) return;
        const run = command.acrossProjects === true ? acrossProjectsWhenChosen(command.name, m.run) : m.run;
        await handle(command.name, run)(args);
      },
    });
  }
  skipHelpCache(parser);
  return (
    parser
      .demandCommand(1, 'name a command')
      .recommendCommands()
      // What the scripts of `monitor completion` ask (--get-yargs-completions); its own command is hidden.
      .completion('__complete', false, completeWords(ids))
      .strict()
      .version(CLI_VERSION)
      .alias('h', 'help')
      .alias('v', 'version')
      .wrap(Math.min(110, io.columns ?? process.stdout.columns ?? 100))
      .epilogue(exitCodesLine())
      .exitProcess(false)
      .fail((message, error, context) => {
        if (error === undefined || error === null) throw new UsageError(withSuggestion(message, context));
        // yargs' own argument errors (a coerce function's included) are usage errors, not crashes.
        throw error.name === 'YError' ? usageErrorOf(error) : error;
      })
  );
}

type Run = (args: Record<string, unknown>, ctx: RunContext) => Promise<ExitCode>;

/** `run`, or with `--all`, `--project` or `--changed-since`, `run` on each chosen project of the workspace. */
function acrossProjectsWhenChosen(name: string, run: Run): Run {
  return async (args, ctx) => {
    if (!choosesProjects(args)) return run(args, ctx);
    const { runInWorkspace } = await import('./workspace-run.js');
    return runInWorkspace(name, args, ctx, run);
  };
}

/** Register `subcommands` under the noun `path`, nested nouns included. */
function verbs(y: Argv, path: string, subcommands: Subcommand[], handle: Handle): Argv {
  let withVerbs = y;
  for (const sub of subcommands) {
    const name = `${path} ${sub.command.split(' ')[0]}`;
    withVerbs = withVerbs.command({
      command: sub.command,
      describe: sub.describe,
      builder: (inner: Argv) =>
        'run' in sub ? sub.builder(inner) : verbs(inner, name, sub.subcommands, handle),
      handler: 'run' in sub ? handle(name, sub.run) : () => {},
    });
  }
  return withVerbs.demandCommand(
    1,
    `name what to do: ${subcommands.map((sub) => sub.command.split(' ')[0]).join(', ')}`,
  );
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. Never exits the process. */
export async function main(argv: string[], io: Io): Promise<ExitCode> {
  // The one answer that needs no parser: scripts ask it often, and it should cost a node start.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.stdout(`${CLI_VERSION}\n`);
    return EXIT.ok;
  }
  const requested = requestedCommand(argv);
  if (!argv.includes('--help') && !argv.includes('-h')) await startEarly(requested, argv, io);
  const { default: yargs } = await import('./yargs.js');
  const out = new Output(requested?.name ?? '', wantsJson(argv));
  let code: ExitCode = EXIT.ok;
  // Help and version are text; a command that ran or failed prints its envelope.
  let answered = false;
  try {
    const loaded = requested === undefined ? undefined : await requested.load();
    /** A handler that runs `run` as the command named `name`, and keeps its exit code. */
    const handle: Handle = (name, run) => async (args) => {
      out.command = name;
      out.json = args.json === true || args.format === 'json';
      answered = true;
      code = await run(args, { io, out });
    };
    await commandParser(yargs, requested, loaded, handle, io, await idsToOffer(argv, io.cwd)).parseAsync(
      argv,
      {},
      // With a callback yargs hands over its help and version text instead of printing it.
      (_error, _args, output) => {
        if (output !== '') io.stdout(`${output}\n`);
      },
    );
  } catch (error) {
    answered = true;
    code = await report(error, io, out);
  }
  // A construct file's timers that are due by now fire before the answer is printed, so that an
  // exit one of them calls is in it.
  if (requested?.loadsProject === true) await wait(0);
  const refused = takeRefusedExit();
  if (refused !== undefined) {
    answered = true;
    code = await reportRefusedExit(refused, code, io, out);
  }
  if (answered) code = await out.print(io, code);
  return code;
}

/**
 * Project code called `process.exit` from a timer while the command ran: monitor went on and
 * finished, and now says so. The project is at fault (exit 3) unless the command failed already.
 */
async function reportRefusedExit(
  refused: RefusedExit,
  code: ExitCode,
  io: Io,
  out: Output,
): Promise<ExitCode> {
  if (out.error !== null) {
    if (!out.json) io.stderr(`${paint(io.color).red('error')}: ${refused.message}\n`);
    return code;
  }
  return report({ code: 'process_exit', message: refused.message, hint: refused.hint }, io, out);
}

import { relative } from 'node:path';
import type { Workspace, WorkspaceProject } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import { EXIT, type ExitCode } from './exit-codes.js';
import { type Io, paint } from './io.js';
import { commaList, environmentOf, UsageError } from './options.js';
import { type Envelope, Output, type RunContext } from './output.js';
import { forgetLoadsAhead, forgetLoadsAheadExcept, loadAhead } from './project-loads.js';
import { report } from './report-error.js';
import { shareLiveReads, stopSharingLiveReads } from './shared-reads.js';
import { choosesProjects, type WorkspaceArgs } from './workspace-options.js';
import { factsOfRun, type PlanFacts, planLine, workspaceMarkdown } from './workspace-summary.js';

/** Options that name one file or one project's constructs: meaningless across projects. */
const ONE_PROJECT_OPTIONS: [key: string, flag: string][] = [
  ['config', '--config'],
  ['plan', '--plan'],
  ['out', '--out'],
  ['target', '--target'],
  ['replace', '--replace'],
  ['secretsOut', '--secrets-out'],
];

/** A project of the run, with the projects of the run it references, and the environment it runs in. */
export interface Chosen {
  project: WorkspaceProject;
  dependsOn: string[];
  /** The environment asked for when the project defines it; none for a project without environments. */
  environment: string | undefined;
}

/** A project the selection names that does not take part: it does not define the environment asked for. */
export interface LeftOut {
  name: string;
  dir: string;
  reason: string;
}

/** What one project's run gave. */
interface Outcome {
  chosen: Chosen;
  exitCode: ExitCode;
  /** Why it was not run: a Ctrl-C before its turn. */
  notRunBecause?: string | undefined;
  envelope: Envelope;
  /** What its plan was, when it made one. */
  planFacts: PlanFacts | null;
}

type Run = (args: Record<string, unknown>, ctx: RunContext) => Promise<ExitCode>;

/**
 * Run `command` on the projects of the workspace the arguments choose: in dependency order, up to
 * `--parallel-projects` at once, each in its own directory with its own output, printed whole as
 * it finishes, and a summary at the end. A project that fails does not stop the others; a deploy
 * or destroy does not run on a project whose dependency failed. The exit code is the worst one.
 */
export async function runInWorkspace(
  command: string,
  args: Record<string, unknown> & WorkspaceArgs,
  ctx: RunContext,
  run: Run,
): Promise<ExitCode> {
  for (const [key, flag] of ONE_PROJECT_OPTIONS) {
    if (args[key] !== undefined) {
      throw new UsageError(
        `${flag} is for one project, and --all, --project or --changed-since choose projects of a workspace`,
        `run it in the project's directory without choosing projects, or leave out ${flag}`,
      );
    }
  }
  const { findWorkspace } = await import('@monitor/engine');
  const workspace = await findWorkspace(ctx.io.cwd);
  const environment = environmentOf(args as { env?: string }, ctx.io.env);
  let chosen: Chosen[];
  let leftOut: LeftOut[];
  try {
    ({ chosen, leftOut } = await chooseProjects(workspace, args, environment));
  } catch (error) {
    forgetLoadsAhead();
    throw error;
  }
  sayLeftOut(leftOut, ctx);
  if (chosen.length === 0) return nothingChosen(command, args, workspace, ctx);
  const applies = command === 'deploy' || command === 'destroy';
  if (applies && chosen.length > 1 && args.yes !== true) {
    forgetLoadsAhead();
    return refuseWithoutYes(command, chosen.length, args, ctx);
  }
  // Commands that only read share one read of each account among the projects.
  if (command === 'diff' || command === 'pull') shareLiveReads();
  let outcomes: Outcome[];
  try {
    outcomes = await schedule(command, chosen, args, ctx, run);
  } finally {
    stopSharingLiveReads();
  }
  const code = summarize(command, workspace, outcomes, ctx);
  if (leftOut.length > 0) ctx.out.result = { ...ctx.out.result, leftOut };
  return args.comment === true ? postWorkspaceComment(command, workspace, outcomes, args, ctx, code) : code;
}

/** Projects the selection names that do not take part, said before the run. */
function sayLeftOut(leftOut: readonly LeftOut[], ctx: RunContext): void {
  if (ctx.out.json) return;
  for (const l of leftOut) {
    ctx.io.stderr(
      `${paint(ctx.io.color).dim(`left out: ${escapeTerminal(`${l.name} (${l.dir}): ${l.reason}`)}`)}\n`,
    );
  }
}

/** Many projects side by side cannot each ask: the run needs `--yes`, after a diff of the same projects. */
function refuseWithoutYes(command: string, count: number, args: WorkspaceArgs, ctx: RunContext): ExitCode {
  const message = `${command} of ${count} projects asks no question per project: it needs --yes; nothing was changed`;
  const hint = `review first with monitor diff ${selectionFlags(args)}, then run monitor ${command} ${selectionFlags(args)} --yes`;
  ctx.out.error = { code: 'refused', message, hint };
  if (!ctx.out.json) {
    const p = paint(ctx.io.color);
    ctx.io.stderr(`${p.red('error')}: ${message}\n${p.dim('hint')}: ${hint}\n`);
  }
  return EXIT.refused;
}

/**
 * The workspace of `cwd` and the projects the arguments choose (every one with none), in dependency
 * order: what `monitor projects` and `monitor ci matrix` print. Nothing runs on them.
 */
export async function chosenProjects(
  cwd: string,
  args: WorkspaceArgs & { env?: string | undefined },
  env: Io['env'],
): Promise<{ workspace: Workspace; chosen: Chosen[]; leftOut: LeftOut[] }> {
  const { findWorkspace } = await import('@monitor/engine');
  const workspace = await findWorkspace(cwd);
  const all = !choosesProjects(args);
  try {
    const { chosen, leftOut } = await chooseProjects(
      workspace,
      { ...args, all: all || args.all },
      environmentOf(args, env),
    );
    return { workspace, chosen, leftOut };
  } finally {
    forgetLoadsAhead();
  }
}

/**
 * The projects the arguments choose, in dependency order, each loaded ahead for its command in the
 * environment it runs in; those that do not define the environment asked for are left out.
 */
async function chooseProjects(
  workspace: Workspace,
  args: WorkspaceArgs,
  environment: string | undefined,
): Promise<{ chosen: Chosen[]; leftOut: LeftOut[] }> {
  const engine = await import('@monitor/engine');
  const names = commaList(args.project);
  const named = engine.namedProjects(workspace.projects, names);
  // What references what is known only once the projects are loaded: with --changed-since, every
  // project (one that references a changed one is affected too).
  const candidates = args.all === true || args.changedSince !== undefined ? workspace.projects : named;
  const leftOut = candidates
    .filter((project) => environmentOf_(project, environment) === NOT_DEFINED)
    .map((project) => ({
      name: project.name,
      dir: relative(workspace.root, project.dir) || '.',
      reason: `it defines no environment "${environment}"`,
    }));
  const considered = candidates.filter((project) => environmentOf_(project, environment) !== NOT_DEFINED);
  const loaded = new Map(
    await Promise.all(
      considered.map(async (project) => {
        // A project whose config does not load fails when its turn comes; the others go on.
        const env = environmentOf_(project, environment) as string | undefined;
        const report = project.problem === undefined ? await loadAhead(project.configPath, env) : undefined;
        return [project.name, report] as const;
      }),
    ),
  );
  const dependencies = considered.map((project) => ({
    name: project.name,
    dependsOn: engine.referencedProjects(loaded.get(project.name)?.project?.resources ?? []),
  }));
  let selected = new Set(args.all === true ? considered.map((p) => p.name) : names);
  if (args.all !== true && args.changedSince !== undefined) {
    const changed = engine.changedFiles(args.changedSince, workspace.root);
    const files = await Promise.all(
      considered.map(async (project) => {
        const report = loaded.get(project.name)?.project;
        const inputs = report === undefined ? [] : await engine.projectInputs(report);
        return { name: project.name, dir: project.dir, inputs };
      }),
    );
    const affected = engine.affectedProjects(files, changed, workspace);
    selected = new Set([...selected, ...engine.withDependents(affected, dependencies)]);
  }
  const ordered = engine.dependencyOrder(dependencies.filter((d) => selected.has(d.name)));
  // Loads of projects not chosen were only for ordering: let them go.
  forgetLoadsAheadExcept(considered.filter((p) => selected.has(p.name)).map((p) => p.configPath));
  const byName = new Map(considered.map((p) => [p.name, p]));
  const chosen = ordered.map((d) => {
    const project = byName.get(d.name) as WorkspaceProject;
    return {
      project,
      dependsOn: d.dependsOn.filter((name) => selected.has(name)),
      environment: environmentOf_(project, environment) as string | undefined,
    };
  });
  return {
    chosen,
    leftOut: leftOut.filter((l) => args.all === true || selected.has(l.name) || names.includes(l.name)),
  };
}

const NOT_DEFINED = Symbol('not defined');

/**
 * The environment `project` runs in when `requested` is asked for: it, when the project defines
 * it; none, for a project that defines no environments (its account comes from MONITOR_*); and
 * NOT_DEFINED for a project whose environments do not include it. With none asked for, a project
 * with environments runs without one, and says which to choose.
 */
function environmentOf_(
  project: WorkspaceProject,
  requested: string | undefined,
): string | undefined | typeof NOT_DEFINED {
  if (project.environments.length === 0 || requested === undefined) return undefined;
  return project.environments.some((e) => e.name === requested) ? requested : NOT_DEFINED;
}

function selectionFlags(args: WorkspaceArgs): string {
  if (args.all === true) return '--all';
  return [
    ...commaList(args.project).map((name) => `--project ${name}`),
    ...(args.changedSince === undefined ? [] : [`--changed-since ${args.changedSince}`]),
  ].join(' ');
}

function nothingChosen(
  command: string,
  args: WorkspaceArgs,
  workspace: Workspace,
  ctx: RunContext,
): ExitCode {
  forgetLoadsAhead();
  ctx.out.result = { workspace: workspace.root, projects: [] };
  if (!ctx.out.json) {
    const why = args.changedSince === undefined ? '' : ` changed since ${args.changedSince}`;
    ctx.io.stdout(`monitor ${command}: no project of the workspace${escapeTerminal(why)}; nothing to do.\n`);
  }
  return EXIT.ok;
}

/**
 * Run the projects, up to `--parallel-projects` at once, each once every project it waits for is
 * done: a destroy waits for the projects that reference it (they go first), the others for those it
 * references. A project whose dependency failed still runs: its plan resolves references against the
 * account as it is, and one that needs what is missing refuses with a conflict, changing nothing.
 * After a Ctrl-C (trapped once, for every project) no other project starts.
 */
async function schedule(
  command: string,
  chosen: Chosen[],
  args: Record<string, unknown> & WorkspaceArgs,
  ctx: RunContext,
  run: Run,
): Promise<Outcome[]> {
  const destroy = command === 'destroy';
  const order = destroy ? [...chosen].reverse() : chosen;
  const waitsFor = (c: Chosen) =>
    destroy
      ? chosen.filter((other) => other.dependsOn.includes(c.project.name)).map((o) => o.project.name)
      : c.dependsOn;
  const limit = args.parallelProjects ?? 4;
  const trap = ctx.io.trapInterrupts?.(() => 'finishing the projects in flight, starting no other');
  const done = new Map<string, Outcome>();
  try {
    const started = new Set<string>();
    let active = 0;
    await new Promise<void>((resolve, reject) => {
      const next = () => {
        if (done.size === order.length) return resolve();
        for (const c of order) {
          if (active >= limit) return;
          if (started.has(c.project.name)) continue;
          if (!waitsFor(c).every((name) => done.has(name))) continue;
          started.add(c.project.name);
          active += 1;
          const work =
            trap?.signal.aborted === true
              ? Promise.resolve(notRun(command, c, 'interrupted (Ctrl-C) before its turn', ctx))
              : runOne(command, c, args, ctx, run, trap?.signal);
          work.then((outcome) => {
            done.set(c.project.name, outcome);
            active -= 1;
            next();
          }, reject);
        }
      };
      next();
    });
    if (command === 'deploy' || command === 'destroy')
      await retryRefused(command, order, done, args, ctx, run, trap?.signal);
  } finally {
    trap?.release();
  }
  return order.map((c) => done.get(c.project.name) as Outcome);
}

/**
 * A project refused for conflicts while others of the run succeeded gets one more run at the end:
 * the owner of a channel whose last reference a team removed in the same change is refused while
 * the team's state still uses it, and the team, deployed after it, stops using it.
 */
async function retryRefused(
  command: string,
  order: Chosen[],
  done: Map<string, Outcome>,
  args: Record<string, unknown> & WorkspaceArgs,
  ctx: RunContext,
  run: Run,
  signal: AbortSignal | undefined,
): Promise<void> {
  const refused = order.filter((c) => done.get(c.project.name)?.envelope.error?.code === 'conflicts');
  const others = order.filter((c) => succeeded(done.get(c.project.name)?.exitCode));
  if (refused.length === 0 || others.length === 0) return;
  for (const c of refused) {
    if (signal?.aborted === true) return;
    if (!ctx.out.json)
      ctx.io.stdout(
        `${paint(ctx.io.color).dim(`once more, now that the others ran: ${escapeTerminal(c.project.name)}`)}\n`,
      );
    done.set(c.project.name, await runOne(command, c, args, ctx, run, signal));
  }
}

const succeeded = (code: ExitCode | undefined) => code === EXIT.ok || code === EXIT.changes;

function notRun(command: string, chosen: Chosen, why: string, ctx: RunContext): Outcome {
  const out = new Output(command, ctx.out.json);
  out.project = chosen.project.name;
  out.error = { code: 'not_run', message: `not run: ${why}` };
  if (!ctx.out.json) printBlock(chosen.project, ctx, [{ err: true, text: `${out.error.message}\n` }]);
  return {
    chosen,
    exitCode: EXIT.interrupted,
    notRunBecause: why,
    envelope: out.envelope(EXIT.interrupted),
    planFacts: null,
  };
}

/** One project's command, in its directory, with its output kept and printed whole when it ends. */
async function runOne(
  command: string,
  chosen: Chosen,
  args: Record<string, unknown> & WorkspaceArgs,
  ctx: RunContext,
  run: Run,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  const lines: { err: boolean; text: string }[] = [];
  const { project } = chosen;
  // Run as `--config <its config>` from where the person is: paths are shown from there.
  const io: Io = {
    ...ctx.io,
    // Side by side with others: no prompts, no live progress line.
    interactive: false,
    prompt: undefined,
    drained: undefined,
    stdout: (text) => lines.push({ err: false, text }),
    stderr: (text) =>
      // With --json, stdout is the envelope's; what a project says on stderr goes out at once.
      ctx.out.json ? ctx.io.stderr(prefixLines(project.name, text)) : lines.push({ err: true, text }),
    // The run's one trap: a Ctrl-C reaches every project, and a second one quits.
    trapInterrupts: signal === undefined ? undefined : () => ({ signal, release: () => {} }),
    // Its own environment: a project without environments runs without MONITOR_ENV.
    env: { ...ctx.io.env, MONITOR_ENV: chosen.environment },
  };
  const out = new Output(command, ctx.out.json);
  const own = {
    ...args,
    config: project.configPath,
    env: chosen.environment,
    all: undefined,
    project: undefined,
    changedSince: undefined,
    parallelProjects: undefined,
  };
  let exitCode: ExitCode;
  try {
    if (project.problem !== undefined) throw project.problem;
    exitCode = await run(own, { io, out });
  } catch (error) {
    exitCode = await report(error, io, out);
  }
  if (!ctx.out.json) printBlock(project, ctx, lines);
  return { chosen, exitCode, envelope: out.envelope(exitCode), planFacts: out.planFacts };
}

function prefixLines(name: string, text: string): string {
  return text.replace(/^(?=.)/gm, `[${escapeTerminal(name)}] `);
}

function printBlock(
  project: WorkspaceProject,
  ctx: RunContext,
  lines: { err: boolean; text: string }[],
): void {
  const p = paint(ctx.io.color);
  const where = relative(ctx.io.cwd, project.dir) || '.';
  ctx.io.stdout(p.bold(`── ${escapeTerminal(project.name)} (${escapeTerminal(where)}) ──\n`));
  for (const line of lines) (line.err ? ctx.io.stderr : ctx.io.stdout)(line.text);
  ctx.io.stdout('\n');
}

/** Exit codes from least to most serious: the run ends with the most serious of its projects'. */
const SERIOUSNESS: readonly ExitCode[] = [
  EXIT.ok,
  EXIT.changes,
  EXIT.verifyFailed,
  EXIT.timeout,
  EXIT.stalePlan,
  EXIT.locked,
  EXIT.refused,
  EXIT.invalid,
  EXIT.error,
  EXIT.interrupted,
];

export function worstExit(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>(
    (worst, code) => (SERIOUSNESS.indexOf(code) > SERIOUSNESS.indexOf(worst) ? code : worst),
    EXIT.ok,
  );
}

function outcomeWord(outcome: Outcome): string {
  if (outcome.notRunBecause !== undefined) return 'not run';
  if (outcome.exitCode === EXIT.ok) return 'ok';
  if (outcome.exitCode === EXIT.changes) return 'changes';
  return `failed (exit ${outcome.exitCode})`;
}

function summarize(command: string, workspace: Workspace, outcomes: Outcome[], ctx: RunContext): ExitCode {
  const code = worstExit(outcomes.map((o) => o.exitCode));
  ctx.out.result = {
    workspace: workspace.root,
    projects: outcomes.map((o) => ({
      name: o.chosen.project.name,
      dir: relative(workspace.root, o.chosen.project.dir) || '.',
      dependsOn: o.chosen.dependsOn,
      outcome: outcomeWord(o).split(' ')[0],
      exitCode: o.exitCode,
      ...(o.notRunBecause === undefined ? {} : { notRunBecause: o.notRunBecause }),
      plan: planLine(o.planFacts?.summary ?? null) ?? null,
      envelope: o.envelope,
    })),
  };
  const failed = outcomes.filter((o) => !succeeded(o.exitCode));
  if (failed.length > 0) {
    ctx.out.error = {
      code: 'projects_failed',
      message: `${failed.length} of ${outcomes.length} projects failed: ${failed.map((o) => o.chosen.project.name).join(', ')}`,
      hint: 'each project’s own output above says what went wrong',
    };
  }
  if (!ctx.out.json) printSummary(command, workspace, outcomes, ctx);
  return code;
}

function printSummary(command: string, workspace: Workspace, outcomes: Outcome[], ctx: RunContext): void {
  const p = paint(ctx.io.color);
  const rows = outcomes.map((o) => [
    o.chosen.project.name,
    relative(workspace.root, o.chosen.project.dir) || '.',
    outcomeWord(o),
    o.notRunBecause ?? planLine(o.planFacts?.summary ?? null) ?? '',
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  ctx.io.stdout(
    p.bold(`monitor ${command}: ${outcomes.length} project${outcomes.length === 1 ? '' : 's'}\n`),
  );
  for (const row of rows) {
    const [name, dir, word, line] = row.map((cell) => escapeTerminal(cell)) as [
      string,
      string,
      string,
      string,
    ];
    const shown =
      word === 'ok' || word === 'changes'
        ? p.green(word.padEnd(widths[2] as number))
        : p.red(word.padEnd(widths[2] as number));
    ctx.io.stdout(
      `  ${name.padEnd(widths[0] as number)}  ${p.dim(dir.padEnd(widths[1] as number))}  ${shown}  ${line}\n`.trimEnd() +
        '\n',
    );
  }
}

/**
 * With --comment, beside each project's own comment: one comment of the workspace on the pull
 * request, a row per project linking to its comment, updated in place on every run (its own marker).
 */
async function postWorkspaceComment(
  command: string,
  workspace: Workspace,
  outcomes: Outcome[],
  args: Record<string, unknown>,
  ctx: RunContext,
  code: ExitCode,
): Promise<ExitCode> {
  const { postComment } = await import('./comment-ui.js');
  const purpose = command === 'diff' ? 'plan' : 'result';
  const facts = outcomes.map((o) =>
    factsOfRun({
      name: o.chosen.project.name,
      exitCode: o.exitCode,
      skipped: o.notRunBecause !== undefined,
      plan: o.planFacts,
      result: o.envelope.result,
      error: o.envelope.error,
    }),
  );
  const result = ctx.out.result;
  const posted = await postComment(
    {
      purpose,
      project: workspaceCommentProject(workspace),
      account: '*',
      render: (maxLength) => workspaceMarkdown(purpose, facts, maxLength),
      // As a project's plan comment: "no changes" edits an earlier comment, never starts one.
      createIfMissing: purpose === 'result' || facts.some((f) => f.outcome !== 'ok'),
    },
    args,
    ctx,
    code,
  );
  // postComment records its outcome as result.comment: the workspace's, beside the projects.
  ctx.out.result = { ...result, comment: (ctx.out.result as { comment?: unknown } | null)?.comment ?? null };
  return posted;
}

/**
 * What names the workspace's comment in its marker, with the account `*`: account ids are UUIDs,
 * so no project's own comment has that marker.
 */
export function workspaceCommentProject(workspace: Pick<Workspace, 'root'>): string {
  return `workspace/${workspace.root.split(/[\\/]/).pop() ?? ''}`;
}

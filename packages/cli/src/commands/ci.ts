import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { nearestWorkspace } from '@monitor/engine/config-location';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type CommentArgs, UsageError, withCommentOptions } from '../options.js';
import type { RunContext } from '../output.js';
import { chosenProjects, workspaceCommentProject } from '../workspace-run.js';
import { factsOfEnvelope, missingFacts, type ProjectFacts, workspaceMarkdown } from '../workspace-summary.js';

export interface MatrixArgs {
  changedSince?: string | undefined;
  format?: 'github' | 'gitlab' | undefined;
  env?: string | undefined;
  json?: boolean | undefined;
}

/**
 * One job of the matrix: a project, its directory from the workspace's root, and a name for what
 * the job keeps of it (its results file, its artifact) that any project name can be made into.
 */
export interface MatrixEntry {
  project: string;
  dir: string;
  file: string;
}

/**
 * A project's name as the name of a file or a CI artifact: as it is when it is letters, digits,
 * `.`, `_` and `-` (not starting with a dot); otherwise those kept, the rest `-`, and a short hash
 * of the whole name, so that `web/api` and `web:api` stay apart. A `/` would make a directory,
 * and GitHub refuses artifact names with `/ : < > | * ? " \`.
 */
export function matrixFileName(project: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(project)) return project;
  const kept = project.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  const hash = createHash('sha256').update(project).digest('hex').slice(0, 8);
  return kept === '' ? `project-${hash}` : `${kept}-${hash}`;
}

/** GitHub Actions' `strategy.matrix`: `{"include":[{"project":…,"dir":…,"file":…}]}`, on one line for `$GITHUB_OUTPUT`. */
export function githubMatrix(entries: readonly MatrixEntry[]): string {
  return JSON.stringify({ include: entries });
}

/**
 * GitLab's `parallel:matrix`, as YAML: what a generated child pipeline's job carries. Values are
 * written as JSON strings, which YAML reads as the same strings whatever they hold.
 */
export function gitlabMatrix(entries: readonly MatrixEntry[]): string {
  if (entries.length === 0) return 'parallel:\n  matrix: []\n';
  const rows = entries.map(
    (e) =>
      `    - PROJECT: ${JSON.stringify(e.project)}\n      DIR: ${JSON.stringify(e.dir)}\n      FILE: ${JSON.stringify(e.file)}\n`,
  );
  return `parallel:\n  matrix:\n${rows.join('')}`;
}

async function matrix(args: MatrixArgs, { io, out }: RunContext): Promise<ExitCode> {
  const { workspace, chosen } = await chosenProjects(io.cwd, args, io.env);
  const entries = chosen.map(({ project }) => ({
    project: project.name,
    dir: relative(workspace.root, project.dir) || '.',
    file: matrixFileName(project.name),
  }));
  out.result = { workspace: workspace.root, format: args.format ?? 'github', matrix: entries };
  if (out.json) return EXIT.ok;
  io.stdout(args.format === 'gitlab' ? gitlabMatrix(entries) : `${githubMatrix(entries)}\n`);
  return EXIT.ok;
}

export interface SummaryArgs extends CommentArgs {
  files?: string[] | undefined;
  purpose?: 'plan' | 'result' | undefined;
  matrix?: string | undefined;
  json?: boolean | undefined;
}

/** The envelope in a file a project's job wrote with --json, or why it cannot be read. */
function readEnvelope(path: string): Record<string, unknown> | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      (value as { formatVersion?: unknown }).formatVersion === 2
    )
      return value as Record<string, unknown>;
  } catch {
    // Said below.
  }
  return `${path} is not a monitor --json envelope (formatVersion 2): was the job's stdout cut short?`;
}

/** The projects of a `ci matrix` (GitHub's JSON): the names a summary expects a file from. */
function matrixProjects(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as { include?: { project?: unknown }[] };
    if (Array.isArray(parsed.include) && parsed.include.every((e) => typeof e.project === 'string'))
      return parsed.include.map((e) => e.project as string);
  } catch {
    // Said below.
  }
  throw new UsageError(
    '--matrix is not the JSON monitor ci matrix prints',
    'pass the matrix job\'s output as it is: --matrix "${{ needs.matrix.outputs.matrix }}"',
  );
}

/**
 * `ci summary`: the workspace's comment from the envelopes the matrix's jobs saved, a row per
 * project; a project of the matrix without a file is listed as failed before monitor answered.
 */
async function summary(args: SummaryArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const purpose = args.purpose ?? 'plan';
  const byName = new Map<string, ProjectFacts>();
  const unreadable: string[] = [];
  for (const file of args.files ?? []) {
    const envelope = readEnvelope(resolve(io.cwd, file));
    if (typeof envelope === 'string') {
      unreadable.push(envelope);
      continue;
    }
    const name =
      typeof envelope.project === 'string' ? envelope.project : basename(file).replace(/\.json$/, '');
    byName.set(name, factsOfEnvelope(name, envelope));
  }
  const expected = args.matrix === undefined ? [...byName.keys()] : matrixProjects(args.matrix);
  const facts = [
    ...expected.map((name) => byName.get(name) ?? missingFacts(name)),
    ...[...byName.values()].filter((f) => !expected.includes(f.name)),
  ];
  const failed = facts.filter((f) => f.outcome === 'failed' || f.outcome === 'missing').length;
  const code: ExitCode = failed > 0 || unreadable.length > 0 ? EXIT.error : EXIT.ok;
  out.result = { purpose, projects: facts, unreadable };
  if (code !== EXIT.ok) {
    out.error = {
      code: 'projects_failed',
      message: `${failed} of ${facts.length} projects failed${unreadable.length > 0 ? `; ${unreadable.length} file(s) unreadable` : ''}`,
      ...(unreadable.length > 0 ? { details: unreadable } : {}),
    };
  }
  if (!out.json) {
    for (const problem of unreadable) io.stderr(`warning: ${escapeTerminal(problem)}\n`);
    io.stdout(`${workspaceMarkdown(purpose, facts)}\n`);
  }
  if (args.comment !== true) return code;
  const { postComment } = await import('../comment-ui.js');
  const root = nearestWorkspace(io.cwd);
  return postComment(
    {
      purpose,
      project: workspaceCommentProject({ root: root === undefined ? io.cwd : dirname(root) }),
      account: '*',
      render: (maxLength) => workspaceMarkdown(purpose, facts, maxLength),
      createIfMissing: true,
    },
    args,
    ctx,
    code,
  );
}

export const subcommands: Subcommand[] = [
  {
    command: 'matrix',
    describe:
      'The CI matrix of the projects of the workspace: every one, or those a change touched (--changed-since), each after those it references',
    builder: (y: Argv) =>
      y
        .option('changed-since', {
          type: 'string',
          describe:
            'Only the projects whose files, or files they import, changed since this git ref, and the projects that reference them',
        })
        .option('format', {
          choices: ['github', 'gitlab'] as const,
          default: 'github' as const,
          describe: "GitHub's strategy.matrix JSON, or GitLab's parallel:matrix YAML",
        })
        .option('env', {
          type: 'string',
          describe: 'Load the projects for this environment (default $MONITOR_ENV)',
        })
        .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' })
        .example(
          '$0 ci matrix --changed-since "origin/$GITHUB_BASE_REF"',
          'in a pull request: one job per project it touches',
        )
        .example('$0 ci matrix --format gitlab > matrix.yml', "the same for a GitLab child pipeline's job"),
    run: matrix,
  },
  {
    command: 'summary [files..]',
    describe:
      "The workspace's comment from the --json files of the matrix's jobs: a row per project (outcome, plan, policy findings, routing changes, its own comment)",
    builder: (y: Argv) =>
      withCommentOptions(
        y
          .positional('files', {
            type: 'string',
            array: true,
            describe: 'The --json envelopes the jobs saved',
          })
          .option('purpose', {
            choices: ['plan', 'result'] as const,
            default: 'plan' as const,
            describe: 'Summarise plans (diff) or results (deploy)',
          })
          .option('matrix', {
            type: 'string',
            describe:
              'The matrix the jobs ran (ci matrix output): a project without a file is listed as failed',
          })
          .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' }),
        "the workspace's summary to the pull request,",
      ).example(
        '$0 ci summary results/*.json --matrix "$MATRIX" --comment',
        'the summary job: one comment of the workspace, updated on every push',
      ),
    run: summary,
  },
];

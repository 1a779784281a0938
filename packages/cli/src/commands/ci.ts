import { relative } from 'node:path';
import type { Argv } from 'yargs';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { RunContext } from '../output.js';
import { chosenProjects } from '../workspace-run.js';

export interface MatrixArgs {
  changedSince?: string | undefined;
  format?: 'github' | 'gitlab' | undefined;
  env?: string | undefined;
  json?: boolean | undefined;
}

/** One job of the matrix: a project and its directory from the workspace's root. */
export interface MatrixEntry {
  project: string;
  dir: string;
}

/** GitHub Actions' `strategy.matrix`: `{"include":[{"project":…,"dir":…}]}`, on one line for `$GITHUB_OUTPUT`. */
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
    (e) => `    - PROJECT: ${JSON.stringify(e.project)}\n      DIR: ${JSON.stringify(e.dir)}\n`,
  );
  return `parallel:\n  matrix:\n${rows.join('')}`;
}

async function matrix(args: MatrixArgs, { io, out }: RunContext): Promise<ExitCode> {
  const { workspace, chosen } = await chosenProjects(io.cwd, args, io.env);
  const entries = chosen.map(({ project }) => ({
    project: project.name,
    dir: relative(workspace.root, project.dir) || '.',
  }));
  out.result = { workspace: workspace.root, format: args.format ?? 'github', matrix: entries };
  if (out.json) return EXIT.ok;
  io.stdout(args.format === 'gitlab' ? gitlabMatrix(entries) : `${githubMatrix(entries)}\n`);
  return EXIT.ok;
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
];

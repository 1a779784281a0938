import { relative } from 'node:path';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import type { RunContext } from '../output.js';
import { chosenProjects } from '../workspace-run.js';

export interface ProjectsArgs {
  json?: boolean | undefined;
  env?: string | undefined;
}

export const builder = (y: Argv) =>
  y
    .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' })
    .option('env', {
      type: 'string',
      describe:
        'Load the projects for this environment: references may differ by environment (default $MONITOR_ENV)',
    })
    .example('$0 projects', 'the projects of the workspace, each after those it references')
    .example('$0 projects --json | jq -r ".result.projects[].name"', 'their names, for a script');

/**
 * `monitor projects`: the projects of the workspace (`monitor.workspace.ts`) in dependency order,
 * with their directories, the accounts of their environments and the projects they reference.
 */
export async function run(args: ProjectsArgs, { io, out }: RunContext): Promise<ExitCode> {
  const { workspace, chosen } = await chosenProjects(io.cwd, args, io.env);
  const projects = chosen.map(({ project, dependsOn }) => ({
    name: project.name,
    dir: relative(workspace.root, project.dir) || '.',
    environments: project.environments,
    dependsOn,
    ...(project.problem === undefined ? {} : { problem: project.problem.message }),
  }));
  out.result = { workspace: workspace.root, projects };
  if (out.json) return EXIT.ok;
  const p = paint(io.color);
  const where = relative(io.cwd, workspace.root) || '.';
  io.stdout(
    `${p.bold(`Workspace ${escapeTerminal(where)}`)}: ${projects.length} project${projects.length === 1 ? '' : 's'}, each after those it references\n`,
  );
  const width = Math.max(...projects.map((project) => project.name.length));
  const dirWidth = Math.max(...projects.map((project) => project.dir.length));
  for (const project of projects) {
    const refs =
      project.problem !== undefined
        ? `  ✗ its config does not load: ${project.problem}`
        : project.dependsOn.length === 0
          ? ''
          : `  → ${project.dependsOn.join(', ')}`;
    const dir = refs === '' ? project.dir : project.dir.padEnd(dirWidth);
    io.stdout(
      `  ${escapeTerminal(project.name.padEnd(width))}  ${p.dim(escapeTerminal(dir))}${escapeTerminal(refs)}\n`,
    );
    for (const environment of project.environments) {
      const account = environment.accountId ?? 'account from MONITOR_ACCOUNT_ID';
      io.stdout(
        `  ${' '.repeat(width)}    ${escapeTerminal(environment.name)}: ${escapeTerminal(account)}\n`,
      );
    }
  }
  return EXIT.ok;
}

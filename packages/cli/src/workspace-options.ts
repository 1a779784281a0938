import type { Argv } from 'yargs';
import { commaList, integerAtLeast } from './options.js';

// The options that choose projects of a workspace, apart from what runs them (workspace-run.ts):
// a command's --help loads only this.

/** The options that choose projects of a workspace (docs/workspaces.md). */
export interface WorkspaceArgs {
  all?: boolean | undefined;
  project?: string[] | undefined;
  changedSince?: string | undefined;
  parallelProjects?: number | undefined;
}

export function withWorkspaceOptions<T>(y: Argv<T>) {
  return y
    .option('all', {
      type: 'boolean',
      describe: 'Every project of the workspace (monitor.workspace.ts), each after those it references',
    })
    .option('project', {
      type: 'string',
      array: true,
      describe: 'This project of the workspace (its projectName); repeatable',
    })
    .option('changed-since', {
      type: 'string',
      describe:
        'The projects whose files, or files they import, changed since this git ref (and the projects that reference them)',
    })
    .option('parallel-projects', {
      type: 'string',
      coerce: integerAtLeast('parallel-projects', 1),
      describe: 'How many projects run at once; each waits for the projects it references (default 4)',
    })
    .group(['all', 'project', 'changed-since', 'parallel-projects'], 'Workspace options:');
}

/** Whether the arguments choose projects of a workspace rather than the project of the directory. */
export function choosesProjects(args: WorkspaceArgs): boolean {
  return args.all === true || commaList(args.project).length > 0 || args.changedSince !== undefined;
}

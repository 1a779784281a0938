/** The projects of a repository, in `monitor.workspace.ts` at its root (see docs/workspaces.md). */
export interface MonitorWorkspace {
  /**
   * Globs of directories, relative to the workspace file, each holding a `monitor.config.ts`:
   * `['platform', 'teams/*']`. A directory a glob matches that holds no config is passed over;
   * a glob that matches no project at all is an error (almost always a typo).
   */
  projects: string[];
}

/** The workspace of a repository: `export default defineWorkspace({ projects: ['projects/*'] })`. */
export function defineWorkspace(workspace: MonitorWorkspace): MonitorWorkspace {
  return workspace;
}

import { dirname } from 'node:path';
import {
  type OtherProjects,
  type ProjectConfig,
  type StateBackend,
  type StateDirs,
  workspaceProjectStates,
} from '@monitor/engine';
import { nearestWorkspace } from '@monitor/engine/config-location';
import { betweenLoads } from './project-loads.js';

/**
 * Where a project finds the other projects its constructs reference (`X.fromProject`) in one
 * account: the shared state database when its state is there; else the other projects of its
 * workspace, through their state files (with `--local`, the embedded emulator's, per project).
 * Undefined outside a workspace with file state: there are no other projects to find.
 */
export function otherProjectsOf(
  project: Pick<ProjectConfig, 'projectDir' | 'config'>,
  backend: StateBackend,
  options: { accountId: string; local: boolean },
): OtherProjects | undefined {
  const shared = backend.otherProjects?.();
  if (shared !== undefined) return shared;
  const file = nearestWorkspace(project.projectDir);
  if (file === undefined) return undefined;
  const { environment, projectName } = project.config;
  return workspaceProjectStates({
    project: projectName,
    accountId: options.accountId,
    where: `the workspace at ${dirname(file)}`,
    dirs: () => stateDirsOnce(file, environment, options.local),
  });
}

/** Where each workspace's projects keep state, read once per process, environment and --local. */
const located = new Map<string, Promise<StateDirs>>();

function stateDirsOnce(file: string, environment: string | undefined, local: boolean): Promise<StateDirs> {
  const key = `${file}\0${environment ?? ''}\0${local ? 'local' : ''}`;
  let dirs = located.get(key);
  if (dirs === undefined) {
    // Reading the configs runs code: never beside a project's load (`betweenLoads`).
    dirs = betweenLoads(async () => {
      const { workspaceStateDirs } = await import('@monitor/engine');
      return workspaceStateDirs(file, { environment, local });
    });
    located.set(key, dirs);
    // A failure is reported to whoever asked; the next one asks again.
    dirs.catch(() => located.delete(key));
  }
  return dirs;
}

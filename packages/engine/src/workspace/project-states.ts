import { loadConfig } from '../load/load.js';
import { localStateDir } from '../load/open-state.js';
import { FileStateBackend } from '../state/file-store.js';
import type { OtherProjects } from '../state/other-projects.js';
import type { State } from '../state/state.js';
import { readWorkspace } from './workspace.js';

/**
 * The states of the other projects of a workspace that keep their state in files: what
 * `X.fromProject` resolves against when the projects share no state database.
 */

/** Where each project of a workspace keeps its state files for one environment: project name → directory. */
export type StateDirs = Map<string, string>;

/**
 * The state directory of each project of the workspace `file`, for `environment`: its config's
 * (or, with `local`, the embedded emulator's, which is per project in a workspace). A project
 * that keeps its state in a database, or that does not define `environment`, has none here.
 * Reads every project's config: code, loaded in the process's one construct session, so the
 * caller runs it when no project is loading.
 */
export async function workspaceStateDirs(
  file: string,
  options: { environment?: string | undefined; local?: boolean },
): Promise<StateDirs> {
  const workspace = await readWorkspace(file);
  const dirs: StateDirs = new Map();
  for (const project of workspace.projects) {
    const names = project.environments.map((e) => e.name);
    if (options.environment !== undefined && names.length > 0 && !names.includes(options.environment))
      continue;
    const environment = names.length === 0 ? undefined : options.environment;
    const config = await loadConfig({ cwd: project.dir, config: project.configPath, environment });
    if (options.local === true) dirs.set(project.name, localStateDir(config));
    else if (config.config.stateUrl === undefined) dirs.set(project.name, config.config.stateDir);
  }
  return dirs;
}

/**
 * The other projects of a workspace, through their state files in `accountId`: `dirs` says where
 * each keeps them (asked once, when first needed). `project` is this one, never among them.
 */
export function workspaceProjectStates(options: {
  project: string;
  accountId: string;
  where: string;
  dirs: () => Promise<StateDirs>;
}): OtherProjects {
  let located: Promise<StateDirs> | undefined;
  const dirs = () => {
    located ??= options.dirs();
    return located;
  };
  const read = async (dir: string): Promise<State> => {
    const backend = new FileStateBackend(dir, options.accountId);
    try {
      return await backend.read();
    } finally {
      await backend.close();
    }
  };
  return {
    where: options.where,
    async state(name) {
      const dir = name === options.project ? undefined : (await dirs()).get(name);
      return dir === undefined ? undefined : read(dir);
    },
    async all() {
      const states = new Map<string, State>();
      for (const [name, dir] of await dirs()) {
        if (name !== options.project) states.set(name, await read(dir));
      }
      return states;
    },
  };
}

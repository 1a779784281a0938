import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { formatIssuePath } from '@monitor/api';
import { z } from '@monitor/api/zod';
import { ProjectLoadError } from '../errors.js';
import { CONFIG_FILE_NAMES, nearestWorkspace } from '../load/config-location.js';
import { importConfigModule, loadConfig } from '../load/load.js';
import { glob } from '../tinyglobby.js';
import { InvalidWorkspaceError, WorkspaceNotFoundError } from './errors.js';

/** A project of a workspace, as its config names it. */
export interface WorkspaceProject {
  /** Its `projectName`: unique in the workspace. */
  name: string;
  /** Its directory, absolute. */
  dir: string;
  configPath: string;
  /** The environments its config defines, each with the account it names (undefined: `MONITOR_ACCOUNT_ID`). */
  environments: { name: string; accountId: string | undefined }[];
  /**
   * Why its config does not load, when it does not: the project is then named by its directory
   * (relative to the workspace's root), and every command on it fails with this, the others go on.
   */
  problem?: ProjectLoadError | undefined;
}

/** The projects of a repository (`monitor.workspace.ts`), sorted by directory. */
export interface Workspace {
  /** The directory of the workspace file. */
  root: string;
  file: string;
  projects: WorkspaceProject[];
}

const workspaceSchema = z.strictObject({
  projects: z
    .array(z.string().min(1, 'a glob of project directories, e.g. "teams/*"'))
    .min(1, 'name at least one glob of project directories'),
});

/** Directories never searched for projects. */
const NOT_PROJECTS = ['**/node_modules/**', '**/.monitor/**', '**/.git/**'];

/** The workspace `cwd` is in; a clear error when there is none. */
export async function findWorkspace(cwd: string): Promise<Workspace> {
  const file = nearestWorkspace(cwd);
  if (file === undefined) {
    throw new WorkspaceNotFoundError(
      `no monitor.workspace.ts found in ${cwd} or any directory above it`,
      "choosing projects needs a workspace: add monitor.workspace.ts at the repository's root, e.g. import { defineWorkspace } from '@monitor/constructs'; export default defineWorkspace({ projects: ['projects/*'] })",
    );
  }
  return readWorkspace(file);
}

/**
 * Read a workspace file: its globs, the project directories they match, and each project's config
 * (one after another: a config is code, loaded in the process's one construct session).
 */
export async function readWorkspace(file: string): Promise<Workspace> {
  const root = dirname(file);
  const patterns = await workspacePatterns(file, root);
  const dirs = await projectDirs(patterns, root, file);
  const projects: WorkspaceProject[] = [];
  for (const dir of dirs) {
    const configPath = CONFIG_FILE_NAMES.map((name) => join(dir, name)).find((path) => existsSync(path));
    if (configPath === undefined) continue;
    let config: Awaited<ReturnType<typeof loadConfig>>['config'];
    try {
      ({ config } = await loadConfig({ cwd: dir, config: configPath }));
    } catch (e) {
      if (!(e instanceof ProjectLoadError)) throw e;
      projects.push(brokenProject(root, dir, configPath, e));
      continue;
    }
    projects.push({
      name: config.projectName,
      dir,
      configPath,
      environments: config.environments.map((name) => ({
        name,
        accountId: config.environmentAccounts[name],
      })),
    });
  }
  refuseNameClashes(
    projects.filter((p) => p.problem === undefined),
    root,
  );
  return { root, file, projects };
}

async function workspacePatterns(file: string, root: string): Promise<string[]> {
  const name = relative(root, file);
  const hint =
    "export default defineWorkspace({ projects: ['projects/*'] }) from monitor.workspace.ts (defineWorkspace comes from @monitor/constructs)";
  const mod = await importConfigModule(file, root);
  const parsed = workspaceSchema.safeParse(mod.default);
  if (parsed.success) return parsed.data.projects;
  const problems = parsed.error.issues.map(
    (issue) => `${formatIssuePath(issue.path) || '(root)'}: ${issue.message}`,
  );
  if (mod.default === undefined) problems.splice(0, problems.length, `${name} has no default export`);
  throw new ProjectLoadError(
    `${name} is not a valid workspace: ${problems.join('; ')}`,
    problems.map((message) => ({
      severity: 'error',
      path: '',
      message,
      location: { file, line: 1, column: 1 },
    })),
    hint,
  );
}

/** The directories the globs match that hold a config, each glob made to match at least one. */
async function projectDirs(patterns: string[], root: string, file: string): Promise<string[]> {
  const found = new Set<string>();
  for (const pattern of patterns) {
    const matched = await glob(pattern, {
      cwd: root,
      onlyDirectories: true,
      absolute: true,
      ignore: NOT_PROJECTS,
      expandDirectories: false,
    });
    const withConfig = matched
      .map((dir) => (dir.endsWith(sep) || dir.endsWith('/') ? dir.slice(0, -1) : dir))
      .filter((dir) => CONFIG_FILE_NAMES.some((name) => existsSync(join(dir, name))));
    if (withConfig.length === 0) {
      throw new InvalidWorkspaceError(
        `the glob "${pattern}" in ${relative(root, file)} matches no directory holding a monitor.config.ts`,
        `globs are relative to ${root}; fix the glob or remove it`,
      );
    }
    for (const dir of withConfig) found.add(dir);
  }
  return [...found].sort();
}

/** A project whose config does not load: named by its directory, its error naming the file. */
function brokenProject(
  root: string,
  dir: string,
  configPath: string,
  error: ProjectLoadError,
): WorkspaceProject {
  const problem = new ProjectLoadError(
    `${relative(root, configPath)}: ${error.message}`,
    error.diagnostics,
    error.hint,
  );
  problem.configPath = configPath;
  return { name: relative(root, dir) || '.', dir, configPath, environments: [], problem };
}

function refuseNameClashes(projects: WorkspaceProject[], root: string): void {
  const byName = new Map<string, WorkspaceProject>();
  for (const project of projects) {
    const other = byName.get(project.name);
    if (other !== undefined) {
      throw new InvalidWorkspaceError(
        `two projects of the workspace are named "${project.name}": ${relative(root, other.dir) || '.'} and ${relative(root, project.dir) || '.'}`,
        'give each projectName a name of its own: state, references and CI jobs find a project by its name',
      );
    }
    byName.set(project.name, project);
  }
}

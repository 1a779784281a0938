import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const CONFIG_FILE_NAMES = [
  'monitor.config.ts',
  'monitor.config.mts',
  'monitor.config.js',
  'monitor.config.mjs',
];

/** The file that makes a directory the root of a workspace of projects (docs/workspaces.md). */
export const WORKSPACE_FILE_NAMES = ['monitor.workspace.ts', 'monitor.workspace.mts', 'monitor.workspace.js'];

/** The nearest workspace file from `cwd` upwards, if any. */
export function nearestWorkspace(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of WORKSPACE_FILE_NAMES) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The nearest config file from `cwd` upwards, if any. */
export function nearestConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The config file a command in `cwd` would load (`config`: its `--config`), if there is one; a
 * guess for what can start early, not the check the load makes (see `findConfig`).
 */
export function locateConfig({
  cwd,
  config,
}: {
  cwd: string;
  config?: string | undefined;
}): string | undefined {
  const configPath = config === undefined ? nearestConfig(cwd) : resolve(cwd, config);
  return configPath !== undefined && existsSync(configPath) ? configPath : undefined;
}

/**
 * Where the embedded emulator of `--local` keeps an account's data and state: `.monitor/local/`,
 * and for a config with environments one account per environment under
 * `.monitor/local/environments/<name>/`, as real environments have accounts of their own.
 */
export function localAccountDir(projectDir: string, environment?: string): string {
  const root = join(localRoot(projectDir), '.monitor', 'local');
  return environment === undefined ? root : join(root, 'environments', environment);
}

/**
 * Whose `.monitor/local/` a project's `--local` account is: the workspace's, for a project in one
 * (its projects reference each other's constructs, so they share one local account), else the
 * project's own.
 */
export function localRoot(projectDir: string): string {
  const workspace = nearestWorkspace(projectDir);
  return workspace === undefined ? projectDir : dirname(workspace);
}

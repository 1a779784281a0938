import { execFileSync } from 'node:child_process';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ChangedFilesError } from './errors.js';

/**
 * The files changed since `ref`, absolute: what differs between the commit where the current
 * branch left `ref` (their merge base; `ref` itself when they share none) and the working tree,
 * and the files git does not track yet. In CI, `ref` is the pull request's base or the push's
 * before-commit; the checkout must hold its history (actions/checkout: `fetch-depth: 0`).
 */
export function changedFiles(ref: string, cwd: string): string[] {
  const top = git(['rev-parse', '--show-toplevel'], cwd, ref).trim();
  // A commit git knows, never an option: `--output=…` would make `git diff` write a file.
  const commit = git(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    cwd,
    ref,
  ).trim();
  let base = commit;
  try {
    base = git(['merge-base', commit, 'HEAD'], cwd, ref).trim();
  } catch {
    // No common history (a shallow clone, an unrelated ref): compare with the ref itself.
  }
  const changed = git(['diff', '--name-only', '-z', '--no-renames', base, '--'], cwd, ref);
  const untracked = git(['ls-files', '--others', '--exclude-standard', '-z'], top, ref);
  const names = [...changed.split('\0'), ...untracked.split('\0')].filter((n) => n !== '');
  // `diff` names files from the top of the repository; `ls-files` from where it ran (the top).
  return [...new Set(names.map((name) => resolve(top, name)))].sort();
}

function git(args: string[], cwd: string, ref: string): string {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e) {
    const error = e as NodeJS.ErrnoException & { stderr?: string };
    if (error.code === 'ENOENT') {
      throw new ChangedFilesError(
        '--changed-since needs git, and git is not installed',
        'install git, or choose projects with --project or --all',
      );
    }
    const said = (error.stderr ?? '').trim().split('\n')[0] ?? '';
    if (/not a git repository/i.test(said)) {
      throw new ChangedFilesError(
        `${cwd} is not in a git repository: nothing can be changed since ${ref}`,
        'run it in the repository, or choose projects with --project or --all',
      );
    }
    throw new ChangedFilesError(
      `git cannot compare with "${ref}": ${said || 'it names no commit this repository has'}`,
      'name a branch, tag or commit git knows here; in CI fetch the history first (actions/checkout with fetch-depth: 0, GitLab GIT_DEPTH: 0)',
    );
  }
}

/** A project as `affectedProjects` sees it: where it is, and every file its build reads. */
export interface ProjectFiles {
  name: string;
  dir: string;
  /** Absolute paths of the files its config and construct files bundle (`bundleInputs`). */
  inputs: readonly string[];
}

/** Files that steer how every project below them installs or builds. */
const STEERING = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'tsconfig.json',
]);

/**
 * The projects a change touches: a changed file inside a project's directory (its `.monitor/` aside)
 * or among the files its build reads (a shared library of the repository), a package manifest,
 * lockfile or tsconfig in its directory or one above it up to the workspace's root (a dependency
 * bump), or the workspace file itself (every project).
 */
export function affectedProjects(
  projects: readonly ProjectFiles[],
  changed: readonly string[],
  workspace: { root: string; file: string },
): Set<string> {
  if (changed.includes(workspace.file)) return new Set(projects.map((p) => p.name));
  const affected = new Set<string>();
  const steering = changed.filter((file) => STEERING.has(basename(file)));
  for (const project of projects) {
    const inputs = new Set(project.inputs);
    const touched =
      changed.some(
        (file) =>
          inputs.has(file) || (inside(file, project.dir) && !inside(file, join(project.dir, '.monitor'))),
      ) ||
      steering.some((file) => inside(project.dir, dirname(file)) && inside(dirname(file), workspace.root));
    if (touched) affected.add(project.name);
  }
  return affected;
}

/** Whether `path` is `dir` or inside it. */
function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return (
    rel === '' ||
    (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))
  );
}

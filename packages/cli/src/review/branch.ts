import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type Git, GitError, gitOutput, lastLines } from './git.js';

/**
 * The branch `monitor pull --pr` writes: a commit of the pulled files on top of the default
 * branch, made with git's plumbing in a temporary index (the checkout, its branch, its index and
 * its uncommitted changes are never touched), and pushed to origin with a lease, so that a push
 * never overwrites what it did not see.
 */

/**
 * `monitor/pull/<project>`, `-<environment>` when the config has environments: one branch per
 * project and environment, made a valid git branch name (`git check-ref-format`): characters git
 * refuses, dots that would start or end a component and `.lock` become `-`.
 */
export function pullBranchName(project: string, environment?: string): string {
  const raw = environment === undefined ? project : `${project}-${environment}`;
  const name = raw
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/\.lock$/i, '-lock');
  return `monitor/pull/${name === '' ? 'project' : name}`;
}

/** The repository of the project's checkout, and its remote origin. */
export interface Repository {
  /** The work tree's top directory. */
  root: string;
  gitDir: string;
  /** origin's URL. */
  origin: string;
}

/** The repository holding `dir`, with its origin; a GitError with what to do when either is missing. */
export async function openRepository(git: Git, dir: string): Promise<Repository> {
  const top = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir']);
  if (!top.ok) {
    throw new GitError(
      'not_a_git_repository',
      `pull --pr commits to a branch of the project's git repository, and ${dir} is not in one${top.exitCode === undefined ? ` (git cannot be run: ${lastLines(top.stderr, 1)})` : ''}`,
      "run it in a checkout of the repository (git clone, or the CI job's checkout), with git installed",
    );
  }
  const [root = '', gitDir = ''] = top.stdout.trim().split('\n');
  const origin = await git(['remote', 'get-url', 'origin']);
  if (!origin.ok) {
    throw new GitError(
      'no_origin',
      'pull --pr pushes to the remote origin, and this repository has none',
      'git remote add origin <the URL of the repository on GitHub or GitLab>',
    );
  }
  return { root, gitDir, origin: origin.stdout.trim() };
}

/** `owner/name` as GitHub's event payload names it, for its default branch. */
function gitHubEventDefaultBranch(env: Record<string, string | undefined>): string | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (path === undefined || path === '') return undefined;
  try {
    const event = JSON.parse(readFileSync(path, 'utf8')) as { repository?: { default_branch?: unknown } };
    const branch = event.repository?.default_branch;
    return typeof branch === 'string' && branch !== '' ? branch : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The branch pull requests go into: origin's HEAD as this checkout knows it (`origin/HEAD`), else
 * the CI's (`CI_DEFAULT_BRANCH`, GitHub's event payload), else as origin says (`ls-remote`).
 */
export async function defaultBranch(git: Git, env: Record<string, string | undefined>): Promise<string> {
  const known = await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (known.ok) return known.stdout.trim().replace(/^refs\/remotes\/origin\//, '');
  const fromCi = env.CI_DEFAULT_BRANCH || gitHubEventDefaultBranch(env);
  if (fromCi !== undefined && fromCi !== '') return fromCi;
  const remote = await gitOutput(git, ['ls-remote', '--symref', 'origin', 'HEAD'], {
    what: 'cannot ask origin for its default branch',
    hint: 'check that origin can be reached with the credentials of this run; or set it with git remote set-head origin <branch>',
  });
  const ref = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(remote)?.[1];
  if (ref === undefined) {
    throw new GitError(
      'no_default_branch',
      "cannot tell origin's default branch: it names no HEAD",
      'set it with git remote set-head origin <branch>',
    );
  }
  return ref;
}

/** The commit each of `branches` is at on origin; a branch origin does not have is left out. */
export async function remoteBranches(git: Git, branches: readonly string[]): Promise<Map<string, string>> {
  const out = await gitOutput(git, ['ls-remote', 'origin', ...branches.map((b) => `refs/heads/${b}`)], {
    what: 'cannot read the branches of origin',
    hint: 'check that origin can be reached with the credentials of this run (docs/ci.md: pull --pr)',
  });
  const found = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.split('\t');
    if (sha !== undefined && ref?.startsWith('refs/heads/')) found.set(ref.slice('refs/heads/'.length), sha);
  }
  return found;
}

/**
 * The commits of `branches` (as `remoteBranches` found them) fetched from origin, without
 * writing any ref or FETCH_HEAD of the checkout's.
 */
export async function fetchBranches(git: Git, branches: Map<string, string>): Promise<void> {
  if (branches.size === 0) return;
  await gitOutput(
    git,
    [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      'origin',
      ...[...branches.keys()].map((b) => `refs/heads/${b}`),
    ],
    {
      what: 'cannot fetch from origin',
      hint: 'check that origin can be reached with the credentials of this run',
    },
  );
  for (const [branch, sha] of branches) {
    if (!(await git(['cat-file', '-e', `${sha}^{commit}`])).ok) {
      throw new GitError(
        'origin_moved',
        `${branch} moved on origin while monitor read it`,
        'run it again (another run may be pushing at the same time)',
      );
    }
  }
}

/** A file pull edits: its path in the repository, its text as pull read it, and as pull leaves it. */
export interface BranchFile {
  /** Relative to the repository's root, with `/`. */
  path: string;
  before: string;
  after: string;
}

/** `file` (absolute, in the project's checkout) relative to the repository's root, with `/`. */
export function repositoryPath(repository: Repository, file: string): string {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return relative(real(repository.root), real(file)).split(sep).join('/');
}

export interface CommitRequest {
  /** The commit to build on: the default branch's. */
  base: string;
  baseName: string;
  files: readonly BranchFile[];
  message: string;
  /** Who the commit is by, when git has no identity configured (a CI runner). */
  identity: { name: string; email: string };
}

/** Each file's blob of `after`, after checking that `base` has it as pull read it. */
async function blobsOf(
  git: Git,
  request: CommitRequest,
): Promise<{ mode: string; blob: string; path: string }[]> {
  const out: { mode: string; blob: string; path: string }[] = [];
  for (const file of request.files) {
    const listed = (await gitOutput(git, ['ls-tree', request.base, '--', file.path])).trim();
    const [mode, type, blob] = listed.split(/\s+/);
    // Through the file's filters (line endings): the blob its text would be committed as.
    const before = (
      await gitOutput(git, ['hash-object', `--path=${file.path}`, '--stdin'], { input: file.before })
    ).trim();
    if (type !== 'blob' || mode === undefined || blob !== before) {
      throw new GitError(
        'checkout_differs',
        `${file.path} is not the same in this checkout as on ${request.baseName}: pull --pr edits it as ${request.baseName} has it`,
        `run it in a checkout of ${request.baseName} with nothing changed in the project (the nightly job does), or commit and merge the change first`,
      );
    }
    const written = await gitOutput(git, ['hash-object', '-w', `--path=${file.path}`, '--stdin'], {
      input: file.after,
    });
    out.push({ mode, blob: written.trim(), path: file.path });
  }
  return out;
}

/**
 * The commit of `files` on top of `base`, in a temporary index of its own (removed after, also
 * when a step fails); the checkout's index and files are not touched. Its tree too, to compare.
 */
export async function commitFiles(
  git: Git,
  repository: Repository,
  request: CommitRequest,
  env: Record<string, string | undefined>,
): Promise<{ commit: string; tree: string }> {
  const blobs = await blobsOf(git, request);
  const index = join(
    repository.gitDir,
    `monitor-pull-${process.pid}-${randomBytes(4).toString('hex')}.index`,
  );
  const withIndex = { env: { GIT_INDEX_FILE: index } };
  let tree: string;
  try {
    await gitOutput(git, ['read-tree', request.base], withIndex);
    await gitOutput(git, ['update-index', '--index-info'], {
      ...withIndex,
      input: blobs.map((b) => `${b.mode} ${b.blob}\t${b.path}\n`).join(''),
    });
    tree = (await gitOutput(git, ['write-tree'], withIndex)).trim();
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
  // git's own identity when it has one; a CI runner has none, and commits as the token's user.
  const configured = await git(['config', '--get', 'user.email']);
  const own = (configured.ok && configured.stdout.trim() !== '') || env.GIT_AUTHOR_EMAIL !== undefined;
  const { name, email } = request.identity;
  const identity: Record<string, string> = own
    ? {}
    : {
        GIT_AUTHOR_NAME: name,
        GIT_AUTHOR_EMAIL: email,
        GIT_COMMITTER_NAME: name,
        GIT_COMMITTER_EMAIL: email,
      };
  const commit = await gitOutput(git, ['commit-tree', tree, '-p', request.base, '-F', '-'], {
    input: request.message,
    env: identity,
    what: 'cannot commit the pulled files',
  });
  return { commit: commit.trim(), tree };
}

/** The tree and the parents of `commit`. */
export async function commitShape(git: Git, commit: string): Promise<{ tree: string; parents: string[] }> {
  const [tree = '', ...parents] = (await gitOutput(git, ['rev-list', '--no-walk', '--format=%T %P', commit]))
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('commit '))
    .join(' ')
    .trim()
    .split(/\s+/);
  return { tree, parents };
}

/** The trailer of the commits `pull --pr` makes, naming the branch it made them for: how it knows its own. */
export const PULL_TRAILER = 'Monitor-Pull';

/** Who made `commit`, and the branches its `Monitor-Pull` trailers name. */
export async function commitOrigin(
  git: Git,
  commit: string,
): Promise<{ author: string; pullBranches: string[] }> {
  const [author = '', ...trailers] = (
    await gitOutput(git, [
      'show',
      '--no-patch',
      `--format=%an <%ae>%n%(trailers:key=${PULL_TRAILER},valueonly,unfold)`,
      commit,
    ])
  )
    .trim()
    .split('\n');
  return { author, pullBranches: trailers.map((t) => t.trim()).filter((t) => t !== '') };
}

/**
 * Push `commit` to `branch` on origin (or delete it with `commit: undefined`), only if origin still
 * has it at `expected` (absent: `undefined`). What origin refuses is a GitError with `hint`.
 */
export async function pushBranch(
  git: Git,
  branch: string,
  commit: string | undefined,
  expected: string | undefined,
  hint: string,
): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const r = await git([
    'push',
    '--porcelain',
    '--no-verify',
    `--force-with-lease=${ref}:${expected ?? ''}`,
    'origin',
    `${commit ?? ''}:${ref}`,
  ]);
  if (r.ok) return;
  const doing = commit === undefined ? 'the deletion of' : 'the push of';
  if (/stale info|fetch first|non-fast-forward/.test(r.stdout)) {
    throw new GitError(
      'push_refused',
      `origin refused ${doing} ${branch}: it changed on origin since monitor read it`,
      'run it again (another run of pull --pr may have pushed at the same time)',
    );
  }
  const said = lastLines(r.stderr, 4);
  throw new GitError(
    'push_refused',
    `origin refused ${doing} ${branch}${said === '' ? '' : `: ${said}`}`,
    hint,
  );
}

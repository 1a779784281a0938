import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, commitShape, openRepository, pullBranchName } from './branch.js';
import { GitError, gitIn } from './git.js';
import { gitAuthEnv } from './git-auth.js';

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('pullBranchName', () => {
  it('is monitor/pull/<project>, with -<environment>, and always a branch name git takes', () => {
    expect(pullBranchName('payments')).toBe('monitor/pull/payments');
    expect(pullBranchName('payments', 'prod')).toBe('monitor/pull/payments-prod');
    const names = [
      'a b',
      '..x..',
      'x.lock',
      'a/b',
      'a~b^c:d?e*f[g\\h',
      '@{x}',
      '.hidden',
      'trail.',
      '-dash',
      '',
      'ü',
    ];
    for (const name of names) {
      const branch = pullBranchName(name, name === '' ? undefined : 'staging');
      expect(branch.startsWith('monitor/pull/')).toBe(true);
      // git's own rules, not a copy of them.
      expect(
        () => execFileSync('git', ['check-ref-format', '--branch', branch], { stdio: 'pipe' }),
        branch,
      ).not.toThrow();
    }
  });
});

describe('gitAuthEnv', () => {
  const github = {
    host: 'github' as const,
    apiUrl: 'https://api.github.com',
    owner: 'acme',
    repo: 'web',
    token: 'ghs_x',
  };
  const header = (user: string, token: string) =>
    `AUTHORIZATION: basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

  it("gives the token to git for an HTTPS origin on the host's server only, in its environment", () => {
    expect(gitAuthEnv('https://github.com/acme/web.git', github, {})).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_1: header('x-access-token', 'ghs_x'),
    });
    expect(gitAuthEnv('git@github.com:acme/web.git', github, {})).toEqual({});
    expect(gitAuthEnv('https://gitlab.com/acme/web.git', github, {})).toEqual({});
    expect(gitAuthEnv('/srv/git/web.git', github, {})).toEqual({});
  });

  it('never sends the token over plain HTTP, except to a server on this machine', () => {
    const plain = { ...github, apiUrl: 'http://ghe.acme.example/api/v3' };
    expect(gitAuthEnv('http://ghe.acme.example/acme/web.git', plain, {})).toEqual({});
    for (const server of ['127.0.0.1:3000', '[::1]:3000', 'localhost:3000']) {
      const local = { ...github, apiUrl: `http://${server}/api/v3` };
      expect(gitAuthEnv(`http://${server}/acme/web.git`, local, {}).GIT_CONFIG_VALUE_1).toBe(
        header('x-access-token', 'ghs_x'),
      );
    }
  });

  it("finds GitHub Enterprise's and GitLab's server, and keeps the variables already given", () => {
    const enterprise = { ...github, apiUrl: 'https://ghe.acme.example/api/v3' };
    expect(gitAuthEnv('https://ghe.acme.example/acme/web', enterprise, {}).GIT_CONFIG_KEY_1).toBe(
      'http.https://ghe.acme.example/.extraheader',
    );
    const gitlab = {
      host: 'gitlab' as const,
      apiUrl: 'https://gitlab.acme.example/api/v4',
      projectId: '42',
      token: 'glpat',
    };
    const env = gitAuthEnv('https://gitlab-ci-token:job@gitlab.acme.example/acme/web.git', gitlab, {
      GIT_CONFIG_COUNT: '1',
    });
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_2: 'http.https://gitlab.acme.example/.extraheader',
      GIT_CONFIG_VALUE_2: header('oauth2', 'glpat'),
    });
  });
});

/** A repository with one commit of `a.txt`, and that commit. */
function repository(): { dir: string; base: string } {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-branch-'));
  dirs.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  writeFileSync(join(dir, 'b.txt'), 'two\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/web.git');
  return { dir, base: git(dir, 'rev-parse', 'HEAD').trim() };
}

describe('commitFiles', () => {
  it('commits the files on the base in an index of its own: the checkout, its index and branch stay', async () => {
    const { dir, base } = repository();
    writeFileSync(join(dir, 'b.txt'), 'uncommitted\n');
    git(dir, 'add', 'b.txt');
    const status = git(dir, 'status', '--porcelain');
    const run = gitIn(dir, ENV);
    const repo = await openRepository(run, dir);
    const { commit, tree } = await commitFiles(
      run,
      repo,
      {
        base,
        baseName: 'main',
        files: [{ path: 'a.txt', before: 'one\n', after: 'one\nmore\n' }],
        message: 'pulled\n',
        identity: { name: 'bot', email: 'bot@example.com' },
      },
      ENV,
    );
    expect(await commitShape(run, commit)).toEqual({ tree, parents: [base] });
    expect(git(dir, 'show', `${commit}:a.txt`)).toBe('one\nmore\n');
    expect(git(dir, 'show', `${commit}:b.txt`)).toBe('two\n');
    expect(git(dir, 'log', '-1', '--format=%an <%ae> %s', commit).trim()).toBe(
      'Test <test@example.com> pulled',
    );
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(base);
    expect(git(dir, 'status', '--porcelain')).toBe(status);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readdirSync(join(dir, '.git')).filter((f) => f.startsWith('monitor-'))).toEqual([]);
  });

  it('refuses a file that the base has otherwise than the checkout, and leaves no index behind', async () => {
    const { dir, base } = repository();
    const run = gitIn(dir, ENV);
    const request = {
      base,
      baseName: 'main',
      files: [{ path: 'a.txt', before: 'one, edited here\n', after: 'x\n' }],
      message: 'pulled\n',
      identity: { name: 'bot', email: 'bot@example.com' },
    };
    const error = await commitFiles(run, await openRepository(run, dir), request, ENV).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({
      code: 'checkout_differs',
      message: 'a.txt is not the same in this checkout as on main: pull --pr edits it as main has it',
    });
    expect(readdirSync(join(dir, '.git')).filter((f) => f.startsWith('monitor-'))).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { ciProjects, gitHubEnv, gitLabEnv } from './support/ci.js';
import {
  type FakeCodeHost,
  fakeGitHub,
  fakeGitLab,
  GITHUB_ACTIONS_BOT,
  GITLAB_TOKEN_BOT,
} from './support/code-hosts.js';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeFiles } from './support/harness.js';

/**
 * `monitor pull --pr` end to end (issue 49 §1): a project deployed to the emulator and committed
 * to a repository whose origin is a bare one next door, edited in the account as people edit it
 * in the UI, and pulled into a branch and one pull request on a fake GitHub (or merge request on a
 * fake GitLab) by the built CLI, as the nightly job runs it.
 */

const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
const BRANCH = 'monitor/pull/e2e';

const GROUPS = `import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';

const oncall = new EmailAlertChannel('oncall', { address: 'oncall@acme.example' });

new CheckGroup('payments', {
  name: 'Payments', // shown in the UI
  locations: ['eu-west-1'],
  alertChannels: [oncall],
});
`;

const SLACK = `import { CheckGroup, SlackAlertChannel, requiredEnv } from '@monitor/constructs';

const slack = new SlackAlertChannel('ops-slack', { url: requiredEnv('SLACK_URL') });

new CheckGroup('payments', { name: 'Payments', alertChannels: [slack] });
`;

// A git that commits as someone, and never asks.
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CEILING_DIRECTORIES: TMP,
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: 'pipe' });

const ciProject = ciProjects();
const hosts: FakeCodeHost[] = [];
const dirs: string[] = [];
const emulators: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const e of emulators.splice(0)) await e.close();
  for (const d of dirs.splice(0)) cleanup(d);
});

/**
 * What monitor's runs see: the CI's variables, and a git with no identity of its own (as on a CI
 * runner) that never looks above the test's directories.
 */
function runnerEnv(ci: Record<string, string>): Record<string, string> {
  mkdirSync(TMP, { recursive: true });
  const home = mkdtempSync(join(TMP, 'home-'));
  dirs.push(home);
  writeFileSync(join(home, 'gitconfig'), '');
  return {
    ...ci,
    GIT_CONFIG_GLOBAL: join(home, 'gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: TMP,
    GIT_TERMINAL_PROMPT: '0',
  };
}

/** The project deployed, committed on main and pushed to a bare origin; `run` with the CI's variables. */
async function deployedRepository(
  files: Record<string, string>,
  ci: (dir: string) => Record<string, string>,
) {
  const project = await ciProject({
    ...files,
    '.gitignore': '.monitor/\nevent.json\nsummary.md\n',
  });
  const { dir, run, useCi } = project;
  useCi(runnerEnv(ci(dir)));
  const deploy = await run('deploy', '--yes');
  expect(deploy.code, deploy.stdout + deploy.stderr).toBe(0);
  const origin = mkdtempSync(join(TMP, 'origin-'));
  dirs.push(origin);
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'the project');
  git(dir, 'remote', 'add', 'origin', origin);
  git(dir, 'push', '-q', 'origin', 'main');
  return { ...project, origin };
}

/** What must stay as it was in the checkout: its branch, its files, and what git says of them. */
function checkoutOf(dir: string) {
  return {
    branch: git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim(),
    head: git(dir, 'rev-parse', 'HEAD').trim(),
    status: git(dir, 'status', '--porcelain=v1', '--untracked-files=all'),
    file: readFileSync(join(dir, 'monitors/groups.monitor.ts'), 'utf8'),
    leftovers: readdirSync(join(dir, '.git')).filter((f) => f.startsWith('monitor-')),
    worktrees: git(dir, 'worktree', 'list', '--porcelain'),
  };
}

/** The commits of `branch` on origin that main does not have, as `subject <author>`. */
function aheadOfMain(origin: string, branch = BRANCH): string[] {
  return git(origin, 'log', '--format=%s <%ae>', `main..${branch}`).trim().split('\n').filter(Boolean);
}

const remoteHas = (origin: string, branch: string) =>
  git(origin, 'for-each-ref', '--format=%(refname)', `refs/heads/${branch}`).trim() !== '';

async function groupId(h: { client: { checkGroups: { list(): Promise<{ items: { id: number }[] }> } } }) {
  return (await h.client.checkGroups.list()).items[0]?.id as number;
}

describe('pull --pr on GitHub', () => {
  it('opens one pull request from monitor/pull/<project>, updates it on the next drift, and closes it once the account agrees again', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    // Someone else's pull requests from a branch of the same name: a fork's, and one into another base.
    github.pulls.push(
      {
        number: 1,
        title: 'fork',
        body: 'mine',
        head: BRANCH,
        headRepo: 'someone/web',
        base: 'main',
        state: 'open',
      },
      { number: 2, title: 'release', body: 'mine too', head: BRANCH, base: 'release', state: 'open' },
    );
    const { h, dir, run, origin } = await deployedRepository({ 'monitors/groups.monitor.ts': GROUPS }, (d) =>
      gitHubEnv(d, github, { schedule: '17 5 * * *' }),
    );
    const before = checkoutOf(dir);
    const groups = h.client.managed('CheckGroup');
    const id = await groupId(h);

    // Someone adds a location in the UI.
    await groups.update(id, { name: 'Payments', locations: ['eu-west-1', 'us-east-1'] });
    const first = await run('pull', '--pr', '--json');
    expect(first.code, first.stderr).toBe(0);
    const opened = envelopeOf(first).result;
    expect(opened.pr).toMatchObject({
      status: 'created',
      branch: BRANCH,
      base: 'main',
      number: 3,
      url: 'https://github.test/pull/3',
      pushed: true,
    });
    expect(opened.pulled.map((p: { path: string }) => p.path)).toEqual(['locations']);
    expect(aheadOfMain(origin)).toEqual([
      'monitor pull: the account’s edits of e2e <41898282+github-actions[bot]@users.noreply.github.com>',
    ]);
    expect(git(origin, 'show', `${BRANCH}:monitors/groups.monitor.ts`)).toBe(
      GROUPS.replace("locations: ['eu-west-1'],", "locations: ['eu-west-1', 'us-east-1'],"),
    );
    const ours = () => github.pulls.filter((p) => p.author?.id === GITHUB_ACTIONS_BOT.id);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]).toMatchObject({ number: 3, head: BRANCH, base: 'main', state: 'open' });
    const body = ours()[0]?.body ?? '';
    expect(body).toContain(`### monitor pull: e2e → account \`${DEV_ACCOUNT_ID}\``);
    expect(body).toContain(
      '- CheckGroup `payments` `locations` at `monitors/groups.monitor.ts:7`: `["eu-west-1"]` → `["eu-west-1","us-east-1"]`',
    );
    // The checkout is left as it was: its branch, its files, no worktree or index left behind.
    expect(checkoutOf(dir)).toEqual(before);

    // The next night: the name was changed too. The same branch, rebuilt on main, and the same pull request.
    await groups.update(id, { name: 'Payments (prod)', locations: ['eu-west-1', 'us-east-1'] });
    const second = await run('pull', '--pr');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      `✓ Pull request #3 updated on acme/web: https://github.test/pull/3 (branch ${BRANCH} pushed`,
    );
    expect(aheadOfMain(origin)).toHaveLength(1);
    expect(git(origin, 'show', `${BRANCH}:monitors/groups.monitor.ts`)).toContain(
      "name: 'Payments (prod)', // shown in the UI",
    );
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain(
      '`name` at `monitors/groups.monitor.ts:6`: `"Payments"` → `"Payments (prod)"`',
    );
    expect(github.writes().filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(1);

    // Nothing new: nothing is pushed or edited.
    const tip = git(origin, 'rev-parse', BRANCH);
    const writes = github.writes().length;
    const third = await run('pull', '--pr', '--json');
    expect(envelopeOf(third).result.pr).toMatchObject({ status: 'unchanged', number: 3, pushed: false });
    expect(git(origin, 'rev-parse', BRANCH)).toBe(tip);
    expect(github.writes()).toHaveLength(writes);

    // The UI edits are undone: the pull request is closed, saying why, and its branch deleted.
    await groups.update(id, { name: 'Payments', locations: ['eu-west-1'] });
    const fourth = await run('pull', '--pr', '--json');
    expect(fourth.code, fourth.stderr).toBe(0);
    expect(envelopeOf(fourth).result.pr).toMatchObject({
      status: 'closed',
      closed: [3],
      branchDeleted: true,
    });
    expect(ours()[0]?.state).toBe('closed');
    const closing = github.threads.get('pr:3') ?? [];
    expect(closing).toHaveLength(1);
    expect(closing[0]?.body).toContain('The account agrees with the code again');
    expect(remoteHas(origin, BRANCH)).toBe(false);
    // Other people's pull requests from a branch of the same name were never touched.
    expect(github.pulls.slice(0, 2).map((p) => [p.number, p.body, p.state, p.author])).toEqual([
      [1, 'mine', 'open', undefined],
      [2, 'mine too', 'open', undefined],
    ]);
    expect(github.issues).toEqual([]);
    expect(checkoutOf(dir)).toEqual(before);
  });

  it('once the pull request is merged, deletes the branch left behind, and diff shows no changes', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, dir, run, origin } = await deployedRepository({ 'monitors/groups.monitor.ts': GROUPS }, (d) =>
      gitHubEnv(d, github, { schedule: '17 5 * * *' }),
    );
    await h.client
      .managed('CheckGroup')
      .update(await groupId(h), { name: 'Payments', locations: ['us-east-1'] });
    expect((await run('pull', '--pr')).code).toBe(0);
    // Merged (a fast-forward), and the next night's checkout has it.
    git(origin, 'update-ref', 'refs/heads/main', `refs/heads/${BRANCH}`);
    const pull = github.pulls[0];
    if (pull !== undefined) pull.state = 'merged';
    git(dir, 'pull', '-q', '--ff-only', 'origin', 'main');
    expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
    const after = await run('pull', '--pr', '--json');
    expect(after.code, after.stderr).toBe(0);
    expect(envelopeOf(after).result.pr).toMatchObject({ status: 'none', closed: [], branchDeleted: true });
    expect(remoteHas(origin, BRANCH)).toBe(false);
    expect(github.threads.get('pr:1') ?? []).toEqual([]);
  });

  it("leaves someone else's branch of the same name alone: refuses to push over it, and never deletes it", async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, dir, run, origin } = await deployedRepository({ 'monitors/groups.monitor.ts': GROUPS }, (d) =>
      gitHubEnv(d, github, { schedule: '17 5 * * *' }),
    );
    // Someone's own work on a branch that happens to be named monitor/pull/e2e, and their pull request from it.
    const theirs = git(dir, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'their work').trim();
    git(dir, 'push', '-q', 'origin', `${theirs}:refs/heads/${BRANCH}`);
    github.pulls.push({
      number: 1,
      title: 'their work',
      body: 'theirs',
      head: BRANCH,
      base: 'main',
      state: 'open',
    });
    const groups = h.client.managed('CheckGroup');
    const id = await groupId(h);

    await groups.update(id, { name: 'Renamed in the UI' });
    const refused = await run('pull', '--pr', '--json');
    expect(refused.code).toBe(1);
    expect(envelopeOf(refused).error).toMatchObject({
      code: 'branch_taken',
      message: expect.stringMatching(new RegExp(`${BRANCH} on origin is not monitor's.*#1`)),
      hint: expect.stringContaining('close it'),
    });
    expect(git(origin, 'rev-parse', BRANCH).trim()).toBe(theirs);
    expect(github.pulls).toHaveLength(1);

    // Nothing to pull: monitor has no branch to delete.
    await groups.update(id, { name: 'Payments', locations: ['eu-west-1'] });
    const settled = await run('pull', '--pr', '--json');
    expect(settled.code, settled.stderr).toBe(0);
    expect(envelopeOf(settled).result.pr).toMatchObject({ status: 'none', closed: [], branchDeleted: false });
    expect(git(origin, 'rev-parse', BRANCH).trim()).toBe(theirs);
    expect(github.pulls.map((p) => [p.number, p.body, p.state])).toEqual([[1, 'theirs', 'open']]);
  });

  it('a create that GitHub stored but answered 502 for is found again: one pull request; a refused create says how to allow it', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, run } = await deployedRepository({ 'monitors/groups.monitor.ts': GROUPS }, (d) =>
      gitHubEnv(d, github, { schedule: '17 5 * * *' }),
    );
    await h.client.managed('CheckGroup').update(await groupId(h), { name: 'Renamed in the UI' });
    // The repository does not let Actions open pull requests yet: the branch is pushed, and the hint says where to allow it.
    github.actionsMayOpenPulls = false;
    const notAllowed = await run('pull', '--pr');
    expect(notAllowed.code).toBe(1);
    expect(notAllowed.stderr).toContain(
      '403 GitHub Actions is not permitted to create or approve pull requests',
    );
    expect(notAllowed.stderr).toContain('Allow GitHub Actions to create and approve pull requests');
    github.actionsMayOpenPulls = true;
    github.failures.push({ method: 'POST', path: '/pulls', status: 502, afterWork: true });
    const result = await run('pull', '--pr', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(envelopeOf(result).result.pr).toMatchObject({ status: 'created', number: 1, pushed: false });
    expect(github.pulls).toHaveLength(1);
    // The refused one, and the one stored: never a third.
    expect(github.writes().filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(2);
    expect((await run('pull', '--pr')).stdout).toContain(
      '✓ Pull request #1 is already up to date on acme/web',
    );
    expect(github.pulls).toHaveLength(1);
  });

  it('drift only in a secret goes to the drift issue, not a pull request', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, run, origin } = await deployedRepository({ 'monitors/alerts.monitor.ts': SLACK }, (d) => ({
      ...gitHubEnv(d, github, { schedule: '17 5 * * *' }),
      SLACK_URL: 'https://hooks.slack.com/services/T0/B0/old',
    }));
    const [channel] = (await h.client.alertChannels.list()).items;
    await h.client
      .managed('AlertChannel')
      .update(
        channel?.id as number,
        { type: 'SLACK', config: { url: 'https://hooks.slack.com/services/T0/B0/new' } } as never,
      );
    const text = await run('pull', '--pr');
    expect(text.stdout).toContain(`→ account ${DEV_ACCOUNT_ID}\n\nNot pulled:\n`);
    expect(text.stdout).toContain('Nothing that pull can write: the drift is in the issue #1.');
    const result = await run('pull', '--pr', '--json');
    expect(result.code, result.stderr).toBe(0);
    const { pr, issue } = envelopeOf(result).result;
    expect(pr).toMatchObject({ status: 'issue', pushed: false, closed: [] });
    expect(issue).toMatchObject({ status: 'unchanged', number: 1 });
    expect(github.pulls).toEqual([]);
    expect(remoteHas(origin, BRANCH)).toBe(false);
    expect(github.issues[0]?.title).toBe(`monitor: e2e differs from account ${DEV_ACCOUNT_ID}`);
    const body = github.issues[0]?.body ?? '';
    expect(body).toContain('#### Not pulled');
    expect(body).toContain('AlertChannel `ops-slack` `config.url` at `monitors/alerts.monitor.ts:3`');
    expect(body).not.toContain('T0/B0/new');
  });

  it('says what is missing: no git repository, no origin, no token; a refused push removes what it made', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, dir, run, useCi, origin } = await deployedRepository(
      { 'monitors/groups.monitor.ts': GROUPS },
      (d) => gitHubEnv(d, github, { schedule: '17 5 * * *' }),
    );
    await h.client.managed('CheckGroup').update(await groupId(h), { name: 'Renamed in the UI' });
    const before = checkoutOf(dir);

    writeFileSync(
      join(origin, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "GH006: Protected branch update failed for refs/heads/monitor/pull/e2e." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const refused = await run('pull', '--pr', '--json');
    expect(refused.code).toBe(1);
    expect(envelopeOf(refused).error).toMatchObject({
      code: 'push_refused',
      message: expect.stringContaining(`origin refused the push of ${BRANCH}`),
      hint: expect.stringContaining('contents: write'),
    });
    expect(github.pulls).toEqual([]);
    expect(checkoutOf(dir)).toEqual(before);

    useCi(runnerEnv({ ...gitHubEnv(dir, github, { schedule: '17 5 * * *' }), GITHUB_TOKEN: '' }));
    const noToken = await run('pull', '--pr');
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain(
      'error: pull --pr opens a pull request, and cannot: GITHUB_TOKEN is not set',
    );
    expect(noToken.stderr).toContain('hint: pass the token to the step');

    useCi(runnerEnv(gitHubEnv(dir, github, { schedule: '17 5 * * *' })));
    git(dir, 'remote', 'remove', 'origin');
    const noOrigin = await run('pull', '--pr');
    expect(noOrigin.code).toBe(1);
    expect(noOrigin.stderr).toContain(
      'error: pull --pr pushes to the remote origin, and this repository has none',
    );
    expect(noOrigin.stderr).toContain('hint: git remote add origin');

    for (const other of [['--dry-run'], ['--target', 'payments']]) {
      const usage = await run('pull', '--pr', ...other);
      expect(usage.code).toBe(1);
      expect(usage.stderr).toContain('mutually exclusive');
    }

    cleanup(join(dir, '.git'));
    const noRepository = await run('pull', '--pr', '--json');
    expect(noRepository.code).toBe(1);
    expect(envelopeOf(noRepository).error).toMatchObject({
      code: 'not_a_git_repository',
      hint: expect.stringContaining('git clone'),
    });
  });
});

describe('pull --pr on GitLab', () => {
  it('opens one merge request, updates it, ignores one of the same branch by someone else, and closes it', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    // Someone's merge request from a branch of the same name into another branch.
    gitlab.pulls.push({
      number: 1,
      title: 'theirs',
      body: 'mine',
      head: BRANCH,
      base: 'release',
      state: 'open',
    });
    const { h, run, origin } = await deployedRepository({ 'monitors/groups.monitor.ts': GROUPS }, () => ({
      ...gitLabEnv(gitlab),
      CI_DEFAULT_BRANCH: 'main',
    }));
    const groups = h.client.managed('CheckGroup');
    const id = await groupId(h);
    await groups.update(id, { name: 'Payments', locations: ['eu-west-1', 'us-east-1'] });
    const first = await run('pull', '--pr');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      `✓ Merge request !2 opened in project 42: https://gitlab.test/merge_requests/2 (branch ${BRANCH} pushed`,
    );
    expect(aheadOfMain(origin)).toHaveLength(1);
    const ours = () => gitlab.pulls.filter((p) => p.author?.id === GITLAB_TOKEN_BOT.id);
    expect(ours()).toMatchObject([{ number: 2, head: BRANCH, base: 'main', state: 'open' }]);
    expect(ours()[0]?.body).toContain('`locations`');

    await groups.update(id, { name: 'Payments (prod)', locations: ['eu-west-1', 'us-east-1'] });
    const second = await run('pull', '--pr');
    expect(second.stdout, second.stderr).toContain('✓ Merge request !2 updated in project 42');
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain('`name`');
    expect(aheadOfMain(origin)).toHaveLength(1);

    await groups.update(id, { name: 'Payments', locations: ['eu-west-1'] });
    const closed = await run('pull', '--pr');
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toContain(
      `✓ Closed merge request !2: the account agrees with the code again; deleted branch ${BRANCH}`,
    );
    expect(ours()[0]?.state).toBe('closed');
    expect(gitlab.threads.get('mr:2')?.[0]?.body).toContain('The account agrees with the code again');
    expect(remoteHas(origin, BRANCH)).toBe(false);
    expect([gitlab.pulls[0]?.body, gitlab.pulls[0]?.state, gitlab.pulls[0]?.author]).toEqual([
      'mine',
      'open',
      undefined,
    ]);
  });
});

describe('pull --pr across a workspace', () => {
  it('--all: one branch and one pull request per project, each of its own edits', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const h = await emulatorForTests();
    emulators.push(h);
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(join(TMP, 'workspace-'));
    dirs.push(dir);
    const config = (name: string) =>
      `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${name}' });\n`;
    const group = (id: string) =>
      `import { CheckGroup } from '@monitor/constructs';\n\nnew CheckGroup('${id}', { name: '${id}' });\n`;
    writeFiles(dir, {
      'monitor.workspace.ts':
        "import { defineWorkspace } from '@monitor/constructs';\nexport default defineWorkspace({ projects: ['billing', 'search'] });\n",
      'billing/monitor.config.ts': config('billing'),
      'billing/groups.monitor.ts': group('billing'),
      'search/monitor.config.ts': config('search'),
      'search/groups.monitor.ts': group('search'),
      '.gitignore': '.monitor/\nevent.json\nsummary.md\n',
    });
    const env = { ...h.env, ...runnerEnv(gitHubEnv(dir, github, { schedule: '17 5 * * *' })) };
    const run = (...args: string[]) => monitor(args, { cwd: dir, env });
    expect((await run('deploy', '--all', '--yes')).code).toBe(0);
    const origin = mkdtempSync(join(TMP, 'origin-'));
    dirs.push(origin);
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'the workspace');
    git(dir, 'remote', 'add', 'origin', origin);
    git(dir, 'push', '-q', 'origin', 'main');
    for (const g of (await h.client.checkGroups.list()).items)
      await h.client.managed('CheckGroup').update(g.id, { name: `${g.name} (renamed in the UI)` });

    const pulled = await run('pull', '--all', '--pr');
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    for (const project of ['billing', 'search']) {
      expect(aheadOfMain(origin, `monitor/pull/${project}`)).toHaveLength(1);
      expect(git(origin, 'show', `monitor/pull/${project}:${project}/groups.monitor.ts`)).toContain(
        `name: '${project} (renamed in the UI)'`,
      );
      // Each branch holds its own project's edit only.
      expect(git(origin, 'diff', '--name-only', 'main', `monitor/pull/${project}`).trim()).toBe(
        `${project}/groups.monitor.ts`,
      );
    }
    expect(github.pulls.map((p) => [p.head, p.state]).sort()).toEqual([
      ['monitor/pull/billing', 'open'],
      ['monitor/pull/search', 'open'],
    ]);
    const billing = github.pulls.find((p) => p.head === 'monitor/pull/billing');
    expect(billing?.body).toContain('`billing/groups.monitor.ts:3`');
  });
});

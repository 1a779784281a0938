import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CiOptions, ciFiles } from '@monitor/cli';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type FaultConfig } from '@monitor/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { execFileInTest } from './support/children.js';
import { ciProjects, gitHubEnv, gitLabEnv, SHA, writeNpxShim } from './support/ci.js';
import { type FakeCodeHost, fakeGitHub, fakeGitLab } from './support/code-hosts.js';
import { cleanup, emulatorForTests, monitor } from './support/harness.js';
import { IMPORTS } from './support/projects.js';
import { githubIf, gitlabRule, gitlabSchemaErrors, lintWorkflow, triggers } from './support/workflows.js';

/**
 * The CI files `monitor init --ci` writes and examples/ci holds, as shipped: linted (actionlint,
 * GitLab's schema), their triggers and conditions evaluated as the hosts evaluate them, and each
 * monitor command in them run as the CI would run it, against the emulator and fake code hosts.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
const ciProject = ciProjects();
const hosts: FakeCodeHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of dirs.splice(0)) cleanup(d);
});
const run = execFileInTest;

const example = (path: string) => parse(readFileSync(join(REPO, 'examples/ci', path), 'utf8'));

/** Every kind of file init writes: both state backends, at a repository's root and below it. */
const VARIANTS: CiOptions[] = [
  { state: 'postgres', branch: 'main', projectDir: '.' },
  { state: 'file', branch: 'main', projectDir: '.' },
  { state: 'postgres', branch: 'trunk', projectDir: 'ops/monitoring' },
  { state: 'file', branch: 'trunk', projectDir: 'ops/monitoring' },
];
const name = (o: CiOptions) => `${o.state} state, project at ${o.projectDir}`;

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  needs?: string;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, Record<string, string[]> | null>;
  env?: Record<string, string>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
  [key: string]: unknown;
}

/** `npx monitor …` of a job's steps: the arguments, the step's condition and its environment. */
function monitorSteps(workflow: Workflow, job: string) {
  const j = workflow.jobs[job];
  if (j === undefined) throw new Error(`no job ${job}`);
  return j.steps
    .filter((s) => s.run?.trim().startsWith('npx monitor '))
    .map((s) => ({
      args: (s.run ?? '')
        .trim()
        .replace(/^npx monitor /, '')
        .split(/\s+/),
      if: s.if,
      env: { ...j.env, ...s.env },
    }));
}

/**
 * `npx monitor …` lines of a GitLab job's script (without a `|| status=$?` that keeps the exit code
 * for later), with `$VAR` taken from `variables`.
 */
function scriptCommands(job: { script: string[] }, variables: Record<string, string> = {}) {
  return job.script
    .filter((line) => line.startsWith('npx monitor '))
    .map((line) =>
      line
        .replace(/^npx monitor /, '')
        .replace(/ \|\| status=\$\?$/, '')
        .replace(/\$(\w+)/g, (_, name: string) => variables[name] ?? '')
        .split(/\s+/)
        .filter((w) => w !== ''),
    );
}

const SECRETS = [
  'MONITOR_API_KEY',
  'MONITOR_ACCOUNT_ID',
  'MONITOR_BASE_URL',
  'MONITOR_STATE_URL',
  'MONITOR_STATE_SECRET',
];

function groups(n: number): string {
  let out = IMPORTS;
  for (let i = 0; i < n; i++) out += `new CheckGroup('g${i}', { name: 'Group ${i}' });\n`;
  return out;
}

/** The `github` context of a run: a pull request from `head` (this repository or a fork), a push, a manual run. */
function githubContext(event: {
  name: 'pull_request' | 'push' | 'workflow_dispatch';
  ref?: string;
  actor?: string;
  fork?: boolean;
}) {
  return {
    github: {
      event_name: event.name,
      ref: event.ref ?? 'refs/heads/main',
      actor: event.actor ?? 'octocat',
      repository: 'acme/web',
      event: {
        repository: { default_branch: 'main' },
        pull_request: { number: 7, head: { repo: { full_name: event.fork ? 'someone/web' : 'acme/web' } } },
      },
    },
    vars: {},
  };
}

/** Runs a step's script as Actions does (`bash -e -o pipefail`), with its env and `env`. */
function runStep(step: Step, cwd: string, env: Record<string, string>) {
  return run('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step.run ?? ''], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...step.env, ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}

// A git that commits as someone, and never asks.
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_TERMINAL_PROMPT: '0',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: 'pipe' });

/** The runner's checkout of `dir`: a repository committed on main, whose origin is a bare one next door. */
function checkoutWithOrigin(dir: string): string {
  const origin = mkdtempSync(join(TMP, 'origin-'));
  dirs.push(origin);
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'the project');
  git(dir, 'remote', 'add', 'origin', origin);
  git(dir, 'push', '-q', 'origin', 'main');
  return origin;
}

/** `npx` as the deploy job runs it, in a directory of its own. */
function npxShim(): string {
  mkdirSync(TMP, { recursive: true });
  const bin = mkdtempSync(join(TMP, 'npx-'));
  dirs.push(bin);
  return writeNpxShim(bin);
}

/**
 * The deploy job of a GitLab pipeline (file state, project at the root) run as the runner runs its
 * script: one bash, `set -eo pipefail`, in a checkout of a repository whose origin is a bare one
 * next door (it takes push options; with `refusePush`, a pre-receive hook refuses the push as a
 * protected branch does). `faults` are the emulator's during the deploy.
 */
async function gitLabDeployJob(
  job: { script: string[] },
  { faults, refusePush = false }: { faults?: FaultConfig; refusePush?: boolean } = {},
) {
  const { dir, h } = await ciProject({ 'a.monitor.ts': groups(2) });
  const origin = mkdtempSync(join(TMP, 'origin-'));
  dirs.push(origin);
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  git(origin, 'config', 'receive.advertisePushOptions', 'true');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'the project');
  git(dir, 'push', '-q', origin, 'main');
  const pushed = join(origin, 'push-options');
  writeFileSync(
    join(origin, 'hooks', 'pre-receive'),
    refusePush
      ? '#!/bin/sh\necho "GitLab: You are not allowed to push code to protected branches on this project." >&2\nexit 1\n'
      : `#!/bin/sh\nprintf %s "$GIT_PUSH_OPTION_0" > '${pushed}'\n`,
    { mode: 0o755 },
  );
  if (faults !== undefined) h.emulator.app.faults.configure(faults);
  const result = await runStep({ run: job.script.join('\n') }, dir, {
    ...h.env,
    ...GIT_ENV,
    PATH: `${npxShim()}:${process.env.PATH ?? ''}`,
    CI: 'true',
    NO_COLOR: '1',
    CI_SERVER_PROTOCOL: 'https',
    CI_SERVER_FQDN: 'gitlab.example',
    CI_SERVER_HOST: 'gitlab.example',
    CI_PROJECT_PATH: 'acme/web',
    CI_COMMIT_BRANCH: 'main',
    CI_COMMIT_SHORT_SHA: SHA.slice(0, 8),
    GITLAB_TOKEN: 'gl-test-token',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `url.${origin}.insteadOf`,
    GIT_CONFIG_VALUE_0: 'https://oauth2:gl-test-token@gitlab.example/acme/web.git',
  });
  return { result, origin, h, pushOptions: () => readFileSync(pushed, 'utf8') };
}

/** Every file of a project directory but what git and npm keep for themselves. */
function filesOf(dir: string, at = dir): string[] {
  return readdirSync(at).flatMap((entry) => {
    if (['.git', 'node_modules', '.monitor'].includes(entry)) return [];
    const path = join(at, entry);
    return statSync(path).isDirectory() ? filesOf(dir, path) : [relative(dir, path)];
  });
}

describe('the CI files monitor init --ci writes', () => {
  it('examples/ci is what init writes (npm run docs regenerates it)', async () => {
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(join(TMP, 'ci-init-'));
    dirs.push(dir);
    for (const ci of ['github', 'gitlab']) {
      const result = await monitor(
        ['init', ci, '--ci', ci, '--state', 'postgres', '--default-branch', 'main'],
        { cwd: dir },
      );
      expect(result.code, result.stderr).toBe(0);
    }
    for (const file of ['monitor-preview.yml', 'monitor-deploy.yml', 'monitor-drift.yml']) {
      const written = readFileSync(join(dir, 'github/.github/workflows', file), 'utf8');
      // A stale example fails here: run npm run docs and commit examples/ci.
      expect(readFileSync(join(REPO, 'examples/ci/github', file), 'utf8'), file).toBe(written);
      expect(written).not.toMatch(/copy to/i);
    }
    expect(readFileSync(join(REPO, 'examples/ci/gitlab/.gitlab-ci.yml'), 'utf8')).toBe(
      readFileSync(join(dir, 'gitlab/.gitlab-ci.yml'), 'utf8'),
    );
  });

  it('actionlint finds nothing in any GitHub workflow, and finds what is wrong in a bad one', async () => {
    for (const options of VARIANTS) {
      for (const file of ciFiles('github', options))
        expect(await lintWorkflow(file.text, file.path), `${file.path}, ${name(options)}`).toEqual([]);
    }
    const bad = ciFiles('github', VARIANTS[0] as CiOptions)[0] as { text: string; path: string };
    const broken = bad.text.replace(
      'run: npx monitor validate',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as a workflow would hold it.
      'run: echo ${{ github.event.pull_request.title }}',
    );
    expect(await lintWorkflow(broken, bad.path)).toEqual([expect.stringContaining('potentially untrusted')]);
  });

  it("GitLab's CI schema accepts every pipeline, and refuses a broken one", () => {
    for (const options of VARIANTS) {
      const [file] = ciFiles('gitlab', options);
      expect(gitlabSchemaErrors(parse(file?.text ?? '')), name(options)).toEqual([]);
    }
    const pipeline = parse(ciFiles('gitlab', VARIANTS[0] as CiOptions)[0]?.text ?? '');
    pipeline['monitor:deploy'].rules = [{ iff: '$CI_COMMIT_BRANCH' }];
    expect(gitlabSchemaErrors(pipeline)).not.toEqual([]);
  });

  it('actions pinned by commit with their tag beside, Node 22 or 24, and no filter that could skip a change', () => {
    for (const options of VARIANTS) {
      for (const file of ciFiles('github', options)) {
        const workflow = parse(file.text) as Workflow;
        for (const filter of Object.values(workflow.on)) {
          expect(filter ?? {}).not.toHaveProperty('paths');
          expect(filter ?? {}).not.toHaveProperty('paths-ignore');
        }
        for (const job of Object.values(workflow.jobs)) {
          for (const step of job.steps) {
            if (step.uses === undefined) continue;
            expect(step.uses, file.path).toMatch(/^actions\/(checkout|setup-node)@[0-9a-f]{40}$/);
            expect(file.text).toMatch(new RegExp(`uses: ${step.uses} # v\\d+\\.\\d+\\.\\d+\\n`));
            if (step.uses.startsWith('actions/setup-node'))
              expect([22, 24]).toContain(step.with?.['node-version']);
          }
        }
      }
      const pipeline = parse(ciFiles('gitlab', options)[0]?.text ?? '');
      expect(pipeline['.monitor'].image).toMatch(/^node:(22|24)$/);
      for (const [job, body] of Object.entries(pipeline as Record<string, { rules?: object[] }>)) {
        for (const rule of body.rules ?? []) expect(rule, job).not.toHaveProperty('changes');
      }
    }
  });

  it('secrets reach only the steps that run monitor: never npm ci, never a whole job, and checkout keeps no token', () => {
    for (const options of VARIANTS) {
      for (const file of ciFiles('github', options)) {
        const workflow = parse(file.text) as Workflow;
        expect(workflow.env, file.path).toBeUndefined();
        for (const job of Object.values(workflow.jobs)) {
          expect(job.env, file.path).toBeUndefined();
          for (const step of job.steps) {
            const secrets = Object.values(step.env ?? {}).filter((v) => v.includes('secrets.'));
            if (step.run?.startsWith('npx monitor ')) continue;
            if (step.name === 'Commit the state') {
              // Pushing the state back needs the token, and only it.
              // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as written in the workflow.
              expect(step.env).toEqual({ GITHUB_TOKEN: '${{ secrets.GITHUB_TOKEN }}' });
              continue;
            }
            expect(secrets, `${file.path}: ${step.name ?? step.run ?? step.uses}`).toEqual([]);
            if (step.uses?.startsWith('actions/checkout'))
              expect(step.with?.['persist-credentials']).toBe(false);
          }
        }
      }
      const pipeline = parse(ciFiles('gitlab', options)[0]?.text ?? '');
      const install = (pipeline['.monitor'].before_script as string[]).find((l) => l.includes('npm ci'));
      const secretVariables = ['MONITOR_API_KEY', 'MONITOR_STATE_SECRET', 'GITLAB_TOKEN'];
      if (options.state === 'postgres') secretVariables.push('MONITOR_STATE_URL');
      for (const variable of secretVariables) expect(install).toContain(`-u ${variable} `);
      expect(install).toMatch(/^env (-u \w+ )+npm ci /);
    }
  });
});

describe('examples/ci/github', () => {
  it('monitor-preview.yml: validates, then posts the plan on the pull request, one run per PR; a read-only key is enough', async () => {
    const workflow = example('github/monitor-preview.yml') as Workflow;
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.plan?.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(workflow.concurrency).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as written in the workflow.
      group: 'monitor-preview-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
    expect(monitorSteps(workflow, 'validate').map((s) => s.args)).toEqual([['validate']]);
    const [plan] = monitorSteps(workflow, 'plan');
    expect(plan?.args).toEqual(['diff', '--comment']);
    expect(Object.keys(plan?.env ?? {}).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    // The account again, with a key that may only read.
    const readOnly = await emulatorForTests({
      accounts: [{ id: DEV_ACCOUNT_ID, keys: [DEV_API_KEY], readOnlyKeys: ['read-only-key'] }],
    });
    try {
      useCi({
        ...gitHubEnv(dir, github, { pull_request: { number: 21 } }),
        MONITOR_BASE_URL: readOnly.env.MONITOR_BASE_URL,
        MONITOR_API_KEY: 'read-only-key',
      });
      expect((await run('validate')).code).toBe(0);
      const diff = await run(...(plan?.args ?? []));
      expect(diff.code, diff.stderr).toBe(0);
      expect(github.threads.get('pr:21')?.[0]?.body).toContain('**Plan: 2 to create');
      // The same key cannot deploy: the deploy job needs one that may write.
      const deploy = await run('deploy', '--yes');
      expect(deploy.code).toBe(1);
      expect(deploy.stdout + deploy.stderr).toContain('403');
    } finally {
      await readOnly.close();
    }
  });

  it('monitor-preview.yml: a pull request from a fork or from Dependabot is validated, and its plan job skipped with the reason', () => {
    const workflow = example('github/monitor-preview.yml') as Workflow;
    const notice = workflow.jobs.validate?.steps.find((s) => s.name === 'Say why there is no plan');
    expect(notice?.run).toMatch(/^echo "::notice title=monitor preview skipped::[^\n]+"$/);
    for (const [who, context] of [
      ['a fork', githubContext({ name: 'pull_request', fork: true })],
      ['Dependabot', githubContext({ name: 'pull_request', actor: 'dependabot[bot]' })],
    ] as const) {
      expect(githubIf(workflow.jobs.validate?.if, context), who).toBe(true);
      expect(githubIf(workflow.jobs.plan?.if, context), who).toBe(false);
      expect(githubIf(notice?.if, context), who).toBe(true);
    }
    const own = githubContext({ name: 'pull_request' });
    expect(githubIf(workflow.jobs.plan?.if, own)).toBe(true);
    expect(githubIf(notice?.if, own)).toBe(false);
  });

  it('monitor-deploy.yml: on main, one at a time, deploys and posts the result on the merged pull request', async () => {
    const workflow = example('github/monitor-deploy.yml') as Workflow;
    expect(workflow.on.push?.branches).toEqual(['main']);
    expect(workflow.concurrency).toEqual({ group: 'monitor-deploy', 'cancel-in-progress': false });
    expect(workflow.permissions['pull-requests']).toBe('write');
    const steps = monitorSteps(workflow, 'deploy');
    expect(steps.map((s) => s.args)).toEqual([
      ['deploy', '--yes', '--allow-deletes', '--verify', '--comment', '--lock-timeout', '300'],
    ]);
    expect(Object.keys(steps[0]?.env ?? {}).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    github.commitPulls.set(SHA, [{ number: 8, merged: true }]);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(2) });
    // A check in the first group the deploy creates (the emulator numbers groups from 1).
    const seeded = await fetch(`${h.emulator.url}/_emulator/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        fixture: {
          checks: [
            {
              id: '71111111-1111-4111-8111-111111111111',
              checkType: 'API',
              name: 'Health',
              activated: true,
              locations: ['eu-west-1'],
              groupId: 1,
            },
          ],
        },
      }),
    });
    expect(seeded.status).toBeLessThan(300);
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    const deployed = await run(...(steps[0]?.args ?? []));
    expect(deployed.code, deployed.stderr).toBe(0);
    expect((await h.client.checkGroups.list()).items).toHaveLength(2);
    const body = github.threads.get('pr:8')?.[0]?.body ?? '';
    expect(body).toMatch(/\*\*✓ Applied in .*:\*\* 2 created/);
    // The verification, under the result.
    expect(body.indexOf('#### ✅ Verification: 1 check in 1 group: 1 passed')).toBeGreaterThan(
      body.indexOf('**✓ Applied in'),
    );
  });

  it('monitor-deploy.yml: only the default branch deploys; a manual run of another ref refuses before it installs', async () => {
    const workflow = example('github/monitor-deploy.yml') as Workflow;
    const [guard, ...rest] = workflow.jobs.deploy?.steps ?? [];
    expect(guard?.name).toBe('Deploy only the default branch');
    expect(rest.map((s) => s.uses ?? s.run)).toEqual([
      expect.stringMatching(/^actions\/checkout@/),
      expect.stringMatching(/^actions\/setup-node@/),
      'npm ci',
      'npx monitor deploy --yes --allow-deletes --verify --comment --lock-timeout 300',
    ]);
    for (const ref of ['refs/heads/feature', 'refs/tags/v1.0.0']) {
      const context = githubContext({ name: 'workflow_dispatch', ref });
      expect(githubIf(guard?.if, context), ref).toBe(true);
      const step = {
        ...guard,
        env: { REF: ref, DEFAULT_BRANCH: 'main' },
      };
      const refused = await runStep(step, REPO, {});
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe(
        `::error title=monitor deploy refused::monitor deploys only the default branch (main); this run is for ${ref}. Merge the change, then deploy.\n`,
      );
    }
    expect(githubIf(guard?.if, githubContext({ name: 'workflow_dispatch' }))).toBe(false);
    expect(githubIf(guard?.if, githubContext({ name: 'push' }))).toBe(false);
    expect(triggers(workflow.on, 'push', 'feature', ['monitors/a.monitor.ts'])).toBe(false);
  });

  it('monitor-drift.yml: a manual run of another branch refuses: drift is the default branch against the account', async () => {
    const workflow = example('github/monitor-drift.yml') as Workflow;
    const [guard] = workflow.jobs.drift?.steps ?? [];
    expect(guard?.name).toBe('Drift only of the default branch');
    const ref = 'refs/heads/feature';
    expect(githubIf(guard?.if, githubContext({ name: 'workflow_dispatch', ref }))).toBe(true);
    expect(githubIf(guard?.if, githubContext({ name: 'push' }))).toBe(false);
    const refused = await runStep({ ...guard, env: { REF: ref, DEFAULT_BRANCH: 'main' } }, REPO, {});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('::error title=monitor drift refused::');
  });

  it('monitor-drift.yml: nightly, the edits made in the UI become one pull request, or fail the job with MONITOR_DRIFT_MODE=fail', async () => {
    const workflow = example('github/monitor-drift.yml') as Workflow;
    expect(workflow.on.schedule).toHaveLength(1);
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
    // Only the drift job may push its branch and open its pull request.
    expect(workflow.jobs.drift?.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      issues: 'write',
    });
    const steps = monitorSteps(workflow, 'drift');
    expect(steps.map((s) => [s.if, s.args])).toEqual([
      ["vars.MONITOR_DRIFT_MODE != 'fail'", ['pull', '--pr']],
      ["vars.MONITOR_DRIFT_MODE == 'fail'", ['diff', '--detailed-exitcode']],
      // After either, whether it failed or not; on the default branch only, as the drift.
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as written in the workflow.
        "${{ !cancelled() && github.ref == format('refs/heads/{0}', github.event.repository.default_branch) }}",
        ['audit', '--issue'],
      ],
    ]);
    for (const step of steps)
      expect(Object.keys(step.env).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { schedule: '17 5 * * *' }));
    expect((await run('deploy', '--yes')).code).toBe(0);
    const origin = checkoutWithOrigin(dir);
    const [live] = (await h.client.checkGroups.list()).items;
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    const [asPullRequest, asFailure, audit] = steps;
    const pulled = await run(...(asPullRequest?.args ?? []));
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(github.pulls).toMatchObject([{ head: 'monitor/pull/e2e', base: 'main', state: 'open' }]);
    expect(git(origin, 'show', 'monitor/pull/e2e:a.monitor.ts')).toContain('muted: true');
    expect((await run(...(asFailure?.args ?? []))).code).toBe(2);
    // The group subscribes to no channel: a warning, so an issue and a job that passes.
    expect((await run(...(audit?.args ?? []))).code).toBe(0);
    expect(github.issues).toMatchObject([{ labels: ['monitor-audit'], state: 'open' }]);
  });

  it('init --ci github on a project laid out like examples/basic: a change to any of its files runs the preview and the deploy', async () => {
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(join(TMP, 'basic-ci-'));
    dirs.push(dir);
    const basic = join(REPO, 'examples/basic');
    for (const entry of readdirSync(basic).filter((e) => !['node_modules', '.monitor'].includes(e)))
      cpSync(join(basic, entry), join(dir, entry), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    const init = await monitor(['init', '--ci', 'github', '--state', 'postgres'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('CI deploys from main');
    const preview = parse(
      readFileSync(join(dir, '.github/workflows/monitor-preview.yml'), 'utf8'),
    ) as Workflow;
    const deploy = parse(readFileSync(join(dir, '.github/workflows/monitor-deploy.yml'), 'utf8')) as Workflow;

    const files = filesOf(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        'monitor.config.ts',
        'monitors/groups.monitor.ts',
        'status/status.monitor.ts',
        'shared/environments.ts',
        'assets/dashboard.css',
        'assets/setup.js',
        'package.json',
        'tsconfig.json',
      ]),
    );
    const pullRequest = githubContext({ name: 'pull_request' });
    const push = githubContext({ name: 'push' });
    for (const file of files) {
      expect(triggers(preview.on, 'pull_request', 'main', [file]), `preview for ${file}`).toBe(true);
      expect(githubIf(preview.jobs.plan?.if, pullRequest), `plan for ${file}`).toBe(true);
      expect(triggers(deploy.on, 'push', 'main', [file]), `deploy for ${file}`).toBe(true);
      expect(githubIf(deploy.jobs.deploy?.steps[0]?.if, push), `deploy of ${file} refused`).toBe(false);
    }
  });

  it('with file state, the deploy commits the state back; the next run starts from it, and a run without it says the state is missing', async () => {
    const [deploy] = ciFiles('github', { state: 'file', branch: 'main', projectDir: '.' })
      .filter((f) => f.path.endsWith('monitor-deploy.yml'))
      .map((f) => parse(f.text) as Workflow);
    expect(deploy?.permissions.contents).toMatch(/^write/);
    const steps = deploy?.jobs.deploy?.steps ?? [];
    const deployStep = steps.find((s) => s.id === 'deploy');
    const commitStep = steps.find((s) => s.name === 'Commit the state');
    expect(Object.keys(deployStep?.env ?? {})).not.toContain('MONITOR_STATE_URL');
    expect(githubIf(commitStep?.if, { steps: { deploy: { outcome: 'failure' } } })).toBe(true);
    expect(githubIf(commitStep?.if, { steps: { deploy: { outcome: 'skipped' } } })).toBe(false);

    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(2) });
    // The repository on the code host, and the runner's checkout of it.
    const origin = mkdtempSync(join(TMP, 'origin-'));
    dirs.push(origin);
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'the project');
    git(dir, 'push', '-q', origin, 'main');
    const stateRemote = `https://x-access-token:gh-test-token@github.example/acme/web.git`;
    const runner = {
      ...GIT_ENV,
      GITHUB_TOKEN: 'gh-test-token',
      GITHUB_SHA: SHA,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_REF_NAME: 'main',
      // github.example is the bare repository next door.
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${origin}.insteadOf`,
      GIT_CONFIG_VALUE_0: stateRemote,
    };
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    const first = await run(...(monitorSteps(deploy as Workflow, 'deploy')[0]?.args ?? []));
    expect(first.code, first.stderr).toBe(0);
    const committed = await runStep(commitStep as Step, dir, runner);
    expect(committed.code, committed.stderr).toBe(0);
    expect(git(origin, 'log', '--format=%s', '-1', 'main').trim()).toBe(
      `monitor: state after the deploy of ${SHA.slice(0, 7)}`,
    );
    expect(git(origin, 'ls-tree', '-r', '--name-only', 'main')).toContain(
      `.monitor/state/${DEV_ACCOUNT_ID}.json`,
    );

    // The next run: a fresh checkout of the branch, with the state in it.
    const next = join(TMP, `next-${Date.now()}`);
    dirs.push(next);
    git(TMP, 'clone', '-q', origin, next);
    const again = await monitor(['deploy', '--yes', '--allow-deletes'], { cwd: next, env: h.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');

    // A checkout of the commit before the state was committed: the state is missing, and the
    // deploy says so, once, instead of listing a conflict per construct.
    const stale = join(TMP, `stale-${Date.now()}`);
    dirs.push(stale);
    git(TMP, 'clone', '-q', origin, stale);
    git(stale, 'checkout', '-q', 'HEAD~1');
    const lost = await monitor(['deploy', '--yes', '--allow-deletes'], { cwd: stale, env: h.env });
    expect(lost.code).toBe(3);
    expect(lost.stderr).toContain(
      `error: e2e has no state in .monitor/state/${DEV_ACCOUNT_ID}.json, yet account ${DEV_ACCOUNT_ID} already holds 2 resources that match its constructs (2 check groups): the state of its earlier deploys is missing. Nothing was changed`,
    );
    expect(lost.stderr).toContain('see docs/ci.md');
    expect(lost.stdout + lost.stderr).not.toContain('adopt: true');
    expect((await h.client.checkGroups.list()).items).toHaveLength(2);
  });

  it('with file state, a refused push fails the commit step, saying the state was not saved and how to recover; no state, no commit', async () => {
    const [deploy] = ciFiles('github', { state: 'file', branch: 'main', projectDir: '.' })
      .filter((f) => f.path.endsWith('monitor-deploy.yml'))
      .map((f) => parse(f.text) as Workflow);
    const commitStep = deploy?.jobs.deploy?.steps.find((s) => s.name === 'Commit the state') as Step;
    mkdirSync(TMP, { recursive: true });
    const origin = mkdtempSync(join(TMP, 'origin-'));
    const dir = mkdtempSync(join(TMP, 'runner-'));
    dirs.push(origin, dir);
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    git(dir, 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'monitor.config.ts'), 'export default {};\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'the project');
    git(dir, 'push', '-q', origin, 'main');
    // The branch is protected from here on.
    writeFileSync(
      join(origin, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "error: GH006: Protected branch update failed for refs/heads/main." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const runner = {
      ...GIT_ENV,
      GITHUB_TOKEN: 'gh-test-token',
      GITHUB_SHA: SHA,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_REF_NAME: 'main',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${origin}.insteadOf`,
      GIT_CONFIG_VALUE_0: 'https://x-access-token:gh-test-token@github.example/acme/web.git',
    };
    // A deploy that failed before it wrote any state (an invalid project): nothing to commit.
    const nothing = await runStep(commitStep, dir, runner);
    expect(nothing.code, nothing.stderr).toBe(0);

    mkdirSync(join(dir, '.monitor/state'), { recursive: true });
    writeFileSync(join(dir, `.monitor/state/${DEV_ACCOUNT_ID}.json`), '{}\n');
    const refused = await runStep(commitStep, dir, runner);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Protected branch update failed');
    expect(refused.stdout).toContain(
      '::error title=monitor state not saved::the state after this deploy was not saved: its commit of .monitor/state could not be pushed to main (git says why above)',
    );
    expect(refused.stdout).toContain(
      "%0Ahint: let this job push to main (contents: write; a rule that requires pull requests must let github-actions[bot] through); then, before the next deploy, run 'npx monitor import --recover --yes' on main",
    );
    expect(git(origin, 'log', '--format=%s', '-1', 'main').trim()).toBe('the project');
  });
});

describe('examples/ci/gitlab/.gitlab-ci.yml', () => {
  const pipeline = example('gitlab/.gitlab-ci.yml');

  it('the plan on merge requests that can see the key, validation with the reason on those that cannot, deploy only from the default branch', () => {
    expect(Object.keys(pipeline).filter((k) => k.startsWith('monitor:'))).toEqual([
      'monitor:preview',
      'monitor:validate',
      'monitor:deploy',
      'monitor:drift',
    ]);
    expect(pipeline['monitor:preview'].interruptible).toBe(true);
    expect(pipeline['monitor:deploy'].resource_group).toBe('monitor-production');
    const jobsFor = (variables: Record<string, string>) =>
      Object.keys(pipeline).filter(
        (job) =>
          job.startsWith('monitor:') &&
          gitlabRule(pipeline[job].rules, { CI_DEFAULT_BRANCH: 'main', ...variables }),
      );
    const mergeRequest = { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '5' };
    expect(jobsFor({ ...mergeRequest, MONITOR_API_KEY: 'key' })).toEqual(['monitor:preview']);
    expect(jobsFor(mergeRequest)).toEqual(['monitor:validate']);
    expect(jobsFor({ ...mergeRequest, MONITOR_API_KEY: '' })).toEqual(['monitor:validate']);
    expect(jobsFor({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main' })).toEqual(['monitor:deploy']);
    expect(jobsFor({ CI_PIPELINE_SOURCE: 'web', CI_COMMIT_BRANCH: 'main' })).toEqual(['monitor:deploy']);
    expect(jobsFor({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'feature' })).toEqual([]);
    expect(jobsFor({ CI_PIPELINE_SOURCE: 'web', CI_COMMIT_BRANCH: 'feature' })).toEqual([]);
    expect(jobsFor({ CI_PIPELINE_SOURCE: 'schedule', CI_COMMIT_BRANCH: 'main' })).toEqual(['monitor:drift']);
    expect(pipeline['monitor:validate'].script[0]).toMatch(/^echo "monitor preview skipped - [^"]+"$/);
  });

  it('runs the preview on a merge request, the deploy with its result on the merged request, and both drift modes', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(1) });

    useCi(gitLabEnv(gitlab, 5));
    for (const args of scriptCommands(pipeline['monitor:preview'])) expect((await run(...args)).code).toBe(0);
    expect(gitlab.threads.get('mr:5')?.[0]?.body).toContain('**Plan: 1 to create');
    useCi({ ...gitLabEnv(gitlab, 6), MONITOR_API_KEY: '', GITLAB_TOKEN: '' });
    for (const args of scriptCommands(pipeline['monitor:validate']))
      expect((await run(...args)).code).toBe(0);

    useCi(gitLabEnv(gitlab));
    gitlab.commitPulls.set(SHA, [{ number: 5, merged: true }]);
    const [deploy] = scriptCommands(pipeline['monitor:deploy']);
    expect(deploy).toEqual([
      'deploy',
      '--yes',
      '--allow-deletes',
      '--verify',
      '--comment',
      '--lock-timeout',
      '300',
    ]);
    expect((await run(...(deploy ?? []))).code).toBe(0);
    expect(gitlab.threads.get('mr:5')?.map((n) => n.body.split('\n')[1])).toEqual([
      '### monitor diff: e2e → account `00000000-0000-4000-8000-00000000de00`',
      '### monitor deploy: e2e → account `00000000-0000-4000-8000-00000000de00`',
    ]);

    const [live] = (await h.client.checkGroups.list()).items;
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    const [failMode, pullMode] = pipeline['monitor:drift'].rules.map(
      (r: { variables: Record<string, string> }) => scriptCommands(pipeline['monitor:drift'], r.variables)[0],
    );
    expect(failMode).toEqual(['diff', '--detailed-exitcode']);
    expect((await run(...failMode)).code).toBe(2);
    expect(pullMode).toEqual(['pull', '--pr']);
    checkoutWithOrigin(dir);
    useCi({ ...gitLabEnv(gitlab), CI_DEFAULT_BRANCH: 'main' });
    const pulled = await run(...pullMode);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(gitlab.pulls).toMatchObject([{ head: 'monitor/pull/e2e', base: 'main', state: 'open' }]);
    const audit = scriptCommands(pipeline['monitor:drift']).slice(1);
    expect(audit).toEqual([['audit', '--issue']]);
    expect((await run(...(audit[0] ?? []))).code).toBe(0);
    expect(gitlab.issues).toMatchObject([{ labels: ['monitor-audit'], state: 'open' }]);
  });

  it('with file state, the deploy job commits the state in script, after the deploy, and exits with the deploy’s code', () => {
    for (const options of VARIANTS.filter((o) => o.state === 'file')) {
      const job = parse(ciFiles('gitlab', options)[0]?.text ?? '')['monitor:deploy'];
      // Not in after_script: GitLab ignores what fails there (gitlab-org/gitlab#21008).
      expect(job.after_script, name(options)).toBeUndefined();
      const script = job.script as string[];
      expect(script[0]).toBe('status=0');
      expect(script[1]).toBe(
        'npx monitor deploy --yes --allow-deletes --verify --comment --lock-timeout 300 || status=$?',
      );
      const save = script[2] ?? '';
      for (const command of ['git add .monitor/state', 'git pull --rebase', 'git push -o ci.skip', 'exit 1'])
        expect(save, command).toContain(command);
      expect(save).toContain('echo "error: the state after this deploy was not saved');
      expect(save).toContain("run 'npx monitor import --recover --yes'");
      expect(script.slice(3)).toEqual(['exit $status']);
    }
    for (const options of VARIANTS.filter((o) => o.state === 'postgres')) {
      const job = parse(ciFiles('gitlab', options)[0]?.text ?? '')['monitor:deploy'];
      expect(job.after_script).toBeUndefined();
      expect(job.script).toEqual([
        'npx monitor deploy --yes --allow-deletes --verify --comment --lock-timeout 300',
      ]);
    }
  });

  describe('with file state, the deploy job run as the runner runs it', () => {
    const job = parse(ciFiles('gitlab', { state: 'file', branch: 'main', projectDir: '.' })[0]?.text ?? '')[
      'monitor:deploy'
    ];
    const deployOnce = (options: Parameters<typeof gitLabDeployJob>[1] = {}) => gitLabDeployJob(job, options);

    it('commits the state back with a push that starts no pipeline', async () => {
      const { result, origin, pushOptions, h } = await deployOnce();
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toContain('not saved');
      expect(git(origin, 'log', '--format=%s', '-1', 'main').trim()).toBe(
        `monitor state after the deploy of ${SHA.slice(0, 8)}`,
      );
      expect(git(origin, 'ls-tree', '-r', '--name-only', 'main')).toContain(
        `.monitor/state/${DEV_ACCOUNT_ID}.json`,
      );
      expect(pushOptions()).toBe('ci.skip');
      expect(h.writes()).toHaveLength(2);
    });

    it('a deploy that failed midway: what it wrote is committed, and the job fails with its exit code', async () => {
      const { result, origin } = await deployOnce({
        // The second create is refused: one group was made, the other not.
        faults: { echoBodyInBadRequest: [{ method: 'POST', nth: 2 }] },
      });
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout + result.stderr).not.toContain('not saved');
      const state = JSON.parse(git(origin, 'show', `main:.monitor/state/${DEV_ACCOUNT_ID}.json`));
      expect(Object.keys(state.resources)).toHaveLength(1);
    });

    it('a push that is refused fails the job, saying the state was not saved and how to recover', async () => {
      const { result, origin } = await deployOnce({ refusePush: true });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('You are not allowed to push code to protected branches');
      expect(result.stdout).toContain(
        'error: the state after this deploy was not saved: its commit of .monitor/state could not be pushed to main',
      );
      expect(result.stdout).toContain(
        "hint: let this job push to main (GITLAB_TOKEN needs write_repository, and its user must be allowed to push to the protected branch); then, before the next deploy, run 'npx monitor import --recover --yes' on main",
      );
      expect(git(origin, 'log', '--format=%s', '-1', 'main').trim()).toBe('the project');
    });
  });
});

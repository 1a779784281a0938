import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ciProjects, gitHubEnv, gitLabEnv, SHA } from './support/ci.js';
import { type FakeCodeHost, fakeGitHub, fakeGitLab } from './support/code-hosts.js';
import { IMPORTS } from './support/projects.js';

/**
 * The workflows of examples/ci as shipped: their triggers, permissions and concurrency, and each
 * monitor command in them run as the CI would run it, against the emulator and fake code hosts.
 */

const ciProject = ciProjects();
const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const example = (path: string) =>
  parse(readFileSync(fileURLToPath(new URL(`../examples/ci/${path}`, import.meta.url)), 'utf8'));

interface Step {
  name?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}

/** `npx monitor …` of a job's steps: the arguments, the step's condition and its environment. */
function monitorSteps(
  workflow: { jobs: Record<string, { steps: Step[]; env?: Record<string, string> }> },
  job: string,
) {
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

/** `npx monitor …` lines of a GitLab job's script, with `$VAR` taken from `variables`. */
function scriptCommands(job: { script: string[] }, variables: Record<string, string> = {}) {
  return job.script
    .filter((line) => line.startsWith('npx monitor '))
    .map((line) =>
      line
        .replace(/^npx monitor /, '')
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

describe('examples/ci/github', () => {
  it('monitor-preview.yml: validates, then posts the plan on the pull request (not from forks), one run per PR', async () => {
    const workflow = example('github/monitor-preview.yml');
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(workflow.concurrency).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as written in the workflow.
      group: 'monitor-preview-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
    const steps = monitorSteps(workflow, 'preview');
    expect(steps.map((s) => s.args)).toEqual([['validate'], ['diff', '--comment']]);
    expect(steps[1]?.if).toBe('github.event.pull_request.head.repo.full_name == github.repository');
    expect(Object.keys(steps[1]?.env ?? {}).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github, { pull_request: { number: 21 } }));
    for (const step of steps) expect((await run(...step.args)).code).toBe(0);
    expect(github.threads.get('pr:21')?.[0]?.body).toContain('**Plan: 2 to create');
  });

  it('monitor-deploy.yml: on main, one at a time, deploys and posts the result on the merged pull request', async () => {
    const workflow = example('github/monitor-deploy.yml');
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.concurrency).toEqual({ group: 'monitor-deploy', 'cancel-in-progress': false });
    expect(workflow.permissions['pull-requests']).toBe('write');
    const steps = monitorSteps(workflow, 'deploy');
    expect(steps.map((s) => s.args)).toEqual([
      ['deploy', '--yes', '--allow-deletes', '--comment', '--lock-timeout', '300'],
    ]);
    expect(Object.keys(steps[0]?.env ?? {}).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    github.commitPulls.set(SHA, [{ number: 8, merged: true }]);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    expect((await run(...(steps[0]?.args ?? []))).code).toBe(0);
    expect((await h.client.checkGroups.list()).items).toHaveLength(2);
    expect(github.threads.get('pr:8')?.[0]?.body).toMatch(/\*\*✓ Applied in .*:\*\* 2 created/);
  });

  it('monitor-drift.yml: nightly, drift becomes one issue, or fails the job with MONITOR_DRIFT_MODE=fail', async () => {
    const workflow = example('github/monitor-drift.yml');
    expect(workflow.on.schedule).toHaveLength(1);
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
    const steps = monitorSteps(workflow, 'drift');
    expect(steps.map((s) => [s.if, s.args])).toEqual([
      ["vars.MONITOR_DRIFT_MODE != 'fail'", ['diff', '--issue']],
      ["vars.MONITOR_DRIFT_MODE == 'fail'", ['diff', '--detailed-exitcode']],
    ]);
    expect(Object.keys(steps[0]?.env ?? {}).sort()).toEqual([...SECRETS, 'GITHUB_TOKEN'].sort());

    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { schedule: '17 5 * * *' }));
    expect((await run('deploy', '--yes')).code).toBe(0);
    const [live] = (await h.client.checkGroups.list()).items;
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    const [asIssue, asFailure] = steps;
    expect((await run(...(asIssue?.args ?? []))).code).toBe(0);
    expect(github.issues).toMatchObject([{ labels: ['monitor-drift'], state: 'open' }]);
    expect((await run(...(asFailure?.args ?? []))).code).toBe(2);
  });
});

describe('examples/ci/gitlab/.gitlab-ci.yml', () => {
  const pipeline = example('gitlab/.gitlab-ci.yml');

  it('has the three jobs, with their rules, and a deploy that runs one at a time', () => {
    expect(Object.keys(pipeline).filter((k) => k.startsWith('monitor:'))).toEqual([
      'monitor:preview',
      'monitor:deploy',
      'monitor:drift',
    ]);
    expect(pipeline['monitor:preview'].rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "merge_request_event"' },
    ]);
    expect(pipeline['monitor:preview'].interruptible).toBe(true);
    expect(pipeline['monitor:deploy'].resource_group).toBe('monitor-production');
    expect(pipeline['monitor:drift'].rules.every((r: { if: string }) => r.if.includes('"schedule"'))).toBe(
      true,
    );
  });

  it('runs the preview on a merge request, the deploy with its result on the merged request, and both drift modes', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    const { run, useCi, h } = await ciProject({ 'a.monitor.ts': groups(1) });

    useCi(gitLabEnv(gitlab, 5));
    for (const args of scriptCommands(pipeline['monitor:preview'])) expect((await run(...args)).code).toBe(0);
    expect(gitlab.threads.get('mr:5')?.[0]?.body).toContain('**Plan: 1 to create');

    useCi(gitLabEnv(gitlab));
    gitlab.commitPulls.set(SHA, [{ number: 5, merged: true }]);
    const [deploy] = scriptCommands(pipeline['monitor:deploy']);
    expect(deploy).toEqual(['deploy', '--yes', '--allow-deletes', '--comment', '--lock-timeout', '300']);
    expect((await run(...(deploy ?? []))).code).toBe(0);
    expect(gitlab.threads.get('mr:5')?.map((n) => n.body.split('\n')[1])).toEqual([
      '### monitor diff: e2e → account `00000000-0000-4000-8000-00000000de00`',
      '### monitor deploy: e2e → account `00000000-0000-4000-8000-00000000de00`',
    ]);

    const [live] = (await h.client.checkGroups.list()).items;
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    const [failMode, issueMode] = pipeline['monitor:drift'].rules.map(
      (r: { variables: Record<string, string> }) => scriptCommands(pipeline['monitor:drift'], r.variables)[0],
    );
    expect(failMode).toEqual(['diff', '--detailed-exitcode']);
    expect((await run(...failMode)).code).toBe(2);
    expect(issueMode).toEqual(['diff', '--issue']);
    expect((await run(...issueMode)).code).toBe(0);
    expect(gitlab.issues).toMatchObject([{ labels: ['monitor-drift'], state: 'open' }]);
  });
});

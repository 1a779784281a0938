import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceCiFiles } from '@monitor/cli';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { execFileInTest } from './support/children.js';
import { gitHubEnv, writeNpxShim } from './support/ci.js';
import { type FakeCodeHost, fakeGitHub } from './support/code-hosts.js';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeFiles } from './support/harness.js';
import { gitlabSchemaErrors, lintWorkflow } from './support/workflows.js';

/**
 * Workspaces (docs/workspaces.md) from the built CLI: examples/workspace deployed and planned as
 * one (--all), a project that fails beside others that do not, the projects a change touches
 * (--changed-since, ci matrix), and the workflows `init --ci` writes for a workspace, run as CI runs
 * their monitor steps.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
const open: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) cleanup(d);
});

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: 'pipe' });

/** A copy of examples/workspace in a git repository of its own, committed on main. */
function workspaceCopy(): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, 'workspace-'));
  dirs.push(dir);
  cpSync(join(REPO, 'examples/workspace'), dir, {
    recursive: true,
    filter: (src) => !/[\\/](\.monitor|node_modules|\.turbo)([\\/]|$)/.test(src),
  });
  writeFileSync(join(dir, '.gitignore'), '.monitor/local/\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'workspace');
  return dir;
}

async function emulator() {
  const h = await emulatorForTests();
  open.push(h);
  return h;
}

const names = (r: { stdout: string }) =>
  (envelopeOf(r as never).result.projects as { name: string }[]).map((p) => p.name);

describe('a workspace of projects', () => {
  it('deploys every project in one run, and the next diff finds nothing to do', async () => {
    const dir = workspaceCopy();
    const h = await emulator();
    const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });

    const refused = await run('deploy', '--all');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('deploy of 5 projects asks no question per project: it needs --yes');
    expect(h.writes()).toHaveLength(0);

    const deployed = await run('deploy', '--all', '--yes');
    expect(deployed.stderr).not.toMatch(/error|warning/);
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toMatch(/monitor deploy: 5 projects\n {2}platform +platform +ok +2 to create\n/);
    expect(deployed.stdout).toMatch(/team-search +teams\/search +ok +1 to create/);

    const before = h.emulator.requests.length;
    const diff = await run('diff', '--all', '--detailed-exitcode', '--json');
    expect(diff.code).toBe(0);
    // The five projects read the account once between them: a diff only reads.
    const groupLists = h.emulator.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && /\/check-groups$/.test(r.route ?? ''));
    expect(groupLists).toHaveLength(1);
    const projects = envelopeOf(diff).result.projects as { name: string; plan: string; exitCode: number }[];
    expect(projects.map((p) => [p.name, p.plan, p.exitCode])).toEqual([
      ['platform', 'no changes', 0],
      ['status', 'no changes', 0],
      ['team-checkout', 'no changes', 0],
      ['team-payments', 'no changes', 0],
      ['team-search', 'no changes', 0],
    ]);
    // Each project keeps its own state beside its own code.
    for (const project of ['platform', 'teams/search']) {
      expect(
        readFileSync(join(dir, project, '.monitor/state', `${h.env.MONITOR_ACCOUNT_ID}.json`), 'utf8'),
      ).toContain('"resources"');
    }
  });

  it('a project that fails does not stop the others; the exit code is the worst of them', async () => {
    const dir = workspaceCopy();
    const h = await emulator();
    writeFiles(dir, {
      'teams/search/broken.monitor.ts':
        "import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('x', { name: 42 as never });\n",
    });
    const run = (...args: string[]) => monitor(args, { cwd: join(dir, 'teams'), env: h.env });

    const validated = await run('validate', '--all');
    expect(validated.code).toBe(3);
    expect(validated.stdout).toMatch(/team-search +teams\/search +failed \(exit 3\)/);
    expect(validated.stdout).toMatch(/team-payments +teams\/payments +ok/);
    // Paths are shown from where the command ran.
    expect(validated.stdout).toContain('search/broken.monitor.ts:2');

    const deployed = await run('deploy', '--all', '--yes', '--json');
    expect(deployed.code).toBe(3);
    const envelope = envelopeOf(deployed);
    expect(envelope.error?.code).toBe('projects_failed');
    expect(envelope.error?.message).toBe('1 of 5 projects failed: team-search');
    const outcomes = Object.fromEntries(
      (envelope.result.projects as { name: string; outcome: string }[]).map((p) => [p.name, p.outcome]),
    );
    expect(outcomes).toEqual({
      platform: 'ok',
      status: 'ok',
      'team-checkout': 'ok',
      'team-payments': 'ok',
      'team-search': 'failed',
    });
    // The others were deployed all the same: every group but search's.
    const groups = (await h.client.checkGroups.list()).items.map((g) => g.name).sort();
    expect(groups).toEqual(['Checkout API', 'Payments API']);
  });

  it('chooses projects by name and by what changed since a git ref', async () => {
    const dir = workspaceCopy();
    const run = (...args: string[]) => monitor(args, { cwd: dir });

    const unknown = await run('validate', '--project', 'team-serach');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'the workspace has no project "team-serach"; did you mean "team-search"?',
    );

    git(dir, 'checkout', '-q', '-b', 'change');
    writeFileSync(
      join(dir, 'teams/payments/groups.monitor.ts'),
      `${readFileSync(join(dir, 'teams/payments/groups.monitor.ts'), 'utf8')}\n`,
    );
    git(dir, 'commit', '-q', '-am', 'payments');
    const matrix = await run('ci', 'matrix', '--changed-since', 'main');
    expect(matrix.code).toBe(0);
    expect(JSON.parse(matrix.stdout)).toEqual({
      include: [{ project: 'team-payments', dir: 'teams/payments', file: 'team-payments' }],
    });

    // An untracked file of another project counts too; one outside every project, not.
    writeFiles(dir, { 'status/notes.md': 'x', 'README.md': 'x' });
    const validated = await run('validate', '--changed-since', 'main', '--json');
    expect(names(validated)).toEqual(['status', 'team-payments']);

    // A dependency bump at the root touches every project.
    writeFileSync(join(dir, 'package-lock.json'), '{}\n');
    const all = await run('ci', 'matrix', '--changed-since', 'main', '--format', 'gitlab');
    expect(all.stdout.match(/- PROJECT:/g)).toHaveLength(5);

    const badRef = await run('ci', 'matrix', '--changed-since', 'origin/nope');
    expect(badRef.code).toBe(1);
    expect(badRef.stderr).toContain('git cannot compare with "origin/nope"');
    expect(badRef.stderr).toContain('fetch-depth: 0');
  });

  it('a workspace file that is wrong says what and where', async () => {
    const dir = workspaceCopy();
    const run = (...args: string[]) => monitor(args, { cwd: dir });
    writeFiles(dir, {
      'monitor.workspace.ts':
        "import { defineWorkspace } from '@monitor/constructs';\nexport default defineWorkspace({ projects: ['platform', 'teams/*', 'satus'] });\n",
    });
    const typo = await run('projects');
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain(
      'the glob "satus" in monitor.workspace.ts matches no directory holding a monitor.config.ts',
    );

    writeFiles(dir, {
      'monitor.workspace.ts':
        "import { defineWorkspace } from '@monitor/constructs';\nexport default defineWorkspace({ projects: ['platform', 'teams/*', 'status'] });\n",
      'status/monitor.config.ts':
        "import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'team-search' });\n",
    });
    const clash = await run('projects');
    expect(clash.code).toBe(3);
    expect(clash.stderr).toContain(
      'two projects of the workspace are named "team-search": status and teams/search',
    );

    const outside = await monitor(['validate', '--all'], { cwd: TMP });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('no monitor.workspace.ts found');
  });

  it('a channel and its last reference removed in one change deploy in one run (the owner is run again once the team stopped using it)', async () => {
    const dir = workspaceCopy();
    const h = await emulator();
    const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
    expect((await run('deploy', '--all', '--yes')).code).toBe(0);
    writeFiles(dir, {
      'platform/channels.monitor.ts': readFileSync(join(dir, 'platform/channels.monitor.ts'), 'utf8').replace(
        /export const incidents[\s\S]*$/,
        '',
      ),
      'teams/search/groups.monitor.ts': readFileSync(
        join(dir, 'teams/search/groups.monitor.ts'),
        'utf8',
      ).replace(/,\s*AlertChannel\.fromProject\('platform', 'slack-incidents'\)/, ''),
    });
    const deployed = await run('deploy', '--all', '--yes', '--allow-deletes');
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    expect(deployed.stdout).toContain('once more, now that the others ran: platform');
    expect((await h.client.alertChannels.list()).items.map((c) => c.type)).toEqual(['PAGERDUTY']);
    expect((await run('diff', '--all', '--detailed-exitcode')).code).toBe(0);
  });

  it('a project whose config does not load fails alone, named by its file; one without the environment asked for is left out', async () => {
    const dir = workspaceCopy();
    writeFiles(dir, {
      'status/monitor.config.ts':
        "import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({\n",
    });
    const run = (...args: string[]) => monitor(args, { cwd: dir });
    const validated = await run('validate', '--all');
    expect(validated.code).toBe(3);
    expect(validated.stdout).toMatch(/team-search +teams\/search +ok/);
    expect(validated.stdout).toMatch(/status +status +failed \(exit 3\)/);
    expect(validated.stderr).toContain('error: status/monitor.config.ts: ');
    expect((await run('validate', '--project', 'platform')).code).toBe(0);
    const listed = await run('projects');
    expect(listed.stdout).toMatch(/status +status +✗ its config does not load: status\/monitor.config.ts/);

    writeFiles(dir, {
      'status/monitor.config.ts':
        "import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'status', environments: { staging: {} } });\n",
    });
    const staging = await run('validate', '--all', '--env', 'production', '--json');
    expect(staging.code).toBe(0);
    expect(envelopeOf(staging).result.leftOut).toEqual([
      { name: 'status', dir: 'status', reason: 'it defines no environment "production"' },
    ]);
    expect(names(staging)).toEqual(['platform', 'team-checkout', 'team-payments', 'team-search']);
  });

  it('--local: one local account at the workspace root, shared by its projects', async () => {
    const dir = workspaceCopy();
    const run = (...args: string[]) => monitor(args, { cwd: join(dir, 'teams/search') });
    const deployed = await run('deploy', '--all', '--local', '--yes');
    expect(deployed.code).toBe(0);
    const diff = await run('diff', '--all', '--local', '--detailed-exitcode');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/team-search +teams\/search +ok +no changes/);
    expect(readFileSync(join(dir, '.monitor/local/emulator.json'), 'utf8')).toContain('Search API');
  });
});

describe('the workflows init writes for a workspace', () => {
  const hosts: FakeCodeHost[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
  });

  it('lint clean (actionlint, GitLab schema), with a matrix, a plan job per project and one summary', async () => {
    for (const state of ['file', 'postgres'] as const) {
      const [preview, deploy, drift] = workspaceCiFiles('github', {
        state,
        branch: 'main',
        projectDir: 'ops',
      });
      for (const f of [preview, deploy, drift])
        expect(await lintWorkflow(f?.text ?? '', f?.path ?? '')).toEqual([]);
      const workflow = parse(preview?.text ?? '') as { jobs: Record<string, Record<string, unknown>> };
      expect(Object.keys(workflow.jobs)).toEqual(['matrix', 'plan', 'summary']);
      expect(workflow.jobs.plan?.strategy).toEqual({
        'fail-fast': false,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflow holds it
        matrix: '${{ fromJSON(needs.matrix.outputs.matrix) }}',
      });
      expect(workflow.jobs.summary?.needs).toEqual(['matrix', 'plan']);
      const [gitlab] = workspaceCiFiles('gitlab', { state, branch: 'main', projectDir: 'ops' });
      expect(gitlabSchemaErrors(parse(gitlab?.text ?? ''))).toEqual([]);
    }
  });

  it('init --ci in a workspace writes its workflows, as examples/ci/workspace holds them; actions pinned by commit', async () => {
    const dir = workspaceCopy();
    for (const ci of ['github', 'gitlab']) {
      const made = await monitor(
        [
          'init',
          `teams/new-${ci}`,
          '--ci',
          ci,
          '--state',
          'postgres',
          '--default-branch',
          'main',
          '--no-vendor',
        ],
        { cwd: dir },
      );
      expect(made.code, made.stderr).toBe(0);
    }
    for (const file of ['monitor-preview.yml', 'monitor-deploy.yml', 'monitor-drift.yml']) {
      const written = readFileSync(join(dir, '.github/workflows', file), 'utf8');
      // A stale example fails here: run npm run docs and commit examples/ci.
      expect(readFileSync(join(REPO, 'examples/ci/workspace/github', file), 'utf8'), file).toBe(written);
      for (const [, uses] of written.matchAll(/uses: (\S+)/g))
        expect(uses).toMatch(
          /^actions\/(checkout|setup-node|upload-artifact|download-artifact)@[0-9a-f]{40}$/,
        );
    }
    expect(readFileSync(join(REPO, 'examples/ci/workspace/gitlab/.gitlab-ci.yml'), 'utf8')).toBe(
      readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8'),
    );
  });

  it("GitLab's matrix job writes a child pipeline GitLab accepts, a plan job per project changed", async () => {
    const dir = workspaceCopy();
    const [gitlab] = workspaceCiFiles('gitlab', { state: 'postgres', branch: 'main', projectDir: '.' });
    const job = (parse(gitlab?.text ?? '') as Record<string, { script: string[] }>)['monitor:matrix'];
    git(dir, 'checkout', '-q', '-b', 'change');
    // A change to the platform touches the teams that reference its channels, not the status page.
    writeFiles(dir, { 'platform/notes.md': 'x' });
    const base = git(dir, 'rev-parse', 'main').trim();
    await execFileInTest('bash', ['-e', '-o', 'pipefail', '-c', (job?.script ?? []).join('\n')], {
      cwd: dir,
      env: {
        PATH: `${writeNpxShim(join(dir, '.bin'))}:${process.env.PATH ?? ''}`,
        HOME: dir,
        CI_PROJECT_DIR: dir,
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      },
    });
    const child = parse(readFileSync(join(dir, 'monitor-plans.yml'), 'utf8')) as Record<string, unknown>;
    expect(gitlabSchemaErrors(child)).toEqual([]);
    const plan = child['monitor:plan'] as {
      parallel: { matrix: { PROJECT: string; DIR: string; FILE: string }[] };
    };
    expect(plan.parallel.matrix).toEqual([
      { PROJECT: 'platform', DIR: 'platform', FILE: 'platform' },
      { PROJECT: 'team-checkout', DIR: 'teams/checkout', FILE: 'team-checkout' },
      { PROJECT: 'team-payments', DIR: 'teams/payments', FILE: 'team-payments' },
      { PROJECT: 'team-search', DIR: 'teams/search', FILE: 'team-search' },
    ]);
    // The summary knows which plans to expect: the matrix as JSON, from the parent's matrix job.
    expect(child['monitor:summary']).toMatchObject({
      stage: 'summary',
      when: 'always',
      needs: [{ job: 'monitor:plan' }, { pipeline: '$PARENT_PIPELINE_ID', job: 'monitor:matrix' }],
    });
    expect((child['monitor:summary'] as { script: string[] }).script.join('\n')).toContain(
      '--matrix "$(cat "$CI_PROJECT_DIR/matrix.json")"',
    );
    expect(
      JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')).include.map(
        (e: { project: string }) => e.project,
      ),
    ).toEqual(['platform', 'team-checkout', 'team-payments', 'team-search']);
    const parent = parse(gitlab?.text ?? '') as Record<string, { variables?: Record<string, string> }>;
    expect(parent['monitor:plans']?.variables?.PARENT_PIPELINE_ID).toBe('$CI_PIPELINE_ID');
  });

  it("GitLab's matrix job writes a pipeline of one job that says so when no project changed", async () => {
    const dir = workspaceCopy();
    const [gitlab] = workspaceCiFiles('gitlab', { state: 'postgres', branch: 'main', projectDir: '.' });
    const job = (parse(gitlab?.text ?? '') as Record<string, { script: string[] }>)['monitor:matrix'];
    writeFiles(dir, { 'README.md': 'outside every project' });
    await execFileInTest('bash', ['-e', '-o', 'pipefail', '-c', (job?.script ?? []).join('\n')], {
      cwd: dir,
      env: {
        PATH: `${writeNpxShim(join(dir, '.bin'))}:${process.env.PATH ?? ''}`,
        HOME: dir,
        CI_PROJECT_DIR: dir,
        CI_MERGE_REQUEST_DIFF_BASE_SHA: git(dir, 'rev-parse', 'HEAD').trim(),
      },
    });
    const child = parse(readFileSync(join(dir, 'monitor-plans.yml'), 'utf8')) as Record<string, unknown>;
    expect(gitlabSchemaErrors(child)).toEqual([]);
    expect(Object.keys(child)).toEqual(['stages', 'monitor:none']);
  });

  it("GitHub's plan jobs and summary job: one workspace comment, updated in place on the next push", async () => {
    const dir = workspaceCopy();
    const h = await emulator();
    const host = await fakeGitHub();
    hosts.push(host);
    const ci = { ...h.env, ...gitHubEnv(dir, host) };
    const results = join(dir, 'results');
    mkdirSync(results);
    const planAll = async () => {
      for (const project of ['platform', 'teams/search']) {
        const r = await monitor(['diff', '--comment', '--json'], { cwd: join(dir, project), env: ci });
        writeFileSync(join(results, `${project.split('/').pop()}.json`), r.stdout);
      }
    };
    const matrix = JSON.stringify({
      include: [
        { project: 'platform', dir: 'platform' },
        { project: 'team-search', dir: 'teams/search' },
        { project: 'team-payments', dir: 'teams/payments' },
      ],
    });
    await planAll();
    const summary = () =>
      monitor(
        ['ci', 'summary', 'results/platform.json', 'results/search.json', '--matrix', matrix, '--comment'],
        {
          cwd: dir,
          env: ci,
        },
      );
    const first = await summary();
    // team-payments' job left no file: the summary says so, and fails.
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('| 📝 platform | changes | 2 to create |');
    expect(first.stdout).toContain('| ❔ team-payments | missing |');
    await planAll();
    const second = await summary();
    expect(second.code).toBe(1);
    const comments = host.threads.get('pr:12') ?? [];
    const workspace = comments.filter((c) => c.body.includes('monitor plan of the workspace'));
    expect(workspace).toHaveLength(1);
    expect(comments.filter((c) => c.body.startsWith('<!-- monitor:plan project=platform'))).toHaveLength(1);
    // Each row links to its project's own comment.
    expect(workspace[0]?.body).toMatch(
      /\| 📝 platform \| changes \| 2 to create \| — \| — \| \[plan\]\(<https:\/\/github\.test\/comment\/\d+>\) \|/,
    );
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { afterEach, describe, expect, it } from 'vitest';
import { ciProjects, gitHubEnv, gitLabEnv, SHA } from './support/ci.js';
import {
  type FakeCodeHost,
  fakeGitHub,
  fakeGitLab,
  GITHUB_ACTIONS_BOT,
  gitHubFaults,
  gitLabFaults,
} from './support/code-hosts.js';
import { envelopeOf, writeFiles } from './support/harness.js';
import { IMPORTS } from './support/projects.js';

const ciProject = ciProjects();
const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const MARKER = `<!-- monitor:plan project=e2e account=${DEV_ACCOUNT_ID} -->`;
const DEPLOY_MARKER = `<!-- monitor:deploy project=e2e account=${DEV_ACCOUNT_ID} -->`;

function groups(n: number, extra = ''): string {
  let out = IMPORTS;
  for (let i = 0; i < n; i++) out += `new CheckGroup('g${i}', { name: 'Group ${i}'${extra} });\n`;
  return out;
}

describe('diff --comment on GitHub', () => {
  it('creates one comment, updates it in place on the next push, and edits it to No changes once deployed', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github));

    const first = await run('diff', '--comment', '--detailed-exitcode');
    expect(first.code).toBe(2);
    expect(first.stdout).toContain('Plan: 2 to create');
    expect(first.stderr).toContain(
      '✓ The plan posted to pull request #12 of acme/web: https://github.test/comment/',
    );
    const comments = github.threads.get('pr:12') ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body.startsWith(`${MARKER}\n### monitor diff: e2e → account`)).toBe(true);
    expect(comments[0]?.body).toContain('**Plan: 2 to create, 0 to update');
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/web/issues/12/comments',
    ]);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('<b>g1</b> “Group 1”');

    writeFiles(dir, { 'a.monitor.ts': groups(3) });
    const second = await run('diff', '--comment');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('✓ The plan updated on pull request #12 of acme/web');
    expect(github.threads.get('pr:12')).toHaveLength(1);
    expect(github.threads.get('pr:12')?.[0]?.body).toContain('**Plan: 3 to create');
    expect(github.writes().map((r) => r.method)).toEqual(['POST', 'PATCH']);

    expect((await run('deploy', '--yes')).code).toBe(0);
    const settled = await run('diff', '--comment', '--detailed-exitcode');
    expect(settled.code).toBe(0);
    expect(github.threads.get('pr:12')).toHaveLength(1);
    expect(github.threads.get('pr:12')?.[0]?.body).toContain('**No changes.** 3 resources match the code.');

    // Said already: nothing is written again.
    const again = await run('diff', '--comment');
    expect(again.stderr).toContain('The plan is already on pull request #12');
    expect(github.writes().map((r) => r.method)).toEqual(['POST', 'PATCH', 'PATCH']);
  });

  it("finds its comment among many (paginated), and leaves other projects' and people's comments alone", async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const other = '<!-- monitor:plan project=other account=x -->\nanother project';
    github.threads.set('pr:12', [
      ...Array.from({ length: 130 }, (_, i) => ({
        id: i + 1,
        body: i === 3 ? other : `review comment ${i}`,
      })),
      { id: 500, body: `${MARKER}\nold plan`, author: GITHUB_ACTIONS_BOT },
    ]);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    expect((await run('diff', '--comment')).code).toBe(0);
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /repos/acme/web/issues/comments/500',
    ]);
    const thread = github.threads.get('pr:12') ?? [];
    expect(thread).toHaveLength(131);
    expect(thread[3]?.body).toBe(other);
    expect(thread[130]?.body).toContain('**Plan: 1 to create');
    expect(
      github.requests.filter((r) => r.method === 'GET' && r.path.includes('/issues/12/comments')),
    ).toHaveLength(2);
  });

  it('a 500 then a 403: the plan is printed, a warning says why, the exit code is diff’s own; --require-comment makes it 1', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    const forbidden = {
      method: 'POST',
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    };
    github.failures.push({ method: 'POST', status: 500 }, forbidden);
    const result = await run('diff', '--comment', '--detailed-exitcode');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('+ CheckGroup g0 "Group 0"');
    expect(result.stderr).toContain(
      'warning: could not post the plan: cannot comment on pull request #12: 403 Resource not accessible by integration',
    );
    expect(result.stderr).toContain('hint: give the job `permissions: pull-requests: write`');
    // The 500 was retried; the 403 was not.
    expect(github.writes()).toHaveLength(2);
    expect(github.threads.get('pr:12') ?? []).toHaveLength(0);

    github.failures.push(forbidden);
    const required = await run('diff', '--comment', '--require-comment', '--json');
    expect(required.code).toBe(1);
    const envelope = JSON.parse(required.stdout);
    expect(envelope.error.code).toBe('comment_failed');
    expect(envelope.result.comment).toMatchObject({ status: 'failed', stepSummary: true });
    expect(envelope.plan.summary.create).toBe(1);
  });

  it('posts to GitHub Enterprise under GITHUB_API_URL', async () => {
    const github = await fakeGitHub('/api/v3');
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { pull_request: { number: 3 } }, '/api/v3'));
    expect((await run('diff', '--comment')).code).toBe(0);
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v3/repos/acme/web/issues/3/comments',
    ]);
    for (const r of github.requests) {
      expect(r.headers['user-agent']).toMatch(/^monitor\/\d+\.\d+\.\d+/);
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
      expect(r.headers.accept).toBe('application/vnd.github+json');
    }
  });

  it('adopts a comment GitHub stored but answered 502 for: one comment, never a second POST', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    github.failures.push({ method: 'POST', path: '/comments', status: 502, afterWork: true });
    const result = await run('diff', '--comment', '--require-comment');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('✓ The plan posted to pull request #12 of acme/web');
    expect(github.threads.get('pr:12')).toHaveLength(1);
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/web/issues/12/comments',
    ]);
  });

  it("reduces monitor's own duplicate comments to the first, leaving other people's alone", async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    github.threads.set('pr:12', [
      { id: 1, body: `${MARKER}\nfirst`, author: GITHUB_ACTIONS_BOT },
      { id: 2, body: 'a review' },
      { id: 3, body: `${MARKER}\nsecond`, author: GITHUB_ACTIONS_BOT },
      { id: 4, body: `${MARKER}\nthird`, author: GITHUB_ACTIONS_BOT },
      { id: 5, body: `${MARKER}\nsomeone quoting it` },
    ]);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    const result = await run('diff', '--comment');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      '✓ The plan updated on pull request #12 of acme/web: https://github.test/comment/1 (2 duplicates removed)',
    );
    expect(github.threads.get('pr:12')?.map((c) => c.id)).toEqual([1, 2, 5]);
    expect(github.threads.get('pr:12')?.[0]?.body).toContain('**Plan: 1 to create');
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /repos/acme/web/issues/comments/1',
      'DELETE /repos/acme/web/issues/comments/3',
      'DELETE /repos/acme/web/issues/comments/4',
    ]);
  });

  it("ignores a comment that fakes monitor's marker and posts the plan as a new comment, --require-comment included", async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const spoof = `${MARKER}\n**No changes.** Approve away.`;
    github.threads.set('pr:12', [{ id: 1, body: spoof }]);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    const result = await run('diff', '--comment', '--require-comment', '--detailed-exitcode');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('✓ The plan posted to pull request #12 of acme/web');
    expect(result.stderr).not.toContain('permissions');
    const thread = github.threads.get('pr:12') ?? [];
    expect(thread.map((c) => c.body.split('\n')[1])).toEqual([
      '**No changes.** Approve away.',
      expect.stringContaining('### monitor diff: e2e'),
    ]);
    expect(github.writes().map((r) => r.method)).toEqual(['POST']);

    // The next push edits monitor's own comment, still not the fake.
    writeFiles(dir, { 'a.monitor.ts': groups(2) });
    expect((await run('diff', '--comment', '--require-comment')).code).toBe(0);
    expect(github.threads.get('pr:12')?.[0]?.body).toBe(spoof);
    expect(github.threads.get('pr:12')?.[1]?.body).toContain('**Plan: 2 to create');
  });

  it('says a secondary rate limit is a rate limit, not permissions or forks; a 422 gets a hint', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github));
    github.failures.push(gitHubFaults.secondaryRateLimit(120, { method: 'POST' }));
    const limited = await run('diff', '--comment', '--require-comment');
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain(
      "error: could not post the plan: cannot comment on pull request #12: GitHub's secondary rate limit (403 with retry-after: 120)",
    );
    expect(limited.stderr).toMatch(
      /hint: a rate limit, not a permission problem: .* re-run the job after \d\d:\d\d UTC/,
    );
    expect(limited.stderr).not.toMatch(/permissions:|fork/);

    github.failures.push({
      method: 'POST',
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'IssueComment', field: 'body', code: 'invalid' }],
      },
    });
    const invalid = await run('diff', '--comment');
    expect(invalid.stderr).toContain(
      'warning: could not post the plan: cannot comment on pull request #12: 422 Validation Failed: body invalid',
    );
    expect(invalid.stderr).toContain('hint: GitHub refused what was sent for the reason in its message');
  });

  it('outside a pull request, or without a token, prints the plan and says why nothing was posted', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main', commits: [] }));
    const push = await run('diff', '--comment', '--require-comment', '--detailed-exitcode');
    expect(push.code).toBe(2);
    expect(push.stdout).toContain('Plan: 1 to create');
    expect(push.stderr).toContain('Not posted: this run is not for a pull request (its event has none).');

    useCi({ GITHUB_ACTIONS: '', GITHUB_REPOSITORY: '', GITLAB_CI: '', CI_API_V4_URL: '' });
    const local = await run('diff', '--comment', '--detailed-exitcode');
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('Not posted: not running in GitHub Actions or GitLab CI');

    useCi({ ...gitHubEnv(dir, github), GITHUB_TOKEN: '', GH_TOKEN: '' });
    const noToken = await run('diff', '--comment');
    expect(noToken.code).toBe(0);
    expect(noToken.stderr).toContain('warning: could not post the plan: GITHUB_TOKEN is not set');
    expect((await run('diff', '--comment', '--require-comment')).code).toBe(1);
    expect(github.requests).toHaveLength(0);
  });

  it('fits a 3,000-resource plan in one comment, and as much as fits in the job summary', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({
      'a.monitor.ts': groups(3000, ", tags: ['a-long-tag-to-make-each-resource-block-longer']"),
    });
    useCi(gitHubEnv(dir, github));
    expect((await run('diff', '--comment')).code).toBe(0);
    const body = github.threads.get('pr:12')?.[0]?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(65_536);
    const inComment = body.match(/<details>/g)?.length ?? 0;
    expect(body).toContain(
      `_${3000 - inComment} more resources not shown: the job summary shows more, the job log all._`,
    );
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(1024 * 1024);
    const inSummary = summary.match(/<details>/g)?.length ?? 0;
    expect(inSummary).toBeGreaterThan(inComment * 10);
    expect(summary).toContain(`_${3000 - inSummary} more resources not shown: see the job log._`);
  });
});

describe('deploy --comment', () => {
  it('posts the result to the pull request the commit was merged from, and what failed', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    github.commitPulls.set(SHA, [{ number: 7, merged: true }]);
    const { h, dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    h.emulator.app.faults.configure({ echoBodyInBadRequest: [{ method: 'POST', nth: 2 }] });
    const failed = await run('deploy', '--yes', '--comment');
    expect(failed.code).toBe(1);
    const body = github.threads.get('pr:7')?.[0]?.body ?? '';
    expect(body.startsWith(`${DEPLOY_MARKER}\n### monitor deploy: e2e → account`)).toBe(true);
    expect(body).toContain('**✗ Stopped after');
    expect(body).toMatch(/\| <code>\+<\/code> CheckGroup `g\d` \| failed \| .*Invalid request payload/);

    h.emulator.app.faults.configure({});
    expect((await run('deploy', '--yes', '--comment')).code).toBe(0);
    expect(github.threads.get('pr:7')).toHaveLength(1);
    expect(github.threads.get('pr:7')?.[0]?.body).toMatch(/\*\*✓ Applied in .*:\*\* 1 created/);
  });

  it("keeps the merged pull request's first result when a re-run has nothing to do, and appends the re-run's", async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    github.commitPulls.set(SHA, [{ number: 7, merged: true }]);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    expect((await run('deploy', '--yes', '--comment')).code).toBe(0);
    const first = github.threads.get('pr:7')?.[0]?.body ?? '';
    expect(first).toMatch(/\*\*✓ Applied in .*:\*\* 2 created/);

    const rerun = await run('deploy', '--yes', '--comment');
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain('✓ The result updated on pull request #7 of acme/web');
    const thread = github.threads.get('pr:7') ?? [];
    expect(thread).toHaveLength(1);
    const body = thread[0]?.body ?? '';
    expect(body.startsWith(first)).toBe(true);
    expect(body.slice(first.length)).toMatch(
      /^\n\n---\n\n<!-- monitor:re-run -->\n### monitor deploy: e2e → account .*\n\n\*\*No changes\.\*\* The account already matches the code; nothing was applied\.\n$/,
    );
  });

  it('comments on the commit when it came from no pull request; a no-change deploy starts no comment', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    expect((await run('deploy', '--yes', '--comment')).code).toBe(0);
    expect(github.threads.get(`commit:${SHA}`)?.[0]?.body).toContain('**✓ Applied in');
    github.threads.clear();
    const nothing = await run('deploy', '--yes', '--comment');
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toContain('Not posted: no changes, and no earlier comment on commit a1b2c3d4e5f6');
    expect([...github.threads.values()].flat()).toHaveLength(0);
  });
});

describe('deploy --verify --comment', () => {
  it('posts the verification under the deploy result: a table, failures expanded, account text escaped', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    github.commitPulls.set(SHA, [{ number: 7, merged: true }]);
    const group = (locations: string[]) =>
      `${IMPORTS}new CheckGroup('payments', { name: 'Payments', locations: ${JSON.stringify(locations)} });\n`;
    const { h, dir, run, useCi } = await ciProject({ 'a.monitor.ts': group(['eu-west-1']) });
    expect((await run('deploy', '--yes')).code).toBe(0);
    const groupId = envelopeOf(await run('output', '--json')).result.outputs[0].physicalId;
    const emulator = (method: string, path: string, body: unknown) =>
      fetch(`${h.emulator.url}/_emulator/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const check = (id: string, name: string) => ({
      id,
      checkType: 'API',
      name,
      activated: true,
      locations: ['eu-west-1'],
      groupId,
      request: { method: 'GET', url: 'https://pay.example' },
    });
    await emulator('POST', 'seed', {
      fixture: {
        checks: [
          check('61111111-1111-4111-8111-111111111111', 'Pay | API <img src=x>'),
          check('62222222-2222-4222-8222-222222222222', 'Refunds'),
        ],
      },
    });
    await emulator('PUT', 'outcome-rules', {
      rules: [
        {
          checkId: '61111111-1111-4111-8111-111111111111',
          location: 'ap-south-1',
          outcome: 'FAILED',
          error: 'expected 200, got 503 | **bold** @team',
        },
      ],
    });
    writeFiles(dir, { 'a.monitor.ts': group(['eu-west-1', 'ap-south-1']) });
    useCi(gitHubEnv(dir, github, { ref: 'refs/heads/main' }));
    const deployed = await run('deploy', '--yes', '--verify', '--comment');
    expect(deployed.code, deployed.stderr).toBe(8);

    const body = github.threads.get('pr:7')?.[0]?.body ?? '';
    expect(
      body.indexOf('#### ❌ Verification: 2 checks in 1 group: 1 broke with this deploy, 1 passed'),
    ).toBeGreaterThan(body.indexOf('**✓ Applied in'));
    const html = micromark(body, {
      extensions: [gfm()],
      htmlExtensions: [gfmHtml()],
      allowDangerousHtml: true,
    });
    // The verification's table: a header and a row for each check, whatever their names hold.
    const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    const verification = tables.find((t) => t.includes('<th>outcome</th>')) ?? '';
    const rows = verification.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => (r.match(/<td>/g) ?? []).length)).toEqual([0, 4, 4]);
    expect(verification).toContain('Pay | API &lt;img src=x&gt;');
    expect(verification).toContain('✗ broke with this deploy');
    expect(html).not.toMatch(/<img|<strong>bold/);
    // The failure expanded, with its location, error and error group.
    expect(html).toMatch(
      /<details>\n<summary>✗ Pay &#124; API &lt;img src=x&gt;: broke with this deploy<\/summary>[\s\S]*<li>ap-south-1 \(new location\): expected 200, got 503 \| \*\*bold\*\* @\u200Dteam \(error group [\w-]+, new\)/,
    );
    // Beside it, what the deploy changed in the group; and the row that broke comes first.
    expect(html).toContain(
      '<li>changed by this deploy in CheckGroup:\u200Dpayments: locations: + ap-south-1</li>',
    );
    expect(rows[1]).toContain('✗ broke with this deploy');
  });
});

describe('--comment on GitLab', () => {
  it('creates one merge request note, then updates it, then edits it to No changes', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitLabEnv(gitlab, 9));
    const first = await run('diff', '--comment', '--detailed-exitcode');
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('✓ The plan posted to merge request !9 of project 42');
    writeFiles(dir, { 'a.monitor.ts': groups(2) });
    expect((await run('diff', '--comment')).code).toBe(0);
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await run('diff', '--comment')).code).toBe(0);
    const notes = gitlab.threads.get('mr:9') ?? [];
    expect(notes).toHaveLength(1);
    expect(notes[0]?.body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(notes[0]?.body).toContain('**No changes.** 2 resources match the code.');
    for (const r of gitlab.requests) expect(r.headers['user-agent']).toMatch(/^monitor\/\d+\.\d+\.\d+/);
    const listed = gitlab.requests.filter((r) => r.method === 'GET' && r.path.includes('/notes'));
    expect(listed.map((r) => new URL(r.path, gitlab.url).searchParams.get('per_page'))).toEqual(
      listed.map(() => '100'),
    );
    expect(gitlab.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v4/projects/42/merge_requests/9/notes',
      `PUT /api/v4/projects/42/merge_requests/9/notes/${notes[0]?.id}`,
      `PUT /api/v4/projects/42/merge_requests/9/notes/${notes[0]?.id}`,
    ]);
  });

  it('deploy --comment: the merged merge request, else the commit; a 403 is a warning with a hint', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    const { dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitLabEnv(gitlab));
    expect((await run('deploy', '--yes', '--comment')).code).toBe(0);
    expect(gitlab.threads.get(`commit:${SHA}`)?.[0]?.body).toContain('**✓ Applied in');

    writeFiles(dir, { 'a.monitor.ts': groups(2) });
    gitlab.commitPulls.set(SHA, [{ number: 4, merged: true }]);
    expect((await run('deploy', '--yes', '--comment')).code).toBe(0);
    expect(gitlab.threads.get('mr:4')?.[0]?.body).toMatch(/^<!-- monitor:deploy .*\n### monitor deploy/);

    writeFiles(dir, { 'a.monitor.ts': groups(3) });
    gitlab.failures.push({ method: 'PUT', status: 403, body: { message: '403 Forbidden' } });
    const forbidden = await run('deploy', '--yes', '--comment');
    expect(forbidden.code).toBe(0);
    expect(forbidden.stderr).toMatch(
      /warning: could not post the result: cannot update note \d+ on merge request !4: 403 Forbidden\n/,
    );
    expect(forbidden.stderr).toContain('hint: the token needs the api scope');

    writeFiles(dir, { 'a.monitor.ts': groups(4) });
    gitlab.commitPulls.set(SHA, [{ number: 5, merged: true }]);
    for (let i = 0; i < 3; i++) gitlab.failures.push(gitLabFaults.badGateway({ method: 'POST' }));
    const down = await run('deploy', '--yes', '--comment');
    expect(down.code).toBe(0);
    expect(down.stderr).toContain(
      'warning: could not post the result: cannot comment on merge request !5: 502 GitLab is not responding',
    );
    expect(down.stderr).toContain("hint: GitLab's web server could not reach GitLab itself");
  });
});

describe('diff --issue (the nightly drift check)', () => {
  it('opens one issue when the account drifts, updates it, and closes it once deploy restores the code', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    github.issues.push({
      number: 1,
      title: 'unrelated',
      body: 'a bug report',
      labels: ['bug'],
      state: 'open',
    });
    const { h, dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(2) });
    useCi(gitHubEnv(dir, github, { schedule: '0 5 * * *' }));
    expect((await run('deploy', '--yes')).code).toBe(0);
    const clean = await run('diff', '--issue');
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain('Not posted: the account matches the code and no drift issue is open.');

    // Someone mutes a group in the UI.
    const live = (await h.client.checkGroups.list()).items.find((g) => g.name === 'Group 0');
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    const drift = await run('diff', '--issue', '--detailed-exitcode');
    expect(drift.code).toBe(2);
    expect(drift.stderr).toContain(
      '✓ The drift issue (#2) opened in the issues of acme/web: https://github.test/issues/2',
    );
    expect(github.issues[1]).toMatchObject({
      title: `monitor: e2e differs from account ${DEV_ACCOUNT_ID}`,
      labels: ['monitor-drift'],
      state: 'open',
    });
    expect(github.issues[1]?.body).toContain('#### Drift: changed outside monitor');
    expect((await run('diff', '--issue')).stderr).toContain('The drift issue (#2) is already on');

    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true, tags: ['ui'] });
    expect((await run('diff', '--issue')).stderr).toContain('The drift issue (#2) updated on');
    expect(github.issues.filter((i) => i.labels.includes('monitor-drift'))).toHaveLength(1);

    expect((await run('deploy', '--yes')).code).toBe(0);
    const fixed = await run('diff', '--issue', '--detailed-exitcode');
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toContain('The drift issue (#2) closed in the issues of acme/web');
    expect(github.issues[1]).toMatchObject({ state: 'closed' });
    expect(github.issues[1]?.body).toContain('**No changes.**');
    expect(github.issues[0]).toMatchObject({ body: 'a bug report', state: 'open' });
  });

  it('finds its issue by marker and author with the label removed, puts the label back, and never opens a second', async () => {
    const github = await fakeGitHub();
    hosts.push(github);
    const { h, dir, run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitHubEnv(dir, github, { schedule: '0 5 * * *' }));
    expect((await run('deploy', '--yes')).code).toBe(0);
    const live = (await h.client.checkGroups.list()).items[0];
    await h.client.checkGroups.update(live?.id ?? 0, { name: 'Group 0', muted: true });
    // Someone opens an issue that fakes the marker, with the label.
    const drift = `<!-- monitor:drift project=e2e account=${DEV_ACCOUNT_ID} -->`;
    github.issues.push({
      number: 1,
      title: 'fake',
      body: `${drift}\nfake`,
      labels: ['monitor-drift'],
      state: 'open',
    });
    // GitHub stores the issue monitor opens but answers 502.
    github.failures.push({ method: 'POST', path: '/issues', status: 502, afterWork: true });
    const opened = await run('diff', '--issue', '--require-comment');
    expect(opened.code).toBe(0);
    expect(opened.stderr).toContain('✓ The drift issue (#2) opened in the issues of acme/web');
    expect(github.issues).toHaveLength(2);

    for (let i = 0; i < 3; i++) {
      const issue = github.issues[1];
      if (issue !== undefined) issue.labels = [];
      const again = await run('diff', '--issue');
      expect(again.stderr).toContain('The drift issue (#2) is already on the issues of acme/web');
    }
    expect(github.issues).toHaveLength(2);
    expect(github.issues[1]).toMatchObject({
      labels: ['monitor-drift'],
      state: 'open',
      author: GITHUB_ACTIONS_BOT,
    });
    expect(github.issues[0]).toMatchObject({ body: `${drift}\nfake`, state: 'open' });

    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await run('diff', '--issue')).stderr).toContain('The drift issue (#2) closed in');
    expect(github.issues.map((i) => i.state)).toEqual(['open', 'closed']);
  });

  it('works on GitLab issues, and --require-comment without --comment or --issue is a usage error', async () => {
    const gitlab = await fakeGitLab();
    hosts.push(gitlab);
    const { run, useCi } = await ciProject({ 'a.monitor.ts': groups(1) });
    useCi(gitLabEnv(gitlab));
    expect((await run('diff', '--issue')).code).toBe(0);
    expect(gitlab.issues).toMatchObject([{ number: 1, labels: ['monitor-drift'], state: 'open' }]);
    expect((await run('deploy', '--yes')).code).toBe(0);
    expect((await run('diff', '--issue')).code).toBe(0);
    expect(gitlab.issues).toMatchObject([{ number: 1, state: 'closed' }]);
    const usage = await run('diff', '--require-comment');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--require-comment needs --comment or --issue');
  });
});

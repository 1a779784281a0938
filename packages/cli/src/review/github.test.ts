import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type FakeCodeHost,
  fakeGitHub,
  GITHUB_ACTIONS_BOT,
  GITHUB_ACTIONS_TOKEN,
  GITHUB_PERSONAL_TOKEN,
  GITHUB_TOKEN_USER,
  gitHubFaults,
} from '../../../../test/support/code-hosts.js';
import { waitLine } from '../comment-ui.js';
import { virtualClock } from '../test-support/virtual-clock.js';
import { commentMarker, type PublishOptions, publishComment, publishDriftIssue } from './publish.js';

const dir = mkdtempSync(join(tmpdir(), 'monitor-github-'));
const eventPath = join(dir, 'event.json');
writeFileSync(eventPath, JSON.stringify({ pull_request: { number: 12 } }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function github(): Promise<FakeCodeHost> {
  const host = await fakeGitHub();
  hosts.push(host);
  return host;
}

const MARKER = commentMarker('plan', 'web', 'acct-1');
const DRIFT = commentMarker('drift', 'web', 'acct-1');

/** `diff --comment` of a workflow run for pull request #12, against the fake, on a virtual clock. */
function post(
  host: FakeCodeHost,
  options: Partial<PublishOptions> & { token?: string; markdown?: string } = {},
) {
  const { token = GITHUB_ACTIONS_TOKEN, markdown = 'the plan', ...rest } = options;
  return publishComment(
    { purpose: 'plan', project: 'web', account: 'acct-1', render: () => markdown, createIfMissing: true },
    {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/web',
        GITHUB_TOKEN: token,
        GITHUB_API_URL: host.url,
        GITHUB_EVENT_PATH: eventPath,
      },
      userAgent: 'monitor/1.2.3',
      clock: virtualClock().clock,
      ...rest,
    },
  );
}

const writes = (host: FakeCodeHost) => host.writes().map((r) => `${r.method} ${r.path}`);

describe('the GitHub client, against a fake GitHub', () => {
  it('sends the API version, the media type and a User-Agent naming monitor with every request', async () => {
    const host = await github();
    host.threads.set('pr:12', [{ id: 1, body: `${MARKER}\nold`, author: GITHUB_ACTIONS_BOT }]);
    expect(await post(host)).toMatchObject({ status: 'updated' });
    expect(host.requests.length).toBeGreaterThanOrEqual(3);
    for (const r of host.requests) {
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
      expect(r.headers.accept).toBe('application/vnd.github+json');
      expect(r.headers['user-agent']).toBe('monitor/1.2.3');
    }
  });

  it("knows the workflow token as github-actions[bot] through GraphQL's viewer (GET /user refuses it); a personal token asks GET /user", async () => {
    const host = await github();
    host.threads.set('pr:12', [
      { id: 1, body: `${MARKER}\nby the workflow`, author: GITHUB_ACTIONS_BOT },
      { id: 2, body: `${MARKER}\nby a person's token`, author: GITHUB_TOKEN_USER },
    ]);
    expect(await post(host, { markdown: 'new plan' })).toMatchObject({ status: 'updated', id: 1 });
    expect(host.requests.map((r) => `${r.method} ${r.path}`)).not.toContain('GET /user');
    expect(host.requests.some((r) => r.path === '/graphql' && r.body.includes('viewer'))).toBe(true);

    host.requests.length = 0;
    expect(await post(host, { token: GITHUB_PERSONAL_TOKEN, markdown: 'plan of a person' })).toMatchObject({
      status: 'updated',
      id: 2,
    });
    expect(host.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /user');
    expect(host.threads.get('pr:12')?.map((c) => c.body.split('\n')[1])).toEqual([
      'new plan',
      'plan of a person',
    ]);
  });

  it("asks GitHub Enterprise Server's GraphQL endpoint beside its REST API", async () => {
    const host = await fakeGitHub('/api/v3');
    hosts.push(host);
    host.threads.set('pr:12', [{ id: 1, body: `${MARKER}\nold`, author: GITHUB_ACTIONS_BOT }]);
    const outcome = await post(host, {
      env: {
        GITHUB_REPOSITORY: 'acme/web',
        GITHUB_TOKEN: GITHUB_ACTIONS_TOKEN,
        GITHUB_API_URL: `${host.url}/api/v3`,
        GITHUB_EVENT_PATH: eventPath,
      },
    });
    expect(outcome).toMatchObject({ status: 'updated', id: 1 });
    expect(host.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v3/repos/acme/web/issues/12/comments?per_page=100',
      'POST /api/graphql',
      'PATCH /api/v3/repos/acme/web/issues/comments/1',
    ]);
  });

  it('adopts a comment that GitHub stored before the request timed out: one comment, one create', async () => {
    const host = await github();
    host.failures.push({ method: 'POST', path: '/comments', hang: true, afterWork: true });
    // The limit of every request, not only of the create that hangs (the test waits it out once): at
    // 200 ms the reads around the create ran into it too on a loaded 2-core machine, and the test
    // failed. Generous, so that only the create that never gets an answer runs into it.
    const outcome = await post(host, { requestTimeoutMs: 5_000 });
    expect(outcome).toMatchObject({ status: 'created' });
    expect(host.threads.get('pr:12')).toHaveLength(1);
    expect(writes(host)).toEqual(['POST /repos/acme/web/issues/12/comments']);
  });

  it('waits at least what a 429 asks (Retry-After: 2), then posts', async () => {
    const host = await github();
    host.failures.push(gitHubFaults.tooManyRequests(2, { method: 'POST' }));
    const { clock, sleeps } = virtualClock();
    expect(await post(host, { clock })).toMatchObject({ status: 'created' });
    expect(sleeps).toEqual([2000]);
    expect(host.threads.get('pr:12')).toHaveLength(1);
  });

  it('says why and for how long it waits out a secondary rate limit, in one line, then sends the request again', async () => {
    const host = await github();
    host.failures.push(gitHubFaults.secondaryRateLimit(30, { method: 'POST' }));
    const lines: string[] = [];
    const { clock, sleeps } = virtualClock();
    expect(await post(host, { clock, onWait: (w) => lines.push(waitLine(w)) })).toMatchObject({
      status: 'created',
    });
    expect(sleeps).toEqual([30_000]);
    expect(lines).toEqual([
      "Waiting 30 s before retrying: GitHub's secondary rate limit (403 with retry-after: 30)\n",
    ]);
  });

  it('reports a rate limit it will not wait out as a rate limit, not as permissions or forks', async () => {
    const host = await github();
    const start = Date.UTC(2026, 10, 23, 12, 0, 0);
    host.failures.push(gitHubFaults.secondaryRateLimit(120, { method: 'POST' }));
    const { clock, sleeps } = virtualClock(start);
    const secondary = await post(host, { clock });
    expect(secondary).toMatchObject({ status: 'failed' });
    if (secondary.status !== 'failed') return;
    expect(secondary.reason).toBe(
      "cannot comment on pull request #12: GitHub's secondary rate limit (403 with retry-after: 120): 403 You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:1111:2222:3333:4444.; it asks to wait 120 s, until 12:02:00 UTC",
    );
    expect(secondary.hint).toBe(
      'a rate limit, not a permission problem: this token made too many requests to GitHub (jobs running at once share it); re-run the job after 12:02 UTC',
    );
    expect(sleeps).toEqual([]);

    host.failures.push(gitHubFaults.rateLimitExhausted(start / 1000 + 1800, { method: 'GET' }));
    const quota = await post(host, { clock: virtualClock(start).clock });
    expect(quota).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining(
        "cannot list the comments of pull request #12: GitHub's rate limit (403 with x-ratelimit-remaining: 0): 403 API rate limit exceeded",
      ),
      hint: expect.stringMatching(/^a rate limit, not a permission problem: .* after 12:30 UTC$/),
    });
    expect(JSON.stringify([secondary, quota])).not.toMatch(/permissions:|fork/);
  });

  it('waits out a used-up hourly quota that resets within the minute, until x-ratelimit-reset', async () => {
    const host = await github();
    const start = Date.UTC(2026, 10, 23, 12, 0, 0);
    host.failures.push(gitHubFaults.rateLimitExhausted(start / 1000 + 25, { method: 'GET' }));
    const { clock, sleeps } = virtualClock(start);
    expect(await post(host, { clock })).toMatchObject({ status: 'created' });
    expect(sleeps).toEqual([25_000]);
  });

  it('reports a request that got no answer as a timeout, after retrying the read', async () => {
    const host = await github();
    for (let i = 0; i < 4; i++) host.failures.push({ method: 'GET', hang: true });
    const { clock, sleeps } = virtualClock();
    const outcome = await post(host, { clock, requestTimeoutMs: 100 });
    expect(outcome).toEqual({
      status: 'failed',
      reason: 'cannot list the comments of pull request #12: no answer from GitHub within 100 ms (timed out)',
      hint: 'GitHub was slow or unreachable from this runner: re-run the job',
    });
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('retries a 5xx read after 1, 2 and 4 s, and announces the waits from 2 s on', async () => {
    const host = await github();
    host.failures.push(
      { method: 'GET', status: 502 },
      { method: 'GET', status: 503 },
      { method: 'GET', status: 500 },
    );
    const waits: string[] = [];
    const { clock, sleeps } = virtualClock();
    expect(await post(host, { clock, onWait: (w) => waits.push(waitLine(w)) })).toMatchObject({
      status: 'created',
    });
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(waits).toEqual([
      'Waiting 2 s before retrying: GitHub answered 503 Service Unavailable to GET /repos/acme/web/issues/12/comments\n',
      'Waiting 4 s before retrying: GitHub answered 500 Internal Server Error to GET /repos/acme/web/issues/12/comments\n',
    ]);
  });

  it('gives a 422 its reason and a hint', async () => {
    const host = await github();
    host.failures.push({
      method: 'POST',
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long' }],
      },
    });
    const outcome = await post(host);
    expect(outcome).toMatchObject({
      status: 'failed',
      reason: 'cannot comment on pull request #12: 422 Validation Failed: body is too long',
      hint: expect.stringContaining('GitHub refused what was sent for the reason in its message'),
    });
  });

  it('finds the drift issue by marker and author among pages of open issues, never by label alone', async () => {
    const host = await github();
    for (let n = 1; n <= 120; n++) {
      host.issues.push({ number: n, title: `issue ${n}`, body: 'a bug', labels: [], state: 'open' });
    }
    host.issues.push(
      { number: 121, title: 'spoof', body: `${DRIFT}\nfake`, labels: ['monitor-drift'], state: 'open' },
      {
        number: 122,
        title: 'ours',
        body: `${DRIFT}\nold`,
        labels: [],
        state: 'open',
        author: GITHUB_ACTIONS_BOT,
      },
    );
    const outcome = await publishDriftIssue(
      { project: 'web', account: 'acct-1', markdown: 'drift', differs: true },
      {
        env: { GITHUB_REPOSITORY: 'acme/web', GITHUB_TOKEN: GITHUB_ACTIONS_TOKEN, GITHUB_API_URL: host.url },
        userAgent: 'monitor/1.2.3',
        clock: virtualClock().clock,
      },
    );
    expect(outcome).toMatchObject({ status: 'updated', number: 122 });
    expect(host.issues[121]).toMatchObject({ body: `${DRIFT}\ndrift`, labels: ['monitor-drift'] });
    expect(host.issues[120]).toMatchObject({ body: `${DRIFT}\nfake`, state: 'open' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeCodeHost,
  fakeGitLab,
  GITLAB_TOKEN,
  GITLAB_TOKEN_BOT,
  gitLabFaults,
} from '../../../../test/support/code-hosts.js';
import { waitLine } from '../comment-ui.js';
import { virtualClock } from '../test-support/virtual-clock.js';
import { commentMarker, type PublishOptions, publishComment, publishDriftIssue } from './publish.js';

const hosts: FakeCodeHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function gitlab(): Promise<FakeCodeHost> {
  const host = await fakeGitLab();
  hosts.push(host);
  return host;
}

const MARKER = commentMarker('plan', 'web', 'acct-1');
const DRIFT = commentMarker('drift', 'web', 'acct-1');

function options(host: FakeCodeHost, rest: Partial<PublishOptions> = {}): PublishOptions {
  return {
    env: {
      GITLAB_CI: 'true',
      CI_API_V4_URL: `${host.url}/api/v4`,
      CI_PROJECT_ID: '42',
      CI_MERGE_REQUEST_IID: '9',
      GITLAB_TOKEN,
    },
    userAgent: 'monitor/1.2.3',
    clock: virtualClock().clock,
    ...rest,
  };
}

/** `diff --comment` in a merge request pipeline for !9, against the fake, on a virtual clock. */
function post(host: FakeCodeHost, rest: Partial<PublishOptions> = {}) {
  return publishComment(
    { purpose: 'plan', project: 'web', account: 'acct-1', render: () => 'the plan', createIfMissing: true },
    options(host, rest),
  );
}

const notesRequests = (host: FakeCodeHost) =>
  host.requests.filter((r) => r.method === 'GET' && r.path.includes('/merge_requests/9/notes'));

describe('the GitLab client, against a fake GitLab', () => {
  it('honours Retry-After on a 429 and a 503, and says why and for how long it waits', async () => {
    const host = await gitlab();
    host.failures.push(gitLabFaults.rateLimited(30, { method: 'GET' }), {
      method: 'GET',
      status: 503,
      headers: { 'retry-after': '5' },
      body: { message: '503 Service Unavailable' },
    });
    const lines: string[] = [];
    const { clock, sleeps } = virtualClock();
    expect(await post(host, { clock, onWait: (w) => lines.push(waitLine(w)) })).toMatchObject({
      status: 'created',
    });
    expect(sleeps).toEqual([30_000, 5_000]);
    expect(lines).toEqual([
      "Waiting 30 s before retrying: GitLab's rate limit (429 with Retry-After: 30)\n",
      'Waiting 5 s before retrying: GitLab answered 503 Service Unavailable to GET /api/v4/projects/42/merge_requests/9/notes\n',
    ]);
    expect(notesRequests(host)).toHaveLength(3);
  });

  it('backs off without Retry-After, and stops within the time the posting has', async () => {
    const host = await gitlab();
    for (let i = 0; i < 10; i++)
      host.failures.push({ method: 'GET', status: 500, body: { message: '500 Internal Server Error' } });
    const backoff = virtualClock();
    const failed = await post(host, { clock: backoff.clock });
    expect(failed).toEqual({
      status: 'failed',
      reason: 'cannot list the notes of merge request !9: 500 Internal Server Error',
      hint: 'GitLab kept failing after retries: re-run the job',
    });
    expect(backoff.sleeps).toEqual([1000, 2000, 4000]);
    expect(notesRequests(host)).toHaveLength(4);

    host.failures.length = 0;
    host.requests.length = 0;
    for (let i = 0; i < 10; i++) host.failures.push(gitLabFaults.rateLimited(30, { method: 'GET' }));
    const limited = virtualClock();
    const gaveUp = await post(host, { clock: limited.clock, timeoutMs: 60_000 });
    expect(gaveUp).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining("GitLab's rate limit (429 with Retry-After: 30): 429 Retry later"),
      hint: expect.stringContaining('a rate limit, not a permission problem'),
    });
    expect(limited.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
    expect(notesRequests(host).length).toBeLessThanOrEqual(3);
  });

  it('reads notes 100 to a page, following X-Next-Page, and sends a User-Agent naming monitor', async () => {
    const host = await gitlab();
    host.threads.set(
      'mr:9',
      Array.from({ length: 150 }, (_, i) => ({ id: i + 1, body: `note ${i}` })),
    );
    expect(await post(host)).toMatchObject({ status: 'created' });
    expect(notesRequests(host).map((r) => new URL(r.path, host.url).searchParams.get('per_page'))).toEqual([
      '100',
      '100',
    ]);
    for (const r of host.requests) expect(r.headers['user-agent']).toBe('monitor/1.2.3');
  });

  it('names the status once, and gives a 502 a hint', async () => {
    const host = await gitlab();
    host.threads.set('mr:9', [{ id: 5, body: `${MARKER}\nold`, author: GITLAB_TOKEN_BOT }]);
    host.failures.push({ method: 'PUT', status: 403, body: { message: '403 Forbidden' } });
    expect(await post(host)).toEqual({
      status: 'failed',
      reason: 'cannot update note 5 on merge request !9: 403 Forbidden',
      hint: 'the token needs the api scope and the Reporter role or above on the project',
    });

    host.threads.set('mr:9', []);
    for (let i = 0; i < 3; i++) host.failures.push(gitLabFaults.badGateway({ method: 'POST' }));
    const outcome = await post(host);
    expect(outcome).toMatchObject({
      status: 'failed',
      reason: 'cannot comment on merge request !9: 502 GitLab is not responding',
      hint: expect.stringContaining("GitLab's web server could not reach GitLab itself"),
    });
    // Each failed create was followed by a list before the next one.
    expect(host.threads.get('mr:9')).toEqual([]);
  });

  it('adopts a note GitLab stored but answered 502 for; ignores a note with the marker by someone else', async () => {
    const host = await gitlab();
    host.threads.set('mr:9', [{ id: 1, body: `${MARKER}\nnot from monitor` }]);
    host.failures.push(gitLabFaults.badGateway({ method: 'POST', afterWork: true }));
    expect(await post(host)).toMatchObject({ status: 'created' });
    expect(host.threads.get('mr:9')?.map((n) => n.body)).toEqual([
      `${MARKER}\nnot from monitor`,
      `${MARKER}\nthe plan`,
    ]);
    expect(host.writes().map((r) => r.method)).toEqual(['POST']);
  });

  it('keeps the oldest of its own notes and deletes the copies', async () => {
    const host = await gitlab();
    host.threads.set('mr:9', [
      { id: 1, body: `${MARKER}\nfirst`, author: GITLAB_TOKEN_BOT },
      { id: 2, body: `${MARKER}\ncopy`, author: GITLAB_TOKEN_BOT },
      { id: 3, body: `${MARKER}\nsomeone else's` },
    ]);
    expect(await post(host)).toMatchObject({ status: 'updated', id: 1, duplicatesRemoved: 1 });
    expect(host.threads.get('mr:9')?.map((n) => [n.id, n.body.split('\n')[1]])).toEqual([
      [1, 'the plan'],
      [3, "someone else's"],
    ]);
  });

  it("finds the drift issue among the token user's open issues by its marker, and puts the label back", async () => {
    const host = await gitlab();
    host.issues.push(
      { number: 1, title: 'spoof', body: `${DRIFT}\nfake`, labels: ['monitor-drift'], state: 'open' },
      {
        number: 2,
        title: 'ours',
        body: `${DRIFT}\nold`,
        labels: ['triaged'],
        state: 'open',
        author: GITLAB_TOKEN_BOT,
      },
    );
    const outcome = await publishDriftIssue(
      { project: 'web', account: 'acct-1', markdown: 'drift', differs: true },
      options(host),
    );
    expect(outcome).toMatchObject({ status: 'updated', number: 2 });
    expect(host.issues[1]).toMatchObject({ body: `${DRIFT}\ndrift`, labels: ['triaged', 'monitor-drift'] });
    expect(host.issues[0]).toMatchObject({ body: `${DRIFT}\nfake` });
  });
});

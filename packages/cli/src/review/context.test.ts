import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectReviewContext } from './context.js';
import { commentMarker } from './publish.js';

const dir = mkdtempSync(join(tmpdir(), 'monitor-review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function event(name: string, payload: unknown): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(payload));
  return path;
}

const actions = (extra: Record<string, string | undefined>) => ({
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/web',
  GITHUB_TOKEN: 't',
  GITHUB_SHA: 'abc123',
  ...extra,
});

describe('detectReviewContext', () => {
  it('finds the pull request of a pull_request event, and of a comment on one', () => {
    const pr = detectReviewContext(
      actions({ GITHUB_EVENT_PATH: event('pr', { pull_request: { number: 12 } }) }),
    );
    expect(pr).toEqual({
      found: true,
      host: {
        host: 'github',
        apiUrl: 'https://api.github.com',
        owner: 'acme',
        repo: 'web',
        token: 't',
        pullNumber: 12,
        sha: 'abc123',
      },
    });
    const comment = detectReviewContext(
      actions({ GITHUB_EVENT_PATH: event('comment', { issue: { number: 4, pull_request: {} } }) }),
    );
    expect(comment.found && comment.host.host === 'github' && comment.host.pullNumber).toBe(4);
    // A comment on an issue is not a pull request.
    const issue = detectReviewContext(
      actions({ GITHUB_EVENT_PATH: event('issue', { issue: { number: 5 } }) }),
    );
    expect(issue.found && issue.host.host === 'github' && issue.host.pullNumber).toBeUndefined();
  });

  it('uses GITHUB_API_URL for GitHub Enterprise and GH_TOKEN when GITHUB_TOKEN is absent', () => {
    const ghe = detectReviewContext(
      actions({ GITHUB_API_URL: 'https://ghe.acme.example/api/v3/', GITHUB_TOKEN: undefined, GH_TOKEN: 'g' }),
    );
    expect(ghe).toMatchObject({
      found: true,
      host: { apiUrl: 'https://ghe.acme.example/api/v3', token: 'g' },
    });
  });

  it('says what is missing in a CI run that cannot post', () => {
    expect(detectReviewContext(actions({ GITHUB_TOKEN: '' }))).toMatchObject({
      found: false,
      misconfigured: true,
      reason: 'GITHUB_TOKEN is not set',
      hint: expect.stringContaining('pull-requests: write'),
    });
    expect(detectReviewContext(actions({ GITHUB_REPOSITORY: 'acme' }))).toMatchObject({
      misconfigured: true,
      reason: 'GITHUB_REPOSITORY is "acme", not owner/repo',
    });
    expect(detectReviewContext(actions({ GITHUB_EVENT_PATH: join(dir, 'missing.json') }))).toMatchObject({
      misconfigured: true,
      reason: expect.stringContaining('cannot read the event payload'),
    });
    expect(
      detectReviewContext({
        GITLAB_CI: 'true',
        CI_API_V4_URL: 'https://gitlab.example/api/v4',
        CI_PROJECT_ID: '1',
      }),
    ).toMatchObject({
      misconfigured: true,
      reason: 'GITLAB_TOKEN is not set',
      hint: expect.stringContaining('CI_JOB_TOKEN cannot write notes'),
    });
  });

  it('finds a GitLab merge request pipeline', () => {
    expect(
      detectReviewContext({
        GITLAB_CI: 'true',
        CI_API_V4_URL: 'https://gitlab.example/api/v4',
        CI_PROJECT_ID: '42',
        CI_MERGE_REQUEST_IID: '9',
        CI_COMMIT_SHA: 'def',
        GITLAB_TOKEN: 'x',
      }),
    ).toEqual({
      found: true,
      host: {
        host: 'gitlab',
        apiUrl: 'https://gitlab.example/api/v4',
        projectId: '42',
        token: 'x',
        mergeRequestIid: 9,
        sha: 'def',
      },
    });
  });

  it('is not a failure outside CI', () => {
    expect(detectReviewContext({ CI: 'true' })).toMatchObject({ found: false, misconfigured: false });
  });
});

describe('commentMarker', () => {
  it('is one per purpose, project and account, and no name can close it early', () => {
    expect(commentMarker('plan', 'web', '1')).toBe('<!-- monitor:plan project=web account=1 -->');
    expect(commentMarker('result', 'web', '1')).toBe('<!-- monitor:deploy project=web account=1 -->');
    const odd = commentMarker('plan', 'a --> b', '1');
    expect(odd).toBe('<!-- monitor:plan project=a%20--%3E%20b account=1 -->');
    expect(odd.indexOf('-->')).toBe(odd.length - 3);
  });
});

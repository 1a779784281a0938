import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { ReviewHost } from './context.js';
import {
  CodeHostError,
  type CommentThread,
  hintForStatus,
  type IssueTracker,
  type PostedComment,
  type TrackedIssue,
} from './thread.js';

type GitHubHost = Extract<ReviewHost, { host: 'github' }>;

export interface GitHubClientOptions {
  userAgent: string;
  /** A line for each retry after a rate limit. */
  warn: (message: string) => void;
  /** Aborts every request: the whole posting has a time budget. */
  signal?: AbortSignal;
}

const MonitorOctokit = Octokit.plugin(retry, throttling);
type Client = InstanceType<typeof MonitorOctokit>;

/** Retries 5xx twice, waits out rate limits of up to a minute twice; then the error reaches us. */
function client(host: GitHubHost, options: GitHubClientOptions): Client {
  const onLimit =
    (kind: string) =>
    (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean => {
      if (retryCount >= 2 || retryAfter > 60) return false;
      options.warn(`GitHub ${kind} rate limit reached: retrying in ${retryAfter} s`);
      return true;
    };
  const silent = () => {};
  return new MonitorOctokit({
    auth: host.token,
    baseUrl: host.apiUrl,
    userAgent: options.userAgent,
    log: { debug: silent, info: silent, warn: silent, error: silent },
    retry: { retries: 2 },
    throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
    ...(options.signal === undefined ? {} : { request: { signal: options.signal } }),
  });
}

/** Octokit's error as ours: the status, GitHub's message, and what to do. */
async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (e) {
    const status =
      typeof (e as { status?: unknown }).status === 'number' ? (e as { status: number }).status : undefined;
    const message = (e as Error).message.replace(/ - https:\/\/docs\.github\.com\S*$/, '');
    throw new CodeHostError(
      `${what}: ${status === undefined || status === 0 ? '' : `${status} `}${message}`,
      status === 0 ? undefined : status,
      hintForStatus('github', status),
    );
  }
}

const asComment = (c: { id: number; body?: string | null; html_url?: string }): PostedComment => ({
  id: c.id,
  body: c.body ?? '',
  ...(c.html_url === undefined ? {} : { url: c.html_url }),
});

function pullRequestThread(octokit: Client, host: GitHubHost, pullNumber: number): CommentThread {
  const { owner, repo } = host;
  return {
    description: `pull request #${pullNumber} of ${owner}/${repo}`,
    list: () =>
      call(`cannot list the comments of pull request #${pullNumber}`, async () =>
        (
          await octokit.paginate(octokit.rest.issues.listComments, {
            owner,
            repo,
            issue_number: pullNumber,
            per_page: 100,
          })
        ).map(asComment),
      ),
    create: (body) =>
      call(`cannot comment on pull request #${pullNumber}`, async () =>
        asComment(
          (await octokit.rest.issues.createComment({ owner, repo, issue_number: pullNumber, body })).data,
        ),
      ),
    update: (comment, body) =>
      call(`cannot update comment ${comment.id} on pull request #${pullNumber}`, async () =>
        asComment(
          (await octokit.rest.issues.updateComment({ owner, repo, comment_id: comment.id, body })).data,
        ),
      ),
  };
}

function commitThread(octokit: Client, host: GitHubHost, sha: string): CommentThread {
  const { owner, repo } = host;
  const short = sha.slice(0, 12);
  return {
    description: `commit ${short} of ${owner}/${repo}`,
    list: () =>
      call(`cannot list the comments of commit ${short}`, async () =>
        (
          await octokit.paginate(octokit.rest.repos.listCommentsForCommit, {
            owner,
            repo,
            commit_sha: sha,
            per_page: 100,
          })
        ).map(asComment),
      ),
    create: (body) =>
      call(`cannot comment on commit ${short}`, async () =>
        asComment(
          (await octokit.rest.repos.createCommitComment({ owner, repo, commit_sha: sha, body })).data,
        ),
      ),
    update: (comment, body) =>
      call(`cannot update comment ${comment.id} on commit ${short}`, async () =>
        asComment(
          (await octokit.rest.repos.updateCommitComment({ owner, repo, comment_id: comment.id, body })).data,
        ),
      ),
  };
}

/**
 * The thread for this run's comment. A plan goes to the run's pull request only. A deploy's
 * result goes to the run's pull request, or else to the pull request the commit was merged from,
 * or else to the commit itself.
 */
export async function gitHubThread(
  host: GitHubHost,
  purpose: 'plan' | 'result',
  options: GitHubClientOptions,
): Promise<CommentThread | { skipped: string }> {
  const octokit = client(host, options);
  if (host.pullNumber !== undefined) return pullRequestThread(octokit, host, host.pullNumber);
  if (purpose === 'plan') return { skipped: 'this run is not for a pull request (its event has none)' };
  const sha = host.sha;
  if (sha === undefined)
    return { skipped: 'this run names no pull request and no commit (GITHUB_SHA is not set)' };
  const pulls = await call(
    `cannot find the pull request of commit ${sha.slice(0, 12)}`,
    async () =>
      (
        await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
          owner: host.owner,
          repo: host.repo,
          commit_sha: sha,
        })
      ).data,
  );
  const merged = pulls.find((p) => p.merged_at !== null) ?? pulls[0];
  return merged === undefined
    ? commitThread(octokit, host, sha)
    : pullRequestThread(octokit, host, merged.number);
}

const asIssue = (i: { number: number; body?: string | null; html_url?: string }): TrackedIssue => ({
  number: i.number,
  body: i.body ?? '',
  ...(i.html_url === undefined ? {} : { url: i.html_url }),
});

/** The repository's issues (the token needs `issues: write`). */
export function gitHubIssues(host: GitHubHost, options: GitHubClientOptions): IssueTracker {
  const octokit = client(host, options);
  const { owner, repo } = host;
  return {
    description: `the issues of ${owner}/${repo}`,
    listOpen: (label) =>
      call(`cannot list the open issues labelled ${label}`, async () =>
        (
          await octokit.paginate(octokit.rest.issues.listForRepo, {
            owner,
            repo,
            state: 'open',
            labels: label,
            per_page: 100,
          })
        )
          // The issues endpoint lists pull requests too.
          .filter((i) => i.pull_request === undefined)
          .map(asIssue),
      ),
    open: (title, body, label) =>
      call('cannot open an issue', async () =>
        asIssue((await octokit.rest.issues.create({ owner, repo, title, body, labels: [label] })).data),
      ),
    update: (issue, body) =>
      call(`cannot update issue #${issue.number}`, async () =>
        asIssue((await octokit.rest.issues.update({ owner, repo, issue_number: issue.number, body })).data),
      ),
    close: (issue, body) =>
      call(`cannot close issue #${issue.number}`, async () =>
        asIssue(
          (
            await octokit.rest.issues.update({
              owner,
              repo,
              issue_number: issue.number,
              body,
              state: 'closed',
              state_reason: 'completed',
            })
          ).data,
        ),
      ),
  };
}

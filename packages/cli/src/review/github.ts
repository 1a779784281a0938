import type { ReviewHost } from './context.js';
import {
  type Answer,
  type HostHttp,
  type HostHttpOptions,
  type HostProtocol,
  hostHttp,
  linkNext,
  once,
  parseRetryAfter,
  type RateLimit,
} from './http.js';
import {
  type Author,
  CodeHostError,
  type CommentThread,
  type IssueTracker,
  type PostedComment,
  type TrackedIssue,
} from './thread.js';

export type GitHubHost = Extract<ReviewHost, { host: 'github' }>;

export interface GitHubClientOptions extends HostHttpOptions {
  userAgent: string;
}

/** The REST API version monitor is written against. */
export const GITHUB_API_VERSION = '2022-11-28';

/**
 * A rate-limit answer (403 or 429): with `retry-after`, a secondary limit; with
 * `x-ratelimit-remaining: 0`, the hourly limit, until `x-ratelimit-reset`; a secondary limit
 * without either asks for a minute (GitHub's guidance).
 */
export function gitHubRateLimit(answer: Answer, now: number): RateLimit | undefined {
  if (answer.status !== 403 && answer.status !== 429) return undefined;
  const retryAfter = answer.headers.get('retry-after');
  const remaining = answer.headers.get('x-ratelimit-remaining');
  if (retryAfter !== null) {
    return {
      reason: `GitHub's secondary rate limit (${answer.status} with retry-after: ${retryAfter})`,
      waitMs: parseRetryAfter(retryAfter, now),
    };
  }
  if (remaining === '0') {
    const reset = Number(answer.headers.get('x-ratelimit-reset'));
    return {
      reason: `GitHub's rate limit (${answer.status} with x-ratelimit-remaining: 0)`,
      waitMs: Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : undefined,
    };
  }
  const message = String((answer.json() as { message?: unknown } | undefined)?.message ?? '');
  if (answer.status === 429 || /secondary rate limit|abuse detection/i.test(message)) {
    return { reason: `GitHub's secondary rate limit (${answer.status})`, waitMs: 60_000 };
  }
  return undefined;
}

/** GitHub's message, with the details of a 422 ("Validation Failed: body is too long"). */
function gitHubMessage(answer: Answer): string {
  const body = answer.json() as
    | { message?: unknown; errors?: Array<string | { message?: string; field?: string; code?: string }> }
    | undefined;
  const message = typeof body?.message === 'string' ? body.message : answer.text.slice(0, 200);
  const details = (Array.isArray(body?.errors) ? body.errors : []).map((e) =>
    typeof e === 'string' ? e : (e.message ?? [e.field, e.code].filter(Boolean).join(' ')),
  );
  return details.length === 0 ? message : `${message}: ${details.join('; ')}`;
}

const PERMISSIONS_HINT =
  'give the job `permissions: pull-requests: write` (`issues: write` for --issue, `contents: write` for commit comments); on a pull request from a fork GitHub hands out a read-only token, see docs/ci.md';

/** What a failed status usually means for a CI job posting a comment, and what to do about it. */
export function gitHubHint(status: number, message: string): string | undefined {
  switch (status) {
    case 401:
      return 'the token was refused: check GITHUB_TOKEN';
    case 403:
      if (/not accessible by|must have|permission/i.test(message)) return PERMISSIONS_HINT;
      if (/archived/i.test(message)) return 'the repository is archived and read-only: nothing can be posted';
      return 'GitHub refused the request for the reason in its message';
    case 404:
      return 'the repository or pull request was not found with this token: check GITHUB_REPOSITORY, GITHUB_API_URL and the token';
    case 410:
      return 'issues are turned off in this repository: turn them on (Settings → General → Features) or drop --issue';
    case 422:
      return 'GitHub refused what was sent for the reason in its message (a locked conversation, or a body over its limits): re-run the job, and report it to monitor if it persists';
    default:
      return status >= 500
        ? 'GitHub kept failing after retries: re-run the job; https://www.githubstatus.com says whether GitHub is down'
        : undefined;
  }
}

function protocol(host: GitHubHost, userAgent: string): HostProtocol {
  return {
    name: 'GitHub',
    headers: {
      authorization: `Bearer ${host.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': GITHUB_API_VERSION,
      'user-agent': userAgent,
    },
    rateLimit: gitHubRateLimit,
    nextPage: (answer) => {
      const next = linkNext(answer.headers.get('link'));
      return next === undefined ? undefined : new URL(next);
    },
    message: gitHubMessage,
    hint: gitHubHint,
    rateLimitHint: (until) =>
      `a rate limit, not a permission problem: this token made too many requests to GitHub (jobs running at once share it); re-run the job${until === undefined ? ' in a few minutes' : ` after ${until.toISOString().slice(11, 16)} UTC`}`,
  };
}

/** GitHub's GraphQL endpoint beside its REST API (`/api/v3` → `/api/graphql` on Enterprise Server). */
function graphqlUrl(apiUrl: string): URL {
  return new URL(/\/api\/v3$/.test(apiUrl) ? apiUrl.replace(/\/v3$/, '/graphql') : `${apiUrl}/graphql`);
}

export interface GitHubUser {
  id?: number;
  login?: string;
}

/**
 * Who the token writes as. An installation token (`ghs_`: the workflow's GITHUB_TOKEN, or a
 * GitHub App's) may not ask `GET /user`, but GraphQL's `viewer` is its bot, `github-actions[bot]`
 * for GITHUB_TOKEN; a personal token asks `GET /user`.
 */
function identityOf(http: HostHttp, host: GitHubHost): () => Promise<Author> {
  const viewer = async (): Promise<Author> => {
    const answer = await http.request('cannot find who the token posts as', 'POST', graphqlUrl(host.apiUrl), {
      body: { query: 'query { viewer { login databaseId } }' },
      idempotent: true,
    });
    const body = answer.json() as
      | { data?: { viewer?: { login?: string; databaseId?: number } }; errors?: { message?: string }[] }
      | undefined;
    const v = body?.data?.viewer;
    if (typeof v?.databaseId !== 'number' || typeof v.login !== 'string') {
      throw new CodeHostError(
        `cannot find who the token posts as: GitHub's viewer query answered ${body?.errors?.[0]?.message ?? 'no login'}`,
        { hint: 'check GITHUB_TOKEN and GITHUB_API_URL' },
      );
    }
    return { id: v.databaseId, login: v.login };
  };
  const user = async (): Promise<Author> => {
    const u = (
      await http.request('cannot find who the token posts as', 'GET', new URL(`${host.apiUrl}/user`))
    ).json() as GitHubUser;
    if (typeof u.id !== 'number') throw new CodeHostError('cannot find who the token posts as: GET /user');
    return { id: u.id, login: u.login ?? String(u.id) };
  };
  return once(async () => {
    if (host.token.startsWith('ghs_')) return viewer();
    try {
      return await user();
    } catch (e) {
      // A token of unknown kind that turns out to be an installation token.
      if (e instanceof CodeHostError && e.status === 403) return viewer();
      throw e;
    }
  });
}

interface GitHubComment {
  id: number;
  body?: string | null;
  html_url?: string;
  user?: GitHubUser | null;
}

const asComment = (c: GitHubComment): PostedComment => ({
  id: c.id,
  body: c.body ?? '',
  ...(c.html_url === undefined ? {} : { url: c.html_url }),
  ...(typeof c.user?.id === 'number' ? { authorId: c.user.id } : {}),
});

export interface Client {
  http: HostHttp;
  host: GitHubHost;
  identity: () => Promise<Author>;
  url(path: string, query?: Record<string, string>): URL;
}

export function client(host: GitHubHost, options: GitHubClientOptions): Client {
  const http = hostHttp(protocol(host, options.userAgent), options);
  const base = `${host.apiUrl}/repos/${encodeURIComponent(host.owner)}/${encodeURIComponent(host.repo)}`;
  return {
    http,
    host,
    identity: identityOf(http, host),
    url: (path, query = {}) => {
      const url = new URL(`${base}${path}`);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      return url;
    },
  };
}

/** A thread of comments: a pull request's (`/issues/12/comments`) or a commit's. */
function thread(
  { http, identity, url }: Client,
  description: string,
  paths: { list: string; comment: (id: number) => string },
  name: string,
): CommentThread {
  const json = async (answer: Promise<Answer>) => asComment((await answer).json() as GitHubComment);
  return {
    description,
    identity,
    list: async () =>
      (
        await http.paginate<GitHubComment>(
          `cannot list the comments of ${name}`,
          url(paths.list, { per_page: '100' }),
        )
      ).map(asComment),
    create: (body) =>
      json(http.request(`cannot comment on ${name}`, 'POST', url(paths.list), { body: { body } })),
    update: (comment, body) =>
      json(
        http.request(
          `cannot update comment ${comment.id} on ${name}`,
          'PATCH',
          url(paths.comment(comment.id)),
          {
            body: { body },
          },
        ),
      ),
    remove: async (comment) => {
      try {
        await http.request(
          `cannot delete comment ${comment.id} on ${name}`,
          'DELETE',
          url(paths.comment(comment.id)),
        );
      } catch (e) {
        if (!(e instanceof CodeHostError && e.status === 404)) throw e;
      }
    },
  };
}

export function pullRequestThread(c: Client, pullNumber: number): CommentThread {
  return thread(
    c,
    `pull request #${pullNumber} of ${c.host.owner}/${c.host.repo}`,
    { list: `/issues/${pullNumber}/comments`, comment: (id) => `/issues/comments/${id}` },
    `pull request #${pullNumber}`,
  );
}

function commitThread(c: Client, sha: string): CommentThread {
  const short = sha.slice(0, 12);
  return thread(
    c,
    `commit ${short} of ${c.host.owner}/${c.host.repo}`,
    { list: `/commits/${sha}/comments`, comment: (id) => `/comments/${id}` },
    `commit ${short}`,
  );
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
  const c = client(host, options);
  if (host.pullNumber !== undefined) return pullRequestThread(c, host.pullNumber);
  if (purpose === 'plan') return { skipped: 'this run is not for a pull request (its event has none)' };
  const sha = host.sha;
  if (sha === undefined)
    return { skipped: 'this run names no pull request and no commit (GITHUB_SHA is not set)' };
  const pulls = (
    await c.http.request(
      `cannot find the pull request of commit ${sha.slice(0, 12)}`,
      'GET',
      c.url(`/commits/${sha}/pulls`),
    )
  ).json() as { number: number; merged_at: string | null }[];
  const merged = pulls.find((p) => p.merged_at !== null) ?? pulls[0];
  return merged === undefined ? commitThread(c, sha) : pullRequestThread(c, merged.number);
}

interface GitHubIssue {
  number: number;
  body?: string | null;
  html_url?: string;
  user?: GitHubUser | null;
  labels?: Array<string | { name?: string }>;
  pull_request?: unknown;
}

const asIssue = (i: GitHubIssue): TrackedIssue => ({
  number: i.number,
  body: i.body ?? '',
  ...(i.html_url === undefined ? {} : { url: i.html_url }),
  ...(typeof i.user?.id === 'number' ? { authorId: i.user.id } : {}),
  labels: (i.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))),
});

/** The repository's issues (the token needs `issues: write`). */
export function gitHubIssues(host: GitHubHost, options: GitHubClientOptions): IssueTracker {
  const { http, identity, url } = client(host, options);
  const issue = async (answer: Promise<Answer>) => asIssue((await answer).json() as GitHubIssue);
  return {
    description: `the issues of ${host.owner}/${host.repo}`,
    identity,
    listOpen: async () =>
      (
        await http.paginate<GitHubIssue>(
          'cannot list the open issues',
          url('/issues', { state: 'open', sort: 'created', direction: 'asc', per_page: '100' }),
        )
      )
        // The issues endpoint lists pull requests too.
        .filter((i) => i.pull_request === undefined)
        .map(asIssue),
    open: (title, body, label) =>
      issue(
        http.request('cannot open an issue', 'POST', url('/issues'), {
          body: { title, body, labels: [label] },
        }),
      ),
    update: (i, body) =>
      issue(
        http.request(`cannot update issue #${i.number}`, 'PATCH', url(`/issues/${i.number}`), {
          body: { body },
        }),
      ),
    addLabel: async (i, label) => {
      await http.request(`cannot label issue #${i.number}`, 'POST', url(`/issues/${i.number}/labels`), {
        body: { labels: [label] },
        idempotent: true,
      });
    },
    close: (i, body, as = 'done') =>
      issue(
        http.request(`cannot close issue #${i.number}`, 'PATCH', url(`/issues/${i.number}`), {
          body: { body, state: 'closed', state_reason: as === 'done' ? 'completed' : 'not_planned' },
        }),
      ),
  };
}

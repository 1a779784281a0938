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

export type GitLabHost = Extract<ReviewHost, { host: 'gitlab' }>;

export interface GitLabClientOptions extends HostHttpOptions {
  userAgent: string;
}

/** A 429: how long `Retry-After` (else `RateLimit-Reset`) asks to wait. */
export function gitLabRateLimit(answer: Answer, now: number): RateLimit | undefined {
  if (answer.status !== 429) return undefined;
  const retryAfter = answer.headers.get('retry-after');
  const reset = Number(answer.headers.get('ratelimit-reset'));
  const waitMs =
    parseRetryAfter(retryAfter, now) ??
    (Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : undefined);
  return {
    reason: `GitLab's rate limit (429${retryAfter === null ? '' : ` with Retry-After: ${retryAfter}`})`,
    waitMs,
  };
}

/**
 * GitLab's message: `{"message": "403 Forbidden"}`, `{"message": {"body": ["is too long"]}}`,
 * `{"error": "insufficient_scope", "error_description": …}`, or plain text ("Retry later").
 */
function gitLabMessage(answer: Answer): string {
  const body = answer.json() as
    | { message?: unknown; error?: unknown; error_description?: unknown }
    | undefined;
  if (body === undefined || body === null || typeof body !== 'object')
    return answer.text.trim().slice(0, 200);
  if (typeof body.message === 'string') return body.message;
  if (body.message !== null && typeof body.message === 'object') {
    return Object.entries(body.message)
      .map(
        ([field, problems]) => `${field} ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`,
      )
      .join('; ');
  }
  return [body.error, body.error_description].filter((s) => typeof s === 'string').join(': ');
}

/** What a failed status usually means for a CI job posting a note, and what to do about it. */
export function gitLabHint(status: number): string | undefined {
  switch (status) {
    case 401:
      return 'the token was refused: check that GITLAB_TOKEN is valid and not expired';
    case 403:
      return 'the token needs the api scope and the Reporter role or above on the project';
    case 404:
      return 'the project or merge request was not found with this token: check CI_PROJECT_ID and that the token can see the project';
    case 502:
      return "GitLab's web server could not reach GitLab itself (often during a restart or an upgrade): re-run the job in a few minutes; on a self-managed instance, check its health";
    default:
      return status >= 500 ? 'GitLab kept failing after retries: re-run the job' : undefined;
  }
}

function protocol(host: GitLabHost, userAgent: string): HostProtocol {
  return {
    name: 'GitLab',
    headers: { 'private-token': host.token, accept: 'application/json', 'user-agent': userAgent },
    rateLimit: gitLabRateLimit,
    nextPage: (answer, url) => {
      const page = answer.headers.get('x-next-page');
      if (page !== null && page !== '') {
        const next = new URL(url);
        next.searchParams.set('page', page);
        return next;
      }
      // GitLab leaves out X-Next-Page on some large lists; its Link header still says.
      const link = page === null ? linkNext(answer.headers.get('link')) : undefined;
      return link === undefined ? undefined : new URL(link);
    },
    message: gitLabMessage,
    hint: gitLabHint,
    rateLimitHint: (until) =>
      `a rate limit, not a permission problem: this token made too many requests to GitLab; re-run the job${until === undefined ? ' in a few minutes' : ` after ${until.toISOString().slice(11, 16)} UTC`}`,
  };
}

interface GitLabNote {
  id: number;
  body?: string | null;
  author?: { id?: number } | null;
}

const asComment = (n: GitLabNote): PostedComment => ({
  id: n.id,
  body: n.body ?? '',
  ...(typeof n.author?.id === 'number' ? { authorId: n.author.id } : {}),
});

export interface Client {
  http: HostHttp;
  host: GitLabHost;
  identity: () => Promise<Author>;
  url(path: string, query?: Record<string, string>): URL;
}

export function client(host: GitLabHost, options: GitLabClientOptions): Client {
  const http = hostHttp(protocol(host, options.userAgent), options);
  const base = `${host.apiUrl}/projects/${encodeURIComponent(host.projectId)}`;
  const url = (path: string, query: Record<string, string> = {}) => {
    const u = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u;
  };
  return {
    http,
    host,
    url,
    // The token's user: for a project access token, its bot user.
    identity: once(async () => {
      const user = (
        await http.request('cannot find who the token posts as', 'GET', new URL(`${host.apiUrl}/user`))
      ).json() as {
        id?: number;
        username?: string;
      };
      if (typeof user.id !== 'number')
        throw new CodeHostError('cannot find who the token posts as: GET /user');
      return { id: user.id, login: user.username ?? String(user.id) };
    }),
  };
}

const note = async (answer: Promise<Answer>) => asComment((await answer).json() as GitLabNote);

/** Deletes; a note that is gone already counts as deleted. */
async function deleteNote(http: HostHttp, what: string, url: URL): Promise<void> {
  try {
    await http.request(what, 'DELETE', url);
  } catch (e) {
    if (!(e instanceof CodeHostError && e.status === 404)) throw e;
  }
}

export function mergeRequestThread({ http, host, identity, url }: Client, iid: number): CommentThread {
  const notes = `/merge_requests/${iid}/notes`;
  return {
    description: `merge request !${iid} of project ${host.projectId}`,
    identity,
    list: async () =>
      (
        await http.paginate<GitLabNote>(
          `cannot list the notes of merge request !${iid}`,
          url(notes, { sort: 'asc', order_by: 'created_at', per_page: '100' }),
        )
      ).map(asComment),
    create: (body) =>
      note(http.request(`cannot comment on merge request !${iid}`, 'POST', url(notes), { body: { body } })),
    update: (comment, body) =>
      note(
        http.request(
          `cannot update note ${comment.id} on merge request !${iid}`,
          'PUT',
          url(`${notes}/${comment.id}`),
          {
            body: { body },
          },
        ),
      ),
    remove: (comment) =>
      deleteNote(
        http,
        `cannot delete note ${comment.id} on merge request !${iid}`,
        url(`${notes}/${comment.id}`),
      ),
  };
}

/** A commit's comments are notes of its discussions; a note is edited through its discussion. */
function commitThread({ http, host, identity, url }: Client, sha: string): CommentThread {
  const short = sha.slice(0, 12);
  const discussions = `/repository/commits/${sha}/discussions`;
  const discussionOf = new Map<number, string>();
  const noteUrl = (id: number) => {
    const discussion = discussionOf.get(id);
    if (discussion === undefined) throw new Error(`note ${id} was not listed first`);
    return url(`${discussions}/${discussion}/notes/${id}`);
  };
  type Discussion = { id: string | number; notes?: GitLabNote[] };
  return {
    description: `commit ${short} of project ${host.projectId}`,
    identity,
    list: async () =>
      (
        await http.paginate<Discussion>(
          `cannot list the discussions of commit ${short}`,
          url(discussions, { per_page: '100' }),
        )
      ).flatMap((d) =>
        (d.notes ?? []).map((n) => {
          discussionOf.set(n.id, String(d.id));
          return asComment(n);
        }),
      ),
    create: async (body) => {
      const what = `cannot comment on commit ${short}`;
      const discussion = (
        await http.request(what, 'POST', url(discussions), { body: { body } })
      ).json() as Discussion;
      const first = discussion.notes?.[0];
      if (first === undefined)
        throw new CodeHostError(`${what}: GitLab answered without the note it created`);
      discussionOf.set(first.id, String(discussion.id));
      return asComment(first);
    },
    update: (comment, body) =>
      note(
        http.request(`cannot update note ${comment.id} on commit ${short}`, 'PUT', noteUrl(comment.id), {
          body: { body },
        }),
      ),
    remove: (comment) =>
      deleteNote(http, `cannot delete note ${comment.id} on commit ${short}`, noteUrl(comment.id)),
  };
}

/**
 * The thread for this run's comment, as on GitHub: a plan goes to the merge request of a merge
 * request pipeline; a deploy's result to that merge request, or the one the commit was merged
 * from, or the commit.
 */
export async function gitLabThread(
  host: GitLabHost,
  purpose: 'plan' | 'result',
  options: GitLabClientOptions,
): Promise<CommentThread | { skipped: string }> {
  const c = client(host, options);
  if (host.mergeRequestIid !== undefined) return mergeRequestThread(c, host.mergeRequestIid);
  if (purpose === 'plan') {
    return { skipped: 'this is not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
  }
  const sha = host.sha;
  if (sha === undefined)
    return { skipped: 'this job names no merge request and no commit (CI_COMMIT_SHA is not set)' };
  const requests = (
    await c.http.request(
      `cannot find the merge request of commit ${sha.slice(0, 12)}`,
      'GET',
      c.url(`/repository/commits/${sha}/merge_requests`),
    )
  ).json() as { iid: number; state: string }[];
  const merged = requests.find((r) => r.state === 'merged') ?? requests[0];
  return merged === undefined ? commitThread(c, sha) : mergeRequestThread(c, merged.iid);
}

interface GitLabIssue {
  iid: number;
  description?: string | null;
  web_url?: string;
  author?: { id?: number } | null;
  labels?: string[];
}

const asIssue = (i: GitLabIssue): TrackedIssue => ({
  number: i.iid,
  body: i.description ?? '',
  ...(i.web_url === undefined ? {} : { url: i.web_url }),
  ...(typeof i.author?.id === 'number' ? { authorId: i.author.id } : {}),
  labels: i.labels ?? [],
});

/** The project's issues (the token needs the api scope, role Reporter or above). */
export function gitLabIssues(host: GitLabHost, options: GitLabClientOptions): IssueTracker {
  const { http, identity, url } = client(host, options);
  const issue = async (answer: Promise<Answer>) => asIssue((await answer).json() as GitLabIssue);
  const edit = (i: TrackedIssue, what: string, body: Record<string, string>) =>
    issue(http.request(`cannot ${what} issue #${i.number}`, 'PUT', url(`/issues/${i.number}`), { body }));
  return {
    description: `the issues of project ${host.projectId}`,
    identity,
    listOpen: async () => {
      const me = await identity();
      return (
        await http.paginate<GitLabIssue>(
          'cannot list the open issues',
          url('/issues', {
            state: 'opened',
            author_id: String(me.id),
            order_by: 'created_at',
            sort: 'asc',
            per_page: '100',
          }),
        )
      ).map(asIssue);
    },
    open: (title, body, label) =>
      issue(
        http.request('cannot open an issue', 'POST', url('/issues'), {
          body: { title, description: body, labels: label },
        }),
      ),
    update: (i, body) => edit(i, 'update', { description: body }),
    addLabel: async (i, label) => {
      await edit(i, 'label', { add_labels: label });
    },
    close: (i, body) => edit(i, 'close', { description: body, state_event: 'close' }),
  };
}

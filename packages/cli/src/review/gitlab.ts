import { Gitlab } from '@gitbeaker/rest';
import type { ReviewHost } from './context.js';
import {
  CodeHostError,
  type CommentThread,
  hintForStatus,
  type IssueTracker,
  type PostedComment,
  type TrackedIssue,
} from './thread.js';

type GitLabHost = Extract<ReviewHost, { host: 'gitlab' }>;
type Api = InstanceType<typeof Gitlab<false>>;

export interface GitLabClientOptions {
  /** Milliseconds for each request. */
  timeoutMs: number;
}

/**
 * Gitbeaker wants the instance's root and adds `/api/v4` itself; CI gives `CI_API_V4_URL`
 * (`https://gitlab.example.com[/relative-root]/api/v4`).
 */
function client(host: GitLabHost, options: GitLabClientOptions): Api {
  return new Gitlab({
    host: host.apiUrl.replace(/\/api\/v4$/, ''),
    token: host.token,
    queryTimeout: options.timeoutMs,
  });
}

/** Gitbeaker's errors as ours: the status, GitLab's message, and what to do. */
async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (e) {
    const cause = (e as { cause?: { response?: { status?: unknown } } }).cause;
    const status = typeof cause?.response?.status === 'number' ? cause.response.status : undefined;
    const detail = (e as Error).message;
    throw new CodeHostError(
      `${what}: ${status === undefined ? '' : `${status} `}${detail}`,
      status,
      hintForStatus('gitlab', status ?? (/status code: 429/.test(detail) ? 429 : undefined)),
    );
  }
}

const asComment = (n: { id: number; body?: string | null }): PostedComment => ({
  id: n.id,
  body: n.body ?? '',
});

function mergeRequestThread(api: Api, host: GitLabHost, iid: number): CommentThread {
  const { projectId } = host;
  return {
    description: `merge request !${iid} of project ${projectId}`,
    list: () =>
      call(`cannot list the notes of merge request !${iid}`, async () =>
        (await api.MergeRequestNotes.all(projectId, iid, { sort: 'asc', orderBy: 'created_at' })).map(
          asComment,
        ),
      ),
    create: (body) =>
      call(`cannot comment on merge request !${iid}`, async () =>
        asComment(await api.MergeRequestNotes.create(projectId, iid, body)),
      ),
    update: (comment, body) =>
      call(`cannot update note ${comment.id} on merge request !${iid}`, async () =>
        asComment(await api.MergeRequestNotes.edit(projectId, iid, comment.id, { body })),
      ),
  };
}

/** A commit's comments are notes of its discussions; a note is edited through its discussion. */
function commitThread(api: Api, host: GitLabHost, sha: string): CommentThread {
  const { projectId } = host;
  const short = sha.slice(0, 12);
  const discussionOf = new Map<number, string>();
  return {
    description: `commit ${short} of project ${projectId}`,
    list: () =>
      call(`cannot list the discussions of commit ${short}`, async () => {
        const discussions = await api.CommitDiscussions.all(projectId, sha);
        return discussions.flatMap((d) =>
          (d.notes ?? []).map((n) => {
            discussionOf.set(n.id, String(d.id));
            return asComment(n);
          }),
        );
      }),
    create: (body) =>
      call(`cannot comment on commit ${short}`, async () => {
        const discussion = await api.CommitDiscussions.create(projectId, sha, body);
        const note = discussion.notes?.[0];
        if (note === undefined) throw new Error('GitLab answered without the note it created');
        discussionOf.set(note.id, String(discussion.id));
        return asComment(note);
      }),
    update: (comment, body) =>
      call(`cannot update note ${comment.id} on commit ${short}`, async () => {
        const discussion = discussionOf.get(comment.id);
        if (discussion === undefined) throw new Error(`note ${comment.id} was not listed first`);
        return asComment(
          await api.CommitDiscussions.editNote(projectId, sha, discussion, comment.id, { body }),
        );
      }),
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
  const api = client(host, options);
  if (host.mergeRequestIid !== undefined) return mergeRequestThread(api, host, host.mergeRequestIid);
  if (purpose === 'plan') {
    return { skipped: 'this is not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
  }
  const sha = host.sha;
  if (sha === undefined)
    return { skipped: 'this job names no merge request and no commit (CI_COMMIT_SHA is not set)' };
  const requests = await call(`cannot find the merge request of commit ${sha.slice(0, 12)}`, () =>
    api.Commits.allMergeRequests(host.projectId, sha),
  );
  const merged = requests.find((r) => r.state === 'merged') ?? requests[0];
  return merged === undefined ? commitThread(api, host, sha) : mergeRequestThread(api, host, merged.iid);
}

const asIssue = (i: { iid: number; description?: string | null; web_url?: string }): TrackedIssue => ({
  number: i.iid,
  body: i.description ?? '',
  ...(i.web_url === undefined ? {} : { url: i.web_url }),
});

/** The project's issues (the token needs the api scope, role Reporter or above). */
export function gitLabIssues(host: GitLabHost, options: GitLabClientOptions): IssueTracker {
  const api = client(host, options);
  const { projectId } = host;
  return {
    description: `the issues of project ${projectId}`,
    listOpen: (label) =>
      call(`cannot list the open issues labelled ${label}`, async () =>
        (await api.Issues.all({ projectId, labels: label, state: 'opened' })).map(asIssue),
      ),
    open: (title, body, label) =>
      call('cannot open an issue', async () =>
        asIssue(await api.Issues.create(projectId, title, { description: body, labels: label })),
      ),
    update: (issue, body) =>
      call(`cannot update issue #${issue.number}`, async () =>
        asIssue(await api.Issues.edit(projectId, issue.number, { description: body })),
      ),
    close: (issue, body) =>
      call(`cannot close issue #${issue.number}`, async () =>
        asIssue(await api.Issues.edit(projectId, issue.number, { description: body, stateEvent: 'close' })),
      ),
  };
}

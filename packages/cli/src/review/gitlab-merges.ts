import { client, type GitLabClientOptions, type GitLabHost, mergeRequestThread } from './gitlab.js';
import type { Answer } from './http.js';
import type { ChangeRequest, ChangeRequests } from './pull-requests.js';
import { CodeHostError } from './thread.js';

/** GitLab's limit on a merge request's description (1 MiB), with room to spare. */
export const GITLAB_DESCRIPTION_LIMIT = 1_000_000;

interface GitLabMergeRequest {
  iid: number;
  web_url?: string;
  title?: string;
  description?: string | null;
  author?: { id?: number } | null;
  source_branch?: string;
  source_project_id?: number;
  target_project_id?: number;
}

/** A project's merge requests (the token needs the api scope, and write_repository to push). */
export function gitLabMergeRequests(host: GitLabHost, options: GitLabClientOptions): ChangeRequests {
  const c = client(host, options);
  const { http, url } = c;
  const asRequest = (m: GitLabMergeRequest): ChangeRequest => ({
    number: m.iid,
    ...(m.web_url === undefined ? {} : { url: m.web_url }),
    title: m.title ?? '',
    body: m.description ?? '',
    ...(typeof m.author?.id === 'number' ? { authorId: m.author.id } : {}),
    head: m.source_branch ?? '',
    fromHere: m.source_project_id !== undefined && m.source_project_id === m.target_project_id,
  });
  const merge = async (answer: Promise<Answer>) => asRequest((await answer).json() as GitLabMergeRequest);
  const edit = (request: ChangeRequest, what: string, body: Record<string, string>) =>
    merge(
      http.request(
        `cannot ${what} merge request !${request.number}`,
        'PUT',
        url(`/merge_requests/${request.number}`),
        {
          body,
        },
      ),
    );
  return {
    noun: 'merge request',
    ref: (n) => `!${n}`,
    where: `in project ${host.projectId}`,
    bodyLimit: GITLAB_DESCRIPTION_LIMIT,
    identity: c.identity,
    listOpen: async (branch) => {
      const me = await c.identity();
      return (
        await http.paginate<GitLabMergeRequest>(
          'cannot list the open merge requests',
          url('/merge_requests', {
            state: 'opened',
            source_branch: branch,
            author_id: String(me.id),
            order_by: 'created_at',
            sort: 'asc',
            per_page: '100',
          }),
        )
      ).map(asRequest);
    },
    open: async ({ title, body, head, base }) => {
      try {
        return await merge(
          http.request('cannot open a merge request', 'POST', url('/merge_requests'), {
            body: {
              source_branch: head,
              target_branch: base,
              title,
              description: body,
              remove_source_branch: true,
            },
          }),
        );
      } catch (e) {
        if (e instanceof CodeHostError && e.status === 409) {
          throw new CodeHostError(e.message, {
            status: e.status,
            hint: `someone else has a merge request open from ${head} into ${base}: close it, and monitor opens its own on the next run (the branch is monitor's: it is rewritten on every run)`,
          });
        }
        throw e;
      }
    },
    update: (request, { title, body }) => edit(request, 'update', { title, description: body }),
    close: async (request) => {
      await edit(request, 'close', { state_event: 'close' });
    },
    thread: (request) => mergeRequestThread(c, request.number),
  };
}

import { GITHUB_COMMENT_LIMIT } from '@monitor/engine';
import {
  client,
  type GitHubClientOptions,
  type GitHubHost,
  type GitHubUser,
  pullRequestThread,
} from './github.js';
import type { Answer } from './http.js';
import type { ChangeRequest, ChangeRequests } from './pull-requests.js';
import { CodeHostError } from './thread.js';

interface GitHubPull {
  number: number;
  html_url?: string;
  title?: string;
  body?: string | null;
  user?: GitHubUser | null;
  head?: { ref?: string; repo?: { full_name?: string } | null };
}

const ACTIONS_MAY_NOT =
  'let the workflow open pull requests: Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests" (docs/ci.md)';

/** The pull requests of a repository (the token needs `pull-requests: write`, and `contents: write` to push). */
export function gitHubPullRequests(host: GitHubHost, options: GitHubClientOptions): ChangeRequests {
  const c = client(host, options);
  const { http, url } = c;
  const repository = `${host.owner}/${host.repo}`.toLowerCase();
  const asRequest = (p: GitHubPull): ChangeRequest => ({
    number: p.number,
    ...(p.html_url === undefined ? {} : { url: p.html_url }),
    title: p.title ?? '',
    body: p.body ?? '',
    ...(typeof p.user?.id === 'number' ? { authorId: p.user.id } : {}),
    head: p.head?.ref ?? '',
    fromHere: p.head?.repo?.full_name?.toLowerCase() === repository,
  });
  const pull = async (answer: Promise<Answer>) => asRequest((await answer).json() as GitHubPull);
  return {
    noun: 'pull request',
    ref: (n) => `#${n}`,
    where: `on ${host.owner}/${host.repo}`,
    bodyLimit: GITHUB_COMMENT_LIMIT,
    identity: c.identity,
    listOpen: async (branch) =>
      (
        await http.paginate<GitHubPull>(
          'cannot list the open pull requests',
          url('/pulls', {
            state: 'open',
            head: `${host.owner}:${branch}`,
            sort: 'created',
            direction: 'asc',
            per_page: '100',
          }),
        )
      ).map(asRequest),
    open: async ({ title, body, head, base }) => {
      try {
        return await pull(
          http.request('cannot open a pull request', 'POST', url('/pulls'), {
            body: { title, body, head, base },
          }),
        );
      } catch (e) {
        if (!(e instanceof CodeHostError)) throw e;
        if (e.status === 403 && /not permitted to create/i.test(e.message)) {
          throw new CodeHostError(e.message, { status: e.status, hint: ACTIONS_MAY_NOT });
        }
        if (e.status === 422 && /already exists/i.test(e.message)) {
          throw new CodeHostError(e.message, {
            status: e.status,
            hint: `someone else has a pull request open from ${head} into ${base}: close it, and monitor opens its own on the next run (the branch is monitor's: it is rewritten on every run)`,
          });
        }
        throw e;
      }
    },
    update: (request, edit) =>
      pull(
        http.request(
          `cannot update pull request #${request.number}`,
          'PATCH',
          url(`/pulls/${request.number}`),
          {
            body: edit,
          },
        ),
      ),
    close: async (request) => {
      await http.request(
        `cannot close pull request #${request.number}`,
        'PATCH',
        url(`/pulls/${request.number}`),
        {
          body: { state: 'closed' },
        },
      );
    },
    thread: (request) => pullRequestThread(c, request.number),
  };
}

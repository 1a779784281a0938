import { readFileSync } from 'node:fs';

/** Where a comment can go: a repository on GitHub (or GitHub Enterprise) or a GitLab project. */
export type ReviewHost =
  | {
      host: 'github';
      apiUrl: string;
      owner: string;
      repo: string;
      token: string;
      /** The pull request this run is for, from the event payload. */
      pullNumber?: number;
      /** The commit this run is for. */
      sha?: string;
    }
  | {
      host: 'gitlab';
      apiUrl: string;
      projectId: string;
      token: string;
      mergeRequestIid?: number;
      sha?: string;
    };

/**
 * The code host of this CI run, or why there is none. `misconfigured` is a CI run that should be
 * able to post and cannot (a missing token or variable), as opposed to a run that is simply not
 * in CI: `--require-comment` fails on the first, never on the second.
 */
export type ReviewContext =
  | { found: true; host: ReviewHost }
  | { found: false; misconfigured: boolean; reason: string; hint?: string };

const GITHUB_TOKEN_HINT =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: an Actions expression, as the user writes it.
  'pass the token to the step (env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}) and give the job `permissions: pull-requests: write`';
const GITLAB_TOKEN_HINT =
  'create a project access token with the api scope (role Reporter or above) and store it as a masked CI/CD variable GITLAB_TOKEN; CI_JOB_TOKEN cannot write notes';

/** The pull request a GitHub event is about: `pull_request`, `pull_request_target`, a comment on one. */
function pullNumberOf(event: unknown): number | undefined {
  if (event === null || typeof event !== 'object') return undefined;
  const e = event as {
    pull_request?: { number?: unknown };
    issue?: { number?: unknown; pull_request?: unknown };
  };
  if (typeof e.pull_request?.number === 'number') return e.pull_request.number;
  if (e.issue?.pull_request !== undefined && typeof e.issue.number === 'number') return e.issue.number;
  return undefined;
}

function github(env: Record<string, string | undefined>): ReviewContext {
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo, ...rest] = repository.split('/');
  if (owner === undefined || owner === '' || repo === undefined || repo === '' || rest.length > 0) {
    return {
      found: false,
      misconfigured: true,
      reason: `GITHUB_REPOSITORY is "${repository}", not owner/repo`,
      hint: 'GitHub Actions sets it; outside Actions, set GITHUB_REPOSITORY=owner/repo',
    };
  }
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (token === undefined || token === '') {
    return { found: false, misconfigured: true, reason: 'GITHUB_TOKEN is not set', hint: GITHUB_TOKEN_HINT };
  }
  let pullNumber: number | undefined;
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath !== undefined && eventPath !== '') {
    try {
      pullNumber = pullNumberOf(JSON.parse(readFileSync(eventPath, 'utf8')));
    } catch (e) {
      return {
        found: false,
        misconfigured: true,
        reason: `cannot read the event payload GITHUB_EVENT_PATH=${eventPath}: ${(e as Error).message}`,
      };
    }
  }
  return {
    found: true,
    host: {
      host: 'github',
      apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
      owner,
      repo,
      token,
      ...(pullNumber === undefined ? {} : { pullNumber }),
      ...(env.GITHUB_SHA ? { sha: env.GITHUB_SHA } : {}),
    },
  };
}

function gitlab(env: Record<string, string | undefined>): ReviewContext {
  const apiUrl = env.CI_API_V4_URL;
  const projectId = env.CI_PROJECT_ID;
  if (!apiUrl || !projectId) {
    return {
      found: false,
      misconfigured: true,
      reason: `GitLab CI without ${!apiUrl ? 'CI_API_V4_URL' : 'CI_PROJECT_ID'}`,
      hint: 'GitLab sets CI_API_V4_URL and CI_PROJECT_ID in every job; outside GitLab CI, set both',
    };
  }
  const token = env.GITLAB_TOKEN;
  if (token === undefined || token === '') {
    return { found: false, misconfigured: true, reason: 'GITLAB_TOKEN is not set', hint: GITLAB_TOKEN_HINT };
  }
  const iid = Number(env.CI_MERGE_REQUEST_IID);
  return {
    found: true,
    host: {
      host: 'gitlab',
      apiUrl: apiUrl.replace(/\/+$/, ''),
      projectId,
      token,
      ...(Number.isInteger(iid) && iid > 0 ? { mergeRequestIid: iid } : {}),
      ...(env.CI_COMMIT_SHA ? { sha: env.CI_COMMIT_SHA } : {}),
    },
  };
}

/** The code host from the CI's variables: GitHub Actions, then GitLab CI. */
export function detectReviewContext(env: Record<string, string | undefined>): ReviewContext {
  if (env.GITHUB_ACTIONS === 'true' || (env.GITHUB_REPOSITORY ?? '') !== '') return github(env);
  if (env.GITLAB_CI === 'true' || (env.CI_API_V4_URL ?? '') !== '') return gitlab(env);
  return {
    found: false,
    misconfigured: false,
    reason: 'not running in GitHub Actions or GitLab CI (neither GITHUB_ACTIONS nor GITLAB_CI is set)',
  };
}

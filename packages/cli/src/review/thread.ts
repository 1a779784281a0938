/** A comment as the code host returns it. */
export interface PostedComment {
  id: number;
  body: string;
  url?: string;
}

/**
 * Where monitor's comments go: a pull request, a merge request or a commit. Each host
 * implements it with its kept client (Octokit, Gitbeaker), which also retries and paces requests.
 */
export interface CommentThread {
  /** For messages: "pull request #12 of acme/web". */
  readonly description: string;
  list(): Promise<PostedComment[]>;
  create(body: string): Promise<PostedComment>;
  update(comment: PostedComment, body: string): Promise<PostedComment>;
}

/** A request to the code host that failed, with the HTTP status when there was an answer. */
export class CodeHostError extends Error {
  readonly code = 'comment_failed';
  readonly status: number | undefined;
  readonly hint: string | undefined;
  constructor(message: string, status: number | undefined, hint?: string) {
    super(message);
    this.status = status;
    this.hint = hint;
  }
}

/** What each status usually means for a CI job posting a comment, and what to do about it. */
export function hintForStatus(host: 'github' | 'gitlab', status: number | undefined): string | undefined {
  const github = host === 'github';
  switch (status) {
    case 401:
      return github
        ? 'the token was refused: check GITHUB_TOKEN'
        : 'the token was refused: check that GITLAB_TOKEN is valid and not expired';
    case 403:
      return github
        ? 'give the job `permissions: pull-requests: write` (and `contents: write` for commit comments); on a pull request from a fork GitHub hands out a read-only token, see docs/ci.md'
        : 'the token needs the api scope and the Reporter role or above on the project';
    case 404:
      return github
        ? 'the repository or pull request was not found with this token: check GITHUB_REPOSITORY, GITHUB_API_URL and the token'
        : 'the project or merge request was not found with this token: check CI_PROJECT_ID and that the token can see the project';
    case 429:
      return 'the code host is rate limiting this token: try again later';
    default:
      return status !== undefined && status >= 500
        ? 'the code host failed after retries: re-run the job'
        : undefined;
  }
}

/** An issue as the code host returns it; `number` is what people see (`#4`, `#4` in GitLab too). */
export interface TrackedIssue {
  number: number;
  body: string;
  url?: string;
}

/**
 * The repository's issues, for the drift check: one open issue per project and account, found
 * by its label and marker, edited while the drift lasts and closed when it is gone.
 */
export interface IssueTracker {
  /** For messages: "issues of acme/web". */
  readonly description: string;
  listOpen(label: string): Promise<TrackedIssue[]>;
  open(title: string, body: string, label: string): Promise<TrackedIssue>;
  update(issue: TrackedIssue, body: string): Promise<TrackedIssue>;
  close(issue: TrackedIssue, body: string): Promise<TrackedIssue>;
}

/** Who a token writes as: comments and issues by this id are monitor's. */
export interface Author {
  id: number;
  login: string;
}

/** A comment as the code host returns it. */
export interface PostedComment {
  id: number;
  body: string;
  url?: string;
  /** The id of the user or bot that wrote it. */
  authorId?: number;
}

/**
 * Where monitor's comments go: a pull request, a merge request or a commit. Each host implements
 * it over `HostHttp`, which retries, waits out rate limits and bounds the time.
 */
export interface CommentThread {
  /** For messages: "pull request #12 of acme/web". */
  readonly description: string;
  /** The identity this token writes as (asked once). */
  identity(): Promise<Author>;
  /** Every comment, oldest first. */
  list(): Promise<PostedComment[]>;
  /** One request, never retried: a failure whose outcome is unknown says so (`outcomeUnknown`). */
  create(body: string): Promise<PostedComment>;
  update(comment: PostedComment, body: string): Promise<PostedComment>;
  /** Deletes the comment; one that is gone already counts as deleted. */
  remove(comment: PostedComment): Promise<void>;
}

export interface CodeHostErrorDetails {
  status?: number | undefined;
  hint?: string | undefined;
  /** A create that may have been stored: list again before creating again. */
  outcomeUnknown?: boolean;
}

/** A request to the code host that failed, with the HTTP status when there was an answer. */
export class CodeHostError extends Error {
  readonly code = 'comment_failed';
  readonly status: number | undefined;
  readonly hint: string | undefined;
  readonly outcomeUnknown: boolean;
  constructor(message: string, details: CodeHostErrorDetails = {}) {
    super(message);
    this.status = details.status;
    this.hint = details.hint;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

/** An issue as the code host returns it; `number` is what people see (`#4`, `#4` in GitLab too). */
export interface TrackedIssue {
  number: number;
  body: string;
  url?: string;
  authorId?: number;
  labels: string[];
}

/**
 * The repository's issues, for the drift check: one open issue per project and account, found
 * by its marker and its author, edited while the drift lasts and closed when it is gone.
 */
export interface IssueTracker {
  /** For messages: "the issues of acme/web". */
  readonly description: string;
  identity(): Promise<Author>;
  /** Open issues, oldest first: every one that this token's identity may have opened. */
  listOpen(): Promise<TrackedIssue[]>;
  /** One request, never retried, as `CommentThread.create`. */
  open(title: string, body: string, label: string): Promise<TrackedIssue>;
  update(issue: TrackedIssue, body: string): Promise<TrackedIssue>;
  addLabel(issue: TrackedIssue, label: string): Promise<void>;
  /** Closes it as done (the drift is gone) or as a duplicate of the one monitor keeps. */
  close(issue: TrackedIssue, body: string, as?: 'done' | 'duplicate'): Promise<TrackedIssue>;
}

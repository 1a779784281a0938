import { createOrAdopt, upsertComment } from './publish.js';
import type { Author, CommentThread } from './thread.js';

/** A pull request (GitHub) or merge request (GitLab) as the code host returns it. */
export interface ChangeRequest {
  /** GitHub's number, GitLab's iid: what people see (`#3`, `!3`). */
  number: number;
  url?: string;
  title: string;
  body: string;
  authorId?: number;
  /** The branch it merges from. */
  head: string;
  /** Whether that branch is in this repository, not a fork's of the same name. */
  fromHere: boolean;
}

/**
 * The pull requests of a repository (merge requests of a GitLab project), as `pull --pr` keeps
 * one: each host implements it over `HostHttp`, which retries, waits out rate limits and bounds
 * the time.
 */
export interface ChangeRequests {
  /** `pull request`, `merge request`. */
  readonly noun: string;
  /** `#3` on GitHub, `!3` on GitLab. */
  ref(number: number): string;
  /** For messages: `on acme/web`, `in project 42`. */
  readonly where: string;
  /** The longest body the host takes. */
  readonly bodyLimit: number;
  identity(): Promise<Author>;
  /** The open ones from `branch`, oldest first, whoever opened them and wherever the branch is. */
  listOpen(branch: string): Promise<ChangeRequest[]>;
  /** One request, never retried: a failure whose outcome is unknown says so (`outcomeUnknown`). */
  open(request: { title: string; body: string; head: string; base: string }): Promise<ChangeRequest>;
  update(request: ChangeRequest, edit: { title: string; body: string }): Promise<ChangeRequest>;
  close(request: ChangeRequest): Promise<void>;
  /** Its comments. */
  thread(request: ChangeRequest): CommentThread;
}

/** The hidden first line of what `pull --pr` writes: its pull request's body and its closing comment. */
export function pullMarker(project: string, account: string): string {
  return `<!-- monitor:pull project=${encodeURIComponent(project)} account=${encodeURIComponent(account)} -->`;
}

/**
 * monitor's own open pull requests from `branch`, oldest first: from this repository's branch, by
 * the token's identity. Another person's from a branch of the same name (a fork's, or into another
 * base) is never monitor's, whatever it says.
 */
export async function ownPullRequests(requests: ChangeRequests, branch: string): Promise<ChangeRequest[]> {
  const candidates = (await requests.listOpen(branch)).filter((r) => r.head === branch && r.fromHere);
  if (candidates.length === 0) return [];
  const me = await requests.identity();
  return candidates.filter((r) => r.authorId === me.id);
}

export type PullRequestStatus = 'created' | 'updated' | 'unchanged';

export interface PullRequestKept {
  status: PullRequestStatus;
  request: ChangeRequest;
  /** monitor's own duplicates that were closed. */
  closed: number[];
}

/**
 * Keep monitor's one pull request from `branch` into `base`: open it when there is none (a create
 * whose outcome is unknown is looked for again before another is tried), edit its title and body
 * when they differ. Duplicates of monitor's own are closed, saying which one it keeps.
 */
export async function keepPullRequest(
  requests: ChangeRequests,
  marker: string,
  wanted: { title: string; body: string; head: string; base: string },
): Promise<PullRequestKept> {
  const [open, ...extras] = await ownPullRequests(requests, wanted.head);
  let status: PullRequestStatus;
  let request: ChangeRequest;
  if (open === undefined) {
    request = await createOrAdopt(
      () => requests.open(wanted),
      async () => (await ownPullRequests(requests, wanted.head))[0],
    );
    status = 'created';
  } else if (normalise(open.body) === wanted.body && open.title === wanted.title) {
    request = open;
    status = 'unchanged';
  } else {
    request = await requests.update(open, wanted);
    status = 'updated';
  }
  const why = `Closed: a duplicate of ${requests.ref(request.number)}, the ${requests.noun} monitor keeps for this drift.`;
  for (const extra of extras) await closeWithComment(requests, extra, marker, why);
  return { status, request, closed: extras.map((e) => e.number) };
}

/** Close monitor's pull requests from `branch`, each with a comment saying `why`. */
export async function closePullRequests(
  requests: ChangeRequests,
  branch: string,
  marker: string,
  why: string,
): Promise<ChangeRequest[]> {
  const own = await ownPullRequests(requests, branch);
  for (const request of own) await closeWithComment(requests, request, marker, why);
  return own;
}

/** The comment once (found again by its marker and author on a re-run), then the close. */
async function closeWithComment(
  requests: ChangeRequests,
  request: ChangeRequest,
  marker: string,
  why: string,
): Promise<void> {
  await upsertComment(requests.thread(request), marker, {
    // Any purpose but a deploy's result, whose re-runs are appended: this comment is written whole.
    purpose: 'plan',
    render: () => why,
    createIfMissing: true,
  });
  await requests.close(request);
}

const normalise = (body: string) => body.replace(/\r\n/g, '\n');

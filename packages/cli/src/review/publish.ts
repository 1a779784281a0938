import { type Clock, systemClock } from '@monitor/api';
import { GITHUB_COMMENT_LIMIT } from '@monitor/engine';
import { detectReviewContext, type ReviewHost } from './context.js';
import type { HostHttpOptions, HostWait } from './http.js';
import {
  type Author,
  CodeHostError,
  type CommentThread,
  type IssueTracker,
  type PostedComment,
  type TrackedIssue,
} from './thread.js';

/**
 * What monitor posts: the plan of `diff`, the result of `deploy`, the drift issue of `diff --issue`,
 * or the audit issue of `audit --issue`.
 */
export type CommentPurpose = 'plan' | 'result' | 'drift' | 'audit';

/** The label of drift issues, for people filtering them; monitor finds its issue by marker and author. */
export const DRIFT_LABEL = 'monitor-drift';
/** The label of audit issues. */
export const AUDIT_LABEL = 'monitor-audit';

/** The issues monitor keeps, one per project and account each: their label, title and words. */
export type IssuePurpose = 'drift' | 'audit';

const ISSUES: Record<
  IssuePurpose,
  { label: string; title: (project: string, account: string) => string; reports: string; clean: string }
> = {
  drift: {
    label: DRIFT_LABEL,
    title: (project, account) => `monitor: ${project} differs from account ${account}`,
    reports: 'this drift',
    clean: 'the account matches the code and no drift issue is open',
  },
  audit: {
    label: AUDIT_LABEL,
    title: (project, account) => `monitor audit: policy findings in account ${account} (${project})`,
    reports: 'these findings',
    clean: 'the audit found no error or warning and no audit issue is open',
  },
};

/**
 * The hidden first line that finds monitor's comment again: one comment per purpose, project and
 * account, so that two projects (or one project's two accounts) in a repository never overwrite
 * each other's.
 */
export function commentMarker(purpose: CommentPurpose, project: string, account: string): string {
  const kind = purpose === 'result' ? 'deploy' : purpose;
  // Encoded, so that no name can end the HTML comment (`-->`) or fake another marker.
  return `<!-- monitor:${kind} project=${encodeURIComponent(project)} account=${encodeURIComponent(account)} -->`;
}

export type CommentOutcome =
  | {
      status: 'created' | 'updated' | 'unchanged';
      where: string;
      id: number;
      url?: string;
      /** monitor's own earlier copies of the comment that were deleted. */
      duplicatesRemoved?: number;
    }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; hint?: string };

const normalise = (body: string) => body.replace(/\r\n/g, '\n');

/**
 * The items (comments, issues) that are monitor's under `marker`, oldest first: those that start
 * with it and were written by the token's identity. Anyone can write the marker; only monitor's
 * identity counts. The identity is asked only when some item carries the marker.
 */
async function marked<T extends { body: string; authorId?: number }>(
  items: T[],
  marker: string,
  identity: () => Promise<Author>,
): Promise<T[]> {
  const candidates = items.filter((i) => i.body.startsWith(marker));
  if (candidates.length === 0) return [];
  const me = await identity();
  return candidates.filter((i) => i.authorId === me.id);
}

/**
 * A create that is never repeated blindly. When its outcome is unknown (a 5xx or a timeout after
 * the request left, which the host may have stored), list again and adopt what is there, as the
 * deployer does with the service's resources; create again only when nothing is.
 */
export async function createOrAdopt<T>(
  create: () => Promise<T>,
  find: () => Promise<T | undefined>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof CodeHostError) || !error.outcomeUnknown) throw error;
      const found = await find();
      if (found !== undefined) return found;
      if (attempt >= attempts) throw error;
    }
  }
}

/** Between a deploy's first result and each re-run's, in the one comment. */
const RERUN_SEPARATOR = '\n\n---\n\n<!-- monitor:re-run -->\n';
/** Below this much room, a re-run's result drops earlier re-runs to fit. */
const MIN_RERUN_LENGTH = 2_000;

export interface CommentRequest {
  purpose: CommentPurpose;
  /** The markdown within `maxLength` characters; the marker goes in front of it. */
  render: (maxLength: number) => string;
  /** False for "no changes": edit an earlier comment, do not start a new one. */
  createIfMissing: boolean;
}

/**
 * The comment's body. A deploy's result that finds an earlier one keeps it: the first result
 * stays, and each re-run's is appended (when they no longer fit, the oldest re-runs give way).
 */
export function commentBody(marker: string, request: CommentRequest, earlier?: string): string {
  const fresh = () => `${marker}\n${request.render(GITHUB_COMMENT_LIMIT - marker.length - 1)}`;
  if (request.purpose !== 'result' || earlier === undefined) return fresh();
  const runs = normalise(earlier).split(RERUN_SEPARATOR);
  const room = () => GITHUB_COMMENT_LIMIT - runs.join(RERUN_SEPARATOR).length - RERUN_SEPARATOR.length;
  while (runs.length > 1 && room() < MIN_RERUN_LENGTH) runs.splice(1, 1);
  // The first result alone fills the comment: this run's replaces it.
  if (room() < MIN_RERUN_LENGTH) return fresh();
  return `${runs.join(RERUN_SEPARATOR)}${RERUN_SEPARATOR}${request.render(room())}`;
}

const urlOf = (c: { url?: string }) => (c.url === undefined ? {} : { url: c.url });

/**
 * Put the request's markdown under `marker` in the thread: edit monitor's earlier comment when
 * there is one (no write when it already says this), or create it when `createIfMissing`. Extra
 * copies that monitor itself wrote are deleted; other people's comments are never touched.
 */
export async function upsertComment(
  thread: CommentThread,
  marker: string,
  request: CommentRequest,
): Promise<CommentOutcome> {
  const where = thread.description;
  const [earlier, ...extras] = await marked(await thread.list(), marker, () => thread.identity());
  let outcome: CommentOutcome;
  if (earlier !== undefined) {
    const body = commentBody(marker, request, earlier.body);
    if (normalise(earlier.body) === body) {
      outcome = { status: 'unchanged', where, id: earlier.id, ...urlOf(earlier) };
    } else {
      const updated = await thread.update(earlier, body);
      outcome = {
        status: 'updated',
        where,
        id: earlier.id,
        ...urlOf(updated.url === undefined ? earlier : updated),
      };
    }
  } else {
    if (!request.createIfMissing) {
      return { status: 'skipped', reason: `no changes, and no earlier comment on ${where} to update` };
    }
    const body = commentBody(marker, request);
    const created: PostedComment = await createOrAdopt(
      () => thread.create(body),
      async () => (await marked(await thread.list(), marker, () => thread.identity()))[0],
    );
    outcome = { status: 'created', where, id: created.id, ...urlOf(created) };
  }
  for (const extra of extras) await thread.remove(extra);
  return extras.length === 0 ? outcome : { ...outcome, duplicatesRemoved: extras.length };
}

export interface PublishRequest extends CommentRequest {
  project: string;
  account: string;
}

export interface PublishOptions {
  env: Record<string, string | undefined>;
  userAgent: string;
  /** Told before every wait longer than about 2 s (a rate limit, `Retry-After`, a back-off). */
  onWait?: (wait: HostWait) => void;
  /** The time the whole posting may take. @default 60 s */
  timeoutMs?: number;
  /** Each request's own limit. @default 30 s */
  requestTimeoutMs?: number;
  /** @default the system clock */
  clock?: Clock;
}

function clientOptions(options: PublishOptions): HostHttpOptions & { userAgent: string } {
  const clock = options.clock ?? systemClock;
  return {
    userAgent: options.userAgent,
    clock,
    deadline: clock.now() + (options.timeoutMs ?? 60_000),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  };
}

/** Run `work` against this CI run's code host; a run outside CI is `skipped`, every failure `failed`. */
async function withHost<T>(
  env: Record<string, string | undefined>,
  work: (host: ReviewHost) => Promise<T | { status: 'skipped'; reason: string }>,
): Promise<T | { status: 'skipped'; reason: string } | { status: 'failed'; reason: string; hint?: string }> {
  const context = detectReviewContext(env);
  if (!context.found) {
    return context.misconfigured
      ? {
          status: 'failed',
          reason: context.reason,
          ...(context.hint === undefined ? {} : { hint: context.hint }),
        }
      : { status: 'skipped', reason: context.reason };
  }
  try {
    return await work(context.host);
  } catch (e) {
    if (e instanceof CodeHostError) {
      return { status: 'failed', reason: e.message, ...(e.hint === undefined ? {} : { hint: e.hint }) };
    }
    return { status: 'failed', reason: (e as Error).message };
  }
}

/**
 * Post to the pull or merge request of this CI run, found from the CI's variables. Never throws:
 * a run outside a review is `skipped`, anything that goes wrong is `failed` with a hint.
 */
export function publishComment(request: PublishRequest, options: PublishOptions): Promise<CommentOutcome> {
  return withHost(options.env, async (host) => {
    const purpose = request.purpose === 'plan' ? 'plan' : 'result';
    const thread =
      host.host === 'github'
        ? await (await import('./github.js')).gitHubThread(host, purpose, clientOptions(options))
        : await (await import('./gitlab.js')).gitLabThread(host, purpose, clientOptions(options));
    if ('skipped' in thread) return { status: 'skipped', reason: thread.skipped };
    return upsertComment(thread, commentMarker(request.purpose, request.project, request.account), request);
  });
}

export type IssueOutcome =
  | {
      status: 'opened' | 'updated' | 'unchanged' | 'closed';
      where: string;
      number: number;
      url?: string;
      /** monitor's own duplicate issues that were closed. */
      duplicatesClosed?: number;
    }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; hint?: string };

/** Puts the label back on an open issue that lost it. */
async function withLabel(tracker: IssueTracker, issue: TrackedIssue, label: string): Promise<void> {
  if (!issue.labels.includes(label)) await tracker.addLabel(issue, label);
}

/**
 * Keep one issue of `purpose` per project and account in step with what the run found: open it
 * while there is something to report (`differs`: the account differs from the code, or the audit
 * found an error or a warning), edit it while there is, close it when there is not. The issue is
 * found by its marker and its author, whatever its labels; monitor's duplicates of it are closed.
 */
export async function syncIssue(
  tracker: IssueTracker,
  marker: string,
  request: { purpose: IssuePurpose; title: string; markdown: string; differs: boolean },
): Promise<IssueOutcome> {
  const { label, reports, clean } = ISSUES[request.purpose];
  const body = `${marker}\n${request.markdown}`;
  const ours = () => tracker.identity();
  const [open, ...extras] = await marked(await tracker.listOpen(), marker, ours);
  const where = tracker.description;
  const done = async (status: 'opened' | 'updated' | 'unchanged' | 'closed', issue: TrackedIssue) => {
    for (const extra of extras) {
      await tracker.close(
        extra,
        `Duplicate of #${issue.number}, where monitor reports ${reports}.`,
        'duplicate',
      );
    }
    return {
      status,
      where,
      number: issue.number,
      ...urlOf(issue),
      ...(extras.length === 0 ? {} : { duplicatesClosed: extras.length }),
    };
  };
  if (!request.differs) {
    if (open === undefined) return { status: 'skipped', reason: clean };
    return done('closed', await tracker.close(open, body));
  }
  if (open === undefined) {
    const opened = await createOrAdopt(
      () => tracker.open(request.title, body, label),
      async () => (await marked(await tracker.listOpen(), marker, ours))[0],
    );
    return done('opened', opened);
  }
  await withLabel(tracker, open, label);
  if (normalise(open.body) === body) return done('unchanged', open);
  return done('updated', await tracker.update(open, body));
}

/** `diff --issue`: the drift issue of this project and account in the CI run's repository. */
export function publishDriftIssue(
  request: { project: string; account: string; markdown: string; differs: boolean },
  options: PublishOptions,
): Promise<IssueOutcome> {
  return publishIssue('drift', request, options);
}

/**
 * The issue of `purpose` (`diff --issue`'s drift, `audit --issue`'s findings) of this project and
 * account in the CI run's repository.
 */
export function publishIssue(
  purpose: IssuePurpose,
  request: { project: string; account: string; markdown: string; differs: boolean },
  options: PublishOptions,
): Promise<IssueOutcome> {
  return withHost(options.env, async (host) => {
    const tracker =
      host.host === 'github'
        ? (await import('./github.js')).gitHubIssues(host, clientOptions(options))
        : (await import('./gitlab.js')).gitLabIssues(host, clientOptions(options));
    return syncIssue(tracker, commentMarker(purpose, request.project, request.account), {
      purpose,
      title: ISSUES[purpose].title(request.project, request.account),
      markdown: request.markdown,
      differs: request.differs,
    });
  });
}

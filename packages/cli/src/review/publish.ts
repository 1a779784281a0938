import { detectReviewContext, type ReviewHost } from './context.js';
import { CodeHostError, type CommentThread, type IssueTracker, type PostedComment } from './thread.js';

/** What monitor posts: the plan of `diff`, the result of `deploy`, or the drift issue of `diff --issue`. */
export type CommentPurpose = 'plan' | 'result' | 'drift';

/** The label of drift issues: how `diff --issue` finds its open issue among the others. */
export const DRIFT_LABEL = 'monitor-drift';

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
  | { status: 'created' | 'updated' | 'unchanged'; where: string; id: number; url?: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; hint?: string };

/**
 * Put `body` under `marker` in the thread: edit monitor's earlier comment when there is one (no
 * write when it already says this), or create it when `createIfMissing`.
 */
export async function upsertComment(
  thread: CommentThread,
  marker: string,
  markdown: string,
  createIfMissing: boolean,
): Promise<CommentOutcome> {
  const body = `${marker}\n${markdown}`;
  const earlier: PostedComment | undefined = (await thread.list()).find((c) => c.body.startsWith(marker));
  const where = thread.description;
  if (earlier !== undefined) {
    if (earlier.body.replace(/\r\n/g, '\n') === body) {
      return {
        status: 'unchanged',
        where,
        id: earlier.id,
        ...(earlier.url === undefined ? {} : { url: earlier.url }),
      };
    }
    const updated = await thread.update(earlier, body);
    const url = updated.url ?? earlier.url;
    return { status: 'updated', where, id: earlier.id, ...(url === undefined ? {} : { url }) };
  }
  if (!createIfMissing)
    return { status: 'skipped', reason: `no changes, and no earlier comment on ${where} to update` };
  const created = await thread.create(body);
  return {
    status: 'created',
    where,
    id: created.id,
    ...(created.url === undefined ? {} : { url: created.url }),
  };
}

export interface PublishRequest {
  purpose: CommentPurpose;
  project: string;
  account: string;
  /** The markdown; the marker goes in front of it. */
  markdown: string;
  /** False for "no changes": edit an earlier comment, do not start a new one. */
  createIfMissing: boolean;
}

export interface PublishOptions {
  env: Record<string, string | undefined>;
  userAgent: string;
  warn: (message: string) => void;
  /** The time the whole posting may take. @default 60 s */
  timeoutMs?: number;
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
  const timeoutMs = options.timeoutMs ?? 60_000;
  return withHost(options.env, async (host) => {
    const thread =
      host.host === 'github'
        ? await (await import('./github.js')).gitHubThread(
            host,
            request.purpose === 'plan' ? 'plan' : 'result',
            {
              userAgent: options.userAgent,
              warn: options.warn,
              signal: AbortSignal.timeout(timeoutMs),
            },
          )
        : await (await import('./gitlab.js')).gitLabThread(
            host,
            request.purpose === 'plan' ? 'plan' : 'result',
            {
              timeoutMs: Math.min(timeoutMs, 30_000),
            },
          );
    if ('skipped' in thread) return { status: 'skipped', reason: thread.skipped };
    const marker = commentMarker(request.purpose, request.project, request.account);
    return upsertComment(thread, marker, request.markdown, request.createIfMissing);
  });
}

export type IssueOutcome =
  | { status: 'opened' | 'updated' | 'unchanged' | 'closed'; where: string; number: number; url?: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; hint?: string };

/**
 * Keep one issue per project and account in step with the plan: open it when the account differs
 * from the code, edit it while it does, close it when it matches again.
 */
export async function syncDriftIssue(
  tracker: IssueTracker,
  marker: string,
  request: { title: string; markdown: string; differs: boolean },
): Promise<IssueOutcome> {
  const body = `${marker}\n${request.markdown}`;
  const open = (await tracker.listOpen(DRIFT_LABEL)).find((i) => i.body.startsWith(marker));
  const where = tracker.description;
  const done = (
    status: 'opened' | 'updated' | 'unchanged' | 'closed',
    issue: { number: number; url?: string },
  ) => ({
    status,
    where,
    number: issue.number,
    ...(issue.url === undefined ? {} : { url: issue.url }),
  });
  if (!request.differs) {
    if (open === undefined)
      return { status: 'skipped', reason: 'the account matches the code and no drift issue is open' };
    return done('closed', await tracker.close(open, body));
  }
  if (open === undefined) return done('opened', await tracker.open(request.title, body, DRIFT_LABEL));
  if (open.body.replace(/\r\n/g, '\n') === body) return done('unchanged', open);
  return done('updated', await tracker.update(open, body));
}

/** `diff --issue`: the drift issue of this project and account in the CI run's repository. */
export function publishDriftIssue(
  request: { project: string; account: string; markdown: string; differs: boolean },
  options: PublishOptions,
): Promise<IssueOutcome> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return withHost(options.env, async (host) => {
    const tracker =
      host.host === 'github'
        ? (await import('./github.js')).gitHubIssues(host, {
            userAgent: options.userAgent,
            warn: options.warn,
            signal: AbortSignal.timeout(timeoutMs),
          })
        : (await import('./gitlab.js')).gitLabIssues(host, { timeoutMs: Math.min(timeoutMs, 30_000) });
    return syncDriftIssue(tracker, commentMarker('drift', request.project, request.account), {
      title: `monitor: ${request.project} differs from account ${request.account}`,
      markdown: request.markdown,
      differs: request.differs,
    });
  });
}

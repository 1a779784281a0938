import { detectReviewContext } from './context.js';
import { CodeHostError, type CommentThread, type PostedComment } from './thread.js';

/** What monitor posts: the plan of `diff`, or the result of `deploy`. */
export type CommentPurpose = 'plan' | 'result';

/**
 * The hidden first line that finds monitor's comment again: one comment per purpose, project and
 * account, so that two projects (or one project's two accounts) in a repository never overwrite
 * each other's.
 */
export function commentMarker(purpose: CommentPurpose, project: string, account: string): string {
  const kind = purpose === 'plan' ? 'plan' : 'deploy';
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

/**
 * Post to the pull or merge request of this CI run, found from the CI's variables. Never throws:
 * a run outside a review is `skipped`, anything that goes wrong is `failed` with a hint.
 */
export async function publishComment(
  request: PublishRequest,
  options: PublishOptions,
): Promise<CommentOutcome> {
  const context = detectReviewContext(options.env);
  if (!context.found) {
    return context.misconfigured
      ? {
          status: 'failed',
          reason: context.reason,
          ...(context.hint === undefined ? {} : { hint: context.hint }),
        }
      : { status: 'skipped', reason: context.reason };
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    const { host } = context;
    const thread =
      host.host === 'github'
        ? await (await import('./github.js')).gitHubThread(host, request.purpose, {
            userAgent: options.userAgent,
            warn: options.warn,
            signal: AbortSignal.timeout(timeoutMs),
          })
        : await (await import('./gitlab.js')).gitLabThread(host, request.purpose, {
            timeoutMs: Math.min(timeoutMs, 30_000),
          });
    if ('skipped' in thread) return { status: 'skipped', reason: thread.skipped };
    const marker = commentMarker(request.purpose, request.project, request.account);
    return await upsertComment(thread, marker, request.markdown, request.createIfMissing);
  } catch (e) {
    if (e instanceof CodeHostError) {
      return { status: 'failed', reason: e.message, ...(e.hint === undefined ? {} : { hint: e.hint }) };
    }
    return { status: 'failed', reason: (e as Error).message };
  }
}

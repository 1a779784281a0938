import { appendFileSync } from 'node:fs';
import { GITHUB_COMMENT_LIMIT } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import { EXIT, type ExitCode } from './exit-codes.js';
import { paint } from './io.js';
import type { CommentArgs } from './options.js';
import type { RunContext } from './output.js';
import type { HostWait } from './review/http.js';
import {
  type CommentOutcome,
  type CommentPurpose,
  commentMarker,
  type IssueOutcome,
  type IssuePurpose,
  type PublishOptions,
  publishComment,
  publishIssue,
} from './review/publish.js';
import { CLI_VERSION } from './version.js';

/** GitHub's limit on one step's summary, in bytes. */
const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024;

export interface CommentRequest {
  purpose: CommentPurpose;
  project: string;
  account: string;
  /** The markdown within `maxLength` characters; `fullPlanHint` says where the rest is. */
  render: (maxLength: number, fullPlanHint?: string) => string;
  /** False for "no changes": edit an earlier comment, never start one. */
  createIfMissing: boolean;
}

/** The markdown for the job summary, within GitHub's megabyte; `complete` when nothing was left out. */
function stepSummary(request: CommentRequest): { text: string; complete: boolean } {
  const whole = request.render(Number.POSITIVE_INFINITY);
  if (Buffer.byteLength(whole) < STEP_SUMMARY_LIMIT_BYTES) return { text: whole, complete: true };
  let max = STEP_SUMMARY_LIMIT_BYTES - 1;
  for (;;) {
    const text = request.render(max, 'see the job log');
    const bytes = Buffer.byteLength(text);
    if (bytes < STEP_SUMMARY_LIMIT_BYTES) return { text, complete: false };
    max = Math.floor((max * STEP_SUMMARY_LIMIT_BYTES) / bytes) - 1024;
  }
}

/**
 * `--comment`: the markdown to `$GITHUB_STEP_SUMMARY` (when set) and to the run's pull or merge
 * request. A failure to post is a warning and leaves the command's own exit code, unless
 * `--require-comment` (then 1, when the command itself succeeded). What happened goes to
 * `result.comment` in `--json`.
 */
export async function postComment(
  request: CommentRequest,
  args: CommentArgs,
  ctx: RunContext,
  ownCode: ExitCode,
): Promise<ExitCode> {
  const { io, out } = ctx;
  const p = paint(io.color);
  const what = request.purpose === 'plan' ? 'the plan' : 'the result';
  const summaryPath = io.env.GITHUB_STEP_SUMMARY;
  let summaryWritten = false;
  let summaryComplete = false;
  if (summaryPath !== undefined && summaryPath !== '') {
    try {
      const summary = stepSummary(request);
      appendFileSync(summaryPath, `${summary.text}\n`);
      summaryWritten = true;
      summaryComplete = summary.complete;
    } catch (e) {
      if (!out.json) {
        io.stderr(
          `${p.yellow('warning')}: cannot write ${what} to GITHUB_STEP_SUMMARY: ${escapeTerminal((e as Error).message)}\n`,
        );
      }
    }
  }
  const fullPlanHint = summaryComplete
    ? 'the whole plan is in the job summary'
    : summaryWritten
      ? 'the job summary shows more, the job log all'
      : undefined;
  const outcome = await publishComment(
    {
      purpose: request.purpose,
      project: request.project,
      account: request.account,
      render: (maxLength) => request.render(maxLength, fullPlanHint),
      createIfMissing: request.createIfMissing,
    },
    publishOptions(ctx),
  );
  out.result = { ...out.result, comment: { ...outcome, stepSummary: summaryWritten } };
  return report(outcome, what, args, ctx, ownCode);
}

/**
 * `diff --issue`: one issue per project and account, opened while the account differs from the
 * code and closed when it matches again. Failures are handled as for `--comment`; what happened
 * goes to `result.issue`.
 */
export function postDriftIssue(
  request: CommentRequest,
  args: CommentArgs,
  ctx: RunContext,
  ownCode: ExitCode,
): Promise<ExitCode> {
  return postIssue('drift', request, args, ctx, ownCode);
}

/**
 * `--issue` of `diff` (drift) and `audit` (findings): the one issue of `purpose` per project and
 * account, opened while there is something to report (`createIfMissing`), updated in place, and
 * closed when there is not.
 */
export async function postIssue(
  purpose: IssuePurpose,
  request: CommentRequest,
  args: CommentArgs,
  ctx: RunContext,
  ownCode: ExitCode,
): Promise<ExitCode> {
  const marker = commentMarker(purpose, request.project, request.account);
  const outcome = await publishIssue(
    purpose,
    {
      project: request.project,
      account: request.account,
      markdown: request.render(GITHUB_COMMENT_LIMIT - marker.length - 1),
      differs: request.createIfMissing,
    },
    publishOptions(ctx),
  );
  ctx.out.result = { ...ctx.out.result, issue: outcome };
  return report(outcome, `the ${purpose} issue`, args, ctx, ownCode);
}

/** The line for a wait of the code host's client: on stderr, with `--json` too, as a lock wait is. */
export function waitLine(wait: HostWait): string {
  return `Waiting ${wait.seconds} s before retrying: ${escapeTerminal(wait.reason)}\n`;
}

function publishOptions({ io }: RunContext): PublishOptions {
  return {
    env: io.env,
    userAgent: `monitor/${CLI_VERSION}`,
    onWait: (wait) => io.stderr(waitLine(wait)),
  };
}

const DONE: Record<string, string> = {
  created: 'posted to',
  updated: 'updated on',
  unchanged: 'is already on',
  opened: 'opened in',
  closed: 'closed in',
};

/** " (2 duplicates removed)": monitor's own extra copies, cleaned up on the way. */
function duplicates(outcome: CommentOutcome | IssueOutcome): string {
  const removed = 'duplicatesRemoved' in outcome ? outcome.duplicatesRemoved : undefined;
  const closed = 'duplicatesClosed' in outcome ? outcome.duplicatesClosed : undefined;
  const n = removed ?? closed;
  if (n === undefined) return '';
  return ` (${n} duplicate${n === 1 ? '' : 's'} ${removed === undefined ? 'closed' : 'removed'})`;
}

/** One line on stderr for how posting went; the exit code it leaves. */
function report(
  outcome: CommentOutcome | IssueOutcome,
  what: string,
  args: CommentArgs,
  { io, out }: RunContext,
  ownCode: ExitCode,
): ExitCode {
  const p = paint(io.color);
  const note = (line: string) => {
    if (!out.json) io.stderr(line);
  };
  const What = `${what[0]?.toUpperCase()}${what.slice(1)}`;
  switch (outcome.status) {
    case 'skipped':
      note(`${p.dim(`Not posted: ${escapeTerminal(outcome.reason)}.`)}\n`);
      return ownCode;
    case 'failed': {
      const required = args.requireComment === true;
      note(
        `${required ? p.red('error') : p.yellow('warning')}: could not post ${what}: ${escapeTerminal(outcome.reason)}\n`,
      );
      if (outcome.hint !== undefined) note(`${p.dim('hint')}: ${escapeTerminal(outcome.hint)}\n`);
      if (!required || (ownCode !== EXIT.ok && ownCode !== EXIT.changes)) return ownCode;
      out.error ??= {
        code: 'comment_failed',
        message: `could not post ${what}: ${outcome.reason}`,
        ...(outcome.hint === undefined ? {} : { hint: outcome.hint }),
      };
      return EXIT.error;
    }
    default: {
      const which = 'number' in outcome ? ` (#${outcome.number})` : '';
      note(
        `${p.green('✓')} ${What}${which} ${DONE[outcome.status] ?? outcome.status} ${escapeTerminal(`${outcome.where}${outcome.url === undefined ? '' : `: ${outcome.url}`}`)}${duplicates(outcome)}\n`,
      );
      return ownCode;
    }
  }
}

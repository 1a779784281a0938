import { hostname } from 'node:os';
import type { PullResult } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import { postDriftIssue, waitLine } from './comment-ui.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { paint } from './io.js';
import type { RunContext } from './output.js';
import {
  commitFiles,
  commitShape,
  defaultBranch,
  fetchBranches,
  openRepository,
  PULL_TRAILER,
  pullBranchName,
  pushBranch,
  type Repository,
  remoteBranches,
  repositoryPath,
} from './review/branch.js';
import { branchOwner, claimBranch } from './review/branch-owner.js';
import { detectReviewContext, type ReviewHost } from './review/context.js';
import { type Git, GitError, gitIn } from './review/git.js';
import { gitAuthEnv } from './review/git-auth.js';
import type { IssueOutcome } from './review/publish.js';
import {
  type ChangeRequest,
  type ChangeRequests,
  closePullRequests,
  keepPullRequest,
  pullMarker,
} from './review/pull-requests.js';
import { type Author, CodeHostError } from './review/thread.js';
import { CLI_VERSION } from './version.js';

/**
 * `monitor pull --pr`: what pull would write, committed on the branch `monitor/pull/<project>`
 * on top of the default branch, pushed to origin, and one pull request (merge request) from it,
 * kept while the account differs from the code and closed, with its branch, once they agree.
 * Drift pull cannot write goes to the drift issue of `diff --issue`.
 */

type Engine = typeof import('@monitor/engine');

/** What `--pr` needs, checked before the account is read. */
export interface PullRequestSetup {
  host: ReviewHost;
  repository: Repository;
  /** git at the top of the repository's work tree, with the code host's token for origin. */
  git: Git;
}

/** What the run was about: for the branch's name, the markers, the titles and the heading. */
export interface PullHeading {
  project: string;
  environment: string | undefined;
  account: string;
  local: boolean;
}

export type PullRequestStatus = 'created' | 'updated' | 'unchanged' | 'closed' | 'issue' | 'none';

/** What `--json` says of the run, as `result.pr`. */
export interface PullRequestSummary {
  status: PullRequestStatus;
  branch: string;
  base: string;
  number?: number;
  url?: string;
  /** The branch's commit, when there is one. */
  commit?: string;
  /** Whether this run pushed the branch. */
  pushed: boolean;
  /** monitor's pull requests this run closed. */
  closed: number[];
  /** Whether this run deleted the branch from origin. */
  branchDeleted: boolean;
}

const LOCAL_HINT =
  'in GitHub Actions or GitLab CI it is found from their variables; elsewhere set GITHUB_REPOSITORY=owner/repo and GITHUB_TOKEN (or CI_API_V4_URL, CI_PROJECT_ID and GITLAB_TOKEN) for a token that may push branches and open pull requests';

/** The code host and the repository, or the exit code of why `--pr` cannot work here. */
export async function preparePullRequest(
  ctx: RunContext,
  projectDir: string,
): Promise<PullRequestSetup | ExitCode> {
  const context = detectReviewContext(ctx.io.env);
  if (!context.found)
    return fail(
      ctx,
      'no_code_host',
      `pull --pr opens a pull request, and cannot: ${context.reason}`,
      context.hint ?? LOCAL_HINT,
    );
  try {
    const repository = await openRepository(gitIn(projectDir, ctx.io.env), projectDir);
    const auth = gitAuthEnv(repository.origin, context.host, ctx.io.env);
    // From the top of the work tree: the paths of git's plumbing are the repository's.
    return { host: context.host, repository, git: gitIn(repository.root, { ...ctx.io.env, ...auth }) };
  } catch (e) {
    return failure(ctx, e);
  }
}

/** One project's git and code host work at a time: the projects of a workspace share a repository. */
let turn: Promise<unknown> = Promise.resolve();

/** Keep the branch and the pull request in step with what pull found; the drift issue for what it cannot write. */
export function publishPull(
  setup: PullRequestSetup,
  result: PullResult,
  heading: PullHeading,
  ctx: RunContext,
): Promise<ExitCode> {
  const mine = turn.then(() => publish(setup, result, heading, ctx));
  turn = mine.catch(() => undefined);
  return mine;
}

async function publish(
  setup: PullRequestSetup,
  result: PullResult,
  heading: PullHeading,
  ctx: RunContext,
): Promise<ExitCode> {
  const branch = pullBranchName(heading.project, heading.environment);
  const requests = await changeRequests(setup.host, ctx);
  try {
    const base = await defaultBranch(setup.git, ctx.io.env);
    const remote = await remoteBranches(setup.git, [base, branch]);
    const baseCommit = remote.get(base);
    if (baseCommit === undefined)
      throw new GitError(
        'no_default_branch',
        `origin has no branch ${base}`,
        'git remote set-head origin --auto',
      );
    await fetchBranches(setup.git, remote);
    const where = { branch, base, baseCommit, existing: remote.get(branch) };
    const summary =
      result.files.length > 0
        ? await keepBranch(setup, result, heading, requests, where, ctx)
        : await settle(setup, result, heading, requests, where, ctx);
    if (typeof summary === 'number') return summary;
    ctx.out.result = { ...ctx.out.result, pr: summary };
    if (!ctx.out.json) ctx.io.stdout(outcomeLine(summary, requests, ctx));
    return EXIT.ok;
  } catch (e) {
    return failure(ctx, e);
  }
}

interface BranchPlace {
  branch: string;
  base: string;
  baseCommit: string;
  /** The branch's commit on origin, when it is there. */
  existing: string | undefined;
}

/** Commit the pulled files on the default branch, push when that differs from the branch, and keep the pull request. */
async function keepBranch(
  { git, repository, host }: PullRequestSetup,
  result: PullResult,
  heading: PullHeading,
  requests: ChangeRequests,
  place: BranchPlace,
  ctx: RunContext,
): Promise<PullRequestSummary> {
  if (place.existing !== undefined) await claimBranch(git, requests, place.branch, place.existing);
  const fileName = (file: string) => repositoryPath(repository, file);
  const title = `monitor pull: the account’s edits of ${heading.project}${heading.environment === undefined ? '' : ` (${heading.environment})`}`;
  const made = await commitFiles(
    git,
    repository,
    {
      base: place.baseCommit,
      baseName: place.base,
      files: result.files.map((f) => ({ path: fileName(f.file), before: f.before, after: f.after })),
      message: commitMessage(title, result, fileName, heading.account, place.branch),
      identity: committer(host, await requests.identity()),
    },
    ctx.io.env,
  );
  let commit = made.commit;
  let pushed = false;
  const existing = place.existing === undefined ? undefined : await commitShape(git, place.existing);
  const same = existing?.tree === made.tree && existing.parents.join(' ') === place.baseCommit;
  if (same && place.existing !== undefined) commit = place.existing;
  else {
    await pushBranch(git, place.branch, made.commit, place.existing, pushHint(host));
    pushed = true;
  }
  const engine = await import('@monitor/engine');
  const marker = pullMarker(heading.project, heading.account);
  const body = `${marker}\n${engine.renderPullRequestMarkdown(result, {
    ...heading,
    maxLength: requests.bodyLimit - marker.length - 1,
    fileName,
  })}`;
  const kept = await keepPullRequest(requests, marker, { title, body, head: place.branch, base: place.base });
  const status =
    kept.status === 'created' ? 'created' : pushed || kept.status === 'updated' ? 'updated' : 'unchanged';
  return {
    status,
    branch: place.branch,
    base: place.base,
    number: kept.request.number,
    ...(kept.request.url === undefined ? {} : { url: kept.request.url }),
    commit,
    pushed,
    closed: kept.closed,
    branchDeleted: false,
  };
}

/**
 * Nothing pull can write: the drift issue keeps what still differs (or is closed when nothing
 * does), monitor's pull requests are closed saying why, and the branch is deleted.
 */
async function settle(
  { git, repository, host }: PullRequestSetup,
  result: PullResult,
  heading: PullHeading,
  requests: ChangeRequests,
  place: BranchPlace,
  ctx: RunContext,
): Promise<PullRequestSummary | ExitCode> {
  const engine = await import('@monitor/engine');
  const { plan } = result;
  const differs =
    engine.hasChanges(plan) || plan.conflicts.length > 0 || engine.blockingFindings(plan.findings).length > 0;
  const fileName = (file: string) => repositoryPath(repository, file);
  const code = await postDriftIssue(
    {
      purpose: 'drift',
      project: heading.project,
      account: heading.account,
      render: (maxLength) => driftIssueMarkdown(engine, result, heading, maxLength, fileName),
      createIfMissing: differs,
    },
    { requireComment: true },
    ctx,
    EXIT.ok,
  );
  if (code !== EXIT.ok) return code;
  const issue = ctx.out.result?.issue as IssueOutcome | undefined;
  const kept = issue !== undefined && 'number' in issue && issue.status !== 'closed' ? issue : undefined;
  const why = differs
    ? `Nothing is left that \`monitor pull\` can write into the code${kept === undefined ? '' : `: what still differs from it is in #${kept.number}`}. monitor closed this ${requests.noun} and deleted its branch.`
    : `The account agrees with the code again (this ${requests.noun}'s edits were merged, or undone in the account): nothing is left to pull. monitor closed it and deleted its branch.`;
  const closed = await closePullRequests(
    requests,
    place.branch,
    pullMarker(heading.project, heading.account),
    why,
  );
  // Someone else's branch of the same name is left as it is, and so is their pull request from it.
  const deleted =
    place.existing !== undefined &&
    (closed.length > 0 || (await branchOwner(git, requests, place.branch, place.existing)).mine);
  if (deleted) await pushBranch(git, place.branch, undefined, place.existing, pushHint(host));
  return {
    status: kept !== undefined ? 'issue' : closed.length > 0 ? 'closed' : 'none',
    branch: place.branch,
    base: place.base,
    ...(kept === undefined
      ? {}
      : { number: kept.number, ...(kept.url === undefined ? {} : { url: kept.url }) }),
    pushed: false,
    closed: closed.map((c: ChangeRequest) => c.number),
    branchDeleted: deleted,
  };
}

/** The plan as `diff --issue` posts it, and what pull leaves to people with its `file:line`. */
function driftIssueMarkdown(
  engine: Engine,
  result: PullResult,
  heading: PullHeading,
  maxLength: number,
  fileName: (file: string) => string,
): string {
  const left = engine.pullLeftMarkdown(result, { maxLength: Math.floor(maxLength / 4), fileName });
  const plan = engine.renderPlanMarkdown(result.plan, { ...heading, maxLength: maxLength - left.length - 1 });
  return left === '' ? plan : `${plan}\n${left}`;
}

function commitMessage(
  title: string,
  result: PullResult,
  fileName: (file: string) => string,
  account: string,
  branch: string,
): string {
  const fields = result.pulled.map((p) => `- ${p.key} ${p.path} (${fileName(p.file)}:${p.line})`);
  return `${title}\n\nThe account's values of what was changed outside monitor, written into the code\nby monitor pull --pr (account ${account}):\n\n${fields.join('\n')}\n\n${PULL_TRAILER}: ${branch}\n`;
}

/** Who commits when git has no identity (a CI runner): the token's user, with the host's no-reply address. */
function committer(host: ReviewHost, me: Author): { name: string; email: string } {
  if (host.host === 'github')
    return { name: me.login, email: `${me.id}+${me.login}@users.noreply.github.com` };
  let server = hostname();
  try {
    server = new URL(host.apiUrl).hostname;
  } catch {}
  return { name: me.login, email: `${me.login}@noreply.${server}` };
}

function pushHint(host: ReviewHost): string {
  return host.host === 'github'
    ? 'the job needs `permissions: contents: write`, and no branch protection or ruleset may cover monitor/pull/* (docs/ci.md: pull --pr)'
    : 'GITLAB_TOKEN needs the write_repository scope and the Developer role, and monitor/pull/* must not be a protected branch (docs/ci.md: pull --pr)';
}

async function changeRequests(host: ReviewHost, ctx: RunContext): Promise<ChangeRequests> {
  const { systemClock } = await import('@monitor/api');
  const options = {
    userAgent: `monitor/${CLI_VERSION}`,
    clock: systemClock,
    deadline: systemClock.now() + 120_000,
    onWait: (wait: { seconds: number; reason: string }) => ctx.io.stderr(waitLine(wait)),
  };
  return host.host === 'github'
    ? (await import('./review/github-pulls.js')).gitHubPullRequests(host, options)
    : (await import('./review/gitlab-merges.js')).gitLabMergeRequests(host, options);
}

/** The line that says what happened, for people. */
function outcomeLine(s: PullRequestSummary, requests: ChangeRequests, { io }: RunContext): string {
  const p = paint(io.color);
  const t = escapeTerminal;
  const Noun = `${requests.noun[0]?.toUpperCase()}${requests.noun.slice(1)}`;
  const at = t(s.url === undefined ? requests.where : `${requests.where}: ${s.url}`);
  const ref = s.number === undefined ? '' : requests.ref(s.number);
  const branch = t(s.branch);
  const pushed = s.pushed ? `branch ${branch} pushed, on ${t(s.base)}` : `branch ${branch} unchanged`;
  const deleted = s.branchDeleted ? `; deleted branch ${branch}` : '';
  const closed = s.closed.map((n) => requests.ref(n)).join(', ');
  const line = {
    created: `${p.green('✓')} ${Noun} ${ref} opened ${at} (${pushed})`,
    updated: `${p.green('✓')} ${Noun} ${ref} updated ${at} (${pushed})`,
    unchanged: `${p.green('✓')} ${Noun} ${ref} is already up to date ${at}`,
    closed: `${p.green('✓')} Closed ${requests.noun} ${closed}: the account agrees with the code again${deleted}.`,
    issue: `Nothing that pull can write: the drift is in the issue ${ref}${closed === '' ? '' : `; closed ${requests.noun} ${closed}`}${deleted}.`,
    none: `Nothing to pull, and no ${requests.noun} of monitor's is open${deleted}.`,
  }[s.status];
  return `\n${line}\n`;
}

function fail(ctx: RunContext, code: string, message: string, hint: string | undefined): ExitCode {
  ctx.out.error = { code, message, ...(hint === undefined ? {} : { hint }) };
  if (!ctx.out.json) {
    const p = paint(ctx.io.color);
    ctx.io.stderr(`${p.red('error')}: ${escapeTerminal(message)}\n`);
    if (hint !== undefined) ctx.io.stderr(`${p.dim('hint')}: ${escapeTerminal(hint)}\n`);
  }
  return EXIT.error;
}

/** A git or code host failure as the run's error; anything else is a bug, reported as such. */
function failure(ctx: RunContext, e: unknown): ExitCode {
  if (e instanceof GitError) return fail(ctx, e.code, e.message, e.hint);
  if (e instanceof CodeHostError) return fail(ctx, 'code_host_failed', e.message, e.hint);
  throw e;
}

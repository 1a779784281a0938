import { commitOrigin } from './branch.js';
import { type Git, GitError } from './git.js';
import { type ChangeRequest, type ChangeRequests, ownPullRequests } from './pull-requests.js';

/**
 * Whose `monitor/pull/<project>` is on origin. monitor rewrites and deletes the branch only when
 * it is its own: its commit is one `pull --pr` made for it (the `Monitor-Pull` trailer), or one of
 * monitor's pull requests is open from it. Anyone else's branch of that name, and the pull request
 * from it, are theirs (issue 49): pushing over or deleting the branch would change or close it.
 */
export type BranchOwner =
  | { mine: true }
  | {
      mine: false;
      /** Who made the branch's commit: `name <email>`. */
      author: string;
      /** The open pull requests from the branch, someone else's. */
      others: ChangeRequest[];
    };

/** Whose `branch` is, at `tip` on origin (fetched). */
export async function branchOwner(
  git: Git,
  requests: ChangeRequests,
  branch: string,
  tip: string,
): Promise<BranchOwner> {
  const made = await commitOrigin(git, tip);
  if (made.pullBranches.includes(branch)) return { mine: true };
  if ((await ownPullRequests(requests, branch)).length > 0) return { mine: true };
  const others = (await requests.listOpen(branch)).filter((r) => r.head === branch && r.fromHere);
  return { mine: false, author: made.author, others };
}

/** `branch` at `tip`, when monitor may push over it; a GitError naming whose it is otherwise. */
export async function claimBranch(
  git: Git,
  requests: ChangeRequests,
  branch: string,
  tip: string,
): Promise<void> {
  const owner = await branchOwner(git, requests, branch, tip);
  if (owner.mine) return;
  const refs = owner.others
    .map((r) => `${requests.ref(r.number)}${r.url === undefined ? '' : ` (${r.url})`}`)
    .join(', ');
  const rename = `git push origin ${branch}:refs/heads/<another name> && git push origin --delete ${branch}`;
  throw new GitError(
    'branch_taken',
    `${branch} on origin is not monitor's: its commit ${tip.slice(0, 12)} is by ${owner.author}, not made by monitor pull --pr, and ${
      refs === ''
        ? `no ${requests.noun} of monitor's is open from it`
        : `someone else's ${requests.noun} ${refs} is open from it`
    }; monitor neither pushes over it nor deletes it`,
    refs === ''
      ? `the branch name is taken: if ${branch} is not needed, delete it (git push origin --delete ${branch}), or rename it (${rename}); then run again`
      : `the branch name is taken by someone else's ${requests.noun}: close it and delete the branch, or rename their branch (${rename}) and open theirs again from the new name; then run again`,
  );
}

/**
 * What `org submit` reads off git's answers, as pure decisions: HEAD, its tree and HEAD's own ref (read while
 * `git add --all` stages), then write-tree, tell all that the calls one after another used to.
 */

/** A git call's answer as submit reads it. */
export interface GitAnswer {
  exitCode: number | null;
  stdout: string;
}

/** Whether the index holds a change: its tree is not HEAD's, or git could not write it (unmerged paths). */
export function isStaged(tree: GitAnswer, headTree: string | undefined): boolean {
  return tree.exitCode !== 0 || tree.stdout.trim() !== headTree;
}

/**
 * The ref the commit goes on, from `git symbolic-ref -q --no-recurse HEAD`: the agent's branch, or a detached HEAD
 * (exit 1); never one the agent pointed HEAD at (the best), which is undefined.
 */
export function decideBranchRef(head: GitAnswer, branch: string): string | undefined {
  if (head.exitCode === 1) return "HEAD";
  return head.stdout.trim() === `refs/heads/${branch}` ? `refs/heads/${branch}` : undefined;
}

/**
 * Whether `queued` (the agent's last queued candidate) is an ancestor of `head` without asking git: yes when it is the
 * head itself, or the parent a fresh commit was made on; undefined when only `git merge-base` can tell.
 */
export function knowAncestor(queued: string, head: string, parent: string | undefined): boolean | undefined {
  return queued === head || queued === parent ? true : undefined;
}

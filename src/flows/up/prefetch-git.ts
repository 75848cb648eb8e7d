import type { GitPort } from "../../domain/ports.js";
import type { World } from "../../domain/world.js";

/**
 * The world `org up` builds the org in, with the repo's worktree list and the org's branch heads already asked for:
 * git answers while the checks run, and the first call of each (same repo, same prefix) takes that answer. Nothing
 * writes either before up.lock is held, which comes after the checks; a later call asks git again.
 */
export function prefetchGit(world: World, repo: string, branchPrefix: string): World {
  const git = world.git;
  const worktrees = once(git.worktreeList(repo));
  const heads = once(git.branchHeads(repo, branchPrefix));
  const prefetched: GitPort = Object.create(git) as GitPort;
  prefetched.worktreeList = (asked) => (asked === repo && worktrees.take()) || git.worktreeList(asked);
  prefetched.branchHeads = (asked, prefix) =>
    (asked === repo && prefix === branchPrefix && heads.take()) || git.branchHeads(asked, prefix);
  return { ...world, git: prefetched };
}

/** A promise handed out once; a refused `org up` never asks, so its failure must not go unhandled meanwhile. */
function once<T>(promise: Promise<T>): { take(): Promise<T> | undefined } {
  promise.catch(() => undefined);
  let taken = false;
  return {
    take: () => {
      if (taken) return undefined;
      taken = true;
      return promise;
    },
  };
}

import { describe, expect, it } from "vitest";
import type { World } from "../../../src/domain/world.js";
import { prefetchGit } from "../../../src/flows/up/prefetch-git.js";

// A git port that counts its calls: each answer names the call that made it.
function countingWorld(fail = false): { world: World; calls: string[] } {
  const calls: string[] = [];
  const git = {
    worktreeList: async (repo: string) => {
      calls.push(`list ${repo}`);
      if (fail) throw new Error("not a git repository");
      return [{ path: `${repo}#${calls.length}`, branch: null, head: "", prunable: false }];
    },
    branchHeads: async (repo: string, prefix: string) => {
      calls.push(`heads ${repo} ${prefix}`);
      if (fail) throw new Error("not a git repository");
      return new Map([[`${prefix}a-1`, String(calls.length)]]);
    },
    pruneWorktrees: async () => void calls.push("prune"),
  };
  return { world: { git, now: () => new Date(0) } as unknown as World, calls };
}

describe("prefetchGit", () => {
  it("asks git once at once, hands that answer to the first call of each, and asks again after", async () => {
    const { world, calls } = countingWorld();
    const prefetched = prefetchGit(world, "/repo", "org/x/");
    expect(calls).toEqual(["list /repo", "heads /repo org/x/"]);
    const first = await prefetched.git.worktreeList("/repo");
    expect(first[0]!.path).toBe("/repo#1");
    expect(await prefetched.git.branchHeads("/repo", "org/x/")).toEqual(new Map([["org/x/a-1", "2"]]));
    expect(calls).toHaveLength(2);
    // After a prune, the list is read afresh.
    await prefetched.git.pruneWorktrees("/repo");
    expect((await prefetched.git.worktreeList("/repo"))[0]!.path).toBe("/repo#4");
    expect(calls).toEqual(["list /repo", "heads /repo org/x/", "prune", "list /repo"]);
  });

  it("asks git anew for another repo or prefix", async () => {
    const { world, calls } = countingWorld();
    const prefetched = prefetchGit(world, "/repo", "org/x/");
    await prefetched.git.worktreeList("/other");
    await prefetched.git.branchHeads("/repo", "org/y/");
    expect(calls).toEqual(["list /repo", "heads /repo org/x/", "list /other", "heads /repo org/y/"]);
  });

  it("rejects only the call that takes a failed read, never unhandled before it", async () => {
    const { world } = countingWorld(true);
    const prefetched = prefetchGit(world, "/repo", "org/x/");
    // A refused org up never takes them: nothing may reject unhandled in between.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(prefetched.git.worktreeList("/repo")).rejects.toThrow("not a git repository");
  });
});

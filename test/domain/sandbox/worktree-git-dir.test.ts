// Which git folder is an agent worktree's, and which config.worktree org's git may read: decided from git's registry
// in the org's common folder, which the agent can write only for itself, never from its .git alone.
import { describe, expect, test } from "vitest";
import { decideWorktreeGitDir, isHarmlessWorktreeConfig } from "../../../src/domain/sandbox/git-dir.js";

describe("which git folder is an agent worktree's", () => {
  const facts = { worktree: "/o/worktrees/a-1", common: "/o/.git" };
  const own = { dir: "/o/.git/worktrees/a-1", backlink: "/o/worktrees/a-1/.git\n" };
  const other = { dir: "/o/.git/worktrees/b-1", backlink: "/o/worktrees/b-1/.git\n" };
  const decide = (pointer: string | undefined, registry: { dir: string; backlink: string }[]) =>
    decideWorktreeGitDir({ ...facts, ...(pointer === undefined ? {} : { pointer }), registry });

  test("the one its .git names, when that folder's backlink (absolute, or relative) names the worktree", () => {
    expect(decide("gitdir: /o/.git/worktrees/a-1\n", [own, other])).toEqual({ kind: "ok", gitDir: own.dir });
    const relative = { dir: own.dir, backlink: "../../../worktrees/a-1/.git\n" };
    expect(decide("gitdir: ../../.git/worktrees/a-1\n", [relative])).toEqual({ kind: "ok", gitDir: own.dir });
  });

  test("a .git naming another agent's folder, a repository of its own, "
    + "or nothing is repaired from the registry", () => {
    expect(decide("gitdir: /o/.git/worktrees/b-1\n", [own, other])).toEqual({
      kind: "repair", gitDir: own.dir,
      reason: "/o/worktrees/a-1/.git names /o/.git/worktrees/b-1; its git folder is /o/.git/worktrees/a-1",
    });
    expect(decide("gitdir: /tmp/evil/.git\n", [own])).toMatchObject({ kind: "repair", gitDir: own.dir });
    expect(decide(undefined, [own])).toEqual({
      kind: "repair", gitDir: own.dir,
      reason: "/o/worktrees/a-1/.git names no git folder; its git folder is /o/.git/worktrees/a-1",
    });
  });

  test("another agent's folder claiming this worktree takes nothing over; "
    + "two claims, .git naming neither: lost", () => {
    const claim = { dir: "/o/.git/worktrees/b-1", backlink: "/o/worktrees/a-1/.git" };
    expect(decide("gitdir: /o/.git/worktrees/a-1\n", [own, claim])).toEqual({ kind: "ok", gitDir: own.dir });
    expect(decide("gitdir: /tmp/evil\n", [own, claim])).toEqual({
      kind: "lost",
      reason: "2 git folders in /o/.git/worktrees claim /o/worktrees/a-1 (/o/.git/worktrees/a-1, /o/.git/worktrees/b-1)"
        + " and its .git names /tmp/evil",
    });
    expect(decide("gitdir: /o/.git/worktrees/a-1\n", [other])).toEqual({
      kind: "lost",
      reason: "no git folder in /o/.git/worktrees belongs to /o/worktrees/a-1 (its .git names /o/.git/worktrees/a-1)",
    });
  });
});

describe("a config.worktree org's git still reads", () => {
  test("sparse checkout's switches, comments, blank lines; nothing naming a program, "
    + "no include, nothing unknown", () => {
    expect(isHarmlessWorktreeConfig("")).toBe(true);
    const sparse = "# sparse\n[core]\n\tsparseCheckout = true\n\tsparseCheckoutCone = true\n[index]\n\tsparse = true\n";
    expect(isHarmlessWorktreeConfig(sparse)).toBe(true);
    for (const text of [
      "[core]\n\tfsmonitor = /tmp/hook\n",
      '[filter "evil"]\n\tclean = /tmp/hook\n',
      "[include]\n\tpath = /tmp/more\n",
      "[core.sparseCheckout]\n",
      "[index]\n\tsparseCheckout = true\n",
      "[core]\n\tsparseCheckout = true \\\n\tfsmonitor = /tmp/hook\n",
      "sparseCheckout = true\n",
    ]) expect(isHarmlessWorktreeConfig(text), text).toBe(false);
  });
});

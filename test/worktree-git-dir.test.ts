// Which git folder is an agent worktree's, and which config.worktree org's git may read: decided from git's registry
// in the org's common folder, which the agent can write only for itself, never from its .git alone.
import { describe, expect, test } from "vitest";
import { decideWorktreeGitDir, isHarmlessWorktreeConfig } from "../src/org/sandbox/git-dir.js";

describe("which git folder is an agent worktree's", () => {
  const facts = { worktree: "/o/worktrees/a-1", common: "/o/.git" };
  const own = { dir: "/o/.git/worktrees/a-1", backlink: "/o/worktrees/a-1/.git\n" };
  const other = { dir: "/o/.git/worktrees/b-1", backlink: "/o/worktrees/b-1/.git\n" };

  test("the one its .git names, when that folder's backlink names the worktree", () => {
    expect(decideWorktreeGitDir({ ...facts, pointer: "gitdir: /o/.git/worktrees/a-1\n", registry: [own, other] })).toEqual({ kind: "ok", gitDir: own.dir });
  });

  test("a .git naming another agent's folder, or a repository of its own, is repaired from the registry", () => {
    expect(decideWorktreeGitDir({ ...facts, pointer: "gitdir: /o/.git/worktrees/b-1\n", registry: [own, other] })).toEqual({
      kind: "repair", gitDir: own.dir, reason: "/o/worktrees/a-1/.git names /o/.git/worktrees/b-1, not its git folder /o/.git/worktrees/a-1",
    });
    expect(decideWorktreeGitDir({ ...facts, registry: [own] })).toMatchObject({ kind: "repair", gitDir: own.dir });
  });

  test("another agent claiming this worktree in its own folder does not take it over; two claims and a .git naming neither is lost", () => {
    const claim = { dir: "/o/.git/worktrees/b-1", backlink: "/o/worktrees/a-1/.git" };
    expect(decideWorktreeGitDir({ ...facts, pointer: "gitdir: /o/.git/worktrees/a-1\n", registry: [own, claim] })).toEqual({ kind: "ok", gitDir: own.dir });
    expect(decideWorktreeGitDir({ ...facts, pointer: "gitdir: /tmp/evil\n", registry: [own, claim] })).toEqual({
      kind: "lost", reason: "2 git folders in /o/.git/worktrees claim /o/worktrees/a-1 (/o/.git/worktrees/a-1, /o/.git/worktrees/b-1) and its .git names /tmp/evil",
    });
  });
});

describe("a config.worktree org's git still reads", () => {
  test("sparse checkout's switches, comments and blank lines; nothing that names a program, includes, or is not understood", () => {
    expect(isHarmlessWorktreeConfig("")).toBe(true);
    expect(isHarmlessWorktreeConfig("# sparse\n[core]\n\tsparseCheckout = true\n\tsparseCheckoutCone = true\n[index]\n\tsparse = true\n")).toBe(true);
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

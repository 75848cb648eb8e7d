import { describe, expect, test } from "vitest";
import { decideWorktreeRemoval, parseWorktreeList } from "../../../src/domain/lifecycle/worktree-list.js";

describe("parseWorktreeList", () => {
  test("reads path, head and branch of each block", () => {
    const text = "worktree /r\nHEAD abc\nbranch refs/heads/main\n\nworktree /r/worktrees/a-1\nHEAD def\n"
      + "branch refs/heads/org/x/a-1\n\nworktree /gone\nHEAD 123\ndetached\n"
      + "prunable gitdir file points to non-existent location\n\n";
    expect(parseWorktreeList(text)).toEqual([
      { path: "/r", head: "abc", branch: "main", prunable: false },
      { path: "/r/worktrees/a-1", head: "def", branch: "org/x/a-1", prunable: false },
      { path: "/gone", head: "123", branch: null, prunable: true },
    ]);
  });
});

describe("decideWorktreeRemoval", () => {
  const base = { branch: "org/x/a-1", expectedBranch: "org/x/a-1", ignored: [] };
  test("a clean worktree on its branch may go: its commits stay on the branch", () => {
    expect(decideWorktreeRemoval({ ...base, dirty: [] })).toEqual({
      kind: "remove",
      reason: "clean; its commits stay on branch org/x/a-1",
    });
  });
  test("uncommitted changes keep it, naming the paths", () => {
    expect(decideWorktreeRemoval({ ...base, dirty: [" M train.py", "?? notes.md"] })).toEqual({
      kind: "keep",
      reason: "uncommitted changes (2 paths: train.py, notes.md)",
    });
  });
  test("a detached or foreign HEAD keeps it", () => {
    expect(decideWorktreeRemoval({ ...base, dirty: [], branch: null })).toEqual({
      kind: "keep",
      reason: "HEAD is on a detached commit, not org/x/a-1; its commits may live nowhere else",
    });
  });
});

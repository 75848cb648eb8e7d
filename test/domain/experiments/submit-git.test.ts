// `org submit`'s reading of one round of git answers: pure decisions, no git.
import { describe, expect, test } from "vitest";
import { decideBranchRef, isStaged, knowAncestor } from "../../../src/domain/experiments/submit-git.js";

const TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

describe("submit's git answers", () => {
  test("staged: the index's tree is not HEAD's, or git could not write it", () => {
    expect(isStaged({ exitCode: 0, stdout: `${TREE}\n` }, TREE)).toBe(false);
    expect(isStaged({ exitCode: 0, stdout: `${"1".repeat(40)}\n` }, TREE)).toBe(true);
    // Unmerged paths: write-tree fails, and the commit that follows says why.
    expect(isStaged({ exitCode: 128, stdout: "" }, TREE)).toBe(true);
    expect(isStaged({ exitCode: 0, stdout: `${TREE}\n` }, undefined)).toBe(true);
  });

  test("the ref a commit goes on: the agent's branch, a detached HEAD, never another ref HEAD names", () => {
    const branch = "refs/heads/org/t/r-1";
    expect(decideBranchRef({ exitCode: 0, stdout: `${branch}\n` }, "org/t/r-1")).toBe(branch);
    expect(decideBranchRef({ exitCode: 1, stdout: "" }, "org/t/r-1")).toBe("HEAD");
    expect(decideBranchRef({ exitCode: 0, stdout: "refs/heads/org/t/best\n" }, "org/t/r-1")).toBeUndefined();
    expect(decideBranchRef({ exitCode: 128, stdout: "" }, "org/t/r-1")).toBeUndefined();
  });

  test("a queued candidate is the head's ancestor, no git asked, as the head or the new commit's parent", () => {
    const [queued, head, parent] = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
    expect(knowAncestor(queued, queued, undefined)).toBe(true);
    expect(knowAncestor(queued, head, queued)).toBe(true);
    expect(knowAncestor(queued, head, parent)).toBeUndefined();
    expect(knowAncestor(queued, head, undefined)).toBeUndefined();
  });
});

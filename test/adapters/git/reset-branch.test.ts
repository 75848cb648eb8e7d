// The verifier's reset after a discard moves the branch from the head it just read, and asks git for it no more.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { resetAgentBranch } from "../../../src/adapters/git/reset-branch.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createAgentWorktree, git, makeTempDir } from "../../helpers/temp-repo.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

// a-1's worktree on its branch, one commit (value 2) ahead of the base (value 1).
function makeWorktree() {
  const made = createAgentWorktree();
  const outside = makeTempDir("org-reset-");
  dirs.push(made.repo, outside);
  return { ...made, rescue: join(outside, "rescue.patch") };
}

test("with the head it read, the reset runs one git process less; branch and worktree go to the base", async () => {
  const asked = makeWorktree();
  const before = usage.spawned;
  await resetAgentBranch(asked.repo, asked.agent, asked.base, asked.rescue, () => {});
  const reading = usage.spawned - before;
  const known = makeWorktree();
  const start = usage.spawned;
  const reset = resetAgentBranch(known.repo, known.agent, known.base, known.rescue, () => {}, known.head);
  expect(await reset).toBeUndefined();
  expect(usage.spawned - start).toBe(reading - 1);
  expect(git(known.repo, ["rev-parse", "refs/heads/org/t/a-1"]).trim()).toBe(known.base);
  expect(readFileSync(join(known.worktree, "value.txt"), "utf8")).toBe("1\n");
});

test("a commit the agent made after the head was read stays on its branch: moving from the old fails", async () => {
  const org = makeWorktree();
  writeFileSync(join(org.worktree, "value.txt"), "3\n");
  git(org.worktree, ["commit", "-qam", "newer"]);
  const newer = git(org.worktree, ["rev-parse", "HEAD"]).trim();
  const reset = resetAgentBranch(org.repo, org.agent, org.base, org.rescue, () => {}, org.head);
  await expect(reset).rejects.toThrow(/update-ref/);
  expect(git(org.repo, ["rev-parse", "refs/heads/org/t/a-1"]).trim()).toBe(newer);
  // Nothing of the worktree was rewritten to the base while the branch kept the newer commit.
  expect(readFileSync(join(org.worktree, "value.txt"), "utf8")).toBe("3\n");
  expect(git(org.worktree, ["status", "--porcelain"])).toBe("");
});

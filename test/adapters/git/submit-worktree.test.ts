// `org submit`'s git in an agent's worktree: five processes when the repo names who commits; org's identity when not.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openSubmitGit } from "../../../src/adapters/git/submit-worktree.js";
import { openOrgWorktree } from "../../../src/adapters/git/worktree-git-dir.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createRepo, git } from "../../helpers/temp-repo.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

// a-1's worktree on its branch with value.txt changed, staged and committed as submit does it.
async function submitChange(repo: string) {
  dirs.push(repo);
  const path = join(repo, "worktrees", "a-1");
  git(repo, ["worktree", "add", "-q", "-b", "org/t/a-1", path, "main"]);
  writeFileSync(join(path, "value.txt"), "2\n");
  const submit = openSubmitGit(await openOrgWorktree(repo, path, "a-1"));
  const before = usage.spawned;
  const { tree, head } = await submit.stageAll();
  const made = await submit.commit(head, "try 2", "refs/heads/org/t/a-1", tree.stdout.trim());
  const spawned = usage.spawned - before;
  const commit = made.kind === "committed" ? made.commit : "";
  return { spawned, author: git(repo, ["log", "-1", "--format=%an <%ae>|%cn", commit]).trim() };
}

test("with an identity in the repo's config, submit's git is four processes and commits as it", async () => {
  expect(await submitChange(createRepo({ "value.txt": "1\n" }))).toEqual({
    spawned: 4, author: "org-test <org-test@example.invalid>|org-test",
  });
});

test("a repo that names nobody gets org's identity, never one guessed from the host", async () => {
  const repo = createRepo({ "value.txt": "1\n" });
  git(repo, ["config", "--unset", "user.name"]);
  git(repo, ["config", "--unset", "user.email"]);
  const { author } = await submitChange(repo);
  expect(author).toBe("org agent <agent@org.invalid>|org agent");
});

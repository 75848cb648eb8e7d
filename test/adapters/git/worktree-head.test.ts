// Where an agent's worktree HEAD points, read off its HEAD file when it says so plainly: as git answers, without git.
import { rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openOrgWorktree } from "../../../src/adapters/git/worktree-git-dir.js";
import { readHeadRef } from "../../../src/adapters/git/worktree-head.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createRepo, git, makeTempDir } from "../../helpers/temp-repo.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

async function openWorktree() {
  const repo = createRepo({ "value.txt": "1\n" });
  const outside = makeTempDir("org-head-");
  dirs.push(repo, outside);
  const path = join(repo, "worktrees", "a-1");
  git(repo, ["worktree", "add", "-q", "-b", "org/t/a-1", path, "main"]);
  return { repo, path, outside, worktree: await openOrgWorktree(repo, path, "a-1") };
}

const asGit = (dir: string) => {
  try {
    return { exitCode: 0, stdout: git(dir, ["symbolic-ref", "-q", "--no-recurse", "HEAD"]) };
  } catch {
    return { exitCode: 1, stdout: "" };
  }
};

test("a HEAD on the branch, or detached, is read from its file, with no git process, as git says it", async () => {
  const { path, worktree } = await openWorktree();
  for (const move of [() => undefined, () => git(path, ["checkout", "-q", "--detach"])]) {
    move();
    const before = usage.spawned;
    const read = await readHeadRef(worktree);
    expect(usage.spawned).toBe(before);
    expect({ exitCode: read.exitCode, stdout: read.stdout }).toEqual(asGit(path));
  }
});

test("a HEAD the agent pointed at another ref, or made a link, is git's to answer", async () => {
  const { repo, path, outside, worktree } = await openWorktree();
  git(path, ["symbolic-ref", "HEAD", "refs/frontier"]);
  const before = usage.spawned;
  expect(await readHeadRef(worktree)).toMatchObject({ exitCode: 0, stdout: "refs/frontier\n" });
  expect(usage.spawned).toBe(before + 1);
  const head = join(repo, ".git", "worktrees", "a-1", "HEAD");
  writeFileSync(join(outside, "HEAD"), "ref: refs/heads/org/t/a-1\n");
  unlinkSync(head);
  symlinkSync(join(outside, "HEAD"), head);
  const start = usage.spawned;
  await readHeadRef(worktree);
  expect(usage.spawned).toBe(start + 1);
});

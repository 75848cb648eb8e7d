import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { addWorktrees } from "../../../src/adapters/git/worktrees.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { OrgError } from "../../../src/domain/errors.js";
import { createRepo, git, GIT_ENV, removeDir } from "../../helpers/temp-repo.js";

let repo: string | undefined;
afterEach(() => {
  if (repo) removeDir(repo);
  repo = undefined;
});

// A commit git will not check out: its tree holds a folder named .git.
function uncheckoutableCommit(dir: string): string {
  const run = (args: string[], input: string) =>
    execFileSync("git", args, { cwd: dir, input, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();
  const blob = run(["hash-object", "-w", "--stdin"], "hi\n");
  const inner = run(["mktree"], `100644 blob ${blob}\tx\n`);
  const tree = run(["mktree"], `040000 tree ${inner}\t.git\n`);
  return run(["commit-tree", tree, "-p", "main", "-m", "unsafe"], "");
}

describe("addWorktrees (one shell for every git call)", () => {
  test("branches made, worktrees added and checked out; " +
    "a failed add or checkout is named, its worktree not left empty", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    const main = git(repo, ["rev-parse", "main"]).trim();
    const bad = uncheckoutableCommit(repo);
    const taken = join(repo, "worktrees", "a-3");
    mkdirSync(taken, { recursive: true });
    writeFileSync(join(taken, "notes.md"), "mine\n");
    const entry = (name: string, base: string) => ({
      path: join(repo!, "worktrees", name),
      branch: `org/t/${name}`,
      base,
      branchExists: false,
    });
    const spawned = usage.spawned;
    const error = await addWorktrees(repo, [entry("a-1", main), entry("a-2", bad), entry("a-3", main)]).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OrgError);
    expect((error as Error).message.split("\n").sort()).toEqual([
      `git checkout of org/t/a-2 in ${join(repo, "worktrees", "a-2")} failed: error: invalid path '.git/x'`,
      `git worktree add ${taken} org/t/a-3 failed: fatal: '${taken}' already exists`,
    ]);
    // One process for the whole batch, and one more to remove the worktree whose checkout failed.
    expect(usage.spawned - spawned).toBe(2);
    expect(readFileSync(join(repo, "worktrees", "a-1", "train.py"), "utf8")).toBe("print(1)\n");
    expect(git(join(repo, "worktrees", "a-1"), ["status", "--porcelain"])).toBe("");
    expect(existsSync(join(repo, "worktrees", "a-2"))).toBe(false);
    expect(readFileSync(join(taken, "notes.md"), "utf8")).toBe("mine\n");
    // Branches stay, even for the failed ones; the repo lists only the worktree that worked.
    expect(git(repo, ["for-each-ref", "--format=%(refname:strip=2)", "refs/heads/org/t/"]).trim().split("\n")).toEqual([
      "org/t/a-1",
      "org/t/a-2",
      "org/t/a-3",
    ]);
    expect(git(repo, ["worktree", "list", "--porcelain"]).match(/^worktree .*/gm)).toEqual([
      `worktree ${repo}`,
      `worktree ${join(repo, "worktrees", "a-1")}`,
    ]);
  });

  test("an existing branch is checked out as it is, not made again", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    git(repo, ["branch", "org/t/a-1"]);
    git(repo, ["commit", "-q", "--allow-empty", "-m", "later"]);
    const head = git(repo, ["rev-parse", "org/t/a-1"]).trim();
    await addWorktrees(repo, [
      { path: join(repo, "worktrees", "a-1"), branch: "org/t/a-1", base: "main", branchExists: true },
    ]);
    expect(git(join(repo, "worktrees", "a-1"), ["rev-parse", "HEAD"]).trim()).toBe(head);
    expect(git(repo, ["rev-parse", "main"]).trim()).not.toBe(head);
  });
});

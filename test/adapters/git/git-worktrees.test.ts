import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
  const env = { ...process.env, ...GIT_ENV };
  const run = (args: string[], input: string) =>
    execFileSync("git", args, { cwd: dir, input, encoding: "utf8", env }).trim();
  const blob = run(["hash-object", "-w", "--stdin"], "hi\n");
  const inner = run(["mktree"], `100644 blob ${blob}\tx\n`);
  const tree = run(["mktree"], `040000 tree ${inner}\t.git\n`);
  return run(["commit-tree", tree, "-p", "main", "-m", "unsafe"], "");
}

describe("addWorktrees (one shell for every git call)", () => {
  test("branches made, worktrees added and checked out; a failed add or checkout is named, "
    + "its worktree not left empty", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    const main = git(repo, ["rev-parse", "main"]).trim();
    const bad = uncheckoutableCommit(repo);
    const taken = join(repo, "worktrees", "a-3");
    mkdirSync(taken, { recursive: true });
    writeFileSync(join(taken, "notes.md"), "mine\n");
    const entry = (name: string, base: string) =>
      ({ path: join(repo!, "worktrees", name), branch: `org/t/${name}`, base, branchExists: false });
    const spawned = usage.spawned;
    const error = await addWorktrees(repo, [entry("a-1", main), entry("a-2", bad), entry("a-3", main)])
      .catch((caught: unknown) => caught);
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
    const branches = git(repo, ["for-each-ref", "--format=%(refname:strip=2)", "refs/heads/org/t/"]).trim();
    expect(branches.split("\n")).toEqual(["org/t/a-1", "org/t/a-2", "org/t/a-3"]);
    expect(git(repo, ["worktree", "list", "--porcelain"]).match(/^worktree .*/gm))
      .toEqual([`worktree ${repo}`, `worktree ${join(repo, "worktrees", "a-1")}`]);
  });

  test("an existing branch is checked out as it is, not made again", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    git(repo, ["branch", "org/t/a-1"]);
    git(repo, ["commit", "-q", "--allow-empty", "-m", "later"]);
    const head = git(repo, ["rev-parse", "org/t/a-1"]).trim();
    const path = join(repo, "worktrees", "a-1");
    await addWorktrees(repo, [{ path, branch: "org/t/a-1", base: "main", branchExists: true }]);
    expect(git(join(repo, "worktrees", "a-1"), ["rev-parse", "HEAD"]).trim()).toBe(head);
    expect(git(repo, ["rev-parse", "main"]).trim()).not.toBe(head);
  });
});

describe("addWorktrees of new branches (no git worktree add)", () => {
  test("org registers the worktree itself, as git would: listed, clean, the same files in .git", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    git(repo, ["branch", "org/t/a-2"]);
    const trace = join(repo, "..", `${repo.split("/").pop()}-git-trace`);
    const at = (name: string) => join(repo!, "work trees", name);
    process.env.GIT_TRACE = trace;
    try {
      await addWorktrees(repo, [
        { path: at("a-1"), branch: "org/t/a-1", base: "main", branchExists: false },
        { path: at("a-2"), branch: "org/t/a-2", base: "main", branchExists: true },
      ]);
    } finally {
      delete process.env.GIT_TRACE;
    }
    // Only the existing branch went through git's add.
    const adds = readFileSync(trace, "utf8").match(/built-in: git .*worktree add .*/g) ?? [];
    removeDir(trace);
    expect(adds.map((line) => line.includes("a-2"))).toEqual([true]);
    const listed = git(repo, ["worktree", "list", "--porcelain"]).match(/^(worktree|branch) .*/gm);
    expect(listed).toEqual([`worktree ${repo}`, "branch refs/heads/main", `worktree ${at("a-1")}`,
      "branch refs/heads/org/t/a-1", `worktree ${at("a-2")}`, "branch refs/heads/org/t/a-2"]);
    const read = (name: string) => ["gitdir", "commondir", "HEAD"]
      .map((file) => readFileSync(join(repo!, ".git", "worktrees", name, file), "utf8").replaceAll(name, "X"))
      .concat(readFileSync(join(at(name), ".git"), "utf8").replaceAll(name, "X"));
    expect(read("a-1")).toEqual(read("a-2"));
    for (const name of ["a-1", "a-2"]) {
      expect(readFileSync(join(at(name), "train.py"), "utf8")).toBe("print(1)\n");
      expect(git(at(name), ["status", "--porcelain"])).toBe("");
    }
  });

  test("branches git refuses to make: the worktrees registered for them are taken back", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    git(repo, ["branch", "org/t/a-1"]);
    const path = join(repo, "worktrees", "a-1");
    const error = await addWorktrees(repo, [{ path, branch: "org/t/a-1", base: "main", branchExists: false }])
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^git update-ref in .* failed: fatal: /);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(repo, ".git", "worktrees", "a-1"))).toBe(false);
    expect(git(repo, ["worktree", "list", "--porcelain"]).match(/^worktree .*/gm)).toEqual([`worktree ${repo}`]);
  });
});

describe("addWorktrees and the branches' logs (agents write their folders)", () => {
  test("a link an agent left at a branch's log is not written through, new branch or existing", async () => {
    repo = createRepo({ "train.py": "print(1)\n" });
    const outside = join(repo, "..", `${repo.split("/").pop()}-rc`);
    writeFileSync(outside, "export PS1=mine\n");
    git(repo, ["branch", "org/t/old"]);
    const logs = join(repo, ".git", "logs", "refs", "heads", "org", "t");
    mkdirSync(logs, { recursive: true });
    rmSync(join(logs, "old"));
    for (const name of ["new", "old"]) symlinkSync(outside, join(logs, name));
    const entry = (name: string, branchExists: boolean) =>
      ({ path: join(repo!, "worktrees", name), branch: `org/t/${name}`, base: "main", branchExists });
    try {
      await addWorktrees(repo, [entry("new", false), entry("old", true)]);
      expect(readFileSync(outside, "utf8")).toBe("export PS1=mine\n");
      expect(lstatSync(join(logs, "new"), { throwIfNoEntry: false })).toBeUndefined();
      for (const name of ["new", "old"]) {
        expect(readFileSync(join(repo, "worktrees", name, "train.py"), "utf8")).toBe("print(1)\n");
        expect(git(join(repo, "worktrees", name), ["status", "--porcelain"])).toBe("");
      }
    } finally {
      rmSync(outside, { force: true });
    }
  });
});

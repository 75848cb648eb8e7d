// The repo readied for sandboxed agents: program B's best (an A/B run's) is a symbolic ref as the org best is, so the
// sandbox can mount it read-only and the verifier writes its target, outside the folder agents write.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { prepareSandboxGit } from "../../../src/adapters/git/sandbox-git.js";
import { createRepo, git, makeTempDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function makeRepo(): string {
  const dir = makeTempDir("org-sandbox-git-");
  dirs.push(dir);
  return createRepo({ "a.txt": "1\n" }, dir);
}

test("b-best becomes a symbolic ref to refs/frontier-b/<org> beside best's to refs/frontier/<org>", async () => {
  const repo = makeRepo();
  await prepareSandboxGit(repo, "t");
  const branches = join(repo, ".git", "refs", "heads", "org", "t");
  expect(readFileSync(join(branches, "best"), "utf8")).toBe("ref: refs/frontier/t\n");
  expect(readFileSync(join(branches, "b-best"), "utf8")).toBe("ref: refs/frontier-b/t\n");
});

test("a b-best branch made before (even packed) moves to refs/frontier-b/<org> first, best its own", async () => {
  const repo = makeRepo();
  const head = git(repo, ["rev-parse", "HEAD"]).trim();
  git(repo, ["commit", "-q", "--allow-empty", "-m", "two"]);
  git(repo, ["branch", "org/u/best", head]);
  git(repo, ["branch", "org/u/b-best", "HEAD"]);
  git(repo, ["pack-refs", "--all"]);
  await prepareSandboxGit(repo, "u");
  expect(git(repo, ["symbolic-ref", "refs/heads/org/u/b-best"]).trim()).toBe("refs/frontier-b/u");
  const moved = git(repo, ["rev-parse", "refs/frontier/u", "refs/frontier-b/u"]).trim().split("\n");
  expect(moved).toEqual([head, git(repo, ["rev-parse", "HEAD"]).trim()]);
});

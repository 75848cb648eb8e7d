// Red team: the verifier now reads a branch's commit off its loose ref file, and a worktree's HEAD off its HEAD file,
// instead of asking git. An agent writes both (its branch, b-best beside it, its worktree's git folder): a file git
// itself calls broken, or reads as another ref, must not be believed as the commit or the branch git would name.
import { chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createVerifierPort } from "../../src/adapters/verifier/port.js";
import { readHeadRef } from "../../src/adapters/git/worktree-head.js";
import { openOrgWorktree } from "../../src/adapters/git/worktree-git-dir.js";
import { createRepo, git } from "../helpers/temp-repo.js";
import { handOver, IDENTITIES, runAs } from "./identities.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

// A repo with agent a-1's worktree on its branch and the B half's best beside it, in the folder agents write.
function makeOrg() {
  const repo = createRepo({ "value.txt": "1\n" });
  dirs.push(repo);
  chmodSync(repo, 0o755);
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const worktree = join(repo, "worktrees", "a-1");
  git(repo, ["worktree", "add", "-q", "-b", "org/t/a-1", worktree, "main"]);
  git(repo, ["branch", "org/t/b-best", base]);
  const branches = join(repo, ".git", "refs", "heads", "org", "t");
  return { repo, base, worktree, branches, gitDir: join(repo, ".git", "worktrees", "a-1") };
}

// What git itself says the ref points at: undefined for a ref it calls broken or missing.
function gitHead(repo: string, ref: string): string | undefined {
  try {
    return git(repo, ["rev-parse", "--verify", "--quiet", ref]).trim();
  } catch {
    return undefined;
  }
}

describe.each(IDENTITIES)("as $name", (who) => {
  test("a ref file git calls broken is not taken for the journaled commit (b-best, the agent's branch)", async () => {
    const org = makeOrg();
    handOver(who, org.branches);
    // The agent's shell: the journaled commit, with one space before it (or a no-break space after it).
    const forge = (name: string, text: string) =>
      runAs(who, ["sh", "-c", `printf '${text}' > ${name}`], { cwd: org.branches });
    expect(forge("b-best", ` ${org.base}\\n`).code).toBe(0);
    expect(forge("a-1", `${org.base}\\302\\240\\n`).code).toBe(0);
    const port = createVerifierPort({ repo: org.repo, state: join(org.repo, "state") });
    // git: "ignoring broken ref"; the guard must see what git sees (a b-best gone, to put back and name).
    expect(gitHead(org.repo, "refs/heads/org/t/b-best")).toBeUndefined();
    expect(await port.branchHead("org/t/b-best")).toBe(gitHead(org.repo, "refs/heads/org/t/b-best"));
    expect(await port.branchHead("org/t/a-1")).toBe(gitHead(org.repo, "refs/heads/org/t/a-1"));
  });

  test("a HEAD naming a branch one no-break space longer is not taken for the agent's branch", async () => {
    const org = makeOrg();
    handOver(who, org.gitDir);
    handOver(who, org.branches);
    // A branch of its own choosing whose name is the agent's branch and a no-break space, HEAD pointed at it.
    const nbsp = "\\302\\240";
    const made = runAs(who, ["sh", "-c", `cp a-1 "a-1$(printf '${nbsp}')"`], { cwd: org.branches });
    expect(made.code, made.stderr).toBe(0);
    const point = `printf 'ref: refs/heads/org/t/a-1${nbsp}\\n' > HEAD`;
    const pointed = runAs(who, ["sh", "-c", point], { cwd: org.gitDir });
    expect(pointed.code, pointed.stderr).toBe(0);
    const worktree = await openOrgWorktree(org.repo, org.worktree, "a-1");
    const byGit = git(org.repo, ["--git-dir", org.gitDir, "symbolic-ref", "-q", "--no-recurse", "HEAD"]);
    expect(byGit).toBe("refs/heads/org/t/a-1\u00a0\n");
    expect((await readHeadRef(worktree)).stdout).toBe(byGit);
  });
});

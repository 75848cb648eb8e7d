// Red team, the same file operations an agent's shell can do to its worktree, done by the test before the daemon's
// git acts: the verifier's reset after a discard and `org down --clean`'s look at the worktree run nothing of them.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { gitAdapter } from "../../src/adapters/git/git.js";
import { createVerifierPort } from "../../src/adapters/verifier/port.js";
import { decideWorktreeGitDir } from "../../src/org/sandbox/git-dir.js";
import { createRepo, git, makeTempDir } from "../helpers/temp-repo.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

// A repo with agent a-1's worktree on its branch, one commit ahead of main, and a hook that marks where it ran.
function makeOrg() {
  const repo = createRepo({ "value.txt": "1\n" });
  const outside = makeTempDir("org-outside-");
  dirs.push(repo, outside);
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const worktree = join(repo, "worktrees", "a-1");
  git(repo, ["worktree", "add", "-q", "-b", "org/t/a-1", worktree, "main"]);
  writeFileSync(join(worktree, "value.txt"), "2\n");
  git(worktree, ["commit", "-qam", "worse"]);
  const hook = join(outside, "hook.sh");
  const marker = join(outside, "pwned");
  writeFileSync(hook, `#!/bin/sh\necho "$*" >> ${marker}\ncat 2>/dev/null\nexit 0\n`, { mode: 0o755 });
  const gitDir = join(repo, ".git", "worktrees", "a-1");
  return { repo, base, worktree, gitDir, outside, hook, marker, agent: { name: "a-1", branch: "org/t/a-1", worktree } };
}

type Org = ReturnType<typeof makeOrg>;

// The verifier's reset of a-1's branch to base after a discard, as the daemon's verifier port does it.
function reset(org: Org, say: (line: string) => void): Promise<string | undefined> {
  const port = createVerifierPort({ repo: org.repo, state: join(org.outside, "state"), say });
  return port.resetBranch(org.agent, org.base, join(org.outside, "rescue.patch"));
}

// The traps of test/security/git-worktree.e2e.test.ts, planted from outside the sandbox.
const TRAPS: { what: string; plant: (org: Org) => void }[] = [
  {
    what: ".git names a repository of the agent's, on its branch, with an fsmonitor",
    plant: ({ worktree, outside, hook }) => {
      const evil = join(outside, "evil");
      git(outside, ["init", "-q", evil]);
      git(evil, ["symbolic-ref", "HEAD", "refs/heads/org/t/a-1"]);
      git(evil, ["commit", "-q", "--allow-empty", "-m", "evil"]);
      git(evil, ["config", "core.fsmonitor", hook]);
      writeFileSync(join(worktree, ".git"), `gitdir: ${evil}/.git\n`);
    },
  },
  {
    what: "commondir names a copy of the repo with an fsmonitor",
    plant: ({ repo, gitDir, outside, hook }) => {
      const evil = join(outside, "evil.git");
      git(outside, ["clone", "-q", "--bare", "--shared", join(repo, ".git"), evil]);
      git(evil, ["config", "core.fsmonitor", hook]);
      writeFileSync(join(gitDir, "commondir"), `${evil}\n`);
    },
  },
  {
    what: "config.worktree (the repo reads it) sets an fsmonitor and a filter that .gitattributes names",
    plant: ({ repo, worktree, gitDir, hook }) => {
      git(repo, ["config", "extensions.worktreeConfig", "true"]);
      writeFileSync(join(gitDir, "config.worktree"), `[core]\n\tfsmonitor = ${hook}\n[filter "evil"]\n\tclean = ${hook}\n\tsmudge = ${hook}\n`);
      writeFileSync(join(worktree, ".gitattributes"), "value.txt filter=evil\n");
    },
  },
];

describe("the daemon's git on a worktree the agent rewrote", () => {
  test.each(TRAPS)("the verifier's reset after a discard: $what — nothing runs, the branch and the worktree go back", async ({ plant }) => {
    const org = makeOrg();
    plant(org);
    const said: string[] = [];
    expect(await reset(org, (line) => said.push(line))).toBeUndefined();
    expect(existsSync(org.marker) ? readFileSync(org.marker, "utf8") : "").toBe("");
    expect(git(org.repo, ["rev-parse", "org/t/a-1"]).trim()).toBe(org.base);
    expect(readFileSync(join(org.worktree, "value.txt"), "utf8")).toBe("1\n");
    expect(readFileSync(join(org.worktree, ".git"), "utf8")).toBe(`gitdir: ${org.gitDir}\n`);
    expect(readFileSync(join(org.gitDir, "commondir"), "utf8").trim()).toMatch(/^(\.\.\/\.\.|.*\/\.git)$/);
    expect(said.every((line) => line.startsWith("a-1: "))).toBe(true);
  });

  test.each(TRAPS)("org down --clean's look at the worktree: $what — nothing runs", async ({ plant }) => {
    const org = makeOrg();
    plant(org);
    writeFileSync(join(org.worktree, "new.txt"), "x\n");
    expect(await gitAdapter.dirtyFiles(org.repo, org.worktree, "a-1")).toContain("?? new.txt");
    expect(existsSync(org.marker) ? readFileSync(org.marker, "utf8") : "").toBe("");
  });

  test("a reset whose HEAD or branch the agent made symbolic moves only the agent's branch, never what they name", async () => {
    const org = makeOrg();
    const main = git(org.repo, ["rev-parse", "main"]).trim();
    git(org.repo, ["update-ref", "refs/frontier/t", main]);
    writeFileSync(join(org.gitDir, "HEAD"), "ref: refs/frontier/t\n");
    await reset(org, () => {});
    expect(git(org.repo, ["rev-parse", "refs/frontier/t", "main"]).trim().split("\n")).toEqual([main, main]);
    expect(git(org.repo, ["rev-parse", "org/t/a-1"]).trim()).toBe(org.base);
  });

  test("a worktree no folder of git's registry claims is reported, and git is not run there", async () => {
    const org = makeOrg();
    writeFileSync(join(org.gitDir, "gitdir"), "/elsewhere/.git\n");
    await expect(gitAdapter.dirtyFiles(org.repo, org.worktree, "a-1")).rejects.toThrow(
      `a-1's worktree: no git folder in ${join(org.repo, ".git", "worktrees")} belongs to ${org.worktree} (its .git names ${org.gitDir}) — org runs no git there; \`org down\` then \`org up\` makes it again`,
    );
  });
});

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

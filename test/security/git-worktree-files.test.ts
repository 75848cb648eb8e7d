// Red team, the same file operations an agent's shell can do to its worktree, done by the test before the daemon's
// git acts: the verifier's reset after a discard and `org down --clean`'s look at the worktree run nothing of them.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { gitAdapter } from "../../src/adapters/git/git.js";
import { createVerifierPort } from "../../src/adapters/verifier/port.js";
import { runOrg } from "../helpers/org-cli.js";
import { createAgentWorktree, git, makeTempDir } from "../helpers/temp-repo.js";
import { createTestOrg } from "../helpers/test-org/index.js";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

// A repo with agent a-1's worktree on its branch, one commit ahead of main, and a hook that marks where it ran.
function makeOrg() {
  const { repo, base, worktree, agent } = createAgentWorktree();
  const outside = makeTempDir("org-outside-");
  dirs.push(repo, outside);
  const hook = join(outside, "hook.sh");
  const marker = join(outside, "pwned");
  writeFileSync(hook, `#!/bin/sh\necho "$*" >> ${marker}\ncat 2>/dev/null\nexit 0\n`, { mode: 0o755 });
  const gitDir = join(repo, ".git", "worktrees", "a-1");
  return { repo, base, worktree, gitDir, outside, hook, marker, agent };
}

type Org = ReturnType<typeof makeOrg>;
const where = (org: Org) => ({
  repo: org.repo,
  state: join(org.outside, "state"),
  worktree: org.worktree,
  agent: "a-1",
});

// The verifier's reset of a-1's branch to base after a discard, as the daemon's verifier port does it.
function reset(org: Org, say: (line: string) => void): Promise<string | undefined> {
  const port = createVerifierPort({ repo: org.repo, state: join(org.outside, "state"), say });
  return port.resetBranch(org.agent, org.base, join(org.outside, "rescue.patch"));
}

// The traps of test/security/git-worktree.e2e.test.ts, planted from outside the sandbox.
const TRAPS: { what: string; said: RegExp; plant: (org: Org) => void }[] = [
  {
    what: ".git names a repository of the agent's, on its branch, with an fsmonitor",
    said: /^a-1: \S+\/a-1\/\.git names \S+\/evil\/\.git; its git folder is \S+; org ignored it and put \.git back$/,
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
    said: /^a-1: \S+\/commondir names \S+\/evil\.git, not the repo's \S+; org ignored it and put it back$/,
    plant: ({ repo, gitDir, outside, hook }) => {
      const evil = join(outside, "evil.git");
      git(outside, ["clone", "-q", "--bare", "--shared", join(repo, ".git"), evil]);
      git(evil, ["config", "core.fsmonitor", hook]);
      writeFileSync(join(gitDir, "commondir"), `${evil}\n`);
    },
  },
  {
    what: "config.worktree (the repo reads it) sets an fsmonitor and a filter that .gitattributes names",
    said: /^a-1: \S+\/config\.worktree sets more than sparse checkout; org set it aside as \S+\.org-set-aside, unread$/,
    plant: ({ repo, worktree, gitDir, hook }) => {
      git(repo, ["config", "extensions.worktreeConfig", "true"]);
      const config = `[core]\n\tfsmonitor = ${hook}\n[filter "evil"]\n\tclean = ${hook}\n\tsmudge = ${hook}\n`;
      writeFileSync(join(gitDir, "config.worktree"), config);
      writeFileSync(join(worktree, ".gitattributes"), "value.txt filter=evil\n");
    },
  },
];

describe("the daemon's git on a worktree the agent rewrote", () => {
  test.each(TRAPS)("the verifier's reset after a discard: $what — nothing runs, all goes back", async (trap) => {
    const { plant, said: line } = trap;
    const org = makeOrg();
    plant(org);
    const said: string[] = [];
    expect(await reset(org, (line) => said.push(line))).toBeUndefined();
    expect(existsSync(org.marker) ? readFileSync(org.marker, "utf8") : "").toBe("");
    expect(git(org.repo, ["rev-parse", "org/t/a-1"]).trim()).toBe(org.base);
    expect(readFileSync(join(org.worktree, "value.txt"), "utf8")).toBe("1\n");
    expect(readFileSync(join(org.worktree, ".git"), "utf8")).toBe(`gitdir: ${org.gitDir}\n`);
    expect(readFileSync(join(org.gitDir, "commondir"), "utf8").trim()).toMatch(/^(\.\.\/\.\.|.*\/\.git)$/);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(line);
  });

  test.each(TRAPS)("org down --clean's look at the worktree: $what — nothing runs", async ({ plant }) => {
    const org = makeOrg();
    plant(org);
    writeFileSync(join(org.worktree, "new.txt"), "x\n");
    expect(await gitAdapter.dirtyFiles(where(org))).toContain("?? new.txt");
    expect(existsSync(org.marker) ? readFileSync(org.marker, "utf8") : "").toBe("");
  });

  const branchFile = (repo: string, agent: string) => join(repo, ".git", "refs", "heads", "org", "t", agent);
  test.each([
    { what: "HEAD", plant: (org: Org) => writeFileSync(join(org.gitDir, "HEAD"), "ref: refs/frontier/t\n") },
    { what: "its branch", plant: (org: Org) => writeFileSync(branchFile(org.repo, "a-1"), "ref: refs/frontier/t\n") },
  ])("a reset after the agent made $what symbolic (to the org's best) moves only its branch", async ({ plant }) => {
    const org = makeOrg();
    const best = git(org.repo, ["rev-parse", "org/t/a-1"]).trim();
    git(org.repo, ["update-ref", "refs/frontier/t", best]);
    plant(org);
    await reset(org, () => {});
    expect(git(org.repo, ["rev-parse", "refs/frontier/t"]).trim()).toBe(best);
    expect(readFileSync(branchFile(org.repo, "a-1"), "utf8")).toBe(`${org.base}\n`);
  });

  test("org submit after the agent made its branch symbolic (to the best) commits on it, not the best", async () => {
    const daemon = { pid: process.pid, heartbeatAt: new Date().toISOString() };
    const org = createTestOrg({ daemon: false, judged: true, state: { "state/daemon.json": JSON.stringify(daemon) } });
    dirs.push(org.dir);
    git(org.dir, ["update-ref", "refs/frontier/t", org.base]);
    writeFileSync(branchFile(org.dir, "researcher-1"), "ref: refs/frontier/t\n");
    writeFileSync(join(org.worktree, "value.txt"), "2\n");
    const submit = runOrg(["submit", "--no-wait", "-m", "double it"], { cwd: org.worktree });
    expect(submit.code, submit.stderr).toBe(0);
    expect(git(org.dir, ["rev-parse", "refs/frontier/t"]).trim()).toBe(org.base);
    const branch = readFileSync(branchFile(org.dir, "researcher-1"), "utf8").trim();
    expect(submit.stdout).toContain(`queued ${branch.slice(0, 7)} "double it"`);
  });

  test("org submit reads the org's snapshot of the global config, " +
    "not a ~/.gitconfig the agent wrote a filter into", () => {
    const daemon = { pid: process.pid, heartbeatAt: new Date().toISOString() };
    const org = createTestOrg({
      daemon: false,
      judged: true,
      state: { "state/daemon.json": JSON.stringify(daemon), "state/git-global-config": "" },
    });
    const home = makeTempDir("org-home-");
    dirs.push(org.dir, home);
    const marker = join(home, "pwned");
    writeFileSync(join(home, ".gitconfig"), `[filter "evil"]\n\tclean = sh -c 'echo clean >> ${marker}; cat'\n`);
    writeFileSync(join(org.worktree, ".gitattributes"), "value.txt filter=evil\n");
    writeFileSync(join(org.worktree, "value.txt"), "2\n");
    const submit = runOrg(["submit", "--no-wait", "-m", "double it"], { cwd: org.worktree, env: { HOME: home } });
    expect(submit.code, submit.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  test("a worktree no folder of git's registry claims is reported, and git is not run there", async () => {
    const org = makeOrg();
    writeFileSync(join(org.gitDir, "gitdir"), "/elsewhere/.git\n");
    const registry = join(org.repo, ".git", "worktrees");
    await expect(gitAdapter.dirtyFiles(where(org))).rejects.toThrow(
      `a-1's worktree: no git folder in ${registry} belongs to ${org.worktree} (its .git names ${org.gitDir})`
      + " — org runs no git there; `org down` then `org up` makes it again",
    );
  });
});

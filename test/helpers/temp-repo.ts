import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** Environment for real git in tests: fixed identity, no gpg, no auto-gc, no user config. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: "org-test",
  GIT_AUTHOR_EMAIL: "org-test@example.invalid",
  GIT_COMMITTER_NAME: "org-test",
  GIT_COMMITTER_EMAIL: "org-test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
};

export function git(dir: string, args: string[]): string {
  // stderr piped, not inherited: git's chatter ("Automatic merge went well…") stays out of the test output, and a
  // failure still carries it in the thrown error.
  return execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "gc.auto=0", ...args], {
    cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"],
  });
}

export function makeTempDir(prefix = "org-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** A temp git repo on branch main with these files committed; identity set in its own config. */
export function createRepo(files: Record<string, string>, dir = makeTempDir()): string {
  git(dir, ["init", "-q", "-b", "main"]);
  for (const [key, value] of [
    ["user.name", GIT_ENV.GIT_AUTHOR_NAME],
    ["user.email", GIT_ENV.GIT_AUTHOR_EMAIL],
    ["commit.gpgsign", "false"],
    ["gc.auto", "0"],
  ]) {
    git(dir, ["config", key!, value!]);
  }
  writeFiles(dir, files);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "initial"]);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** For a file whose tests make folders: the function returned notes each one, removed after its test. */
export function removeAfterEachTest(): (...dirs: string[]) => void {
  let dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs) removeDir(dir);
    dirs = [];
  });
  return (...made) => void dirs.push(...made);
}

/** A repo (value.txt "1") with these branches at main, as the ref tests start from; `head` is main's commit. */
export function createBranchRepo(branches: readonly string[]): { repo: string; head: string } {
  const repo = createRepo({ "value.txt": "1\n" });
  for (const branch of branches) git(repo, ["branch", branch]);
  return { repo, head: git(repo, ["rev-parse", "HEAD"]).trim() };
}

/**
 * A repo (value.txt "1") with agent a-1's worktree on branch org/t/a-1, one commit ("worse", value 2) ahead of main:
 * what the verifier's reset after a discard acts on. The caller removes `repo`.
 */
export function createAgentWorktree(): {
  repo: string; base: string; head: string; worktree: string; agent: { name: string; branch: string; worktree: string };
} {
  const repo = createRepo({ "value.txt": "1\n" });
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const worktree = join(repo, "worktrees", "a-1");
  git(repo, ["worktree", "add", "-q", "-b", "org/t/a-1", worktree, "main"]);
  writeFileSync(join(worktree, "value.txt"), "2\n");
  git(worktree, ["commit", "-qam", "worse"]);
  const head = git(worktree, ["rev-parse", "HEAD"]).trim();
  return { repo, base, head, worktree, agent: { name: "a-1", branch: "org/t/a-1", worktree } };
}

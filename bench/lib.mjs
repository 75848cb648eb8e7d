// Shared helpers for the benchmarks: temp repos, the built CLI, timing, percentiles.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const ORG = join(ROOT, "bin", "org.js");
export const FOREVER = join(ROOT, "test", "fixtures", "bin", "forever");
const GIT_ENV = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "b@b.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "b@b.invalid",
};

export function git(dir, args) {
  return execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "gc.auto=0", ...args], {
    cwd: dir,
    env: { ...process.env, ...GIT_ENV },
    encoding: "utf8",
  });
}

/** A temp git repo on main with these files committed, identity in its own config. */
export function createRepo(files) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-bench-")));
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "bench"]);
  git(dir, ["config", "user.email", "b@b.invalid"]);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "initial"]);
  return dir;
}

export function org(args, cwd) {
  const result = spawnSync(process.execPath, [ORG, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TMUX: "", ORG_ROOT: "" },
  });
  if (result.status !== 0)
    throw new Error(`org ${args.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The org in `dir` taken down if it still runs, then its folder removed: the end of every bench's own org. */
export function downAndRemove(dir) {
  try { org(["down"], dir); } catch { /* already down */ }
  removeDir(dir);
}

export function removeDir(dir) {
  // A stopped org's last writers (a brokered command ending, the verifier's checkout) may still be finishing.
  rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
}

export function ms(start) {
  return Number((performance.now() - start).toFixed(1));
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values) {
  return percentile(values, 50);
}

/** Stop a bench's own tmux server and remove the socket file tmux leaves behind. */
export function killTmux(socket) {
  try { execFileSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" }); } catch { /* already gone */ }
  rmSync(join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid()}`, socket), { force: true });
}

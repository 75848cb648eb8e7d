import { access, readFile } from "node:fs/promises";
import type { ConfigProbe } from "../../domain/config/index.js";
import { processRunner, type Runner } from "../process.js";
import { resolveCommit, runGit } from "../git/run.js";
import { readDiskSize } from "../fs/disk-space.js";

// rev-parse answers instantly; a hung git (a lock, a network filesystem) must not hang `org validate`.
const GIT_TIMEOUT_MS = 10_000;

/** The real disk and git behind org.yaml's rules. */
export function createConfigProbe(runner: Runner = processRunner): ConfigProbe {
  const git = (dir: string, args: string[]) => runGit(["-C", dir, ...args], { timeoutMs: GIT_TIMEOUT_MS, runner });
  return {
    async exists(absPath) {
      try {
        await access(absPath);
        return true;
      } catch {
        return false;
      }
    },
    async isGitRepo(absDir) {
      const result = await git(absDir, ["rev-parse", "--is-inside-work-tree"]);
      return result.exitCode === 0 && result.stdout.trim() === "true";
    },
    async resolveCommit(absDir, rev) {
      return (await resolveCommit(absDir, rev, { timeoutMs: GIT_TIMEOUT_MS, runner })) ?? null;
    },
    diskSize: readDiskSize,
    readText: (absPath) => readFile(absPath, "utf8").catch(() => undefined),
  };
}

export const configProbe: ConfigProbe = createConfigProbe();

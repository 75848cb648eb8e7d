import { access } from "node:fs/promises";
import type { ConfigProbe } from "../../org/config/index.js";
import { processRunner, type Runner } from "../process.js";
import { gitArgv } from "../git/argv.js";

// rev-parse answers instantly; a hung git (a lock, a network filesystem) must not hang `org validate`.
const GIT_TIMEOUT_MS = 10_000;

/** The real disk and git behind org.yaml's rules. */
export function createConfigProbe(runner: Runner = processRunner): ConfigProbe {
  const git = (dir: string, args: string[]) => runner.run(gitArgv(["-C", dir, ...args]), { timeoutMs: GIT_TIMEOUT_MS });
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
      // A rev starting with "-" would be read as an option, not a name.
      if (rev.startsWith("-")) return null;
      const result = await git(absDir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
      const sha = result.stdout.trim();
      return result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
    },
  };
}

export const configProbe: ConfigProbe = createConfigProbe();

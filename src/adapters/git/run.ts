import { processRunner, type RunResult, type Runner } from "../process.js";
import { pinnedGitEnv } from "./global-config.js";

/** git's argv, each `config` entry a `-c` ahead of the command: every caller keeps exactly the settings it needs. */
function gitArgv(args: string[], config: string[] = []): string[] {
  return ["git", ...config.flatMap((entry) => ["-c", entry]), ...args];
}

export interface GitCall {
  cwd?: string;
  /** `-c` settings for this call only, e.g. core.hooksPath=/dev/null. */
  config?: string[];
  timeoutMs?: number;
  runner?: Runner;
  /** Fed to git's stdin (`git patch-id` reads a diff there). */
  input?: string | Buffer;
  /** Added to the environment (undefined unsets): runGitOnWorktree names the git folders here. */
  env?: Record<string, string | undefined>;
}

/** One git call, its result as data: every git process of org starts here. */
export function runGit(args: string[], call: GitCall = {}): Promise<RunResult> {
  const env = { ...pinnedGitEnv(), ...call.env };
  return (call.runner ?? processRunner).run(gitArgv(args, call.config), {
    cwd: call.cwd, timeoutMs: call.timeoutMs ?? 60_000, ...(call.input === undefined ? {} : { input: call.input }),
    ...(Object.keys(env).length > 0 ? { env } : {}),
  });
}

/** The full hash `rev` names as a commit in `dir`'s repository; undefined when it names none. */
export async function resolveCommit(
  dir: string, rev: string, call: Omit<GitCall, "cwd"> = {},
): Promise<string | undefined> {
  // A rev starting with "-" would be read as an option, not a name.
  if (rev.startsWith("-")) return undefined;
  const result = await runGit([
    "rev-parse", "--verify", "--quiet", `${rev}^{commit}`,
  ], { timeoutMs: 30_000, ...call, cwd: dir });
  const sha = result.stdout.trim();
  return result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

import { OrgError } from "../../domain/errors.js";
import { runGit } from "./run.js";

/**
 * Every branch under `refs/heads/<prefix>` with the commit it points at, by one `git for-each-ref`: on its own so
 * `org status` loads git's runner and nothing of the rest of the git adapter.
 */
export async function readBranchHeads(repo: string, prefix: string): Promise<Map<string, string>> {
  const args = ["for-each-ref", "--format=%(refname:strip=2) %(objectname)", `refs/heads/${prefix}`];
  // Auto-gc never runs on our behalf: it would race the agents' own git calls.
  const result = await runGit(args, { cwd: repo, config: ["gc.auto=0"], timeoutMs: 120_000 });
  if (result.exitCode !== 0) {
    const text = result.spawnError ?? `${result.stderr}${result.stdout}`;
    const fatal = /^(fatal|error): .*/m.exec(text)?.[0] ?? text.trim().split("\n").pop() ?? `exit ${result.exitCode}`;
    throw new OrgError(`git ${args.join(" ")} in ${repo} failed: ${fatal}`, "git");
  }
  return new Map(result.stdout.split("\n").filter(Boolean).map((line) => line.split(" ") as [string, string]));
}

import { runGit } from "./run.js";

// Enough hashes per call to keep one git process for most orgs, few enough for any argv limit.
const CHUNK = 500;

/** Which of these full hashes name no commit in `repo`; when git itself fails, none is said to be missing. */
export async function listMissingCommits(repo: string, commits: string[]): Promise<Set<string>> {
  const wanted = [...new Set(commits)].filter((commit) => /^[0-9a-f]{40,64}$/.test(commit));
  const found = new Set<string>();
  for (let index = 0; index < wanted.length; index += CHUNK) {
    const result = await runGit(
      ["rev-list", "--no-walk", "--ignore-missing", ...wanted.slice(index, index + CHUNK)],
      { cwd: repo, timeoutMs: 30_000 },
    );
    if (result.exitCode !== 0) return new Set();
    for (const line of result.stdout.split("\n")) found.add(line.trim());
  }
  return new Set(wanted.filter((commit) => !found.has(commit)));
}

import { runGit } from "./run.js";

export type RebasedChange = { kind: "rebased"; commit: string } | { kind: "conflict"; files: string[] };

// The verifier commits as itself; the author, date and message stay the agent's.
const CONFIG = [
  "core.hooksPath=/dev/null", "gc.auto=0", "advice.detachedHead=false", "commit.gpgSign=false",
  "user.name=org verifier", "user.email=verifier@org.invalid",
];

/**
 * In `checkout` (one of the verifier's own), the change after..commit made again on `onto` as one commit with the
 * submitted commit's message and author; on a conflict, the files it conflicts in, with the checkout left
 * clean at `onto`.
 */
export async function rebaseChange(
  checkout: string, change: { after: string; commit: string }, onto: string,
): Promise<RebasedChange> {
  const git = (args: string[]) => runGit(args, { cwd: checkout, config: CONFIG, timeoutMs: 120_000 });
  const must = async (args: string[]) => {
    const result = await git(args);
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${checkout}: ${result.stderr.trim()}`);
    return result.stdout.trim();
  };
  await must(["checkout", "--quiet", "--force", "--detach", onto]);
  await must(["clean", "-ffdx", "--quiet"]);
  // One commit holding the whole change, merges within it included, so a single cherry-pick carries it.
  const whole = await must([
    "commit-tree", `${change.commit}^{tree}`, "-p", change.after, "-m", "org: the submitted change",
  ]);
  const picked = await git(["cherry-pick", "--no-commit", whole]);
  if (picked.exitCode !== 0) {
    const files = (await git(["diff", "--name-only", "--diff-filter=U"])).stdout.split("\n").filter(Boolean);
    await must(["reset", "--hard", "--quiet", onto]);
    if (files.length === 0) throw new Error(
      `git cherry-pick of ${change.commit.slice(0, 7)} onto ${onto.slice(0, 7)} failed in ${checkout}: `
        + `${picked.stderr.trim()}`,
    );
    return { kind: "conflict", files };
  }
  await must(["commit", "--quiet", "--allow-empty", "--no-verify", "-C", change.commit]);
  return { kind: "rebased", commit: await must(["rev-parse", "HEAD"]) };
}

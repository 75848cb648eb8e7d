// A branch org makes new has no log of its own; a log file, link or folder already at its place was left there by
// an agent (the org's branch logs are in its writable folders) and git would append through it, so it goes first.
import { lstatSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Removes whatever sits at each new branch's reflog in the repo's own .git folder, following no link. */
export function forgetBranchLogs(repo: string, branches: string[]): void {
  const dotGit = join(repo, ".git");
  if (branches.length === 0 || !lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory()) return;
  const logs = join(realpathSync(dotGit), "logs", "refs", "heads");
  for (const branch of branches) rmSync(join(logs, branch), { recursive: true, force: true });
}

// Tampering: a commit in an agent's worktree that edits a protected file; the verifier must reject every one.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../helpers/temp-repo.js";
import type { DemoOrg } from "../helpers/test-org/index.js";

/** Commit an edit of prepare.mjs (protected) in `agent`'s worktree; returns the commit's short sha. */
export function commitTamper(org: DemoOrg, agent: string, tag: string): string {
  const worktree = join(org.dir, "worktrees", agent);
  writeFileSync(
    join(worktree, "prepare.mjs"),
    `${readFileSync(join(worktree, "prepare.mjs"), "utf8")}\nexport const CHEAT = ${JSON.stringify(tag)};\n`,
  );
  git(worktree, ["commit", "-q", "-am", `tamper ${tag}`]);
  return git(worktree, ["rev-parse", "--short=7", "HEAD"]).trim();
}

/** The statuses results.tsv gives these commits, in order of the rows. */
export function statusesOf(org: DemoOrg, commits: string[]): string[] {
  return readFileSync(join(org.dir, "state/results.tsv"), "utf8")
    .split("\n")
    .filter((line) => commits.some((commit) => line.startsWith(commit)))
    .map((line) => line.split("\t")[3]!);
}

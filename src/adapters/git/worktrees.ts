import { OrgError } from "../../domain/errors.js";
import type { NewWorktree } from "../../domain/ports.js";
import { processRunner } from "../process.js";
import { forgetBranchLogs } from "./forget-branch-logs.js";
import { registerWorktrees, unregisterWorktree } from "./register-worktrees.js";
import { runGit } from "./run.js";

const CHECKOUTS_AT_ONCE = 4;

// One shell makes every git call of a batch: git forked by a shell costs about a millisecond, by node (a big
// process to copy) about ten, and `org up` of 32 agents made 65 of them. New branches: one update-ref from
// stdin. Adds: the worktrees registerWorktrees made need none; the others one at a time (concurrent adds read
// each other's half-made .git/worktrees entries and fail). Checkouts: four at a time. Arguments come in threes:
// path, branch, and "add" or "made". Only sh builtins and git, whatever else PATH lacks. A failure is reported
// as "org-failed TAB add|checkout TAB path", git's output, then "org-failed-end", in one write. No reflog is
// written: the branches' logs are in folders agents write, and git appends through a link it finds there.
const SCRIPT = `
repo=$1; fresh=$2; shift 2
nolog="-c gc.auto=0 -c core.logAllRefUpdates=false"
if [ "$fresh" = 1 ]; then git -C "$repo" $nolog update-ref -m "org: agent branch" --stdin || exit 3; fi
report() { printf 'org-failed\t%s\t%s\n%s\norg-failed-end\n' "$1" "$2" "$3"; }
n=0
while [ $# -ge 3 ]; do
  n=$((n + 1)); eval "path_$n=\\$1; mode_$n=\\$3"
  if [ "$3" = add ]; then
    if out=$(git -C "$repo" -c gc.auto=0 worktree add --quiet --no-checkout "$1" "$2" 2>&1); then
      eval "mode_$n=made"
    else report add "$1" "$out"; fi
  fi
  shift 3
done
i=0; running=0
while [ "$i" -lt "$n" ]; do
  i=$((i + 1)); eval "path=\\$path_$i; mode=\\$mode_$i"
  if [ "$mode" = made ]; then
    (out=$(git -C "$path" $nolog read-tree --reset -u HEAD 2>&1) ||
      report checkout "$path" "$out") &
    running=$((running + 1))
    if [ "$running" -ge ${CHECKOUTS_AT_ONCE} ]; then wait; running=0; fi
  fi
done
wait
`;

/**
 * What `git worktree add -b` does for each entry, in one process of ours; a worktree whose checkout failed is
 * removed.
 */
export async function addWorktrees(repo: string, entries: NewWorktree[]): Promise<void> {
  if (entries.length === 0) return;
  const fresh = entries.filter((entry) => !entry.branchExists);
  const input = fresh.map((entry) => `create refs/heads/${entry.branch} ${entry.base}\n`).join("");
  forgetBranchLogs(repo, fresh.map((entry) => entry.branch));
  const registered = registerWorktrees(repo, entries);
  const made = new Set(registered.map((one) => one.entry));
  const args = entries.flatMap((entry) => [entry.path, entry.branch, made.has(entry) ? "made" : "add"]);
  const argv = ["/bin/sh", "-c", SCRIPT, "org-worktrees", repo, fresh.length > 0 ? "1" : "0", ...args];
  const result = await processRunner.run(argv, { cwd: repo, input, timeoutMs: 300_000 });
  if (result.exitCode !== 0) {
    // No branch was made, or the shell died: the worktrees made here would point at nothing.
    for (const one of registered) unregisterWorktree(one, { withAdmin: true });
    if (result.exitCode === 3) {
      throw new OrgError(`git update-ref in ${repo} failed: ${fatalLine(result.stderr)}`, "git");
    }
    const why = result.spawnError ?? fatalLine(`${result.stderr}${result.stdout}`);
    throw new OrgError(`creating worktrees in ${repo} failed: ${why}`, "git");
  }
  const failures = [...result.stdout.matchAll(/^org-failed\t(add|checkout)\t(.*)\n([\s\S]*?)\norg-failed-end$/gm)];
  if (failures.length === 0) return;
  const problems: string[] = [];
  for (const [, phase, path, output = ""] of failures) {
    const branch = entries.find((entry) => entry.path === path)?.branch ?? "?";
    problems.push(phase === "add"
      ? `git worktree add ${path} ${branch} failed: ${fatalLine(output)}`
      : `git checkout of ${branch} in ${path} failed: ${fatalLine(output)}`);
    // An empty worktree would be reused as is by the next `org up`: it goes, its branch stays.
    if (phase === "checkout") {
      await runGit(["worktree", "remove", "--force", path!], { cwd: repo, config: ["gc.auto=0"] });
    }
  }
  throw new OrgError(problems.join("\n"), "git");
}

// git's own fatal line is the part a person needs.
function fatalLine(text: string): string {
  return /^(fatal|error): .*/m.exec(text)?.[0] ?? (text.trim().split("\n").pop() || "no output");
}

import { OrgError } from "../../domain/errors.js";
import type { NewWorktree } from "../../domain/ports.js";
import { processRunner } from "../process.js";
import { runGit } from "./run.js";

const CHECKOUTS_AT_ONCE = 4;

// One shell makes every git call of a batch: git forked by a shell costs about a millisecond, by node (a big
// process to copy) about ten, and `org up` of 32 agents made 65 of them. New branches: one update-ref from
// stdin. Adds: one at a time (concurrent adds read each other's half-made .git/worktrees entries and fail).
// Checkouts: four at a time. Only sh builtins and git, whatever else PATH lacks. A failure is reported as
// "org-failed TAB add|checkout TAB path", git's output, then "org-failed-end", in one write.
const SCRIPT = `
repo=$1; fresh=$2; shift 2
if [ "$fresh" = 1 ]; then git -C "$repo" -c gc.auto=0 update-ref -m "org: agent branch" --stdin || exit 3; fi
report() { printf 'org-failed\t%s\t%s\n%s\norg-failed-end\n' "$1" "$2" "$3"; }
i=0; path=
for arg in "$@"; do
  if [ -z "$path" ]; then path=$arg; continue; fi
  i=$((i + 1))
  if out=$(git -C "$repo" -c gc.auto=0 worktree add --quiet --no-checkout "$path" "$arg" 2>&1); then eval "added_$i=1"; else report add "$path" "$out"; fi
  path=
done
i=0; running=0
for arg in "$@"; do
  if [ -z "$path" ]; then path=$arg; continue; fi
  i=$((i + 1))
  eval "added=\\$added_$i"
  if [ -n "$added" ]; then
    (out=$(git -C "$path" -c gc.auto=0 reset --hard --no-recurse-submodules --quiet 2>&1) || report checkout "$path" "$out") &
    running=$((running + 1))
    if [ "$running" -ge ${CHECKOUTS_AT_ONCE} ]; then wait; running=0; fi
  fi
  path=
done
wait
`;

/** What `git worktree add -b` does for each entry, in one process of ours; a worktree whose checkout failed is removed. */
export async function addWorktrees(repo: string, entries: NewWorktree[]): Promise<void> {
  if (entries.length === 0) return;
  const fresh = entries.filter((entry) => !entry.branchExists);
  const input = fresh.map((entry) => `create refs/heads/${entry.branch} ${entry.base}\n`).join("");
  const args = entries.flatMap((entry) => [entry.path, entry.branch]);
  const result = await processRunner.run(["/bin/sh", "-c", SCRIPT, "org-worktrees", repo, fresh.length > 0 ? "1" : "0", ...args], { cwd: repo, input, timeoutMs: 300_000 });
  if (result.exitCode === 3) throw new OrgError(`git update-ref in ${repo} failed: ${fatalLine(result.stderr)}`, "git");
  if (result.exitCode !== 0) throw new OrgError(`creating worktrees in ${repo} failed: ${result.spawnError ?? fatalLine(`${result.stderr}${result.stdout}`)}`, "git");
  const failures = [...result.stdout.matchAll(/^org-failed\t(add|checkout)\t(.*)\n([\s\S]*?)\norg-failed-end$/gm)];
  if (failures.length === 0) return;
  const problems: string[] = [];
  for (const [, phase, path, output = ""] of failures) {
    const branch = entries.find((entry) => entry.path === path)?.branch ?? "?";
    problems.push(phase === "add" ? `git worktree add ${path} ${branch} failed: ${fatalLine(output)}` : `git checkout of ${branch} in ${path} failed: ${fatalLine(output)}`);
    // An empty worktree would be reused as is by the next `org up`: it goes, its branch stays.
    if (phase === "checkout") await runGit(["worktree", "remove", "--force", path!], { cwd: repo, config: ["gc.auto=0"] });
  }
  throw new OrgError(problems.join("\n"), "git");
}

// git's own fatal line is the part a person needs.
function fatalLine(text: string): string {
  return /^(fatal|error): .*/m.exec(text)?.[0] ?? (text.trim().split("\n").pop() || "no output");
}

import type { ExperimentRequest } from "../domain/experiments/request.js";
import { OrgError } from "../domain/errors.js";
import { decideBranchRef, isStaged } from "../domain/experiments/submit-git.js";
import type { SubmitGit } from "../adapters/git/submit-worktree.js";
import { tracePhase } from "../adapters/trace.js";

export interface CommitRules {
  message: string | undefined;
  branch: string;
  lastVerified: string;
  queued: readonly ExperimentRequest[];
  baselineCrash: string | undefined;
}

/** Stage all and commit it onto the agent's branch; a refusal leaves the worktree exactly as it was. */
export async function commitStaged(
  git: SubmitGit, rules: CommitRules,
): Promise<{ head: string; before: string; staged: boolean }> {
  const { tree, head: before, headTree, symbolic } = await tracePhase("submit", "git-stage", () => git.stageAll());
  const staged = isStaged(tree, headTree);
  // Every refusal below leaves the worktree exactly as it was: unstage what `add --all` staged.
  const refuse = async (message: string, code: string) => {
    if (staged) await git.unstage();
    throw new OrgError(message, code);
  };
  if (staged && !rules.message?.trim()) {
    const example = 'org submit -m "raised the learning rate to 0.04"';
    await refuse(`say what you tried: ${example} (nothing was committed)`, "no-message");
  }
  if (!staged && before === rules.lastVerified) {
    await refuse(`nothing to submit: no changes since ${before.slice(0, 7)}, your last verified commit`, "nothing");
  }
  const waiting = staged ? undefined : rules.queued.find((request) => request.commit === before);
  if (waiting) {
    const fix = `\`org wait ${waiting.id}\` waits for its verdict`;
    const queued = `no changes since ${before.slice(0, 7)}, which is queued already`;
    await refuse(`nothing to submit: ${queued} — ${fix}`, "nothing");
  }
  if (rules.baselineCrash) {
    const fix = "fix it, then `org down && org up` (nothing was committed)";
    await refuse(`your baseline crashed, so the base is broken: ${rules.baselineCrash} — ${fix}`, "broken-base");
  }
  const ref = staged ? decideBranchRef(symbolic, rules.branch) : "HEAD";
  if (ref === undefined) {
    const fix = `\`git switch ${rules.branch}\`, then org submit again (nothing was committed)`;
    await refuse(`your worktree's HEAD is not on your branch ${rules.branch} — ${fix}`, "not-on-branch");
  }
  if (!staged) return { head: before, before, staged };
  // A commit that fails (a full disk takes git too) leaves the worktree as it was: nothing staged by us.
  const written = tree.exitCode === 0 ? tree.stdout.trim() : undefined;
  const commit = () => git.commit(before, rules.message!.trim(), ref!, written);
  const made = await tracePhase("submit", "git-commit", commit).catch(async (error: unknown) => {
    await git.unstage();
    throw error;
  });
  if (made.kind === "moved") await refuse(made.reason, "moved");
  return { head: made.kind === "committed" ? made.commit : before, before, staged };
}

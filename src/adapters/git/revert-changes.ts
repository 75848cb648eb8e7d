// org's own reverts, in a checkout of the verifier's store that no agent and no run uses: never an agent's worktree.
import { rm } from "node:fs/promises";
import type { KeptChange, RevertOutcome, RevertPort } from "../../org/ablation/index.js";
import { describeVariant } from "../../org/ablation/index.js";
import type { RunResult } from "../process.js";
import { runGit } from "./run.js";

type Git = (cwd: string, args: string[]) => Promise<RunResult>;

// Commits as the verifier, at a fixed date: the same reverts of the same target make the same commit every time.
const CONFIG = [
  "core.hooksPath=/dev/null", "gc.auto=0", "advice.detachedHead=false", "commit.gpgSign=false",
  "user.name=org verifier", "user.email=verifier@org.invalid",
];

/** Reverts of `target`'s changes in `checkout` (made as a worktree of `store` when missing), one at a time. */
export function createRevertPort(opts: { store: string; checkout: string; target: string }): RevertPort {
  // The target's own date: set once the checkout is open, before any commit is made.
  const env: Record<string, string> = {};
  const git = (cwd: string, args: string[]) => runGit(args, { cwd, config: CONFIG, timeoutMs: 120_000, env });
  const must = async (cwd: string, args: string[]) => {
    const result = await git(cwd, args);
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr.trim()}`);
    return result.stdout.trim();
  };
  let ready: Promise<void> | undefined;
  const open = () => (ready ??= openCheckout(opts, git).then(async () => {
    const date = `${await must(opts.store, ["show", "-s", "--format=%ct", opts.target])} +0000`;
    Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }));
  return {
    async revert(changes: readonly KeptChange[]): Promise<RevertOutcome> {
      await open();
      const { checkout, target } = opts;
      await must(checkout, ["checkout", "--force", "--detach", target]);
      await must(checkout, ["clean", "-ffdx", "--quiet"]);
      // Newest first, as git revert would: a later change's lines come off before the ones they were written over.
      for (const change of [...changes].reverse()) {
        // One commit holding the whole change backwards (merges within it included): a single cherry-pick undoes it.
        const back = await must(checkout, ["commit-tree", `${change.from}^{tree}`, "-p", change.commit, "-m", "back"]);
        const picked = await git(checkout, ["cherry-pick", "--no-commit", back]);
        if (picked.exitCode === 0) continue;
        const unmerged = await git(checkout, ["diff", "--name-only", "--diff-filter=U"]);
        const files = unmerged.stdout.split("\n").filter(Boolean);
        await git(checkout, ["cherry-pick", "--abort"]);
        await must(checkout, ["reset", "--hard", "--quiet", target]);
        return { kind: "conflict", files };
      }
      const message = describeVariant(target, changes.map((change) => change.commit));
      await must(checkout, ["commit", "--quiet", "--allow-empty", "--no-verify", "-m", message]);
      const commit = await must(checkout, ["rev-parse", "HEAD"]);
      // A ref of the store's own keeps it, and tells the verifier it holds the commit whole.
      await must(opts.store, ["update-ref", `refs/verified/${commit}`, commit]);
      return { kind: "clean", commit };
    },
    async changedFiles(change: KeptChange): Promise<string[]> {
      const out = await must(opts.store, ["diff", "--name-only", "--no-renames", change.from, change.commit]);
      return out.split("\n").filter(Boolean);
    },
  };
}

async function openCheckout(opts: { store: string; checkout: string; target: string }, git: Git): Promise<void> {
  const { store, checkout, target } = opts;
  // One left half made (a kill mid-add) is no checkout: it is made again.
  if ((await git(checkout, ["rev-parse", "--is-inside-work-tree"]).catch(() => undefined))?.exitCode === 0) return;
  await rm(checkout, { recursive: true, force: true });
  await git(store, ["worktree", "prune"]);
  const added = await git(store, ["worktree", "add", "--force", "--detach", checkout, target]);
  if (added.exitCode !== 0) throw new Error(`git worktree add ${checkout} failed in ${store}: ${added.stderr.trim()}`);
}

import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { runGit } from "./run.js";
import { moveRefFile } from "./ref-file.js";
import { openOrgWorktree, readCommonDir } from "./worktree-git-dir.js";
import { runGitOnWorktree } from "./worktree-git.js";
import { readHeadRef } from "./worktree-head.js";

/**
 * The verifier's reset of an agent's branch to `commit` after a verdict: its worktree follows when it holds the
 * branch (`reset --keep`; uncommitted edits in the way are saved to `rescueFile`, then a hard reset). Every step names
 * the branch itself, never HEAD, and writes it with --no-deref: a HEAD or branch the agent made symbolic
 * (refs/frontier, main) must not carry the verifier's write there. Returns the rescue file when one was written.
 */
export async function resetAgentBranch(
  repo: string, agent: { name: string; branch: string; worktree: string }, commit: string, rescueFile: string,
  say: (line: string) => void, from?: string,
): Promise<string | undefined> {
  const ref = `refs/heads/${agent.branch}`;
  const must = async (run: Promise<{ exitCode: number | null; stdout: string; stderr: string }>, what: string) => {
    const result = await run;
    if (result.exitCode !== 0) throw new Error(`git ${what} for ${agent.name} failed: ${result.stderr.trim()}`);
    return result.stdout;
  };
  const moveBranch = async (from?: string) => {
    // Written by org, not git: git would append its reflog line through a link the agent put there.
    const common = await readCommonDir(repo);
    const moved = await moveRefFile({ top: common, common, ref, commit, ...(from ? { from } : {}) });
    if (moved?.kind === "refused") throw new Error(`git update-ref ${ref} for ${agent.name} failed: ${moved.reason}`);
    if (moved) return;
    const args = ["update-ref", "--no-deref", "-m", `org: reset to ${commit.slice(0, 7)}`, ref, commit];
    await must(runGit([...args, ...(from ? [from] : [])], { cwd: repo, timeoutMs: 30_000 }), `update-ref ${ref}`);
  };
  const worktree = await openOrgWorktree(repo, agent.worktree, agent.name, say).catch((error: Error) => {
    say(`${error.message}; its branch moves without it`);
    return undefined;
  });
  const git = (args: string[]) => runGitOnWorktree(worktree!, args, { timeoutMs: 120_000 });
  // Both read at once: where HEAD points, and the branch's commit (unused when the worktree is elsewhere), unless
  // the caller read it a moment ago: update-ref moves the branch only from that commit, so a newer one is never lost.
  const known = from === undefined ? undefined : { exitCode: 0, stdout: from, stderr: "" };
  const [head, named] = worktree ? await Promise.all([
    readHeadRef(worktree, { timeoutMs: 120_000 }),
    known ?? git(["rev-parse", "--verify", "-q", `${ref}^{commit}`]),
  ]) : [];
  if (!named || head?.stdout.trim() !== ref) {
    await moveBranch(from);
    return undefined;
  }
  const old = (await must(Promise.resolve(named), `rev-parse ${ref}`)).trim();
  // The branch first: a commit the agent made since `old` was read refuses the move, and its worktree stays as it is.
  await moveBranch(old);
  // What `reset --keep` does: a two-tree merge that refuses to drop uncommitted edits.
  if ((await git(["read-tree", "-m", "-u", old, commit])).exitCode === 0) return undefined;
  await mkdir(dirname(rescueFile), { recursive: true });
  await writeFile(rescueFile, await must(git(["diff", "--binary", "--no-ext-diff", "--no-textconv", old]), "diff"));
  await must(git(["read-tree", "--reset", "-u", commit]), `read-tree --reset ${commit.slice(0, 7)}`);
  return rescueFile;
}

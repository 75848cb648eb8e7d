import { runGit } from "./run.js";

/** Whether `ancestor` is `commit` or one of its ancestors; a commit git does not know is no ancestor. */
export async function isAncestor(repo: string, ancestor: string, commit: string): Promise<boolean> {
  const result = await runGit(["merge-base", "--is-ancestor", ancestor, commit], { cwd: repo, timeoutMs: 30_000 });
  return result.exitCode === 0;
}

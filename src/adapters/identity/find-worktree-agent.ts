import { realpath } from "node:fs/promises";
import { isInsideDir } from "../../domain/paths.js";

/**
 * The agent whose worktree holds `cwd`, by real path. Found by path, not by asking git: git in the caller's folder
 * would follow the .git the agent wrote there.
 */
export async function findWorktreeAgent<T extends { worktree: string }>(
  agents: readonly T[], cwd: string,
): Promise<T | undefined> {
  const here = await realpath(cwd).catch(() => cwd);
  for (const agent of agents) {
    if (isInsideDir(here, await realpath(agent.worktree).catch(() => agent.worktree))) return agent;
  }
  return undefined;
}

import { realpath } from "node:fs/promises";
import { isInsideDir } from "../../domain/paths.js";

/**
 * The agent whose worktree holds `cwd`, by real path. Found by path, not by asking git: git in the caller's folder
 * would follow the .git the agent wrote there.
 */
export async function findWorktreeAgent<T extends { worktree: string }>(
  agents: readonly T[], cwd: string,
): Promise<T | undefined> {
  // Every worktree resolved at once: one after another, the last of 64 agents waited on 64 rounds of the disk.
  const [here, ...worktrees] = await Promise.all([cwd, ...agents.map((agent) => agent.worktree)].map(resolvePath));
  return agents.find((_, index) => isInsideDir(here!, worktrees[index]!));
}

function resolvePath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

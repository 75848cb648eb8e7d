import { lstat, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AgentPaths } from "../../domain/paths.js";
import { PRIVATE_DIR } from "./files.js";

/**
 * Makes state/agents/<agent>/ the daemon's again, as an older org left it when the agent could write all of it:
 * every link or special file outside the writable folders is removed (tmux and the daemon would follow it), each
 * writable folder is a real folder (bwrap would bind a link's target), and progress.md moves into own/.
 * Returns the paths it removed.
 */
export async function reclaimAgentDir(
  paths: Pick<AgentPaths, "dir" | "writable" | "legacyProgress" | "progress">,
): Promise<string[]> {
  const removed: string[] = [];
  const writable = new Set(paths.writable);
  await removeStrays(paths.dir, writable, removed, 0);
  for (const dir of paths.writable) {
    const info = await lstat(dir).catch(() => undefined);
    if (info && !info.isDirectory()) {
      await rm(dir, { force: true });
      removed.push(dir);
    }
  }
  const legacy = await lstat(paths.legacyProgress).catch(() => undefined);
  if (legacy?.isFile() && !(await lstat(paths.progress).catch(() => undefined))) {
    await mkdir(dirname(paths.progress), { recursive: true, mode: PRIVATE_DIR });
    await rename(paths.legacyProgress, paths.progress);
  }
  return removed;
}

// The daemon's own folders are shallow (inbox/, inbox/archive/): a deeper tree is not walked.
async function removeStrays(dir: string, writable: Set<string>, removed: string[], depth: number): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (writable.has(path)) continue;
    if (entry.isDirectory()) {
      if (depth < 3) await removeStrays(path, writable, removed, depth + 1);
    } else if (!entry.isFile()) {
      await rm(path, { force: true });
      removed.push(path);
    }
  }
}

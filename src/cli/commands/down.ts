import { downOrg } from "../../org/down.js";
import { createWorld } from "../../adapters/world.js";
import type { Io } from "../io.js";

/** `org down [--clean]`: stop everything of ours; with --clean remove clean worktrees, never branches. */
export async function runDown(opts: { root: string; clean: boolean }, io: Io): Promise<number> {
  const result = await downOrg(createWorld(), opts.root, { clean: opts.clean });
  io.out(result.wasRunning ? `stopped: ${result.stoppedGroups} process groups and the tmux server` : "the org was not running; cleaned up what was left");
  if (opts.clean) {
    if (result.removed.length > 0) io.out(`removed worktrees: ${result.removed.join(", ")} (branches kept)`);
    for (const kept of result.kept) io.out(`kept ${kept.worktree}: ${kept.reason} — commit or discard it, then \`org down --clean\` again`);
  }
  return 0;
}

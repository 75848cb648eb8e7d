import { downOrg } from "../../org/lifecycle/down.js";
import { cancelOrgJobs, createSlurm } from "../../adapters/slurm/slurm.js";
import { createWorld } from "../../adapters/world.js";
import type { Io } from "../io.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { recordProgramStop } from "../../adapters/store/program-record.js";
import { orgPaths } from "../../org/paths.js";
import { removeAbRun } from "../../adapters/store/ab-run.js";
import { stopKeeper } from "../../adapters/keeper-process.js";

/** `org down [--clean]`: stop everything of ours; with --clean remove clean worktrees, never branches. */
export async function runDown(opts: { root: string; clean: boolean }, io: Io): Promise<number> {
  const record = await readOptionalRecord(opts.root).catch(() => undefined);
  // First the keeper, which would otherwise restart the daemon that down stops next.
  if (record) await stopKeeper(opts.root, orgPaths(opts.root).state);
  const result = await downOrg(createWorld(), opts.root, { clean: opts.clean });
  await recordProgramStop(orgPaths(opts.root).state, new Date());
  // Both halves of an A/B run end together; their rows keep their programs.
  await removeAbRun(orgPaths(opts.root).state);
  const server = record?.mode === "pty" ? "the pty host" : "the tmux server";
  io.out(result.wasRunning ? `stopped: ${result.stoppedGroups} process groups and ${server}` : "the org was not running; cleaned up what was left");
  if (record?.backend === "slurm") {
    // Jobs hold GPUs after their panes are gone: cancel ours, found by our comment, never by user.
    const cancelled = await cancelOrgJobs(createSlurm(), record.name);
    io.out(cancelled.ok ? `cancelled ${cancelled.value.length} Slurm jobs of org ${record.name}` : `could not cancel Slurm jobs: ${cancelled.error} — run \`scancel\` on jobs named org-${record.name}-*`);
  }
  if (opts.clean) {
    if (result.removed.length > 0) io.out(`removed worktrees: ${result.removed.join(", ")} (branches kept)`);
    for (const kept of result.kept) io.out(`kept ${kept.worktree}: ${kept.reason} — commit or discard it, then \`org down --clean\` again`);
  }
  return 0;
}

import { slurmQueuePath } from "../domain/slurm/slurm-paths.js";
import { logPath } from "../domain/paths.js";
import { createSlurm } from "../adapters/slurm/slurm.js";
import { createSharedListing } from "../adapters/slurm/shared-listing.js";
import { appendLines } from "../adapters/fs/files.js";
import { attachAgentJob } from "../adapters/slurm/job-attach.js";
import { processRunner } from "../adapters/process.js";

/**
 * What the pane of an agent under backend: slurm runs: its job pending, then the agent as a job step; the exit code
 * of the step. `pane` (tmux's TMUX_PANE) gets the job's status as the pane's @org_status.
 */
export async function runSlurmPane(opts: {
  agent: string; state: string; resume: boolean; pane: string | undefined; log: (line: string) => void;
}): Promise<number> {
  const { pane } = opts;
  const setStatus = async (status: string) => {
    await processRunner.run(["tmux", "set-option", "-p", "-t", pane!, "@org_status", status], { timeoutMs: 5000 });
  };
  return attachAgentJob({
    state: opts.state,
    agent: opts.agent,
    resume: opts.resume,
    // One squeue (2 RPCs) every 3 s for the whole org, however many agents wait: ≤ 0.7 RPC/s (docs/slurm.md).
    slurm: createSharedListing(createSlurm(), { file: slurmQueuePath(opts.state), intervalMs: 3000 }),
    log: opts.log,
    appendLog: (entry) => appendLines(logPath(opts.state), [entry]),
    setStatus: pane ? setStatus : undefined,
  });
}

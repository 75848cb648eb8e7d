import { createSlurm } from "../../adapters/slurm/slurm.js";
import { createSharedListing } from "../../adapters/slurm/shared-listing.js";
import { slurmQueuePath } from "../../domain/slurm/slurm-paths.js";
import { appendLines } from "../../adapters/fs/files.js";
import { logPath } from "../../domain/paths.js";
import { attachAgentJob } from "../../adapters/slurm/job-attach.js";
import { processRunner } from "../../adapters/process.js";
import type { Io } from "../io.js";

/** `org slurm-run <agent> --state <dir>`: the pane of an agent under backend: slurm (pending, then the agent as a job step). */
export async function runSlurmRun(opts: { agent: string; state: string; resume?: boolean }, io: Io): Promise<number> {
  const pane = process.env.TMUX_PANE;
  return attachAgentJob({
    state: opts.state,
    agent: opts.agent,
    resume: opts.resume === true,
    // One squeue (2 RPCs) every 3 s for the whole org, however many agents wait: ≤ 0.7 RPC/s (docs/slurm.md).
    slurm: createSharedListing(createSlurm(), { file: slurmQueuePath(opts.state), intervalMs: 3000 }),
    log: io.out,
    appendLog: (entry) => appendLines(logPath(opts.state), [entry]),
    setStatus: pane ? async (status) => void (await processRunner.run(["tmux", "set-option", "-p", "-t", pane, "@org_status", status], { timeoutMs: 5000 })) : undefined,
  });
}

import { createSlurm } from "../../adapters/slurm/slurm.js";
import { attachAgentJob } from "../../adapters/slurm/attach.js";
import { processRunner } from "../../adapters/process.js";
import type { Io } from "../io.js";

/** `org slurm-run <agent> --state <dir>`: the pane of an agent under backend: slurm (pending, then the agent as a job step). */
export async function runSlurmRun(opts: { agent: string; state: string }, io: Io): Promise<number> {
  const pane = process.env.TMUX_PANE;
  return attachAgentJob({
    state: opts.state,
    agent: opts.agent,
    slurm: createSlurm(),
    log: io.out,
    setStatus: pane ? async (status) => void (await processRunner.run(["tmux", "set-option", "-p", "-t", pane, "@org_status", status], { timeoutMs: 5000 })) : undefined,
  });
}

import { runSlurmPane } from "../../flows/run-slurm-pane.js";
import type { Io } from "../io.js";

/**
 * `org slurm-run <agent> --state <dir>`: the pane of an agent under backend: slurm (pending, then the agent as
 * a job step).
 */
export async function runSlurmRun(opts: { agent: string; state: string; resume?: boolean }, io: Io): Promise<number> {
  return runSlurmPane({ ...opts, resume: opts.resume === true, pane: process.env.TMUX_PANE, log: io.out });
}

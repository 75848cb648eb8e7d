import { join } from "node:path";

/**
 * Slurm files of one agent: the job request `org up` wrote, and the job last seen. Not in state/agents/<agent>,
 * which the agent's sandbox lets it write: `org slurm-run` submits and runs what the request says, outside any sandbox.
 */
export function slurmAgentPaths(state: string, agent: string): { request: string; job: string; output: string } {
  const dir = join(state, "slurm", agent);
  return { request: join(dir, "slurm.json"), job: join(dir, "slurm-job.json"), output: join(dir, "slurm-job.out") };
}

/** The org's last squeue, which every agent's `org slurm-run` reads instead of asking the controller itself. */
export function slurmQueuePath(state: string): string {
  return join(state, "slurm", "queue.json");
}

import { join } from "node:path";

/** Slurm files of one agent, next to its launch.json: the job request `org up` wrote, and the job last seen. */
export function slurmAgentPaths(state: string, agent: string): { request: string; job: string; output: string } {
  const dir = join(state, "agents", agent);
  return { request: join(dir, "slurm.json"), job: join(dir, "slurm-job.json"), output: join(dir, "slurm-job.out") };
}

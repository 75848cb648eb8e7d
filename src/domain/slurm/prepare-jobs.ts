import { SlurmSchema, type OrgConfig, type SlurmConfig } from "../config/index.js";
import { writeLaunchSpec } from "../lifecycle/launch-file.js";
import { writeJobRequest } from "./slurm-job-file.js";
import type { FilesPort } from "../ports.js";
import type { LaunchSpec } from "../state.js";
import { slurmPaneLaunch, slurmRunArgv, type SlurmJobRequest } from "./job-argv.js";
import { slurmAgentPaths } from "./slurm-paths.js";

/** Whether an agent of this role runs as a Slurm job: every GPU role, and CPU roles when cpu_roles is job. */
export function runsAsJob(config: OrgConfig, role: string): boolean {
  if (config.backend !== "slurm") return false;
  return holdsGpu(config, role) || (config.slurm?.cpu_roles ?? "local") === "job";
}

// With verify.gpus: pool the verify runs take the GPUs, each as its own job: an agent of a GPU role holds none.
function holdsGpu(config: OrgConfig, role: string): boolean {
  return Boolean(config.roles[role]?.gpu) && config.verify?.gpus !== "pool";
}

/** The launch a job agent's pane runs (`org slurm-run`, Slurm's CUDA_VISIBLE_DEVICES); any other agent's unchanged. */
export function slurmLaunchSpec(config: OrgConfig, state: string, orgArgv: string[], spec: LaunchSpec): LaunchSpec {
  if (!runsAsJob(config, spec.role)) return spec;
  const real = { argv: spec.argv, cwd: spec.cwd, env: withoutLease(spec.env) };
  const launch = slurmPaneLaunch(orgArgv, state, real, spec.agent);
  // A restart that resumes the conversation goes through the job too, never the bare CLI on this host.
  const resumeArgv = spec.runtime?.resumeArgv ? slurmRunArgv(orgArgv, state, spec.agent, true) : null;
  return { ...spec, ...launch, ...(spec.runtime ? { runtime: { ...spec.runtime, resumeArgv } } : {}) };
}

/** The slurm settings of one role's jobs: its own time limit (slurm.role_time_limits) over the org's. */
export function roleSettings(settings: SlurmConfig, role: string): SlurmConfig {
  const time = settings.role_time_limits?.[role];
  return time ? { ...settings, time_limit: time } : settings;
}

// Slurm sets CUDA_VISIBLE_DEVICES in the job step; a local lease's value must not ride along.
function withoutLease(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key !== "CUDA_VISIBLE_DEVICES"));
}

/**
 * Under backend: slurm, records each job agent's request (slurm.json, holding its real launch) and points its
 * launch.json at `org slurm-run`, so the pane and every restart of it go through the job. Returns the launches the
 * panes run.
 */
export async function prepareSlurmAgents(
  files: FilesPort, config: OrgConfig, state: string, orgArgv: string[], agents: readonly {
    name: string; role: string;
  }[], launches: ReadonlyMap<string, LaunchSpec>,
): Promise<Map<string, LaunchSpec>> {
  const settings = config.slurm ?? SlurmSchema.parse({});
  const result = new Map(launches);
  for (const agent of agents) {
    const spec = launches.get(agent.name);
    if (!spec || !runsAsJob(config, agent.role)) continue;
    const env = withoutLease(spec.env);
    const request: SlurmJobRequest = {
      org: config.name,
      agent: agent.name,
      gpu: holdsGpu(config, agent.role),
      output: slurmAgentPaths(state, agent.name).output,
      cwd: spec.cwd, settings: roleSettings(settings, agent.role), launch: { argv: spec.argv, cwd: spec.cwd, env },
      ...(spec.runtime?.resumeArgv ? { resume: spec.runtime.resumeArgv } : {}),
    };
    await writeJobRequest(files, state, agent.name, request);
    const wrapped = slurmLaunchSpec(config, state, orgArgv, spec);
    await writeLaunchSpec(files, state, agent.name, wrapped);
    result.set(agent.name, wrapped);
  }
  return result;
}

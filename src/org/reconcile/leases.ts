import { formatProblems, type LoadedConfig } from "../config/index.js";
import { allocateGpus, selectGpus, type Gpu } from "../lifecycle/gpu.js";
import { listAgents } from "../lifecycle/plan.js";

export type LeasePlan =
  | { ok: true; leases: Map<string, number | null>; cpuMode: boolean; warnings: string[] }
  | { ok: false; problems: string[] };

/**
 * One GPU per agent of a GPU role, keeping the leases `held` still holds; GPUs we hold count as free even
 * with our own memory on them. Too few GPUs is an org.yaml problem, placed at a GPU role's count
 * (`blame`, when it is one, else the first).
 */
export function planLeases(loaded: LoadedConfig, probed: Gpu[] | { error: string }, held: Map<string, number | null>, blame?: string): LeasePlan {
  const { config } = loaded;
  const inventory = selectGpus(config.gpus, probed, [...held.values()].filter((gpu): gpu is number => gpu !== null));
  const requests = listAgents(config);
  // Slurm's allocation gives each job its GPU; leasing this host's would only mislabel the panes.
  if (config.backend === "slurm") return { ok: true, leases: new Map(requests.map((agent) => [agent.name, null])), cpuMode: false, warnings: [] };
  const warnings: string[] = [];
  if (inventory.kind === "cpu" && requests.some((agent) => agent.gpu)) warnings.push(`CPU mode: ${inventory.reason}; agents get CUDA_VISIBLE_DEVICES=""`);
  if (inventory.kind === "gpus") warnings.push(...inventory.warnings);
  const leases = allocateGpus(requests, inventory, held);
  if (leases.ok) return { ok: true, leases: leases.leases, cpuMode: inventory.kind === "cpu", warnings };
  const gpuRoles = Object.entries(config.roles).filter(([, spec]) => spec.gpu).map(([role]) => role);
  const role = blame !== undefined && gpuRoles.includes(blame) ? blame : (gpuRoles[0] ?? "");
  return {
    ok: false,
    problems: formatProblems(loaded.file, loaded.text, [{
      path: ["roles", role, "count"],
      message: leases.reason,
      fix: "lower the counts of roles with gpu: true, free a GPU, or set gpus: none for CPU mode",
    }]),
  };
}

import { formatProblems, type LoadedConfig } from "../config/index.js";
import { allocateGpus, selectGpus, type Gpu } from "../lifecycle/gpu.js";
import { listAgents } from "../lifecycle/plan.js";

export type LeasePlan =
  | { ok: true; leases: Map<string, number | null>; cpuMode: boolean; warnings: string[]; pool?: number[] }
  | { ok: false; problems: string[] };

/**
 * One GPU per agent of a GPU role, keeping the leases `held` still holds; GPUs we hold count as free even
 * with our own memory on them. Too few GPUs is an org.yaml problem, placed at a GPU role's count
 * (`blame`, when it is one, else the first).
 */
export function planLeases(loaded: LoadedConfig, probed: Gpu[] | { error: string }, held: Map<string, number | null>, blame?: string, heldPool: number[] = []): LeasePlan {
  const { config } = loaded;
  const inventory = selectGpus(config.gpus, probed, [...[...held.values()].filter((gpu): gpu is number => gpu !== null), ...heldPool]);
  const requests = listAgents(config);
  const pooled = config.verify?.gpus === "pool";
  const none = () => new Map(requests.map((agent) => [agent.name, null]));
  // Slurm's allocation gives each job its GPU; leasing this host's would only mislabel the panes.
  if (config.backend === "slurm") return { ok: true, leases: none(), cpuMode: false, warnings: [], ...(pooled ? { pool: [] } : {}) };
  const warnings: string[] = [];
  if (inventory.kind === "cpu" && requests.some((agent) => agent.gpu)) warnings.push(`CPU mode: ${inventory.reason}; agents get CUDA_VISIBLE_DEVICES=""`);
  if (inventory.kind === "gpus") warnings.push(...inventory.warnings);
  // Pool mode: agents think, the verifier trains; every free GPU is the pool's and no agent holds one.
  if (pooled && inventory.kind === "cpu") return { ok: true, leases: none(), cpuMode: true, warnings, pool: [] };
  if (pooled && inventory.kind === "gpus" && inventory.free.length > 0) return { ok: true, leases: none(), cpuMode: false, warnings, pool: inventory.free };
  if (pooled) {
    return { ok: false, problems: formatProblems(loaded.file, loaded.text, [{ path: ["verify", "gpus"], message: "verify.gpus is pool but no GPU is free for it", fix: "free a GPU, or set gpus: none for CPU mode" }]) };
  }
  const leases = allocateGpus(requests, inventory, held);
  if (leases.ok) return { ok: true, leases: leases.leases, cpuMode: inventory.kind === "cpu", warnings };
  const gpuRoles = Object.entries(config.roles).filter(([, spec]) => spec.gpu).map(([role]) => role);
  const role = blame !== undefined && gpuRoles.includes(blame) ? blame : (gpuRoles[0] ?? "");
  return {
    ok: false,
    problems: formatProblems(loaded.file, loaded.text, [{
      path: ["roles", role, "count"],
      message: leases.reason,
      fix: "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, agents hold none), or set gpus: none for CPU mode",
    }]),
  };
}

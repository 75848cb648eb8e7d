import { formatProblems, type LoadedConfig } from "../config/index.js";
import { allocateGpus, selectGpus, type Gpu, type GpuInventory, type LeaseResult } from "../lifecycle/select-gpus.js";
import { listAgents } from "../lifecycle/plan-agents.js";

export type LeasePlan =
  | { ok: true; leases: Map<string, number | null>; cpuMode: boolean; warnings: string[]; pool?: number[] }
  | { ok: false; problems: string[] };

/**
 * One GPU per agent of a GPU role, keeping the leases `held` still holds; GPUs we hold count as free even
 * with our own memory on them. Too few GPUs is an org.yaml problem, placed at a GPU role's count
 * (`blame`, when it is one, else the first).
 */
export function planLeases(
  loaded: LoadedConfig, probed: Gpu[] | { error: string }, held: Map<string, number | null>, blame?: string,
  heldPool: number[] = [],
): LeasePlan {
  const { config } = loaded;
  const inventory = selectGpus(
    config.gpus,
    probed,
    [...[...held.values()].filter((gpu): gpu is number => gpu !== null), ...heldPool],
  );
  const requests = listAgents(config);
  const pooled = config.verify?.gpus === "pool";
  const none = () => new Map(requests.map((agent) => [agent.name, null]));
  // Slurm's allocation gives each job its GPU; leasing this host's would only mislabel the panes.
  if (config.backend === "slurm") return {
    ok: true,
    leases: none(),
    cpuMode: false,
    warnings: [],
    ...(pooled ? { pool: [] } : {}),
  };
  const warnings: string[] = [];
  if (inventory.kind === "cpu" && requests.some((agent) =>
    agent.gpu)) warnings.push(`CPU mode: ${inventory.reason}; agents get CUDA_VISIBLE_DEVICES=""`);
  if (inventory.kind === "gpus") warnings.push(...inventory.warnings);
  // Pool mode: agents think, the verifier trains; every free GPU is the pool's and no agent holds one.
  if (pooled && inventory.kind === "cpu") return { ok: true, leases: none(), cpuMode: true, warnings, pool: [] };
  if (pooled && inventory.kind === "gpus" && inventory.free.length > 0) return {
    ok: true,
    leases: none(),
    cpuMode: false,
    warnings,
    pool: inventory.free,
  };
  if (pooled) {
    return {
      ok: false,
      problems: formatProblems(
        loaded.file,
        loaded.text,
        [{
          path: ["verify", "gpus"],
          message: "verify.gpus is pool but no GPU is free for it",
          fix: "free a GPU, or set gpus: none for CPU mode",
        }],
      ),
    };
  }
  const leases = loaded.ab && inventory.kind === "gpus"
    ? allocateHalves(requests, inventory, held, loaded.ab.b)
    : allocateGpus(requests, inventory, held);
  if (leases.ok) return { ok: true, leases: leases.leases, cpuMode: inventory.kind === "cpu", warnings };
  const gpuRoles = Object.entries(config.roles).filter(([, spec]) => spec.gpu).map(([role]) => role);
  const role = blame !== undefined && gpuRoles.includes(blame) ? blame : (gpuRoles[0] ?? "");
  return {
    ok: false,
    problems: formatProblems(loaded.file, loaded.text, [{
      path: ["roles", role, "count"],
      message: leases.reason,
      fix: "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, "
        + "agents hold none), or set gpus: none for CPU mode",
    }]),
  };
}

// An A/B run: A's agents lease from the first half of the free GPUs, B's from the other, so
// neither half has more to run on.
function allocateHalves(
  requests: { name: string; gpu: boolean }[], inventory: Extract<GpuInventory, { kind: "gpus" }>,
  held: Map<string, number | null>, b: string[],
): LeaseResult {
  const split = Math.ceil(inventory.free.length / 2);
  const halves = [inventory.free.slice(0, split), inventory.free.slice(split)];
  const results = [false, true].map((isB, index) =>
    allocateGpus(
      requests.filter((agent) => b.includes(agent.name) === isB),
      { ...inventory, free: halves[index]! },
      held,
    ));
  const failed = results.find((result) => !result.ok);
  if (failed && !failed.ok) return {
    ...failed,
    reason: `A/B run, each half gets half the free GPUs: ${failed.reason}`,
  };
  return { ok: true, leases: new Map(results.flatMap((result) => (result.ok ? [...result.leases] : []))) };
}

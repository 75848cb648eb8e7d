/** One GPU as nvidia-smi reports it. */
export interface Gpu {
  index: number;
  uuid: string;
  name: string;
  memoryUsedMb: number;
  memoryTotalMb: number;
}

// A GPU with more than this much memory in use belongs to someone else (the driver itself takes a few MiB).
const BUSY_MEMORY_MB = 512;

/** Parse `nvidia-smi --query-gpu=index,uuid,name,memory.used,memory.total --format=csv,noheader,nounits`. */
export function parseNvidiaSmi(csv: string): Gpu[] {
  const gpus: Gpu[] = [];
  for (const line of csv.split("\n")) {
    if (!line.trim()) continue;
    const [index, uuid, name, used, total] = line.split(",").map((field) => field.trim());
    const gpu = {
      index: Number(index),
      uuid: uuid ?? "",
      name: name ?? "",
      memoryUsedMb: Number(used),
      memoryTotalMb: Number(total),
    };
    // "[N/A]" memory (MIG, some drivers) counts as free rather than dropping the GPU.
    if (Number.isNaN(gpu.memoryUsedMb)) gpu.memoryUsedMb = 0;
    if (Number.isNaN(gpu.memoryTotalMb)) gpu.memoryTotalMb = 0;
    if (Number.isInteger(gpu.index) && gpu.uuid) gpus.push(gpu);
  }
  return gpus;
}

export type GpuSetting = "auto" | "none" | number[];

export type GpuInventory = { kind: "cpu"; reason: string } | { kind: "gpus"; free: number[]; warnings: string[] };

/** Which GPUs the org may lease: the setting, what the probe found, and what others already use. */
export function selectGpus(setting: GpuSetting, probed: Gpu[] | { error: string }, held: number[] = []): GpuInventory {
  if (setting === "none") return { kind: "cpu", reason: "gpus: none in org.yaml" };
  if ("error" in probed) {
    return { kind: "cpu", reason: `no GPU found (${probed.error})` };
  }
  if (probed.length === 0) return { kind: "cpu", reason: "nvidia-smi lists no GPU" };
  const warnings: string[] = [];
  const known = new Map(probed.map((gpu) => [gpu.index, gpu]));
  const wanted = setting === "auto" ? probed.map((gpu) => gpu.index) : setting;
  const free: number[] = [];
  for (const index of wanted) {
    const gpu = known.get(index);
    if (!gpu) {
      warnings.push(`GPU ${index} is listed in org.yaml but nvidia-smi does not show it; skipped`);
    } else if (gpu.memoryUsedMb > BUSY_MEMORY_MB && !held.includes(index)) {
      warnings.push(`GPU ${index} (${gpu.name}) is busy: ${gpu.memoryUsedMb} MiB in use by another process; skipped`);
    } else {
      free.push(index);
    }
  }
  return { kind: "gpus", free, warnings };
}

export type LeaseResult =
  | { ok: true; leases: Map<string, number | null> }
  | { ok: false; needed: number; free: number[]; reason: string };

/** One distinct GPU per agent that needs one, keeping leases already held so a resume never reshuffles. */
export function allocateGpus(
  agents: { name: string; gpu: boolean }[], inventory: GpuInventory, previous: Map<string, number | null> = new Map(),
): LeaseResult {
  const leases = new Map<string, number | null>();
  const needers = agents.filter((agent) => agent.gpu);
  for (const agent of agents) if (!agent.gpu) leases.set(agent.name, null);
  if (inventory.kind === "cpu") {
    for (const agent of needers) leases.set(agent.name, null);
    return { ok: true, leases };
  }
  const pool = new Set(inventory.free);
  const waiting: string[] = [];
  for (const agent of needers) {
    const held = previous.get(agent.name);
    if (held !== undefined && held !== null && pool.has(held)) {
      leases.set(agent.name, held);
      pool.delete(held);
    } else {
      waiting.push(agent.name);
    }
  }
  const remaining = [...pool].sort((a, b) => a - b);
  if (waiting.length > remaining.length) {
    return {
      ok: false,
      needed: needers.length,
      free: inventory.free,
      reason: `${needers.length} agents need a GPU each but only ${inventory.free.length} `
        + `GPU${inventory.free.length === 1 ? " is" : "s are"} free (${inventory.free.join(", ") || "none"})`,
    };
  }
  for (const name of waiting) leases.set(name, remaining.shift()!);
  return { ok: true, leases };
}

export type GpuPresence = { kind: "present" } | { kind: "unknown"; reason: string } | { kind: "gone"; reason: string };

/**
 * Whether a GPU a run crashed on is still there; only a listing that lacks it says gone (a
 * failing nvidia-smi may be passing).
 */
export function checkGpuPresent(gpu: number, probed: Gpu[] | { error: string }): GpuPresence {
  if ("error" in probed) return { kind: "unknown", reason: probed.error };
  return probed.some((listed) => listed.index === gpu)
    ? { kind: "present" }
    : { kind: "gone", reason: `gpu ${gpu} is gone from nvidia-smi` };
}

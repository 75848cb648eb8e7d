import { parseNvidiaSmi } from "../../domain/lifecycle/select-gpus.js";
import type { GpuProbe } from "../../domain/ports.js";
import type { Runner } from "../process.js";

export const NVIDIA_SMI_ARGV = [
  "nvidia-smi", "--query-gpu=index,uuid,name,memory.used,memory.total", "--format=csv,noheader,nounits",
];

/** GPUs from nvidia-smi; a missing or failing nvidia-smi is an answer (CPU mode), not a crash. */
export function createGpuProbe(runner: Runner): GpuProbe {
  return {
    async probe() {
      const result = await runner.run(NVIDIA_SMI_ARGV, { timeoutMs: 15_000 });
      if (result.spawnError) return { error: "nvidia-smi not found on PATH" };
      if (result.exitCode !== 0) return {
        error: `nvidia-smi exited ${result.exitCode}: ${result.stderr.trim() || result.stdout.trim()}`,
      };
      return parseNvidiaSmi(result.stdout);
    },
  };
}

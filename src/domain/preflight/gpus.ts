import type { OrgConfig, Problem } from "../config/index.js";
import type { Gpu } from "../lifecycle/select-gpus.js";

/**
 * An explicit `gpus: [0, 1]` names GPUs of this machine: one nvidia-smi does not list is an error, whether or not a
 * role holds a GPU (verify runs use them too). auto and none need no check; under Slurm the GPUs are the cluster's.
 */
export function checkGpuList(config: OrgConfig, probed: Gpu[] | { error: string }): Problem[] {
  if (!Array.isArray(config.gpus) || config.backend === "slurm") return [];
  const listed = config.gpus;
  const found = "error" in probed ? [] : probed.map((gpu) => gpu.index);
  const missing = listed.filter((index) => !found.includes(index));
  if (missing.length === 0) return [];
  const path = ["gpus"];
  if (found.length === 0) {
    const why = "error" in probed ? probed.error : "nvidia-smi lists no GPU";
    const message = `gpus lists ${plural("GPU", listed)} but this machine has none (${why})`;
    return [{ path, message, fix: "set gpus: none to run on the CPU, or gpus: auto to take what nvidia-smi finds" }];
  }
  const message = `gpus lists ${plural("GPU", missing)} that nvidia-smi does not show (it lists ${found.join(", ")})`;
  const kept = listed.filter((index) => found.includes(index));
  const example = kept.length > 0 ? `, e.g. gpus: [${kept.join(", ")}]` : "";
  return [{ path, message, fix: `list only GPUs of this machine${example}, or set gpus: auto` }];
}

function plural(noun: string, indices: readonly number[]): string {
  return `${noun}${indices.length === 1 ? "" : "s"} ${indices.join(", ")}`;
}

import { formatProblems, type ConfigProbe, type LoadedConfig, type VerifyConfig } from "../domain/config/index.js";
import { warnSuiteSize } from "../domain/contracts/suite-size.js";
import type { RunMeasure } from "../domain/experiments/verifier-port.js";
import { describeBase } from "../domain/preflight/index.js";
import { selectGpus } from "../domain/lifecycle/select-gpus.js";
import type { GpuProbe } from "../domain/ports.js";
import { readAndLoadConfig } from "../adapters/store/config-file.js";
import { createGpuProbe } from "../adapters/probes/gpu.js";
import { processRunner } from "../adapters/process.js";
import { runPreflight } from "../adapters/probes/preflight.js";
import { findMissingPrograms } from "../adapters/probes/runtime.js";
import { runVerifyOnBase } from "../adapters/verifier/base-run.js";

export interface ValidateInput {
  cwd: string;
  file?: string;
  /** Adds `org up`'s pre-flight of the repo, and the verify command's one run on the base. */
  run?: boolean;
  probe?: ConfigProbe;
  gpus?: GpuProbe;
}

/** What `--run` runs on the base: nothing without a verify command, else one run that `runOnce` starts. */
export type BaseRun =
  | { tag: "no-verify" }
  | { tag: "judged" }
  | {
    tag: "command"; verify: VerifyConfig & { command: string[] };
    /** The base and its GPU: `3f2a9c1 (main) on GPU 0`. */
    on: string;
    /** The run, in a clean checkout of a throwaway store; `signal` kills its process group. */
    runOnce(signal: AbortSignal): Promise<RunMeasure>;
  };

/** org.yaml's problems all at once; or valid, with its warnings and (under `run`) the repo's and the base run. */
export type Validation =
  | { tag: "invalid"; problems: string[] }
  | { tag: "valid"; loaded: LoadedConfig; warnings: string[] }
  | { tag: "refused"; loaded: LoadedConfig; warnings: string[]; problems: string[] }
  | { tag: "checked"; loaded: LoadedConfig; warnings: string[]; base: BaseRun };

/** `org validate`: read and check org.yaml; `run` checks the repo as `org up` does and readies one verify run. */
export async function validateConfig(input: ValidateInput): Promise<Validation> {
  // A stop deadline already past is refused here, where a person writes it, as at `org up`.
  const read = await readAndLoadConfig({ cwd: input.cwd, file: input.file, now: new Date() }, input.probe);
  if ("problems" in read) return { tag: "invalid", problems: read.problems };
  const { loaded } = read;
  if (!input.run) {
    // The warnings a config alone shows; `--run` adds the repo's.
    const warnings = formatProblems(loaded.file, loaded.text, warnSuiteSize(loaded.config))
      .map((line) => `warning: ${line}`);
    return { tag: "valid", loaded, warnings };
  }
  const gpus = input.gpus ?? createGpuProbe(processRunner);
  const [programs, preflight] = await Promise.all([
    findMissingPrograms(loaded.config, loaded.repoDir), runPreflight(loaded, gpus),
  ]);
  const problems = [...programs, ...preflight.problems];
  if (problems.length > 0) return { tag: "refused", loaded, warnings: preflight.warnings, problems };
  return { tag: "checked", loaded, warnings: preflight.warnings, base: await readyBaseRun(loaded, gpus) };
}

async function readyBaseRun(loaded: LoadedConfig, gpus: GpuProbe): Promise<BaseRun> {
  const { verify } = loaded.config;
  if (!verify) return { tag: "no-verify" };
  const { command } = verify;
  if (!command) return { tag: "judged" };
  const gpu = await pickGpu(loaded, gpus);
  const base = describeBase({ base: loaded.config.base, commit: loaded.baseCommit });
  return {
    tag: "command", verify: { ...verify, command }, on: `${base}${gpu === null ? "" : ` on GPU ${gpu}`}`,
    runOnce: (signal) => runVerifyOnBase(loaded, verify, { gpu, signal }),
  };
}

/** The GPU a baseline's run would get: the first of the org's free GPUs, or none in CPU mode. */
async function pickGpu(loaded: LoadedConfig, gpus: GpuProbe): Promise<number | null> {
  const { config } = loaded;
  if (config.gpus === "none" || config.backend === "slurm") return null;
  const inventory = selectGpus(config.gpus, await gpus.probe());
  return inventory.kind === "gpus" ? (inventory.free[0] ?? null) : null;
}

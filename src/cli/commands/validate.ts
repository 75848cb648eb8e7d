import { formatProblems, type ConfigProbe, type LoadedConfig } from "../../domain/config/index.js";
import { warnSuiteSize } from "../../domain/contracts/suite-size.js";
import { describeBase } from "../../domain/preflight/index.js";
import { selectGpus } from "../../domain/lifecycle/select-gpus.js";
import type { GpuProbe } from "../../domain/ports.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { configProbe } from "../../adapters/probes/config.js";
import { EXIT, parseProblem } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { createGpuProbe } from "../../adapters/probes/gpu.js";
import { processRunner } from "../../adapters/process.js";
import { runPreflight } from "../../adapters/probes/preflight.js";
import { findMissingPrograms } from "../../adapters/probes/runtime.js";
import { runVerifyOnBase } from "../../adapters/verifier/base-run.js";
import { renderBaseRun } from "../../ui/base-run-report.js";
import type { Io } from "../io.js";

/**
 * `org validate [--json]`: every problem at once on stderr (exit 1), or a one-line summary (exit 0). `run` adds
 * `org up`'s pre-flight of the repo and one run of the verify command on the base, with what its metric pattern read.
 */
export async function runValidate(
  opts: { cwd: string; file?: string; json?: boolean; run?: boolean }, io: Io,
  probe: ConfigProbe = configProbe, gpus: GpuProbe = createGpuProbe(processRunner),
): Promise<number> {
  // A stop deadline already past is refused here, where a person writes it, as at `org up`.
  const read = await readAndLoadConfig({ ...opts, now: new Date() }, probe);
  if ("problems" in read) {
    // Under --json the problems are the answer, not an error: `valid` false, each problem an object, exit 1 still.
    const problems = read.problems.map(parseProblem);
    if (opts.json) io.out(formatJson({ valid: false, file: opts.file ?? "org.yaml", problems }));
    else for (const problem of read.problems) io.err(problem);
    return EXIT.failure;
  }
  const { loaded } = read;
  if (!opts.run) {
    // The warnings a config alone shows; `--run` adds the repo's.
    const warnings = formatProblems(loaded.file, loaded.text, warnSuiteSize(loaded.config))
      .map((line) => `warning: ${line}`);
    if (!opts.json) for (const line of warnings) io.err(line);
    const valid = { ...describeValid(loaded), ...(warnings.length > 0 ? { warnings } : {}) };
    io.out(opts.json ? formatJson(valid) : summarize(loaded));
    return EXIT.ok;
  }
  const [programs, preflight] = await Promise.all([
    findMissingPrograms(loaded.config, loaded.repoDir), runPreflight(loaded, gpus),
  ]);
  const problems = [...programs, ...preflight.problems];
  if (opts.json && problems.length > 0) {
    const shown = { ...describeValid(loaded), valid: false, problems: problems.map(parseProblem) };
    io.out(formatJson({ ...shown, warnings: preflight.warnings }));
    return EXIT.failure;
  }
  if (!opts.json) for (const line of [...preflight.warnings, ...problems]) io.err(line);
  if (problems.length > 0) return EXIT.failure;
  if (!opts.json) io.out(summarize(loaded));
  return runOnBase(loaded, gpus, io, opts.json ? preflight.warnings : undefined);
}

/** The verify command once on the base, stopped (its process group killed) by Ctrl-C; `warnings` set under --json. */
async function runOnBase(loaded: LoadedConfig, gpus: GpuProbe, io: Io, warnings?: string[]): Promise<number> {
  const { verify } = loaded.config;
  const json = warnings !== undefined;
  if (!verify) {
    if (json) io.out(formatJson({ ...describeValid(loaded), warnings, run: null }));
    else io.out("no verify section: nothing to run, and experiments are not judged — add verify: to have them judged");
    return EXIT.ok;
  }
  if (!verify.command) {
    const judged = "verify.judge is the metric: `org up` calibrates it on the references before any run";
    if (json) io.out(formatJson({ ...describeValid(loaded), warnings, run: null }));
    else io.out(judged);
    return EXIT.ok;
  }
  const gpu = await pickGpu(loaded, gpus);
  const base = describeBase({ base: loaded.config.base, commit: loaded.baseCommit });
  const on = `${base}${gpu === null ? "" : ` on GPU ${gpu}`}`;
  const say = json ? io.err : io.out;
  say(`running ${verify.command.join(" ")} once on ${on} in a clean checkout (timeout ${verify.timeout})…`);
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop).once("SIGTERM", stop);
  try {
    const report = renderBaseRun(loaded, verify, await runVerifyOnBase(loaded, verify, { gpu, signal: abort.signal }));
    if (json) io.out(formatJson({ ...describeValid(loaded), warnings, run: report }));
    else {
      for (const line of report.out) io.out(line);
      for (const line of report.err) io.err(line);
    }
    return report.ok ? EXIT.ok : EXIT.failure;
  } finally {
    process.off("SIGINT", stop).off("SIGTERM", stop);
  }
}

/** The GPU a baseline's run would get: the first of the org's free GPUs, or none in CPU mode. */
async function pickGpu(loaded: LoadedConfig, gpus: GpuProbe): Promise<number | null> {
  const { config } = loaded;
  if (config.gpus === "none" || config.backend === "slurm") return null;
  const inventory = selectGpus(config.gpus, await gpus.probe());
  return inventory.kind === "gpus" ? (inventory.free[0] ?? null) : null;
}

/** `org.yaml is valid: 3 roles, 5 agents, runtimes claude, mybot` */
export function summarize(loaded: LoadedConfig): string {
  const { roles, agents, runtimes } = countConfig(loaded);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const named = `${runtimes.length === 1 ? "runtime" : "runtimes"} ${runtimes.join(", ")}`;
  return `${loaded.file} is valid: ${count(roles, "role")}, ${count(agents, "agent")}, ${named}`;
}

function describeValid(loaded: LoadedConfig) {
  return { valid: true, file: loaded.file, ...countConfig(loaded), problems: [] as unknown[] };
}

function countConfig(loaded: LoadedConfig): { roles: number; agents: number; runtimes: string[] } {
  const roles = Object.values(loaded.config.roles);
  const agents = roles.reduce((sum, role) => sum + role.count, 0);
  return { roles: roles.length, agents, runtimes: Object.keys(loaded.config.runtimes) };
}

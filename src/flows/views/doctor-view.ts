import { evaluateTools, type RuntimeCheckInput, type ToolProbe } from "../../domain/views/doctor-checks.js";
import { resolveRuntime } from "../../domain/runtimes/resolve-runtime.js";
import { parseNvidiaSmi } from "../../domain/lifecycle/select-gpus.js";
import { checkServices, readServiceTicks } from "../../domain/views/service-ticks.js";
import { orgPaths } from "../../domain/paths.js";
import { checkSandbox, decideSandbox } from "../../domain/sandbox/decide-sandbox.js";
import { checkKeeper } from "../../domain/lifecycle/keeper-rules.js";
import { readAndLoadConfig, type ReadConfigResult } from "../../adapters/store/config-file.js";
import { probeRuntime } from "../../adapters/probes/runtime.js";
import { NVIDIA_SMI_ARGV } from "../../adapters/probes/gpu.js";
import { processRunner } from "../../adapters/process.js";
import { readGitVersion } from "../../adapters/git/refs.js";
import { filesPort } from "../../adapters/fs/files-port.js";
import { probeSandbox } from "../../adapters/probes/sandbox.js";
import { findRunningKeeper, readKeeperRecord } from "../../adapters/keeper-process.js";

/**
 * What `org doctor` checks: node, git, tmux, nvidia-smi and every runtime program of this org, the sandbox, and, with
 * the org running, its daemon's services and keeper. `problems`: org.yaml's, when it does not load.
 */
export async function runDoctorChecks(root: string, now: Date) {
  const smi = await processRunner.run(NVIDIA_SMI_ARGV, { timeoutMs: 15_000 });
  const read = await readAndLoadConfig({ cwd: root });
  const probe: ToolProbe = {
    node: process.version,
    git: (await readGitVersion()) ?? null,
    tmux: await readVersion(["tmux", "-V"]),
    nvidiaSmi: smi.spawnError
      ? { found: false, gpus: 0 }
      : smi.exitCode === 0
        ? { found: true, gpus: parseNvidiaSmi(smi.stdout).length }
        : { found: true, gpus: 0, error: `exit ${smi.exitCode}: ${smi.stderr.trim()}` },
    runtimes: await probeRuntimes(read),
  };
  // With the org running, its daemon's services too: a hung loop is what a person asks the doctor about.
  const ticks = await readServiceTicks(filesPort, orgPaths(root).daemon);
  // Whether the agents of this org run sandboxed: bwrap found, a trial sandbox started, sandbox.enabled.
  const sandbox = await probeSandbox();
  const setting = "loaded" in read ? read.loaded.config.sandbox : undefined;
  // A running org (its daemon has beaten) has a keeper that brings the daemon back; none is worth a warning.
  const state = orgPaths(root).state;
  const keeper = ticks.length > 0
    ? [checkKeeper(await readKeeperRecord(state), await findRunningKeeper(root, state))]
    : [];
  const checks = [
    ...evaluateTools(probe), checkSandbox(decideSandbox(setting, sandbox), sandbox), ...checkServices(ticks, now),
    ...keeper,
  ];
  return { checks, problems: "problems" in read ? read.problems : [] };
}

// The version line a tool prints; null when it is missing or fails.
async function readVersion(argv: string[]): Promise<string | null> {
  const result = await processRunner.run(argv, { timeoutMs: 10_000 });
  return result.spawnError || result.exitCode !== 0 ? null : result.stdout.trim().split("\n")[0]!;
}

async function probeRuntimes(read: ReadConfigResult): Promise<RuntimeCheckInput[]> {
  if (!("loaded" in read)) return [];
  const { config, repoDir } = read.loaded;
  return Promise.all(Object.entries(config.runtimes).map(async ([name, runtime]): Promise<RuntimeCheckInput> =>
    runtime.builtin
      ? { name, builtin: true }
      : { ...(await probeRuntime(name, resolveRuntime(runtime), repoDir)), builtin: false }));
}

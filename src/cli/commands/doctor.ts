import { evaluateTools, type RuntimeCheckInput, type ToolProbe } from "../../domain/views/doctor-checks.js";
import { resolveRuntime } from "../../domain/runtimes/resolve-runtime.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { probeRuntime } from "../../adapters/probes/runtime.js";
import { parseNvidiaSmi } from "../../domain/lifecycle/select-gpus.js";
import { NVIDIA_SMI_ARGV } from "../../adapters/probes/gpu.js";
import { processRunner } from "../../adapters/process.js";
import { renderTable } from "../../ui/fit-table.js";
import { fitLines } from "../../ui/wrap-text.js";
import type { Io } from "../io.js";
import { EXIT, parseProblem } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { readGitVersion } from "../../adapters/git/refs.js";
import { checkServices, readServiceTicks } from "../../domain/views/service-ticks.js";
import { orgPaths } from "../../domain/paths.js";
import { filesPort } from "../../adapters/fs/files-port.js";
import { probeSandbox } from "../../adapters/probes/sandbox.js";
import { checkSandbox, decideSandbox } from "../../domain/sandbox/decide-sandbox.js";
import { checkKeeper } from "../../domain/lifecycle/keeper-rules.js";
import { findRunningKeeper, readKeeperRecord } from "../../adapters/keeper-process.js";

/** `org doctor`: node, git, tmux, nvidia-smi and every runtime program of this org. */
export async function runDoctor(opts: { root: string; json?: boolean }, io: Io): Promise<number> {
  const version = async (argv: string[]) => {
    const result = await processRunner.run(argv, { timeoutMs: 10_000 });
    return result.spawnError || result.exitCode !== 0 ? null : result.stdout.trim().split("\n")[0]!;
  };
  const smi = await processRunner.run(NVIDIA_SMI_ARGV, { timeoutMs: 15_000 });
  const read = await readAndLoadConfig({ cwd: opts.root });
  const runtimes: RuntimeCheckInput[] = "loaded" in read
    ? await Promise.all(Object.entries(read.loaded.config.runtimes).map(async ([name, runtime]): Promise<RuntimeCheckInput> =>
        runtime.builtin ? { name, builtin: true } : { ...(await probeRuntime(name, resolveRuntime(runtime), read.loaded.repoDir)), builtin: false }))
    : [];
  const probe: ToolProbe = {
    node: process.version,
    git: (await readGitVersion()) ?? null,
    tmux: await version(["tmux", "-V"]),
    nvidiaSmi: smi.spawnError
      ? { found: false, gpus: 0 }
      : smi.exitCode === 0 ? { found: true, gpus: parseNvidiaSmi(smi.stdout).length } : { found: true, gpus: 0, error: `exit ${smi.exitCode}: ${smi.stderr.trim()}` },
    runtimes,
  };
  // With the org running, its daemon's services too: a hung loop is what a person asks the doctor about.
  const ticks = await readServiceTicks(filesPort, orgPaths(opts.root).daemon);
  // Whether the agents of this org run sandboxed: bwrap found, a trial sandbox started, sandbox.enabled.
  const sandbox = await probeSandbox();
  const setting = "loaded" in read ? read.loaded.config.sandbox : undefined;
  // A running org (its daemon has beaten) has a keeper that brings the daemon back; none is worth a warning.
  const state = orgPaths(opts.root).state;
  const keeper = ticks.length > 0 ? [checkKeeper(await readKeeperRecord(state), await findRunningKeeper(opts.root, state))] : [];
  const checks = [...evaluateTools(probe), checkSandbox(decideSandbox(setting, sandbox), sandbox), ...checkServices(ticks, new Date()), ...keeper];
  const code = checks.some((check) => check.status === "fail") ? EXIT.failure : EXIT.ok;
  if (opts.json) {
    const problems = "problems" in read ? read.problems.map(parseProblem) : [];
    const config = { valid: problems.length === 0, problems };
    const shown = checks.map(({ name, status, detail, fix }) => ({ name, status, detail, fix: fix ?? null }));
    io.out(formatJson({ ok: code === EXIT.ok, checks: shown, config }));
    return code;
  }
  const rows = checks.map((check) => [check.name, check.status, check.detail, check.fix ?? ""]);
  io.out(renderTable(["CHECK", "STATUS", "DETAIL", "FIX"], rows, { width: io.columns, wrap: ["DETAIL", "FIX"] }));
  const problems = "problems" in read ? read.problems.length : 0;
  if (problems > 0) io.out(fitLines(`org.yaml: ${problems} problem(s); run \`org validate\` for details`, io.columns));
  return code;
}

import type { ConfigProbe, LoadedConfig } from "../../domain/config/index.js";
import type { GpuProbe } from "../../domain/ports.js";
import { EXIT, parseProblem } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { validateConfig, type BaseRun, type ValidateInput } from "../../flows/validate-config.js";
import { renderBaseRun } from "../../ui/base-run-report.js";
import type { Io } from "../io.js";

/**
 * `org validate [--json]`: every problem at once on stderr (exit 1), or a one-line summary (exit 0). `run` adds
 * `org up`'s pre-flight of the repo and one run of the verify command on the base, with what its metric pattern read.
 */
export async function runValidate(
  opts: Omit<ValidateInput, "probe" | "gpus"> & { json?: boolean }, io: Io, probe?: ConfigProbe, gpus?: GpuProbe,
): Promise<number> {
  const validation = await validateConfig({ ...opts, probe, gpus });
  if (validation.tag === "invalid") {
    // Under --json the problems are the answer, not an error: `valid` false, each problem an object, exit 1 still.
    const problems = validation.problems.map(parseProblem);
    if (opts.json) io.out(formatJson({ valid: false, file: opts.file ?? "org.yaml", problems }));
    else for (const problem of validation.problems) io.err(problem);
    return EXIT.failure;
  }
  const { loaded, warnings } = validation;
  if (validation.tag === "valid") {
    if (!opts.json) for (const line of warnings) io.err(line);
    const valid = { ...describeValid(loaded), ...(warnings.length > 0 ? { warnings } : {}) };
    io.out(opts.json ? formatJson(valid) : summarize(loaded));
    return EXIT.ok;
  }
  const problems = validation.tag === "refused" ? validation.problems : [];
  if (opts.json && problems.length > 0) {
    const shown = { ...describeValid(loaded), valid: false, problems: problems.map(parseProblem) };
    io.out(formatJson({ ...shown, warnings }));
    return EXIT.failure;
  }
  if (!opts.json) for (const line of [...warnings, ...problems]) io.err(line);
  if (validation.tag === "refused") return EXIT.failure;
  if (!opts.json) io.out(summarize(loaded));
  return runOnBase(loaded, validation.base, io, opts.json ? warnings : undefined);
}

/** The verify command once on the base, stopped (its process group killed) by Ctrl-C; `warnings` set under --json. */
async function runOnBase(loaded: LoadedConfig, base: BaseRun, io: Io, warnings?: string[]): Promise<number> {
  const json = warnings !== undefined;
  if (base.tag !== "command") {
    const said = base.tag === "no-verify"
      ? "no verify section: nothing to run, and experiments are not judged — add verify: to have them judged"
      : "verify.judge is the metric: `org up` calibrates it on the references before any run";
    io.out(json ? formatJson({ ...describeValid(loaded), warnings, run: null }) : said);
    return EXIT.ok;
  }
  const { verify } = base;
  const say = json ? io.err : io.out;
  say(`running ${verify.command.join(" ")} once on ${base.on} in a clean checkout (timeout ${verify.timeout})…`);
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop).once("SIGTERM", stop);
  try {
    const report = renderBaseRun(loaded, verify, await base.runOnce(abort.signal));
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

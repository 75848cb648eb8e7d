import type { ConfigProbe, LoadedConfig } from "../../org/config/index.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { configProbe } from "../../adapters/probes/config.js";
import { EXIT, parseProblem } from "../../org/scripting/index.js";
import { formatJson } from "../../org/safe-text.js";
import type { Io } from "../io.js";

/** `org validate [--json]`: every problem at once on stderr (exit 1), or a one-line summary (exit 0). */
export async function runValidate(
  opts: { cwd: string; file?: string; json?: boolean },
  io: Io,
  probe: ConfigProbe = configProbe,
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
  io.out(opts.json ? formatJson(describeValid(read.loaded)) : summarize(read.loaded));
  return EXIT.ok;
}

/** `org.yaml is valid: 3 roles, 5 agents, runtimes claude, mybot` */
export function summarize(loaded: LoadedConfig): string {
  const { roles, agents, runtimes } = countConfig(loaded);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const named = `${runtimes.length === 1 ? "runtime" : "runtimes"} ${runtimes.join(", ")}`;
  return `${loaded.file} is valid: ${count(roles, "role")}, ${count(agents, "agent")}, ${named}`;
}

function describeValid(loaded: LoadedConfig) {
  return { valid: true, file: loaded.file, ...countConfig(loaded), problems: [] };
}

function countConfig(loaded: LoadedConfig): { roles: number; agents: number; runtimes: string[] } {
  const roles = Object.values(loaded.config.roles);
  const agents = roles.reduce((sum, role) => sum + role.count, 0);
  return { roles: roles.length, agents, runtimes: Object.keys(loaded.config.runtimes) };
}

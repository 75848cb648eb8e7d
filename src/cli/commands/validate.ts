import type { ConfigProbe, LoadedConfig } from "../../org/config/index.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { configProbe } from "../../adapters/probes/config.js";
import type { Io } from "../io.js";

/** `org validate`: every problem at once on stderr (exit 1), or a one-line summary (exit 0). */
export async function runValidate(opts: { cwd: string; file?: string }, io: Io, probe: ConfigProbe = configProbe): Promise<number> {
  // A stop deadline already past is refused here, where a person writes it, as at `org up`.
  const read = await readAndLoadConfig({ ...opts, now: new Date() }, probe);
  if ("problems" in read) {
    for (const problem of read.problems) io.err(problem);
    return 1;
  }
  io.out(summarize(read.loaded));
  return 0;
}

/** `org.yaml is valid: 3 roles, 5 agents, runtimes claude, mybot` */
export function summarize(loaded: LoadedConfig): string {
  const roles = Object.values(loaded.config.roles);
  const agents = roles.reduce((sum, role) => sum + role.count, 0);
  const runtimes = Object.keys(loaded.config.runtimes);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  return `${loaded.file} is valid: ${count(roles.length, "role")}, ${count(agents, "agent")}, ${runtimes.length === 1 ? "runtime" : "runtimes"} ${runtimes.join(", ")}`;
}

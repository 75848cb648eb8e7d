import { dirname, isAbsolute, resolve } from "node:path";
import { configProbe } from "../../adapters/config-probe.js";
import { readText } from "../../adapters/files.js";
import { loadConfig, type ConfigProbe, type LoadedConfig } from "../../org/config/index.js";
import type { Io } from "../io.js";

export type ReadConfigResult = { loaded: LoadedConfig } | { problems: string[] };

/** Read and load org.yaml exactly as every command does; prints nothing. */
export async function readAndLoadConfig(opts: { cwd: string; file?: string }, probe: ConfigProbe = configProbe): Promise<ReadConfigResult> {
  const file = opts.file ?? "org.yaml";
  const absFile = resolve(opts.cwd, file);
  let text: string | undefined;
  try {
    text = await readText(absFile);
  } catch (error) {
    return { problems: [`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}) — check that it is a readable file`] };
  }
  if (text === undefined) {
    const where = isAbsolute(file) ? "" : ` in ${opts.cwd}`;
    return { problems: [`${file}: not found${where} — run \`org init\` to create one`] };
  }
  const result = await loadConfig({ file, dir: dirname(absFile), text }, probe);
  return result.ok ? { loaded: result.loaded } : { problems: result.problems };
}

/** `org validate`: every problem at once on stderr (exit 1), or a one-line summary (exit 0). */
export async function runValidate(opts: { cwd: string; file?: string }, io: Io, probe: ConfigProbe = configProbe): Promise<number> {
  const read = await readAndLoadConfig(opts, probe);
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

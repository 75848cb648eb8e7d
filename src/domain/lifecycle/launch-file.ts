// state/agents/<agent>/launch.json: how the agent's program starts, written by `org up` and each reload from org.yaml.
// The only module that reads or writes it, checked field by field, over the caller's file port (up and reload are
// in src/domain, which cannot import adapters).
import { agentPaths } from "../paths.js";
import type { FilesPort } from "../ports.js";
import type { LaunchSpec } from "../state.js";
import { parseLaunchSpec } from "./supervise.js";

/** A launch.json's text as a spec, or what is wrong with it (not JSON, or a field as `field: problem`). */
export function parseLaunchText(text: string): LaunchSpec | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return parseLaunchSpec(value);
}

/** The agent's spec, or why there is none to start from, with the fix: the supervisor says it and leaves the pane. */
export async function loadLaunchSpec(files: Pick<FilesPort, "readText">, state: string, agent: string):
  Promise<LaunchSpec | string> {
  const path = agentPaths(state, agent).launch;
  const text = await files.readText(path).catch((error: Error) => error);
  if (text === undefined) return `${path} not found — run \`org up\` to write it`;
  if (text instanceof Error) return `cannot read ${path}: ${text.message} — rerun \`org up\``;
  const spec = parseLaunchText(text);
  return typeof spec === "string" ? `invalid ${path}: ${spec} — rerun \`org up\`` : spec;
}

/**
 * The agent's spec; undefined when missing, unreadable or of another shape: the screen watch, the notifier and the
 * views then treat the agent as a program of no known CLI, while the supervisor names the problem (loadLaunchSpec).
 */
export async function readLaunchSpec(files: Pick<FilesPort, "readText">, state: string, agent: string):
  Promise<LaunchSpec | undefined> {
  const spec = await loadLaunchSpec(files, state, agent);
  return typeof spec === "string" ? undefined : spec;
}

/** Written whole or not at all. */
export async function writeLaunchSpec(
  files: Pick<FilesPort, "writeAtomic">, state: string, agent: string, spec: LaunchSpec,
): Promise<void> {
  await files.writeAtomic(agentPaths(state, agent).launch, `${JSON.stringify(spec, null, 2)}\n`);
}

import { sandboxFile } from "../../domain/paths.js";
import { parseAgentSandbox } from "../../domain/sandbox/prepare-sandboxes.js";
import type { AgentSandbox } from "../../domain/sandbox/layout.js";
import { readText } from "../fs/files.js";

/** The sandbox `org up` wrote for an agent's every restart; undefined when the org runs it unsandboxed. */
export async function readAgentSandbox(state: string, agent: string): Promise<AgentSandbox | undefined> {
  return parseAgentSandbox(await readText(sandboxFile(state, agent)).catch(() => undefined));
}

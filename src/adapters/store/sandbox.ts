import { sandboxFile } from "../../org/paths.js";
import { parseAgentSandbox } from "../../org/sandbox/prepare.js";
import type { AgentSandbox } from "../../org/sandbox/layout.js";
import { readText } from "../fs/files.js";

/** The sandbox `org up` wrote for an agent's every restart; undefined when the org runs it unsandboxed. */
export async function readAgentSandbox(state: string, agent: string): Promise<AgentSandbox | undefined> {
  return parseAgentSandbox(await readText(sandboxFile(state, agent)).catch(() => undefined));
}

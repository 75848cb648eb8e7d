import { sandboxFile } from "../../domain/paths.js";
import { describeDamagedSandbox, parseAgentSandbox } from "../../domain/sandbox/prepare-sandboxes.js";
import type { AgentSandbox } from "../../domain/sandbox/layout.js";
import { readText } from "../fs/files.js";

/**
 * The sandbox `org up` wrote for an agent's every restart: undefined when the org runs it unsandboxed, or a
 * `{ refused }` saying why a damaged record starts nothing.
 */
export async function readAgentSandbox(
  state: string, agent: string,
): Promise<AgentSandbox | undefined | { refused: string }> {
  const file = sandboxFile(state, agent);
  const record = parseAgentSandbox(await readText(file).catch(() => undefined));
  if (record.kind === "damaged") return { refused: describeDamagedSandbox(file, record.reason) };
  return record.kind === "sandboxed" ? record.sandbox : undefined;
}

/** Whether a read sandbox is a refusal rather than a sandbox (or none). */
export function isRefusedSandbox(value: AgentSandbox | undefined | { refused: string }): value is { refused: string } {
  return value !== undefined && "refused" in value;
}

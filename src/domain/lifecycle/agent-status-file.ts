// state/agents/<agent>/status.json: the supervisor's record of an agent's program. The only module that names its
// path, reads it (checked field by field) or writes it; callers hand it their file port (a fake one in tests).
import { agentPaths } from "../paths.js";
import type { FilesPort } from "../ports.js";
import type { AgentStatus } from "../state.js";
import { parseAgentStatus } from "./agent-status-schema.js";
import { parseJsonText } from "../json-fields.js";

/** The agent's status; undefined when none was written yet, or the file is cut short or of another shape. */
export async function readAgentStatus(files: Pick<FilesPort, "readText">, state: string, agent: string):
  Promise<AgentStatus | undefined> {
  // Unreadable counts as absent: a view of the org shows the agent as not started rather than failing whole.
  const text = await files.readText(agentPaths(state, agent).status).catch(() => undefined);
  return parseAgentStatus(parseJsonText(text));
}

/** Every agent's status, by name; a missing or malformed one is undefined. */
export async function readAgentStatuses(files: Pick<FilesPort, "readText">, state: string, agents: readonly string[]):
  Promise<Map<string, AgentStatus | undefined>> {
  const read = async (agent: string) => [agent, await readAgentStatus(files, state, agent)] as const;
  return new Map(await Promise.all(agents.map(read)));
}

/** Written whole or not at all: a daemon killed mid-write leaves the status before or after, never half. */
export async function writeAgentStatus(
  files: Pick<FilesPort, "writeAtomic">, state: string, agent: string, status: AgentStatus,
): Promise<void> {
  await files.writeAtomic(agentPaths(state, agent).status, `${JSON.stringify(status, null, 2)}\n`);
}

// An agent's status.json, checked field by field by its owner, agent-status-file.ts. Plain checks, not zod:
// `org status` reads every agent's, and zod's load and first parses were a tenth of its CPU at 64 agents.
import type { AgentState, AgentStatus } from "../state.js";
import { isFields, isNullable, isNumber, isString } from "../json-fields.js";

const STATES: ReadonlySet<string> = new Set<AgentState>([
  "starting", "pending", "running", "restarting", "failed", "stopped", "blocked",
]);

function isExit(value: unknown): boolean {
  if (!isFields(value)) return false;
  const pid = value.pid === undefined || isNumber(value.pid);
  return isNullable(isNumber)(value.code) && isNullable(isString)(value.signal) && isString(value.at) && pid;
}

/** A status file's JSON as a status, every field a newer org added kept; undefined when it is of another shape. */
export function parseAgentStatus(value: unknown): AgentStatus | undefined {
  if (!isFields(value)) return undefined;
  const valid = isString(value.agent) && isString(value.state) && STATES.has(value.state)
    && isNullable(isNumber)(value.pid) && isNullable(isString)(value.startedAt) && isNumber(value.restarts)
    && isNumber(value.consecutiveFailures) && (value.lastExit === null || isExit(value.lastExit))
    && isString(value.reason) && isString(value.updatedAt)
    && (value.restartAt === undefined || isNullable(isString)(value.restartAt));
  return valid ? (value as unknown as AgentStatus) : undefined;
}

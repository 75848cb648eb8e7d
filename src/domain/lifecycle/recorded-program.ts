import type { ProcessPort } from "../ports.js";
import type { AgentStatus } from "../state.js";

// A pid is handed out again only once the kernel's counter has come round: minutes apart on the busiest machine
// seen (this project's suite, pid_max 32768: ~3.5 min), so a process that started within this long of the
// recorded start is the program recorded.
const SAME_START_MS = 60_000;

/**
 * status.json's pid while the process holding it is still the program it records; else undefined. A stopped or
 * lost agent's status keeps its pid for days, and a pid since reused may lead anyone's process group.
 */
export function findRecordedProgram(
  processes: Pick<ProcessPort, "startedAt">, status: AgentStatus | undefined,
): number | undefined {
  if (!status?.pid || !status.startedAt) return undefined;
  const started = processes.startedAt(status.pid);
  return started !== undefined && started <= Date.parse(status.startedAt) + SAME_START_MS ? status.pid : undefined;
}

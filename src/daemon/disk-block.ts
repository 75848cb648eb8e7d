import type { OrgRecord, AgentStatus } from "../domain/state.js";
import { formatLogEntry } from "../domain/log-entry.js";
import { logPath } from "../domain/paths.js";
import type { ProcessPort, PanesPort } from "../domain/ports.js";
import { appendLines } from "../adapters/fs/files.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { readAgentStatus, writeAgentStatus } from "../domain/lifecycle/agent-status-file.js";

// As `org down` and a stop: SIGTERM to the program's group, this long to exit, then SIGKILL.
const STOP_GRACE_MS = 3000;

/**
 * Stops one agent over its disk budget, as a stop does: marked blocked first (so its supervisor records the exit as
 * blocked and restarts nothing), then its program's group ended. False when there was nothing live to stop.
 */
export async function blockAgent(
  opts: { state: string; record: OrgRecord; tmux: PanesPort; processes: ProcessPort; now: Date },
  agent: string,
  reason: string,
): Promise<boolean> {
  const paneId = opts.record.agents.find((candidate) => candidate.name === agent)?.paneId;
  const pane = (await opts.tmux.listPanes()).find((candidate) => candidate.id === paneId);
  const status = await readAgentStatus(filesPort, opts.state, agent);
  const live = pane !== undefined && !pane.dead;
  if (!status || (!live && status.state !== "restarting")) return false;
  const at = opts.now.toISOString();
  const blocked: AgentStatus = { ...status, state: "blocked", reason, restartAt: null, updatedAt: at };
  await writeAgentStatus(filesPort, opts.state, agent, blocked);
  const entry = formatLogEntry({ date: opts.now, op: "blocked", title: agent, body: reason });
  await appendLines(logPath(opts.state), [entry]);
  if (live && opts.processes.isAlive(-pane.pid)) await opts.processes.killGroup(pane.pid, STOP_GRACE_MS);
  return true;
}

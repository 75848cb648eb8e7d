import { describeAbRun } from "../domain/config-versions/ab-run-record.js";
import { relative } from "node:path";
import { PTY_SOCKET_PREFIX } from "../domain/paths.js";
import type { OrgSnapshot } from "../domain/views/snapshot.js";
import type { AgentUsage } from "../domain/usage/summary.js";
import { explainUsage, formatUsageCell } from "./usage-format.js";
import type { Utilization } from "../domain/experiments/utilization.js";
import { formatUtilization } from "./utilization-format.js";
import { formatUptime } from "./uptime.js";
import { renderTable } from "./fit-table.js";
import { fitLines } from "./wrap-text.js";

// Every view built its tables here before fit-table.ts; its callers still import it from here.
export { renderTable } from "./fit-table.js";

/**
 * Where a person reaches the panes: tmux's private socket, or the pty host's, which only `org
 * attach` and `org watch` speak.
 */
function describeGrid(snapshot: Pick<OrgSnapshot, "root" | "mode" | "socket">): string {
  if (snapshot.mode === "tmux") return `tmux -L ${snapshot.socket}`;
  return `pty host: ${relative(snapshot.root, snapshot.socket.slice(PTY_SOCKET_PREFIX.length))} — `
    + `org attach / org watch`;
}

// Under Slurm a running agent's note is where it runs: "job 312 on node2".
function describeNote(agent: OrgSnapshot["agents"][number]): string {
  if (agent.state !== "running") return agent.reason;
  return agent.job ? `job ${agent.job.id}${agent.job.node ? ` on ${agent.job.node}` : ""}` : "";
}

/**
 * The table (with a tokens and dollars column when `usage` is given, and why a usage is unknown), then any warnings,
 * each line as given; the GPU utilization ends the title, and `stopLine`, the stop section's distances or the stop
 * itself, goes under it, then `verifierLines`: the verifier's queue and baselines. With `width`, a terminal's: notes
 * cut, then tokens, roles (agents are named after theirs), restarts and pids left out, and the lines wrapped.
 */
export function renderStatus(
  snapshot: OrgSnapshot,
  warnings: string[] = [],
  usage?: Map<string, AgentUsage | null>,
  extra: { utilization?: Utilization; stopLine?: string; verifierLines?: string[]; width?: number } = {},
): string {
  const busy = extra.utilization ? ` · ${formatUtilization(extra.utilization)}` : "";
  const mode = snapshot.cpuMode ? " (CPU mode)" : "";
  const state = snapshot.running ? "running" : "down";
  const title = `org ${snapshot.name}: ${state}${mode} · ${describeGrid(snapshot)}${busy}`;
  const rows = snapshot.agents.map((agent) => [
    agent.name,
    agent.role,
    ...(snapshot.ab ? [agent.program ?? "-"] : []),
    agent.gpu === null ? (agent.state === "pending" ? "-" : agent.pooled ? "pool" : "cpu") : String(agent.gpu),
    agent.pid === null ? "-" : String(agent.pid),
    agent.state,
    String(agent.restarts),
    formatUptime(agent.uptimeMs),
    agent.head ? agent.head.slice(0, 7) : "-",
    ...(usage ? [formatUsageCell(usage.get(agent.name))] : []),
    describeNote(agent),
  ]);
  const header = [
    "AGENT",
    "ROLE",
    ...(snapshot.ab ? ["PROGRAM"] : []),
    "GPU",
    "PID",
    "STATE",
    "RESTARTS",
    "UPTIME",
    "HEAD",
    ...(usage ? ["TOKENS $"] : []),
    "NOTE",
  ];
  const width = extra.width;
  const ab = snapshot.ab ? [describeAbRun(snapshot.ab)] : [];
  const above = [title, ...ab, ...(extra.stopLine ? [extra.stopLine] : []), ...(extra.verifierLines ?? [])];
  const fit = { width, cut: ["NOTE"], floor: 20, drop: ["TOKENS $", "ROLE", "RESTARTS", "PID"] };
  const below = [...(usage ? explainUsage(usage) : []), ...warnings];
  const wrap = (line: string) => fitLines(line, width);
  return [...above.map(wrap), renderTable(header, rows, fit), ...below.map(wrap)].join("\n");
}

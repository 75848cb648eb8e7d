import { describeAbRun } from "../org/programs/ab-run.js";
import { relative } from "node:path";
import { PTY_SOCKET_PREFIX } from "../org/paths.js";
import type { OrgSnapshot } from "../org/views/snapshot.js";
import type { AgentUsage } from "../org/usage/summary.js";
import { explainUsage, formatUsageCell } from "./usage-format.js";
import type { Utilization } from "../org/experiments/utilization.js";
import { formatUtilization } from "./utilization-format.js";
import { formatUptime } from "./duration.js";
import { cleanLine } from "../org/safe-text.js";

/** Plain aligned columns, readable in a pane, a log and a pipe alike; a cell is one line, whatever an agent wrote. */
export function renderTable(header: string[], given: string[][]): string {
  const rows = given.map((row) => row.map(cleanLine));
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** Where a person reaches the panes: tmux's private socket, or the pty host's, which only `org attach` and `org watch` speak. */
function describeGrid(snapshot: Pick<OrgSnapshot, "root" | "mode" | "socket">): string {
  if (snapshot.mode === "tmux") return `tmux -L ${snapshot.socket}`;
  return `pty host: ${relative(snapshot.root, snapshot.socket.slice(PTY_SOCKET_PREFIX.length))} — org attach / org watch`;
}

/**
 * The table (with a tokens and dollars column when `usage` is given, and why a usage is unknown), then any warnings, each line as given;
 * the GPU utilization ends the title, and `stopLine`, the stop section's distances or the stop itself, goes under it,
 * then `verifierLines`: the verifier's queue and baselines.
 */
export function renderStatus(
  snapshot: OrgSnapshot, warnings: string[] = [], usage?: Map<string, AgentUsage | null>,
  extra: { utilization?: Utilization; stopLine?: string; verifierLines?: string[] } = {},
): string {
  const busy = extra.utilization ? ` · ${formatUtilization(extra.utilization)}` : "";
  const title = `org ${snapshot.name}: ${snapshot.running ? "running" : "down"}${snapshot.cpuMode ? " (CPU mode)" : ""} · ${describeGrid(snapshot)}${busy}`;
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
    agent.state === "running" ? "" : agent.reason,
  ]);
  const header = ["AGENT", "ROLE", ...(snapshot.ab ? ["PROGRAM"] : []), "GPU", "PID", "STATE", "RESTARTS", "UPTIME", "HEAD", ...(usage ? ["TOKENS $"] : []), "NOTE"];
  const notes = [...(snapshot.ab ? [describeAbRun(snapshot.ab)] : []), ...(extra.stopLine ? [extra.stopLine] : []), ...(extra.verifierLines ?? [])];
  const table = [title, ...notes, renderTable(header, rows)].join("\n");
  return [table, ...(usage ? explainUsage(usage) : []), ...warnings].join("\n");
}

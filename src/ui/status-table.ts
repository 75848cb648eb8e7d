import type { OrgSnapshot } from "../org/snapshot.js";

/** Human duration: 45s, 12m, 3h05m, 2d4h. */
export function formatUptime(ms: number | null): string {
  if (ms === null) return "-";
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${String(minutes % 60).padStart(2, "0")}m`;
  return `${Math.floor(hours / 24)}d${hours % 24}h`;
}

/** Plain aligned columns: readable in a pane, a log and a pipe alike. */
export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** The table, then any warnings (a rejected org.yaml edit), each line as given. */
export function renderStatus(snapshot: OrgSnapshot, warnings: string[] = []): string {
  const title = `org ${snapshot.name}: ${snapshot.running ? "running" : "down"}${snapshot.cpuMode ? " (CPU mode)" : ""} · tmux -L ${snapshot.socket}`;
  const rows = snapshot.agents.map((agent) => [
    agent.name,
    agent.role,
    agent.gpu === null ? (agent.state === "pending" ? "-" : "cpu") : String(agent.gpu),
    agent.pid === null ? "-" : String(agent.pid),
    agent.state,
    String(agent.restarts),
    formatUptime(agent.uptimeMs),
    agent.head ? agent.head.slice(0, 7) : "-",
    agent.state === "running" ? "" : agent.reason,
  ]);
  const table = `${title}\n${renderTable(["AGENT", "ROLE", "GPU", "PID", "STATE", "RESTARTS", "UPTIME", "HEAD", "NOTE"], rows)}`;
  return [table, ...warnings].join("\n");
}

import { readFileSync } from "node:fs";
import type { Ancestor } from "../../domain/identity/pane-owner.js";
import { readBootMs, TICKS_PER_SECOND } from "../process.js";

// Deep enough for any shell, CLI and sandbox nesting; a cycle in a racing /proc cannot loop forever.
const MAX_DEPTH = 64;

/**
 * This process and each one above it, nearest first, in one walk up /proc. It starts at /proc/self, not our pid:
 * inside a pid namespace that kept the host's /proc (a sandbox), only /proc's own numbering meets the panes'.
 */
export function readAncestry(): Ancestor[] {
  const bootMs = readBootMs();
  const ancestors: Ancestor[] = [];
  let next: string = "self";
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const stat = readStat(next);
    if (!stat) break;
    ancestors.push({
      pid: stat.pid, startedMs: bootMs === null ? null : bootMs + (stat.startTicks * 1000) / TICKS_PER_SECOND,
    });
    if (stat.ppid <= 1) break;
    next = String(stat.ppid);
  }
  return ancestors;
}

function readStat(pid: string): { pid: number; ppid: number; startTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name in parentheses may hold spaces and parentheses itself: fields are counted after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid: Number(stat.slice(0, stat.indexOf(" "))), ppid: Number(fields[1]), startTicks: Number(fields[19]) };
  } catch {
    // No /proc (not Linux), or the process ended mid-walk: the walk stops there.
    return undefined;
  }
}

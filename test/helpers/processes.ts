import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAlive } from "../../src/adapters/process.js";

// A killed process whose parent died first can stay a zombie until init reaps it; it no longer runs.
export function isRunning(pid: number): boolean {
  if (!existsSync("/proc")) return isAlive(pid);
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Pids of `org pty-host` processes serving `socket`. */
export function findPtyHosts(socket: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes(`pty-host --socket ${socket}`))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

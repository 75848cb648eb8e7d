// A process's own CPU time from /proc: how hard the daemon works while a fault plays out.
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` in seconds (its children not included). */
export function readCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces and parentheses: count fields from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Starts a measurement; the returned function gives the share of one core used since, 0.25 being a quarter. */
export function startCpuWindow(pid: number): () => { share: number; seconds: number } {
  const cpu = readCpuSeconds(pid);
  const at = Date.now();
  return () => {
    const seconds = (Date.now() - at) / 1000;
    return { share: (readCpuSeconds(pid) - cpu) / seconds, seconds };
  };
}

import { readDaemonFile } from "../lifecycle/daemon-file.js";
import type { FilesPort } from "../ports.js";
import { formatDuration } from "../lifecycle/supervise.js";
import type { Check } from "./doctor-checks.js";

/** When one daemon service last ticked and how late that tick ran against its period; null until its first tick. */
export interface ServiceTick {
  name: string;
  lastTickAt: string | null;
  lagMs: number | null;
}

/** The services daemon.json lists: none while the daemon has not beaten yet, or when the file does not parse. */
export async function readServiceTicks(files: Pick<FilesPort, "readText">, daemonFile: string): Promise<ServiceTick[]> {
  return ((await readDaemonFile(files, { daemon: daemonFile }))?.services ?? []).filter(isServiceTick);
}

function isServiceTick(value: unknown): value is ServiceTick {
  const tick = value as Partial<ServiceTick> | null;
  return typeof tick?.name === "string" && (tick.lastTickAt === null || typeof tick.lastTickAt === "string")
    && (tick.lagMs === null || typeof tick.lagMs === "number");
}

// A loop this late, or this long without a tick, is hung or starved: `org doctor` says so.
const LATE_MS = 10_000;
const SILENT_MS = 5 * 60_000;

/** One `org doctor` line per daemon service: when it last ticked, and whether it is late. */
export function checkServices(ticks: ServiceTick[], now: Date): Check[] {
  return ticks.map((tick) => {
    const name = `daemon: ${tick.name}`;
    if (tick.lastTickAt === null) return { name, status: "ok", detail: "running (no ticks: it acts on events)" };
    const ago = now.getTime() - Date.parse(tick.lastTickAt);
    const detail = `last tick ${formatDuration(Math.max(0, ago))} ago, lag ${tick.lagMs ?? 0} ms`;
    if (ago > SILENT_MS) return {
      name,
      status: "warn",
      detail,
      fix: "a tick hangs or the daemon is stuck: see the control pane (org attach), then `org down && org up`",
    };
    if ((tick.lagMs ?? 0) > LATE_MS) return {
      name,
      status: "warn",
      detail,
      fix: "the daemon is starved of CPU or a tick runs long: check the machine's load",
    };
    return { name, status: "ok", detail };
  });
}

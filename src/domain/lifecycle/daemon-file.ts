// state/daemon.json, the daemon's heartbeat: the only module that reads, writes or removes it, over the caller's file
// port (`org up` marks the daemon starting and `org down` removes the file from src/domain, which cannot import
// adapters). A file of another shape reads as none: to every reader that is a daemon not up, as a missing file is.
import type { OrgPaths } from "../paths.js";
import type { FilesPort } from "../ports.js";

/** What daemon.json holds: a beat (pid, heartbeatAt, …) or, before the first one, `org up`'s startingAt. */
export interface DaemonFile {
  pid?: number | null;
  /** When the daemon that writes the beats started. */
  startedAt?: string;
  heartbeatAt?: string;
  /** verify.queue_per_agent as the running daemon applies it. */
  queuePerAgent?: number;
  /** Written by `org up` when it starts the daemon, before the daemon's first heartbeat. */
  startingAt?: string;
  /** Each service's last tick, checked item by item where it is shown (domain/views/service-ticks.ts). */
  services?: unknown[];
  usage?: unknown;
}

type DaemonPath = Pick<OrgPaths, "daemon">;

/** The heartbeat, or undefined when the file is missing, cut short or not a heartbeat. */
export async function readDaemonFile(
  files: Pick<FilesPort, "readText">, paths: DaemonPath,
): Promise<DaemonFile | undefined> {
  const text = await files.readText(paths.daemon).catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isDaemonFile(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: a reader never sees half a beat. */
export async function writeDaemonFile(
  files: Pick<FilesPort, "writeAtomic">, paths: DaemonPath, beat: DaemonFile,
): Promise<void> {
  await files.writeAtomic(paths.daemon, `${JSON.stringify(beat, null, 2)}\n`);
}

/** `org down`: no daemon, no beat. */
export async function removeDaemonFile(files: Pick<FilesPort, "removeFile">, paths: DaemonPath): Promise<void> {
  await files.removeFile(paths.daemon);
}

function isDaemonFile(value: unknown): value is DaemonFile {
  const beat = value as Record<string, unknown> | null;
  if (typeof beat !== "object" || beat === null || Array.isArray(beat)) return false;
  const typed = (key: string, type: string) => beat[key] === undefined || typeof beat[key] === type;
  const pid = beat.pid === undefined || beat.pid === null || typeof beat.pid === "number";
  const times = ["startedAt", "heartbeatAt", "startingAt"].every((key) => typed(key, "string"));
  const services = beat.services === undefined || Array.isArray(beat.services);
  return pid && times && typed("queuePerAgent", "number") && services;
}

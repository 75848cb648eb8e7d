import { OrgError } from "../org/errors.js";
import { readJson } from "./files.js";
import { isAlive } from "./process.js";

// The daemon rewrites its heartbeat every refresh (2 s); three missed ones mean it is gone.
const HEARTBEAT_STALE_MS = 15_000;
// `org up` returns as soon as the agents run; a daemon it started gets this long to write its first heartbeat.
const START_GRACE_MS = 30_000;

interface DaemonFile {
  pid?: number | null;
  heartbeatAt?: string;
  /** Written by `org up` when it starts the daemon, before the daemon's first heartbeat. */
  startingAt?: string;
}

/** Throws `message` unless the org's daemon is alive and recently wrote its heartbeat; waits for one just started. */
export async function assertDaemonAlive(daemonFile: string, message: string): Promise<void> {
  for (;;) {
    const daemon = await readJson<DaemonFile>(daemonFile).catch(() => undefined);
    if (daemon?.pid && daemon.heartbeatAt && isAlive(daemon.pid) && Date.now() - Date.parse(daemon.heartbeatAt) < HEARTBEAT_STALE_MS) return;
    const starting = daemon?.startingAt && !daemon.heartbeatAt && Date.now() - Date.parse(daemon.startingAt) < START_GRACE_MS;
    if (!starting) throw new OrgError(message, "down");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Wait for the daemon's answer file; fail clearly if the daemon dies meanwhile (the request stays queued). */
export async function waitForAnswer<T>(file: string, daemonFile: string): Promise<T> {
  for (let polls = 0; ; polls++) {
    const answer = await readJson<T>(file).catch(() => undefined);
    if (answer) return answer;
    if (polls % 40 === 39) await assertDaemonAlive(daemonFile, "the org went down while your request waited; it stays queued and runs at the next `org up`");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

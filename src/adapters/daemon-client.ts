import { OrgError } from "../org/errors.js";
import { readJson } from "./files.js";
import { isAlive } from "./process.js";

// The daemon rewrites its heartbeat every refresh (2 s); three missed ones mean it is gone.
const HEARTBEAT_STALE_MS = 15_000;

/** Throws `message` unless the org's daemon is alive and recently wrote its heartbeat. */
export async function assertDaemonAlive(daemonFile: string, message: string): Promise<void> {
  const daemon = await readJson<{ pid: number; heartbeatAt: string }>(daemonFile).catch(() => undefined);
  const fresh = daemon && isAlive(daemon.pid) && Date.now() - Date.parse(daemon.heartbeatAt) < HEARTBEAT_STALE_MS;
  if (!fresh) throw new OrgError(message, "down");
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

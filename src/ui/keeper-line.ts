import type { KeeperRecord } from "../domain/lifecycle/keeper-rules.js";

/** One line for `org status`: what kept the daemon, and how often it had to. */
export function formatKeeperLine(record: KeeperRecord | undefined, alive: boolean): string | undefined {
  if (!record) return undefined;
  const keeper = alive ? `kept by its keeper (pid ${record.pid})` : "its keeper is not running (`org up` starts it)";
  const last = record.lastRestart;
  const times = `${record.daemonRestarts} time${record.daemonRestarts === 1 ? "" : "s"}`;
  const restarts = last ? `; daemon restarted (${last.exit}), ${times}, last at ${last.at}` : "";
  const waiting = record.waitingUntil ? `; next start ${record.waitingUntil} (it keeps dying at once)` : "";
  return `daemon: ${keeper}${restarts}${waiting}`;
}

// Killing an org's daemon for good: its keeper would bring it back, and it would bring back its keeper.
import { readdirSync, readFileSync } from "node:fs";

/** Every `org keeper --root <root>` process: the one in keeper.lock, and one still booting or about to give up. */
export function findKeepers(root: string): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return argv.includes("keeper") && argv.includes(root);
    } catch {
      return false;
    }
  });
}

/**
 * The daemon and every keeper dead at once, as an agent's `pkill node` would leave them: the daemon is frozen first,
 * so it starts no keeper while they die, then killed (its process group with `group`).
 */
export function killDaemonAndKeepers(root: string, daemon: number, opts: { group?: boolean } = {}): void {
  const target = opts.group ? -daemon : daemon;
  process.kill(target, "SIGSTOP");
  for (const keeper of findKeepers(root)) process.kill(keeper, "SIGKILL");
  process.kill(target, "SIGKILL");
}

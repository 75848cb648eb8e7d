import type { PanesPort } from "../ports.js";
import type { World } from "../world.js";

/** As `org down` and a reload's removal: SIGTERM to a program's group, this long to exit, then SIGKILL. */
const GRACE_MS = 3000;

export interface GridStop {
  wasRunning: boolean;
  stoppedGroups: number;
}

/**
 * Ends one grid: the daemon's group first, so its supervisor never restarts an agent being stopped, then every other
 * pane's group and the recorded `pids` (panes tmux already lost), then the server. Without `controlPaneId` (no
 * org.json) the daemon is the pane with no agent label.
 */
export async function stopGrid(
  world: World,
  tmux: PanesPort,
  opts: { controlPaneId?: string; pids?: readonly number[]; onStep?: (step: string) => void } = {},
): Promise<GridStop> {
  const wasRunning = await tmux.isRunning();
  const panes = wasRunning ? await tmux.listPanes().catch(() => []) : [];
  const live = panes.filter((pane) => !pane.dead);
  const isDaemon = (pane: (typeof live)[number]) =>
    opts.controlPaneId ? pane.id === opts.controlPaneId : !pane.options["@org_agent"];
  const daemons = live.filter(isDaemon).map((pane) => pane.pid);
  const groups = new Set(live.filter((pane) => !isDaemon(pane)).map((pane) => pane.pid));
  for (const pid of opts.pids ?? []) if (!daemons.includes(pid) && world.processes.isAlive(-pid)) groups.add(pid);
  if (daemons.length > 0) {
    opts.onStep?.("stopping the daemon");
    await Promise.all(daemons.map((pid) => world.processes.killGroup(pid, GRACE_MS)));
  }
  if (groups.size > 0) opts.onStep?.(`stopping ${groups.size} agent${groups.size === 1 ? "" : "s"}`);
  await Promise.all([...groups].map((pgid) => world.processes.killGroup(pgid, GRACE_MS)));
  if (wasRunning) opts.onStep?.("ending the server");
  await tmux.killServer();
  return { wasRunning, stoppedGroups: groups.size };
}

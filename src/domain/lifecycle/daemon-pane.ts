import type { OrgPaths } from "../paths.js";
import type { PaneInfo, PaneLaunch } from "../ports.js";
import type { OrgRecord } from "../state.js";
import type { World } from "../world.js";
import { writeDaemonFile } from "./daemon-file.js";
import { DAEMON_SECRETS_VAR } from "./keeper-rules.js";

// `org up`, `org reload` and the keeper each hold up.lock for milliseconds: a restart waits this long for it.
const LOCK_WAIT_MS = 5000;

// The daemon's pane starts with the grid, while `org up` still builds it: a shell waits (30 s at most) for org.json,
// so node's start-up, a tenth of a second of CPU, does not slow the grid a person waits on.
const AFTER_ORG_FILE = 'n=0; while [ ! -e "$1" ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done; shift; exec "$@"';

/** The daemon pane's program: `org daemon` once org.json exists, with the declared secrets (and their names). */
export function daemonLaunch(orgArgv: readonly string[], paths: OrgPaths, secrets: Record<string, string>): PaneLaunch {
  const argv = [
    "/bin/sh", "-c", AFTER_ORG_FILE, "org-daemon", paths.orgFile,
    ...orgArgv, "daemon", "--root", paths.root,
  ];
  return { argv, cwd: paths.root, env: { ...secrets, [DAEMON_SECRETS_VAR]: Object.keys(secrets).join(",") } };
}

/** Commands that need the daemon (submit, reload) wait for its first heartbeat instead of calling the org down. */
export async function markDaemonStarting(world: World, paths: OrgPaths): Promise<void> {
  const starting = { pid: null, startingAt: world.now().toISOString() };
  await writeDaemonFile(world.files, paths, starting);
}

export type DaemonRespawn =
  | { kind: "restarted"; dead: PaneInfo }
  | { kind: "alive"; reason: string }
  | { kind: "busy"; reason: string }
  | { kind: "gone"; reason: string };

/**
 * Starts the daemon's pane again if, looked at under up.lock, it is still dead: `org up` and the keeper may both see
 * it dead at once, and only one of them restarts it. Never two daemons: a live pane is left alone.
 */
export async function respawnDeadDaemon(
  world: World,
  paths: OrgPaths,
  record: OrgRecord,
  launch: PaneLaunch,
): Promise<DaemonRespawn> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await world.files.tryLock(paths.lock))) {
    const reason = `another \`org up\` or \`org reload\` holds ${paths.lock}`;
    if (Date.now() > deadline) return { kind: "busy", reason };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  try {
    const tmux = world.panes(record.socket, record.session);
    const control = (await tmux.listPanes()).find((pane) => pane.id === record.controlPaneId);
    const pane = record.controlPaneId ?? "?";
    if (!control) return { kind: "gone", reason: `the daemon's pane ${pane} is gone from ${record.socket}` };
    if (!control.dead) return { kind: "alive", reason: `the daemon (pid ${control.pid}) is running` };
    await markDaemonStarting(world, paths);
    await tmux.respawnPane(control.id, launch);
    return { kind: "restarted", dead: control };
  } finally {
    await world.files.removeFile(paths.lock);
  }
}

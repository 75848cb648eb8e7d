import { PTY_SOCKET_PREFIX } from "../domain/paths.js";
import type { PaneInfo } from "../domain/ports.js";
import type { SnapshotWorld } from "../domain/views/status-snapshot.js";
import { readTextNow } from "./fs/read-now.js";
import { readBranchHeads } from "./git/list-branch-heads.js";
import { PACKAGE_ROOT } from "./package-root.js";
import { isAlive, processRunner } from "./process.js";
import { Tmux } from "./tmux/tmux.js";
import { tracePort } from "./trace.js";

/**
 * What `org status` reads the org through: the grid's pane listing, the branch heads, state files read at once, live
 * pids and the clock. Not createWorld: its ports for up, the verifier and the sandbox probe are half of what status
 * would load before it reads a file.
 */
export function createStatusWorld(): SnapshotWorld {
  return {
    files: { readText: readTextNow },
    git: tracePort({ branchHeads: readBranchHeads }, "git"),
    processes: { isAlive },
    // An org run without tmux has a pty host: its client loads only for such an org.
    panes: (socket, session) => tracePort(socket.startsWith(PTY_SOCKET_PREFIX)
      ? { listPanes: () => listPtyPanes(socket, session) } : new Tmux(processRunner, socket, session), "tmux"),
    now: () => new Date(),
  };
}

async function listPtyPanes(socket: string, session: string): Promise<PaneInfo[]> {
  const { PtyGrid } = await import("./pty/grid.js");
  return new PtyGrid(socket, session, [process.execPath, `${PACKAGE_ROOT}bin/org.js`]).listPanes();
}

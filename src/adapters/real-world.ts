import { PTY_SOCKET_PREFIX } from "../domain/paths.js";
import type { World } from "../domain/world.js";
import { filesPort } from "./fs/files-port.js";
import { gitAdapter } from "./git/git.js";
import { PACKAGE_ROOT } from "./package-root.js";
import { createGpuProbe } from "./probes/gpu.js";
import { describeChild, endOrphanedChildren } from "./child-records.js";
import { isAlive, killProcessGroup, processRunner, readStartedAt } from "./process.js";
import { PtyGrid } from "./pty/grid.js";
import { Tmux } from "./tmux/tmux.js";
import { pickEnv } from "../domain/lifecycle/secrets.js";
import { probeSandbox, tmuxSocketDir } from "./probes/sandbox.js";
import { tracePhase, tracePort } from "./trace.js";

export { PACKAGE_ROOT };
export const ORG_BIN = `${PACKAGE_ROOT}bin/org.js`;

/** The real world: git, tmux, nvidia-smi, the file system and processes; each call timed under ORG_TRACE_TIMINGS. */
export function createWorld(): World {
  // One trial sandbox per process: `org up` starts it early, and what it finds holds for the process's life.
  let sandbox: ReturnType<typeof probeSandbox> | undefined;
  return {
    git: tracePort(gitAdapter, "git"),
    files: tracePort(filesPort, "files"),
    gpus: tracePort(createGpuProbe(processRunner), "gpus"),
    processes: {
      isAlive, killGroup: killProcessGroup, startedAt: readStartedAt,
      endOrphans: async (dir) => (await endOrphanedChildren(dir)).map(describeChild),
    },
    // An org run without tmux records its pty host's socket instead: the same grid port, served by `org pty-host`.
    panes: (socket, session) => tracePort(socket.startsWith(PTY_SOCKET_PREFIX)
      ? new PtyGrid(socket, session, [process.execPath, ORG_BIN]) : new Tmux(processRunner, socket, session), "tmux"),
    now: () => new Date(),
    orgArgv: [process.execPath, ORG_BIN],
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    secretEnv: (names) => pickEnv(process.env, names),
    sandbox: {
      probe: () => (sandbox ??= tracePhase("sandbox", "probe", probeSandbox)), tmuxDir: tmuxSocketDir(),
      home: process.env.HOME ?? "",
    },
  };
}


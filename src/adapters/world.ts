import { fileURLToPath } from "node:url";
import type { World } from "../org/world.js";
import { filesPort } from "./files-port.js";
import { gitAdapter } from "./git.js";
import { createGpuProbe } from "./gpu-probe.js";
import { isAlive, killProcessGroup, processRunner } from "./process.js";
import { Tmux } from "./tmux.js";

// dist/adapters/world.js and src/adapters/world.ts both sit two folders below the package root.
export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ORG_BIN = `${PACKAGE_ROOT}bin/org.js`;

/** The real world: git, tmux, nvidia-smi, the file system and processes. */
export function createWorld(): World {
  return {
    git: gitAdapter,
    files: filesPort,
    gpus: createGpuProbe(processRunner),
    processes: { isAlive, killGroup: killProcessGroup },
    tmux: (socket, session) => new Tmux(processRunner, socket, session),
    now: () => new Date(),
    orgArgv: [process.execPath, ORG_BIN],
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
  };
}

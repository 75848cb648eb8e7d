import { readdir } from "node:fs/promises";
import { agentsDir, orgPaths, PTY_SOCKET_PREFIX, ptyGridSocket, tmuxSocketHash } from "../../domain/paths.js";
import { pathExists } from "../fs/files.js";
import { tmuxSocketDir } from "../probes/sandbox.js";

export interface OrgLeftovers {
  /** Grid servers by their socket: tmux's org-<name>-<hash of the root> (any name the org had), the pty host's. */
  grids: { socket: string; session: string }[];
  /** Folders under state/agents/: each holds the status.json with its program's pid. */
  agents: string[];
}

/**
 * What of the org at `root` may run without state/org.json saying so (an `org up` interrupted before writing it,
 * a half-written one): found by name and place alone, never by asking a process what it is.
 */
export async function findOrgLeftovers(root: string): Promise<OrgLeftovers> {
  const paths = orgPaths(root);
  const suffix = `-${tmuxSocketHash(root)}`;
  const sockets = await listNames(tmuxSocketDir());
  const grids = sockets
    .filter((name) => name.startsWith("org-") && name.endsWith(suffix) && name.length > 4 + suffix.length)
    .map((socket) => ({ socket, session: socket.slice(0, -suffix.length) }));
  const pty = ptyGridSocket(paths.state);
  if (await pathExists(pty.slice(PTY_SOCKET_PREFIX.length))) grids.push({ socket: pty, session: "org" });
  const agents = (await listNames(agentsDir(paths.state))).filter((name) => !name.startsWith("."));
  return { grids, agents };
}

async function listNames(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}



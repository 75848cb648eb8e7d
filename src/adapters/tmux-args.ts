import type { PaneLaunch } from "../org/ports.js";

/** `-e KEY=VALUE` per variable: the pane's program gets them on top of the server's environment. */
export function envArgs(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
}

/** respawn-pane with the launch's cwd, environment and argv; without one, the pane's original command. */
export function respawnArgs(pane: string, launch: PaneLaunch | undefined): string[] {
  return launch ? ["respawn-pane", "-k", "-t", pane, "-c", launch.cwd, ...envArgs(launch.env), ...launch.argv] : ["respawn-pane", "-k", "-t", pane];
}

import type { PaneLaunch } from "../org/ports.js";

/** `-e KEY=VALUE` per variable: the pane's program gets them on top of the server's environment. */
export function envArgs(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
}

/** One shell word: the pipe-pane commands tmux hands to /bin/sh carry paths, never trusted as code. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The shell command a pane's pipe runs: one process appending what the pane shows to `file`. */
export function appendCommand(file: string): string {
  return `exec cat >> ${shellQuote(file)}`;
}

/** The two commands, sent as one tmux command line, that start logging a pane with nothing lost or repeated: the pane's
 * text so far into a buffer, then a pipe whose shell first writes that buffer (trailing blank rows dropped), then appends
 * the live output. tmux runs one command line without reading pane output in between. */
export function startLogArgs(socket: string, pane: string, file: string): string[][] {
  const buffer = `org-log-${pane.replace(/\W/g, "")}`;
  const tmux = `tmux -L ${shellQuote(socket)}`;
  const dropTrailingBlanks = `awk 'NF { while (blank > 0) { print ""; blank-- } print; next } { blank++ }'`;
  const log = shellQuote(file);
  return [
    ["capture-pane", "-J", "-S", "-", "-t", pane, "-b", buffer],
    ["pipe-pane", "-o", "-t", pane, `${tmux} save-buffer -b ${buffer} - | ${dropTrailingBlanks} >> ${log}; ${tmux} delete-buffer -b ${buffer}; ${appendCommand(file)}`],
  ];
}

/** respawn-pane with the launch's cwd, environment and argv; without one, the pane's original command. */
export function respawnArgs(pane: string, launch: PaneLaunch | undefined): string[] {
  return launch ? ["respawn-pane", "-k", "-t", pane, "-c", launch.cwd, ...envArgs(launch.env), ...launch.argv] : ["respawn-pane", "-k", "-t", pane];
}

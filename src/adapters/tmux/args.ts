import type { PaneLaunch } from "../../domain/ports.js";

/** `-e KEY=VALUE` per variable: the pane's program gets them on top of the server's environment. */
export function envArgs(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
}

/**
 * tmux's argv on the org's private socket with no user config; `noStart` (-N) never starts a server just to find none.
 */
export function tmuxArgv(socket: string, args: string[], opts: { noStart?: boolean } = {}): string[] {
  return ["tmux", ...(opts.noStart ? ["-N"] : []), "-L", socket, "-f", "/dev/null", ...args];
}

/**
 * One word for tmux's command parser or /bin/sh, which quote alike: a plain
 * word as is, else single quotes with each quote closed, escaped and reopened.
 */
export function quote(value: string): string {
  return /^[\w%=.,:/-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The shell command a pane's pipe runs: one process appending what the pane shows to `file`. */
export function appendCommand(file: string): string {
  return `exec cat >> ${quote(file)}`;
}

/** The two commands, sent as one tmux command line, that start logging a pane with nothing lost or repeated: the pane's
 * text so far into a buffer, then a pipe whose shell first writes that buffer (trailing blank rows dropped), then
 * appends the live output. tmux runs one command line without reading pane output in between. */
export function startLogArgs(socket: string, pane: string, file: string): string[][] {
  const buffer = `org-log-${pane.replace(/\W/g, "")}`;
  const tmux = tmuxArgv(socket, []).map(quote).join(" ");
  const dropTrailingBlanks = `awk 'NF { while (blank > 0) { print ""; blank-- } print; next } { blank++ }'`;
  const log = quote(file);
  return [
    ["capture-pane", "-J", "-S", "-", "-t", pane, "-b", buffer],
    [
      "pipe-pane",
      "-o",
      "-t",
      pane,
      `${tmux} save-buffer -b ${buffer} - | ${dropTrailingBlanks} >> ${log}; ${tmux} delete-buffer -b ${buffer}; ` +
        `${appendCommand(file)}`,
    ],
  ];
}

/** respawn-pane with the launch's cwd, environment and argv; without one, the pane's original command. */
export function respawnArgs(pane: string, launch: PaneLaunch | undefined): string[] {
  return launch
    ? ["respawn-pane", "-k", "-t", pane, "-c", launch.cwd, ...envArgs(launch.env), ...launch.argv]
    : ["respawn-pane", "-k", "-t", pane];
}

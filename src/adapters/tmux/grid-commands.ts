// The tmux commands that build org's grid and add panes to it, as argv lists; tmux.ts sends them in one tmux process.
import { OrgError } from "../../domain/errors.js";
import type { PaneSpec } from "../../domain/ports.js";
import { appendCommand, envArgs } from "./args.js";

const DEAD_PANE_FORMAT = "[org] #{@org_agent} " +
  "#{?pane_dead_signal,killed by signal #{pane_dead_signal},exited with status #{pane_dead_status}} — " +
  "#{@org_status}; see: org logs #{@org_agent}";

// Labels live in pane options because agents overwrite pane titles with OSC 2.
const BORDER_FORMAT = " #{?@org_agent,#{@org_agent} | #{@org_role} | gpu #{@org_gpu} | #{@org_status},org daemon} ";

// Under tmux's 16 KB message limit, with room for the largest pane's arguments.
const CHUNK_BYTES = 10_000;

/** A new server's session `session`, window `org`: the first pane (the daemon's) then the rest, each at its size. */
export function gridCommands(
  panes: PaneSpec[], session: string, size: { width: number; height: number },
): string[][] {
  // Variables every agent shares are set once for the server: each pane carries only its own.
  const common = commonEnv(panes);
  const window = `${session}:org`;
  const [first, ...rest] = panes;
  if (!first) throw new OrgError("a grid needs at least one pane", "tmux");
  const own = withoutCommon(first.env, common);
  const dims = ["-x", String(size.width), "-y", String(size.height)];
  return [
    ["start-server"],
    ...Object.entries(common).map(([key, value]) => ["set-environment", "-g", key, value]),
    ["set", "-g", "history-limit", "50000"],
    ["set", "-g", "remain-on-exit", "on"],
    ["set", "-g", "escape-time", "0"],
    ["set", "-g", "exit-empty", "off"],
    // A dead pane says what ended and where to look; the daemon's supervisor decides whether it restarts.
    ["set", "-g", "remain-on-exit-format", DEAD_PANE_FORMAT],
    ["new-session", "-d", "-s", session, "-n", "org", ...dims, "-c", first.cwd, ...envArgs(own), ...first.argv],
    // new-session -e also sets the session's environment: the first pane's own variables must not reach the rest.
    ...Object.keys(own).map((key) => ["set-environment", "-t", session, "-u", key]),
    ...optionCommands(first), ...pipeCommands(first),
    // A smaller client attaching must not shrink the grid for good.
    ["set", "-w", "-t", window, "window-size", "manual"],
    // Before the splits: a border row added later would resize every pane.
    ["set", "-w", "-t", window, "pane-border-status", "top"],
    ["set", "-w", "-t", window, "pane-border-format", BORDER_FORMAT],
    ...splitThenStart(rest, window, 1, common),
  ];
}

/** Panes appended after the window's `last` of `count` panes, each at its size; focus back on `active`. */
export function addPaneCommands(
  panes: PaneSpec[], window: string, at: { last: string; count: number; active: string },
): string[][] {
  const start = splitThenStart(panes, window, at.count, {});
  return [["select-pane", "-t", at.last], ...start, ["select-pane", "-t", at.active]];
}

/** Commands packed into `;`-joined command lines under tmux's 16 KB message limit, for a grid sent as argv. */
export function chunkCommands(commands: string[][]): string[][] {
  const chunks: string[][] = [[]];
  for (const command of commands) {
    const chunk = chunks.at(-1)!;
    if (chunk.length > 0 && byteLength(chunk) + byteLength(command) > CHUNK_BYTES) chunks.push([...command]);
    else chunk.push(...(chunk.length > 0 ? [";"] : []), ...command);
  }
  return chunks;
}

/**
 * Panes split off `window` empty (''), in order from index `first`, each labelled and the window re-tiled so none runs
 * out of space; only then each program started, by index, at its final size: a program started with its pane was
 * resized at every later split, which took half a grid's time (16 sandboxed agents: ~90 → ~50 ms).
 */
function splitThenStart(
  panes: PaneSpec[], window: string, first: number, common: Record<string, string>,
): string[][] {
  const tile = ["select-layout", "-t", window, "tiled"];
  const commands: string[][] = [];
  // Without -d each new pane is current, so its options land on it.
  for (const pane of panes) commands.push(["split-window", "-t", window, ""], ...optionCommands(pane), tile);
  panes.forEach((pane, index) => {
    const target = `${window}.${first + index}`;
    const env = envArgs(withoutCommon(pane.env, common));
    commands.push(["respawn-pane", "-t", target, "-c", pane.cwd, ...env, ...pane.argv], ...pipeCommands(pane, target));
  });
  return commands;
}

/** The pane's labels, set on the pane just made (tmux's current pane). */
function optionCommands(pane: PaneSpec): string[][] {
  return Object.entries(pane.options).map(([key, value]) => ["set-option", "-p", key, value]);
}

// Agent panes are logged by the daemon's supervisor (startLog): a logger process per pane would double the grid's time.
function pipeCommands(pane: PaneSpec, target?: string): string[][] {
  if (pane.options["@org_agent"] !== undefined) return [];
  return [["pipe-pane", ...(target ? ["-t", target] : []), "-o", appendCommand(pane.logFile)]];
}

/** The variables with one value in every pane that has an environment. */
function commonEnv(panes: PaneSpec[]): Record<string, string> {
  const envs = panes.flatMap((pane) => (pane.env ? [pane.env] : []));
  if (envs.length < 2) return {};
  return Object.fromEntries(Object.entries(envs[0]!).filter(([key, value]) => envs.every((env) => env[key] === value)));
}

function withoutCommon(
  env: Record<string, string> | undefined, common: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).filter(([key]) => !(key in common)));
}

function byteLength(args: string[]): number {
  return args.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
}

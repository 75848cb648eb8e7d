// A pane's program in its pseudo-terminal: node-pty loaded on first use, the program spawned into the pane's
// emulator and log, its exit recorded, and its whole process group stopped.
import type { WriteStream } from "node:fs";
import { constants } from "node:os";
import type { Terminal } from "@xterm/headless";
import type { IPty } from "node-pty";
import { OrgError } from "../../domain/errors.js";
import type { PaneLaunch } from "../../domain/ports.js";
import { isAlive, killProcessGroup } from "../process.js";

const EXIT_WAIT_MS = 3000;
const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

export type PtyModule = typeof import("node-pty");

/** One pane inside the host: its emulator and log outlive a respawn, its pty and exit are the current program's. */
export interface Pane {
  id: string;
  spec: PaneLaunch;
  options: Record<string, string>;
  term: Terminal;
  log: WriteStream | undefined;
  pty: IPty;
  exited: Promise<void>;
  dead: boolean;
  exitCode: number | null;
  exitSignal: string | null;
  exitedAt: number | null;
}

/** Loads node-pty only when pty mode is used, so tmux mode works where the native module was never built. */
export async function loadNodePty(): Promise<PtyModule> {
  try {
    const mod = (await import("node-pty")) as PtyModule & { default?: PtyModule };
    return typeof mod.spawn === "function" ? mod : mod.default!;
  } catch (error) {
    throw new OrgError(`node-pty cannot be loaded (${(error as Error).message.split("\n")[0]}) — ` +
      "run `npm rebuild node-pty`, or use tmux mode", "pty");
  }
}

/** Starts `spec` in a new pty feeding `term` and `log`; `onExit` hears of the program's end once. */
export function spawnPane(
  pty: PtyModule, at: Pick<Pane, "id" | "spec" | "options" | "term" | "log">, onExit: (pane: Pane) => void,
): Pane {
  const { spec, term, log } = at;
  const [file, ...args] = spec.argv;
  // Like tmux's default-terminal inside our panes: programs see a colour terminal, not whatever ran the host.
  const env = { ...withoutTmux(process.env), ...spec.env, TERM: "xterm-256color" };
  const child = pty.spawn(file!, args, { name: "xterm-256color", cols: term.cols, rows: term.rows,
    cwd: spec.cwd, env });
  let resolveExit!: () => void;
  const exited = new Promise<void>((resolve) => (resolveExit = resolve));
  const pane: Pane = { id: at.id, spec, options: at.options, term, log, pty: child, exited,
    dead: false, exitCode: null, exitSignal: null, exitedAt: null };
  child.onData((data) => {
    term.write(data);
    log?.write(data);
  });
  child.onExit(({ exitCode, signal }) => {
    pane.dead = true;
    pane.exitSignal = signal ? (SIGNAL_NAMES.get(signal) ?? String(signal)) : null;
    pane.exitCode = pane.exitSignal ? null : exitCode;
    pane.exitedAt = Date.now();
    resolveExit();
    onExit(pane);
  });
  return pane;
}

// The group, not the pid: a shell's children would otherwise keep running (and keep the pty open).
export async function stopPane(pane: Pane, killGraceMs: number): Promise<void> {
  const pgid = pane.pty.pid;
  if (!pane.dead || isAlive(-pgid)) await killProcessGroup(pgid, killGraceMs);
  // node-pty reports the exit once the child is reaped; a slow reap under load must not hold a respawn forever.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([pane.exited, new Promise((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
  clearTimeout(timer);
}

function withoutTmux(env: NodeJS.ProcessEnv): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && key !== "TMUX" && key !== "TMUX_PANE") copy[key] = value;
  return copy;
}

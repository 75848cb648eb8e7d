import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import xterm from "@xterm/headless";
import { OrgError } from "../../domain/errors.js";
import type { AgentPane, PaneHost, PaneLaunch } from "../../domain/ports.js";
import { loadNodePty, type Pane, type PtyModule, spawnPane, stopPane } from "./pane-process.js";
import { readScreen } from "./screen-text.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

// @xterm/headless is CommonJS: a named import compiles but is undefined at run time.
const { Terminal } = xterm;

/**
 * A new pane: what runs in it (argv, never a shell string; env on top of ours), its labels (@org_agent names the
 * agent), and where its raw output goes.
 */
export interface PtyPaneSpec extends PaneLaunch {
  options?: Record<string, string>;
  logFile?: string;
}

// Main screen, no bracketed paste, no mouse reports, normal cursor keys and keypad, cursor shown, plain colours.
const RESET_MODES = "\x1b[?1049l\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1l\x1b>\x1b[?25h\x1b[0m";

/** One pane as the host sees it; its id ("%3") survives respawns. `agent` is empty for a pane that runs no agent. */
export interface PtyPane extends AgentPane {
  status: string;
  options: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyHostOptions {
  cols?: number;
  rows?: number;
  /** Lines kept above the screen by each emulator. */
  scrollback?: number;
  /** Between SIGTERM and SIGKILL of a pane's process group. */
  killGraceMs?: number;
}

/**
 * The panes of an org in pseudo-terminals of this process, no tmux: output goes to an @xterm/headless emulator
 * per pane (what the dashboard paints) and to the pane's log. Each pty child leads its own session and
 * process group, so a kill is the whole group: nothing an agent started outlives its pane. Panes are named
 * by id or, where a request names an agent, by their @org_agent label.
 */
export class PtyHost implements PaneHost {
  private readonly panes = new Map<string, Pane>();
  private readonly exitListeners = new Set<(pane: PtyPane) => void>();
  // Respawns and removals of one pane run one after another: two at once would each start a program.
  private readonly queues = new Map<string, Promise<unknown>>();
  private nextId = 0;
  private closed = false;

  private constructor(
    private readonly pty: PtyModule,
    private readonly opts: Required<PtyHostOptions>,
  ) {}

  static async create(opts: PtyHostOptions = {}): Promise<PtyHost> {
    return new PtyHost(await loadNodePty(), { cols: 120, rows: 40, scrollback: 1000, killGraceMs: 3000, ...opts });
  }

  /** Starts a program in a new pane; returns the pane's id. */
  async open(spec: PtyPaneSpec): Promise<string> {
    if (this.closed) throw new OrgError("the pty host is shutting down", "pty");
    checkLaunch(spec);
    const id = `%${this.nextId++}`;
    const term = new Terminal({ cols: this.opts.cols, rows: this.opts.rows, scrollback: this.opts.scrollback,
      allowProposedApi: true });
    const log = spec.logFile ? openLog(spec.logFile) : undefined;
    const launch = { argv: spec.argv, cwd: spec.cwd, env: spec.env };
    const at = { id, spec: launch, options: { ...spec.options }, term, log };
    this.panes.set(id, spawnPane(this.pty, at, this.announceExit));
    return id;
  }

  /** Every pane, in the order they were opened. */
  async listPanes(): Promise<PtyPane[]> {
    return [...this.panes.values()].map((pane) => this.describe(pane));
  }

  /** The panes labelled with an agent. */
  async listAgentPanes(): Promise<PtyPane[]> {
    return (await this.listPanes()).filter((pane) => pane.agent !== "");
  }

  /** Kills what runs in the pane (its group: SIGTERM, grace, SIGKILL) and starts `launch`, or what ran there before. */
  async respawn(ref: string, launch?: PaneLaunch): Promise<void> {
    const { id } = this.require(ref);
    return this.serialize(id, () => this.respawnNow(id, launch));
  }

  private async respawnNow(id: string, launch?: PaneLaunch): Promise<void> {
    if (this.closed) throw new OrgError("the pty host is shutting down", "pty");
    if (launch) checkLaunch(launch);
    const pane = this.panes.get(id);
    if (!pane) throw new OrgError(`pane ${id} was removed`, "pty");
    await stopPane(pane, this.opts.killGraceMs);
    if (this.closed || this.panes.get(id) !== pane) return;
    // The new program starts on a fresh line below what the old one left, with the modes of a fresh terminal, as tmux's
    // respawn-pane gives it: a dead TUI's bracketed paste would otherwise wrap every paste in markers the new one
    // shows as text.
    pane.term.write(RESET_MODES);
    if (pane.term.buffer.active.cursorX > 0) pane.term.write("\r\n");
    this.panes.set(pane.id, spawnPane(this.pty, { ...pane, spec: launch ?? pane.spec }, this.announceExit));
  }

  async setStatus(ref: string, status: string): Promise<void> {
    this.require(ref).options["@org_status"] = status;
  }

  setOptions(ref: string, options: Record<string, string>): void {
    Object.assign(this.require(ref).options, options);
  }

  /** Typed keys (raw bytes, escape sequences included) to the pane's program. */
  write(ref: string, data: string): void {
    const pane = this.require(ref);
    if (pane.dead)
      throw new OrgError(`${ref} is not running (exit ${pane.exitCode ?? pane.exitSignal}) — restart it first`, "pty");
    pane.pty.write(data);
  }

  /**
   * Text as one paste, as tmux's paste-buffer -p: newlines become Enter's CR, and the bracketed-paste markers go
   * around it when the program turned that mode on, so a TUI takes it as a paste rather than as typed keys.
   */
  paste(ref: string, text: string): void {
    const body = text.replace(/\r?\n/g, "\r");
    // An end marker inside would close the paste early and hand the rest to the program as keys.
    const bracketed = `${PASTE_START}${body.replaceAll(PASTE_END, "")}${PASTE_END}`;
    this.write(ref, this.require(ref).term.modes.bracketedPasteMode ? bracketed : body);
  }

  resize(ref: string, cols: number, rows: number): void {
    const pane = this.require(ref);
    pane.term.resize(cols, rows);
    if (!pane.dead) pane.pty.resize(cols, rows);
  }

  /** The pane's visible screen, one string per row; with attributes, SGR escapes carry the colours. */
  screen(ref: string, opts: { attributes?: boolean } = {}): string[] {
    return readScreen(this.require(ref).term, opts);
  }

  cursor(ref: string): { x: number; y: number } {
    const { buffer } = this.require(ref).term;
    return { x: buffer.active.cursorX, y: buffer.active.cursorY };
  }

  /**
   * Lines scrolled above the screen, up to the scrollback kept (tmux's history_size): a repeated line scrolls an
   * unchanged screen.
   */
  history(ref: string): number {
    return this.require(ref).term.buffer.active.baseY;
  }

  /** Called with the pane after each program exit (natural or killed). */
  onExit(listener: (pane: PtyPane) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Stops the pane's program and forgets the pane; an unknown pane is already gone. */
  remove(ref: string): Promise<void> {
    const pane = this.find(ref);
    return pane ? this.serialize(pane.id, () => this.removeNow(pane)) : Promise.resolve();
  }

  private async removeNow(pane: Pane): Promise<void> {
    const current = this.panes.get(pane.id);
    if (!current) return;
    await stopPane(current, this.opts.killGraceMs);
    this.panes.delete(pane.id);
    current.term.dispose();
    if (current.log) await closeLog(current.log);
  }

  /**
   * Stops every pane's process group and closes the logs; later opens and respawns are refused. Unlike tmux, panes
   * cannot outlive their host.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.panes.keys()].map((id) => this.remove(id)));
  }

  private readonly announceExit = (pane: Pane) => {
    for (const listener of this.exitListeners) listener(this.describe(pane));
  };

  private serialize<T>(id: string, task: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(id) ?? Promise.resolve()).then(task, task);
    const settled = run.catch(() => undefined);
    this.queues.set(id, settled);
    void settled.then(() => this.queues.get(id) === settled && this.queues.delete(id));
    return run;
  }

  private describe(pane: Pane): PtyPane {
    return {
      agent: pane.options["@org_agent"] ?? "", id: pane.id, pid: pane.pty.pid, dead: pane.dead, exitCode: pane.exitCode,
      exitSignal: pane.exitSignal, exitedAt: pane.exitedAt, status: pane.options["@org_status"] ?? "",
      options: { ...pane.options }, cols: pane.term.cols, rows: pane.term.rows,
    };
  }

  private find(ref: string): Pane | undefined {
    return this.panes.get(ref) ?? [...this.panes.values()].find((pane) => pane.options["@org_agent"] === ref);
  }

  private require(ref: string): Pane {
    const pane = this.find(ref);
    if (!pane) throw new OrgError(`no pane or agent ${JSON.stringify(ref)} in this org — see \`org status\``, "pty");
    return pane;
  }
}

function checkLaunch(launch: PaneLaunch): void {
  if (launch.argv.length === 0) throw new OrgError("a pane needs a program: argv is empty", "pty");
}

function openLog(path: string): WriteStream {
  mkdirSync(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { flags: "a" });
  // A full disk must not take the host (and every agent) down; the emulator still shows the output.
  stream.on("error", () => undefined);
  return stream;
}

function closeLog(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => stream.end(resolve));
}
